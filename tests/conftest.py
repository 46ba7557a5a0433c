"""Fixtures every test file may use without importing them."""

import os

import pytest

# No test writes the user's result cache: a server or CLI the tests start
# (inheriting this) keeps none unless the test gives it a file.
os.environ["SMOKEJUMPER_CACHE"] = "off"

from service_support import server


@pytest.fixture(scope="module")
def client():
    """A client of a service with the tests' small caps (tests/service_support.py)."""
    with server() as c:
        yield c
