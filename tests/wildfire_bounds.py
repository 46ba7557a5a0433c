"""Wild Fire!'s dead-end tests for the soundness check (bounds.py): the
count of turns and room that prunes every node of the move-by-move search,
and the two whole-position tests the layouts-first search starts with, on
random small starts and mid-games (known order)."""

from __future__ import annotations

import random

import wildfire_reference as ref
from bounds import GameBounds, Truth, dead_end
from smokejumper import _core, wildfire


def position(rng: random.Random) -> dict:
    # A start, or a few random moves into one (pawn moves favoured, so that
    # colours stand on the table): one reference solve per case, in truth().
    p = ref.random_deal(rng, rng.randint(2, 8), max_pawns=rng.randint(1, 8), level=rng.choice([1, 1, 2]),
                        min_ones=rng.randint(0, 2), random_spaces=rng.random() < 0.3)
    if rng.random() < 0.6:
        for _ in range(rng.randint(1, 4)):
            moves = ref.legal_moves(p)
            if not moves:
                break
            pawn_moves = [m for m in moves if m["pawns"] is not None]
            p = ref.apply(p, rng.choice(pawn_moves if pawn_moves and rng.random() < 0.7 else moves))
    return p


def truth(p: dict) -> Truth:
    return Truth(won=ref.solve(p)[0] == "win")


def measure(p: dict) -> dict:
    return _core.wildfire.dead_ends(wildfire.load_position(p).native())


BOUNDS = GameBounds(
    game="wildfire",
    position=position,
    truth=truth,
    measure=measure,
    bounds=(
        dead_end("hopeless", at_least=100),
        dead_end("colours_cannot_join", at_least=50),
        dead_end("too_few_open_ones", at_least=50),
    ),
)
