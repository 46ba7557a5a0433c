"""``smokejumper serve`` in its own process on loopback, for the tests that
load the real server as its users do (tests/test_stress.py, tests/browser)."""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Iterator

HOST = "127.0.0.1"  # loopback only


@dataclass
class Server:
    process: subprocess.Popen
    port: int
    log: IO[str]
    killed: bool = False  # by the test itself (kill -9): not a death to report

    def kill(self) -> None:
        """``kill -9``, as a crash or an operator would."""
        self.process.kill()
        self.process.wait()
        self.killed = True

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def post(self, path: str, body: dict) -> Any:
        """The API's answer, for a test that needs to know a position."""
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as r:
            return json.load(r)

    def log_tail(self) -> str:
        """The log's last lines, or a crash's stacks if it has them (also once it is closed)."""
        if not self.log.closed:
            self.log.flush()
        text = Path(self.log.name).read_text(errors="replace")
        crash = text.find("Fatal Python error")
        return "\n".join(text[crash:].splitlines()[:40] if crash >= 0 else text.splitlines()[-20:])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


@contextmanager
def serving(env: dict[str, str], workdir: Path, max_open_files: int | None = None) -> Iterator[Server]:
    """The server with ``env`` on top of this one's (and at most
    ``max_open_files`` descriptors, as ``ulimit -n``), once it answers
    /healthz; at the end it must still be alive, and gets Ctrl-C (its exit
    code is then the process's returncode)."""
    port = _free_port()
    log = open(workdir / "server.log", "w+")

    def limit_files() -> None:
        if max_open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (max_open_files, max_open_files))

    process = subprocess.Popen([sys.executable, "-m", "smokejumper.cli", "serve", "--host", HOST, "--port", str(port)],
                               env={**os.environ, **env}, stdout=log, stderr=subprocess.STDOUT, cwd=workdir,
                               preexec_fn=limit_files)
    server = Server(process, port, log)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, "the server did not start:\n" + server.log_tail()
            try:
                with urllib.request.urlopen(server.url + "/healthz", timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the server did not answer /healthz:\n" + server.log_tail()
            time.sleep(0.1)
        yield server
        if server.killed:
            return
        assert process.poll() is None, "the server died:\n" + server.log_tail()
        process.send_signal(signal.SIGINT)  # Ctrl-C: uvicorn shuts down, the runner stops its searches
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        log.close()
