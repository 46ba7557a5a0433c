"""The soundness check every game's bounds and dead-end tests get.

A search may cut a position only on a bound that is never wrong: a lower
bound on a cost that never exceeds the true least cost, an upper bound on a
value that is never below the true value, a dead-end test that never calls a
winnable position lost. One wrong on 2% of small layouts once passed a
hand-picked suite, so each bound is held to the game's reference solver
(written from the spec alone) on thousands of seeded random positions.

A game takes part with a module ``tests/<game>_bounds.py`` that defines
``BOUNDS = GameBounds(...)``: how to draw a small position, what the
reference says of it, and the engine's bounds for it. ``test_bounds.py``
finds every such module.

The references are slow (one game's took 11 of the suite's 29 minutes on
two cores), so their answers are also kept in ``tests/data/<game>/bounds-truth.json.gz``
and the engine is held to every one of them on each run, while every 16th
case is drawn and answered by the reference again there and then and must
equal its record: a record that drifted from the reference (or from the
generator) fails, it is not trusted (tests/recorded.py). A record written
from other sources than today's (its fingerprint) is not read at all: every
case is then drawn live. ``python tests/bounds.py <module> ...`` writes a
record anew.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any, Callable, Optional

from recorded import RECHECK_EVERY, decode, encode, fingerprint, read_lines, write_lines

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Truth:
    """The reference's answer for one position: whether it can be won, the
    least cost of a win (None: no win) and the win probability, as far as
    the game has them."""

    won: bool
    cost: Optional[int] = None
    value: Optional[Fraction] = None
    extra: dict = field(default_factory=dict)  # game-specific exact figures


@dataclass(frozen=True)
class Bound:
    """One bound: ``sound(engine's value, truth)`` must hold on every
    position; ``informative`` counts the positions where it had something
    to say (it cut, or it was exact), of which there must be ``at_least``,
    so that a bound that never bites cannot pass for a sound one."""

    name: str  # the engine's name for it, a key of GameBounds.measure's answer
    sound: Callable[[Any, Truth], bool]
    informative: Callable[[Any, Truth], bool]
    at_least: int
    label: str = ""  # what is checked, when not just the name

    def describe(self) -> str:
        return self.label or self.name


def cost_lower_bound(name: str, at_least: int, unreachable: Any = -1) -> Bound:
    """Never above the least cost of a win; ``unreachable`` (no win at any
    cost) only when there is no win."""
    def sound(v, t):
        if v == unreachable:
            return t.cost is None
        return t.cost is None or v <= t.cost
    return Bound(name, sound, lambda v, t: t.cost is not None and v == t.cost, at_least)


def value_upper_bound(name: str, at_least: int) -> Bound:
    """Never below the true win probability (counted: where it says more
    than the trivial bound 1)."""
    return Bound(name, lambda v, t: Fraction(v) >= t.value, lambda v, t: Fraction(v) < 1, at_least)


def dead_end(name: str, at_least: int) -> Bound:
    """True only when the position cannot be won (counted: where it fires)."""
    return Bound(name, lambda v, t: not (v and t.won), lambda v, t: bool(v), at_least)


@dataclass(frozen=True)
class GameBounds:
    game: str
    position: Callable[[random.Random], dict]  # a small random position, from a seeded generator
    truth: Callable[[dict], Truth]  # the reference solver's answer
    measure: Callable[[dict], dict]  # the engine's value of every bound, by name
    bounds: tuple[Bound, ...]
    cases: int = 2000
    seed: int = 1


def draw(module: str, case: int) -> tuple[dict, Truth]:
    """Case ``case`` of game module ``module``: its position and the
    reference's answer. Each case has a seed of its own, so cases can be
    drawn in parallel and a failing one reproduced alone."""
    spec: GameBounds = importlib.import_module(module).BOUNDS
    position = spec.position(random.Random(spec.seed * 1_000_003 + case))
    return position, spec.truth(position)


def draw_many(module: str, cases: list[int]) -> list[tuple[dict, Truth]]:
    """``draw`` for many cases on every core, in processes of their own
    (spawned: the caller may hold threads)."""
    if not cases:
        return []
    with ProcessPoolExecutor(os.cpu_count(), mp_context=multiprocessing.get_context("spawn")) as pool:
        return list(pool.map(partial(draw, module), cases, chunksize=max(1, min(16, len(cases) // 8))))


def record_path(module: str) -> Path:
    game: str = importlib.import_module(module).BOUNDS.game
    return HERE / "data" / game / "bounds-truth.json.gz"


def _encode(case: tuple[dict, Truth]) -> str:
    position, t = case
    return encode([position, asdict(t)])


def _decode(line: str) -> tuple[dict, Truth]:
    position, t = decode(line)
    return position, Truth(**t)


def read_record(module: str, count: int) -> Optional[list[tuple[dict, Truth]]]:
    """The first ``count`` recorded cases, or None when there is no record
    of today's sources with that many."""
    lines = read_lines(record_path(module), fingerprint(module))
    return None if lines is None or len(lines) < count else [_decode(line) for line in lines[:count]]


def cases_for(module: str, count: int) -> tuple[list[tuple[dict, Truth]], str]:
    """Cases 0..count-1 with the reference's answers, and where they came
    from. Recorded ones are spot-checked against a live draw (see above)."""
    recorded = read_record(module, count)
    if recorded is None:
        return draw_many(module, list(range(count))), "drawn live (no record of today's sources)"
    again = list(range(0, count, RECHECK_EVERY))
    for case, live in zip(again, draw_many(module, again)):
        assert _encode(live) == _encode(recorded[case]), (
            f"case {case} of {module}'s record differs from the reference today: "
            f"rewrite it with `python tests/bounds.py {module}`\nrecorded {_encode(recorded[case])}\n"
            f"live     {_encode(live)}")
    return recorded, f"recorded, {len(again)} drawn again and equal"


def write_record(module: str) -> Path:
    spec: GameBounds = importlib.import_module(module).BOUNDS
    cases = draw_many(module, list(range(spec.cases)))
    path = record_path(module)
    write_lines(path, {"fingerprint": fingerprint(module), "cases": len(cases)}, [_encode(case) for case in cases])
    return path


if __name__ == "__main__":  # run as a script, tests/ is already on the path
    for name in sys.argv[1:] or sorted(p.stem for p in HERE.glob("[!t]*_bounds.py")):
        print(f"{name}: {write_record(name)}", flush=True)
