"""The page in a real browser: Debian's chromium driven by the playwright
package, against ``smokejumper serve`` in its own process with small caps.

Nothing here downloads a browser: without chromium or playwright the tests
skip and say why (``apt-get install chromium``; playwright comes with
``.[test]``)."""

from __future__ import annotations

import os
import shutil
from typing import Iterator

import pytest

from served import Server, serving
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Small caps: every search the tests start stops within seconds. One
# worker: a search the page cancelled but the server kept running would
# hold up the next request, which the cancel test sees.
SERVER_ENV = {
    "SMOKEJUMPER_MAX_SECONDS": "8",  # twice what the cancel test waits
    "SMOKEJUMPER_MAX_MEMORY_MB": "64",
    "SMOKEJUMPER_MAX_HINT_SAMPLES": "50",
    "SMOKEJUMPER_WORKERS": "1",
    "SMOKEJUMPER_MAX_QUEUE": "32",
}


def _skip_reason() -> str | None:
    if "libasan" in os.environ.get("LD_PRELOAD", ""):
        # The page does not touch the core; chromium and node under the
        # sanitizer's preload would only test the preload.
        return "browser tests skip under the sanitizer build's LD_PRELOAD"
    if not os.access(CHROMIUM, os.X_OK):
        return "chromium is not installed (apt-get install chromium)"
    return None


# ------------------------------------------------------------------ server


@pytest.fixture(scope="session")
def server(tmp_path_factory) -> Iterator[Server]:
    with serving(SERVER_ENV, tmp_path_factory.mktemp("server")) as s:
        yield s


# ----------------------------------------------------------------- browser


@pytest.fixture(scope="module")
def browser():
    # Module scope: playwright's sync API must not be running while other
    # test modules use asyncio.
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM)
        try:
            yield b
        finally:
            b.close()


def polled(message) -> bool:
    """The live counter's poll of a search that has not started or has just
    ended: its documented 404 (service/routes.py), which chromium logs as a
    failed load although the page expects it."""
    return "/v1/searches/" in (message.location or {}).get("url", "") and "404" in message.text


@pytest.fixture
def page(browser, server):
    """A fresh page on the server; it must end the test
    without a console error or an uncaught exception."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=server.url)
    context.set_default_timeout(15_000)
    p = context.new_page()
    errors: list[str] = []
    p.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" and not polled(m) else None)
    p.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    try:
        yield p
        assert not errors, "\n".join(errors)
    finally:
        context.close()
