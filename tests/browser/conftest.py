"""The page in a real browser: Debian's chromium driven by the playwright
package, against ``smokejumper serve`` in its own process with small caps.

Nothing here downloads a browser: without chromium or playwright the tests
skip and say why (``apt-get install chromium``; playwright comes with
``.[test]``)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import pytest

HOST = "127.0.0.1"  # loopback only
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


@dataclass
class Server:
    process: subprocess.Popen
    url: str
    log: IO[str]

    def log_tail(self) -> str:
        self.log.flush()
        return "\n".join(Path(self.log.name).read_text(errors="replace").splitlines()[-20:])

    def post(self, path: str, body: dict) -> Any:
        """The API's answer, for a test that needs to know a position."""
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as r:
            return json.load(r)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    port = _free_port()
    log = open(tmp_path_factory.mktemp("server") / "server.log", "w+")
    process = subprocess.Popen(
        [sys.executable, "-m", "smokejumper.cli", "serve", "--host", HOST, "--port", str(port)],
        env={**os.environ, **SERVER_ENV}, stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path_factory.getbasetemp())
    s = Server(process, f"http://{HOST}:{port}", log)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, "the server did not start:\n" + s.log_tail()
            try:
                with urllib.request.urlopen(s.url + "/healthz", timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the server did not answer /healthz:\n" + s.log_tail()
            time.sleep(0.1)
        yield s
        assert process.poll() is None, "the server died:\n" + s.log_tail()
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        log.close()


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


@pytest.fixture
def page(browser, server):
    """A fresh page on the server; it must end the test
    without a console error or an uncaught exception."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=server.url)
    context.set_default_timeout(15_000)
    p = context.new_page()
    errors: list[str] = []
    p.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    p.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    try:
        yield p
        assert not errors, "\n".join(errors)
    finally:
        context.close()
