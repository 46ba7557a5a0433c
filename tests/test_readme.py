"""Every shell command in README.md's ```sh blocks runs as written.

The commands run in README order in one temporary directory (a later one
reads the files an earlier one writes), through bash, with
``.venv/bin/smokejumper`` there being a two-line script for this Python's
``-m smokejumper.cli``. So that the whole file takes seconds, the limits are
made small: ``--max-seconds`` at most 3 (and 3 added to a search verb that
names none), and fewer layouts, deals, samples and simulated games; a
command's exit code must still be 0, or the one its comment documents
(``# exit 1: ...``).

Not run: ``make`` lines (they build .venv and run the server or the whole
suite, which is what CI does) and ``curl`` lines (they need a running
server; tests/test_service.py covers the routes). Any other program in a
README command fails the test until this file is taught about it.
"""

from __future__ import annotations

import os
import re
import shlex
import stat
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
SKIP = {"make": "builds .venv, serves or runs the whole suite (CI does)",
        "curl": "needs a running server (tests/test_service.py covers the routes)"}
WRITERS = {"echo", "printf"}  # they only write the small files a later command reads
SMOKEJUMPER = {".venv/bin/smokejumper", "smokejumper"}
SEARCH_VERBS = {"solve", "hint", "analyse"}
MAX_SECONDS = 3.0
SMALLER = {"--layouts": 3, "--deals": 4, "--samples": 20, "--games": 2000}  # at most this many
OPERATORS = {">", ">>", "<", "|", "||", "&&", ";", "&", "2>", "2>&1"}
TIMEOUT = 120


def sh_commands(text: str) -> list[tuple[int, str]]:
    """(line number, command) of every command in the ```sh blocks; a
    command spans lines while a quote is open (as the curl example does)."""
    commands: list[tuple[int, str]] = []
    block = False
    pending, start = "", 0
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            block = line.strip() == "```sh"
            pending = ""
            continue
        if not block:
            continue
        if not pending and not line.strip():
            continue
        if not pending:
            start = number
        pending = f"{pending}\n{line}" if pending else line
        try:
            shlex.split(pending, comments=True)
        except ValueError:  # an open quote: the command goes on
            continue
        commands.append((start, pending))
        pending = ""
    return commands


def tokens(command: str) -> list[str]:
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    return list(lexer)


def expected_exit(command: str) -> int:
    """The exit code the command's comment documents ("exit 1: ..."), else 0."""
    comment = re.search(r"\s#(.*)$", command)
    documented = re.search(r"\bexit (\d+)\b", comment.group(1)) if comment else None
    return int(documented.group(1)) if documented else 0


def shrunk(words: list[str]) -> list[str]:
    """A smokejumper command's words with small limits."""
    words = list(words)
    end = next((i for i, w in enumerate(words) if w in OPERATORS), len(words))
    args, rest = words[:end], words[end:]
    for i, word in enumerate(args[:-1]):
        if word == "--max-seconds":
            args[i + 1] = str(min(float(args[i + 1]), MAX_SECONDS))
        elif word in SMALLER:
            args[i + 1] = str(min(int(args[i + 1]), SMALLER[word]))
    if len(args) > 1 and args[1] in SEARCH_VERBS and "--max-seconds" not in args:
        args += ["--max-seconds", str(MAX_SECONDS)]
    if args[1:3] == ["analyse", "fire"] and "--games" not in args:
        args += ["--games", str(SMALLER["--games"])]
    return args + rest


def as_shell(words: list[str]) -> str:
    return " ".join(w if w in OPERATORS else shlex.quote(w) for w in words)


COMMANDS = sh_commands(README.read_text(encoding="utf-8"))


def test_the_readme_has_commands_for_every_game():
    runnable = [tokens(c) for _, c in COMMANDS if tokens(c)[0] in SMOKEJUMPER]
    for game in ("volcano", "fire", "wildfire"):
        verbs = {w[1] for w in runnable if len(w) > 2 and w[2] == game}
        assert {"solve", "hint", "analyse"} <= verbs, (game, verbs)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    d = tmp_path_factory.mktemp("readme")
    script = d / ".venv" / "bin" / "smokejumper"
    script.parent.mkdir(parents=True)
    script.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m smokejumper.cli \"$@\"\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return {"dir": d, "done": {}}


def run_command(workdir, index: int) -> subprocess.CompletedProcess:
    """Command ``index`` (after those before it, whose files it may read)."""
    done = workdir["done"]
    for i in range(index + 1):
        if i in done:
            continue
        words = tokens(COMMANDS[i][1])
        if words[0] in SKIP:
            done[i] = None
            continue
        if words[0] in SMOKEJUMPER:
            words = shrunk(words)
        elif words[0] not in WRITERS:
            raise AssertionError(f"README line {COMMANDS[i][0]} runs {words[0]!r}: "
                                 f"teach tests/test_readme.py to run it or to skip it")
        env = dict(os.environ, PATH=f"{workdir['dir'] / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}")
        done[i] = subprocess.run(["bash", "-c", as_shell(words)], cwd=workdir["dir"], env=env,
                                 capture_output=True, text=True, timeout=TIMEOUT)
    return done[index]


@pytest.mark.parametrize("index", range(len(COMMANDS)), ids=[f"README:{n}" for n, _ in COMMANDS])
def test_readme_command_runs(workdir, index):
    number, command = COMMANDS[index]
    program = tokens(command)[0]
    if program in SKIP:
        pytest.skip(f"{program}: {SKIP[program]}")
    res = run_command(workdir, index)
    assert "Traceback" not in res.stderr, res.stderr
    assert res.returncode == expected_exit(command), (
        f"README line {number}: {command.strip()}\nexit {res.returncode}\n{res.stderr}")
