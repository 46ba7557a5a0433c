"""Helpers for the tests of the ``smokejumper`` command (tests/test_cli.py and
each game's tests/test_<game>_cli.py): every one runs the real command in a
subprocess, as a user or another tool would. Like the command, it names no
game (tests/test_house.py)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

CLI = [sys.executable, "-m", "smokejumper.cli"]


def run(*args, stdin=None, timeout=120) -> subprocess.CompletedProcess:
    return subprocess.run(CLI + [str(a) for a in args], input=stdin, capture_output=True,
                          text=True, timeout=timeout)


def run_json(*args, stdin=None):
    res = run(*args, "--json", stdin=stdin)
    assert res.returncode == 0, res.stderr
    assert res.stderr == ""
    assert len(res.stdout.strip().splitlines()) == 1, "JSON output is one line"
    return json.loads(res.stdout)


def assert_bad_input(res: subprocess.CompletedProcess) -> str:
    """Exit 2 with one line on stderr, no traceback, nothing on stdout; the line."""
    assert res.returncode == 2, (res.returncode, res.stdout, res.stderr)
    lines = res.stderr.splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("smokejumper: error:") and len(lines[0]) > len("smokejumper: error: ")
    assert "Traceback" not in res.stderr
    assert res.stdout == ""
    return lines[0]


def write(path: Path, content) -> Path:
    """``content`` as the file: bytes and text as they are, anything else as JSON."""
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def assert_replay(game: str, position: Path, line: Path, code: int, illegal: bool = False) -> None:
    """`replay` exits ``code`` in text and in JSON, with nothing on stderr, and
    says "illegal" (the JSON's error) exactly when a step is."""
    for flag in ([], ["--json"]):
        res = run("replay", game, position, line, *flag)
        assert (res.returncode, res.stderr) == (code, ""), (line.name, flag, res.stdout, res.stderr)
        said = bool(json.loads(res.stdout)["error"]) if flag else "illegal: " in res.stdout
        assert said == illegal, (line.name, flag, res.stdout)


def assert_interrupts(*args) -> None:
    """Ctrl-C in the middle of the command stops it at once: exit 130, nothing
    on stdout (half a search is no answer), one line on stderr."""
    proc = subprocess.Popen(CLI + [str(a) for a in args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(2.0)  # imported and well into the search (it needs 10 s or more)
        assert proc.poll() is None, "the search ended before it could be interrupted"
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
        waited = time.monotonic() - sent
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 130, (proc.returncode, err)
    assert waited < 3, f"took {waited:.1f} s to stop"
    assert out == "" and err == "smokejumper: interrupted\n"
