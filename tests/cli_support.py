"""Helpers for the tests of the ``smokejumper`` command (tests/test_cli.py and
each game's tests/test_<game>_cli.py). A test runs the command's ``main``
in this process by default, with its own standard streams: the console
script calls that same function, and a new interpreter per call cost 1-2 s
(its imports; 270 tests, a tenth of the suite's time). What only a real
process shows (the entry point, Ctrl-C, a closed pipe) runs it in one:
``run(..., process=True)``, :func:`assert_interrupts`. Like the command,
it names no game (tests/test_house.py)."""

from __future__ import annotations

import contextlib
import io
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from smokejumper import cli

CLI = [sys.executable, "-m", "smokejumper.cli"]


def run(*args, stdin=None, timeout=120, process=False) -> subprocess.CompletedProcess:
    """The command's exit code, stdout and stderr (``timeout`` bounds a
    process only)."""
    argv = [str(a) for a in args]
    if process:
        return subprocess.run(CLI + argv, input=stdin, capture_output=True, text=True, timeout=timeout)
    out, err = io.StringIO(), io.StringIO()
    cli._progress_shown = False  # the module's one piece of state: each command starts afresh
    saved_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin or "")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main(argv)
            except SystemExit as e:  # argparse's errors and --help, and the command's own
                if isinstance(e.code, str):
                    print(e.code, file=sys.stderr)  # as the interpreter would
                code = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
    finally:
        sys.stdin = saved_stdin
    return subprocess.CompletedProcess(CLI + argv, code, out.getvalue(), err.getvalue())


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


def _as_in_a_terminal() -> None:
    """The command's Ctrl-C as a terminal's foreground job has it: a suite
    started in the background by a script (`make test &`) passes its
    children SIGINT ignored, and Python then never raises
    KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def assert_interrupts(*args) -> None:
    """Ctrl-C in the middle of the command stops it at once: exit 130, nothing
    on stdout (half a search is no answer), one line on stderr."""
    proc = subprocess.Popen(CLI + [str(a) for a in args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_as_in_a_terminal)
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
