"""The generic sampling search (cpp/search/mcts.hpp) on a toy game with an
exact expectimax beside it (tests/cpp/test_mcts.cpp): built here with the
project's warnings as errors, once optimised and once under ASan and UBSan,
and run; its own checks print what failed."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "tests" / "cpp" / "test_mcts.cpp"
WARNINGS = ["-Wall", "-Wextra", "-Wpedantic", "-Wshadow", "-Wconversion", "-Wno-sign-conversion", "-Werror"]
COMPILER = shutil.which("g++")


@pytest.mark.skipif(COMPILER is None, reason="no g++ to build the C++ test program with")
@pytest.mark.parametrize("flags", [["-O2"], ["-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all"]],
                         ids=["optimised", "sanitized"])
def test_mcts_agrees_with_expectimax_and_keeps_its_limits(tmp_path: Path, flags: list[str]):
    program = tmp_path / "test_mcts"
    # Without the runtimes `make test-sanitize` preloads into pytest: the
    # compiler needs none, and the sanitized program links its own.
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"} | {"ASAN_OPTIONS": "detect_leaks=0"}
    build = subprocess.run([COMPILER, "-std=c++20", *flags, *WARNINGS, "-pthread", "-I", str(ROOT / "cpp"),
                            str(SOURCE), "-o", str(program)], capture_output=True, text=True, timeout=300, env=env)
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(program)], capture_output=True, text=True, timeout=600, env=env)
    assert run.returncode == 0 and run.stdout.rstrip().endswith("all passed"), run.stdout + run.stderr
