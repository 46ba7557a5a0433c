"""Random-play soak of Fire Tower's engine: seeded whole games over Levels
1-7, every record replayed event by event with the game's invariants
checked at every step: every card of the deck somewhere, the hand within
its size and full again at each turn's start (while cards are left), the
five Inferno cards somewhere, at most 18 hawks, nothing on the Eternal
Flame but the Flame, no hawk in the own tower area, enemy hawks only where
the level set them (they never move or come back), the own back corner
free of fire while the game goes on, activated hawks only inside a step,
and every game ending.
SMOKEJUMPER_SOAK_GAMES scales it (the sanitizer run asks fewer)."""

from __future__ import annotations

import json
import os
from collections import Counter

import pytest

from smokejumper import _core, firetower

GAMES = int(os.environ.get("SMOKEJUMPER_SOAK_GAMES", "2000"))
EF = {(7, 7), (7, 8), (8, 7), (8, 8)}


def solo_deck() -> Counter:
    start = firetower.new(level=1, seed=0).record.start
    return Counter(start.hand) + Counter(start.draw_pile)


INFERNO = Counter(c for c in json.loads(firetower.DATA_FILE.read_text())["inferno"])


def check_step(view: dict, deck: Counter, enemy_hawks: set, position: dict | None) -> None:
    rows = view["board"]
    assert {(r, c) for r in range(16) for c in range(16) if rows[r][c] == "E"} == EF
    hawks = sum(row.count("H") + row.count("X") for row in rows)
    assert hawks <= 18 and view["hawk_supply"] == 18 - hawks
    assert not any(rows[r][c] in "HX" for r in range(3) for c in range(3))  # the own tower area
    assert {(r, c) for r in range(16) for c in range(16) if rows[r][c] in "HX" and (r >= 8 or c >= 8)} <= enemy_hawks
    if position is not None:
        pile = view["draw_pile"] if isinstance(view["draw_pile"], dict) else Counter(view["draw_pile"])
        assert Counter(view["hand"]) + Counter(pile) + Counter(view["discard"]) == deck
        assert len(view["hand"]) <= view["hand_size"]
        assert not any("X" in row for row in rows)  # hawks act before a step ends
        inferno = view["inferno"]
        revealed = Counter([inferno["revealed"]]) if inferno["revealed"] else Counter()
        assert Counter(inferno["deck"]) + Counter(inferno["discard"]) + revealed == INFERNO
        assert rows[0][0] not in "FX"  # a gem there ends the game at once (a loss): no position has one
        if position["phase"] == "inferno" and position["turn"] >= 2 and (sum(Counter(pile).values()) or view["discard"]):
            assert len(view["hand"]) == view["hand_size"]  # the last turn's end drew back up


@pytest.mark.parametrize("level", range(1, 8))
def test_random_games_keep_the_invariants_and_replay(level: int):
    deck = solo_deck()
    statuses: Counter = Counter()
    for seed in range(level, GAMES, 7):
        game = firetower.play(level=level, seed=seed, policy="random")
        statuses[game.status] += 1
        start = game.record.start.model_dump(mode="json")
        enemy_hawks = {(r, c) for r, row in enumerate(start["board"]) for c, ch in enumerate(row)
                       if ch == "H" and (r >= 8 or c >= 8)}
        session, bad, reason, _ = _core.firetower.replay(firetower.data(), json.dumps({"start": start, "events": []}))
        for i, event in enumerate(game.record.events):
            position = session.position()
            check_step(json.loads(session.view()), deck, enemy_hawks, json.loads(position) if position else None)
            session.apply(json.dumps(event), f"events[{i}]")
        assert session.status == game.status and session.score == game.score
        assert game.status in ("win", "loss", "timeout")
    assert sum(statuses.values()) == len(range(level, GAMES, 7))
