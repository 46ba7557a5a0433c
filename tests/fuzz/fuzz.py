"""Fuzzing (issue 19): one atheris target per game over the JSON a user
sends, through the game's own request models and one engine step: each
quick operation that reads a position and moves (check, replay, apply, ...)
gets the input as its request body. Invalid input must be refused with a
clear error (pydantic's ValidationError, InvalidPositionError, another
ValueError); anything else, a crash of the core or a hang, is a finding.

    .venv/bin/python tests/fuzz/fuzz.py GAME [libFuzzer options, e.g. -runs=100000]

The seed corpus is tests/data/<game>/fuzz/ (the operations' documented
examples, written there by --seed-corpus); libFuzzer adds what it finds to
a working corpus given after the options, never to the seed one."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import atheris

from pydantic import ValidationError

if TYPE_CHECKING:
    from smokejumper.games import Game

ROOT = Path(__file__).resolve().parents[2]


def quick_operations(game: Game) -> list:
    """The game's quick operations: each reads a position (and moves) and
    takes one bounded step of the engine."""
    return [op for op in game.operations.values() if op.kind == "quick"]


def seed_corpus(game: Game) -> Path:
    return ROOT / "tests" / "data" / game.name / "fuzz"


def write_seed_corpus(game: Game) -> int:
    """Per quick operation, its documented examples: as a raw body (a byte
    naming the operation, an odd byte, the JSON) and unchanged for
    reshaping (the example's byte, an even byte, no data yet)."""
    folder = seed_corpus(game)
    folder.mkdir(parents=True, exist_ok=True)
    count = 0
    for k, op in enumerate(quick_operations(game)):
        for i, example in enumerate(op.request.model_json_schema().get("examples", [])):
            (folder / f"{op.name}-{i}-raw").write_bytes(bytes([k, 1]) + json.dumps(example, sort_keys=True).encode())
            (folder / f"{op.name}-{i}-reshaped").write_bytes(bytes([count, 0]))
            count += 1
    return count


# What a value may become: every JSON kind, and numbers at and past the
# edges the models and the engine check.
_NUMBERS = [-1, 0, 1, 2, 3, 5, 6, 7, 9, 10, 15, 16, 17, 63, 64, 255, 256, 2**31, 2**63, -2**63, 10**30]


@atheris.instrument_func  # its branches tell libFuzzer which reshapes are new
def _mutated(value: Any, fdp: atheris.FuzzedDataProvider, depth: int = 0) -> Any:
    """``value`` (a documented example) with parts replaced as the fuzz
    data says: valid JSON whose shape and numbers go where users' may."""
    if fdp.remaining_bytes() == 0:
        return value
    roll = fdp.ConsumeIntInRange(0, 15)
    if roll == 0:
        return fdp.PickValueInList([None, True, False, "", "x" * 300, [], {}, 0.5, float("1e308")])
    if roll == 1:
        return fdp.PickValueInList(_NUMBERS)
    if isinstance(value, dict):
        out = {k: _mutated(v, fdp, depth + 1) for k, v in value.items() if fdp.ConsumeIntInRange(0, 15)}
        if fdp.ConsumeIntInRange(0, 7) == 0:
            out[fdp.ConsumeUnicodeNoSurrogates(8)] = _mutated(0, fdp, depth + 1)
        return out
    if isinstance(value, list):
        out = [_mutated(v, fdp, depth + 1) for v in value if fdp.ConsumeIntInRange(0, 15)]
        if out and fdp.ConsumeIntInRange(0, 7) == 0:
            out += out[: fdp.ConsumeIntInRange(1, len(out))]  # duplicates: repeated tiles, cards, moves
        return out
    if isinstance(value, bool):
        return not value if roll < 4 else value
    if isinstance(value, int):
        return value + fdp.ConsumeIntInRange(-3, 3) if roll < 8 else fdp.ConsumeInt(4)
    if isinstance(value, str):
        return fdp.ConsumeUnicodeNoSurrogates(12) if roll < 4 else value
    return value


def target(game: Game):
    """Half the inputs are raw bodies (the JSON reader's path), half a
    documented example reshaped by the input (the models' and the engine's)."""
    ops = quick_operations(game)
    examples = [(op, e) for op in ops for e in op.request.model_json_schema().get("examples", [])]

    @atheris.instrument_func
    def one_input(data: bytes) -> None:
        if len(data) < 2:
            return
        try:
            if data[1] & 1:
                op = ops[data[0] % len(ops)]
                request = op.request.model_validate_json(data[2:])
            else:
                op, example = examples[data[0] % len(examples)]
                body = _mutated(example, atheris.FuzzedDataProvider(data[2:]))
                request = op.request.model_validate_json(json.dumps(body))
            op.call(request)
        except (ValidationError, ValueError, RecursionError):
            pass  # refused with a clear error: what bad input must get

    return one_input


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    # Only our own Python is instrumented: this target's, and the package's
    # as it is imported (the game's module, its models, the registry).
    # instrument_all() also rewrote every library loaded, about 55 s a
    # target before the first input. The core's C++ is not instrumented
    # either way.
    with atheris.instrument_imports(include=["smokejumper"]):
        from smokejumper.games import load_game

        game = load_game(sys.argv[1])
    if sys.argv[2:3] == ["--seed-corpus"]:
        print(f"{write_seed_corpus(game)} seed inputs in {seed_corpus(game)}")
        return
    # libFuzzer reads its options and corpus folders from argv; the seed
    # corpus comes last, so that what it finds goes to the first folder
    # given (if any), not into the repository.
    atheris.Setup([sys.argv[0], *sys.argv[2:], str(seed_corpus(game))], target(game))
    atheris.Fuzz()


if __name__ == "__main__":
    main()
