"""Levels are data: aliens, weapons per player and the battery deck.

The rulebook prints only the Level 1 energies. The crosshairs and the aliens
of Level 1 are the spec's assumptions, so every level says which of its
parts are assumed (``assumptions``); only Level 1 is known at all."""

from __future__ import annotations

import random
from typing import Literal

from pydantic import BaseModel, Field

from smokejumper.fire import Alien, Battery, Player, Position, default_crosshairs


class Level(BaseModel):
    name: str
    mode: Literal["solo", "team"]
    aliens: list[Alien]
    weapons: int = Field(description="Per player")
    deck: list[Battery] = Field(description="Per player")
    exchanges: int = Field(description="Team mode: energy exchanges per player")
    assumptions: list[str] = Field(description="Parts not printed in the rulebook: assumed, not facts")

    def position(self, *, aliens: int | None = None, seed: int | None = None) -> Position:
        """The level's start. ``aliens`` keeps only the first few (smaller
        games); ``seed`` deals a known order (each player's deck shuffled
        with it), else the order is hidden."""
        rng = random.Random(seed)

        def deal() -> list[Battery]:
            deck = list(self.deck)
            if seed is not None:
                rng.shuffle(deck)
            return deck

        if aliens is not None and not 1 <= aliens <= len(self.aliens):
            raise ValueError(f"aliens: this level has 1..{len(self.aliens)}, got {aliens}")
        chosen = self.aliens if aliens is None else self.aliens[:aliens]
        known = seed is not None
        if self.mode == "solo":
            return Position(aliens=chosen, weapons=[[] for _ in range(self.weapons)], draw=deal(),
                            order_known=known)
        players = [Player(weapons=[[] for _ in range(self.weapons)], draw=deal(), exchanges=self.exchanges)
                   for _ in range(2)]
        return Position(mode="team", aliens=chosen, players=players, order_known=known)


def _deck(counts: dict[int, int]) -> list[Battery]:
    return [Battery(energy=e, crosshairs=default_crosshairs(e)) for e, n in counts.items() for _ in range(n)]


_ASSUMED = [
    "crosshairs: energy-1 batteries have 2, energy 2-5 have 1 (not printed in the rulebook)",
    "aliens: five, each 12-9-6-3 (the rulebook shows only one example alien)",
]


def default_level1() -> Level:
    """Solo Level 1: the rulebook's energies (five 1s, four 2s, three 3s, two
    4s, one 5) and three weapons; crosshairs and aliens are assumed."""
    return Level(name="Level 1 (solo)", mode="solo", aliens=[Alien(strengths=(12, 9, 6, 3))] * 5, weapons=3,
                 deck=_deck({1: 5, 2: 4, 3: 3, 4: 2, 5: 1}), exchanges=0, assumptions=list(_ASSUMED))


def team_level1() -> Level:
    """Team Level 1: two players, 2 weapons and ten batteries each (four 1s,
    three 2s, two 3s, one 4), two energy exchanges each; crosshairs and
    aliens as assumed for solo. Won for certain (value 1), proved by parts
    in hours of search (docs/benchmarks.md), far beyond one request's limits."""
    return Level(name="Level 1 (team)", mode="team", aliens=[Alien(strengths=(12, 9, 6, 3))] * 5, weapons=2,
                 deck=_deck({1: 4, 2: 3, 3: 2, 4: 1}), exchanges=2, assumptions=list(_ASSUMED))
