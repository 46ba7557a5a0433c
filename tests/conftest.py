"""Fixtures every test file may use without importing them."""

import pytest

from service_support import server


@pytest.fixture(scope="module")
def client():
    """A client of a service with the tests' small caps (tests/service_support.py)."""
    with server() as c:
        yield c
