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
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Optional


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
