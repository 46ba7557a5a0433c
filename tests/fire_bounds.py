"""Fire!'s upper bounds on the win probability for the soundness check
(bounds.py): the relaxation the expectimax and the certain-win search cut
with, and its coarser form for decks too large to tabulate, on random small
solo and team positions, revealed or not, hidden order or known."""

from __future__ import annotations

import random

import fire_reference as ref
from bounds import GameBounds, Truth, value_upper_bound
from smokejumper import _core, fire


def position(rng: random.Random) -> dict:
    # Lost and won positions kept as often as undecided ones: a bound that
    # cuts is one that says 0, and it must never say so of a chance to win.
    return ref.random_position(rng, rng.choice(["solo", "team"]), order_known=rng.random() < 0.3,
                               revealed=rng.random() < 0.5, max_cards=6, keep_decided=1.0)


def truth(p: dict) -> Truth:
    value = ref.win_probability(p)
    return Truth(won=value > 0, value=value)


def measure(p: dict) -> dict:
    return _core.fire.bounds(fire.load_position(p).native())


BOUNDS = GameBounds(
    game="fire",
    position=position,
    truth=truth,
    measure=measure,
    bounds=(
        value_upper_bound("upper_bound", at_least=300),
        value_upper_bound("cheap_upper_bound", at_least=100),
    ),
)
