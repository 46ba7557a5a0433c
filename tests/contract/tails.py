"""Tails on Fire for the contract suite (test_contract.py)."""

from typing import Any

import facts
from smokejumper import tails

# Six seats with full choices and the Rogue's hidden deck: about a second.
_SIX = {"position": {
    "players": [{"hand": [1, 2, 3, 4, 5, 6, 7, 8, 9, "+1"][k:k + 3] + ["+1"] * 0, "bonfire": None}
                for k in range(0, 6)],
    "first": 0, "turn": 0, "lap": 0,
    "iguana": [{"start": 1, "flames": 4}],
    "rogue": {"deck": [1, 2, 3, 4, 5, 6, 7, 8, 9], "order": "hidden"}}}
# Per search, a request of minutes: the same with four cards a hand (three
# took a second once dead cards left the hunt's key); three seats choosing,
# the Rogue hidden.
_FOUR_CARDS = {"position": {**_SIX["position"],
                            "players": [{"hand": [1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3][k:k + 4], "bonfire": None}
                                        for k in range(0, 6)]}}
_CHOOSE = {"position": tails.deal(5, players=3).position.model_dump(mode="json")}
HARD = {"solve": _FOUR_CARDS, "hint": _FOUR_CARDS, "choose": _CHOOSE}
BAD = [({"players": [{"hand": [1], "bonfire": "+1"}, {"hand": [2]}], "turn": 0, "iguana": [{"start": 1, "flames": 2}]},
        "position.players.0.bonfire"),
       ({"players": [{"hand": [1]}, {"hand": [2]}], "turn": 0, "iguana": [{"start": 1, "flames": 2}],
         "discard": [{"owner": 0, "card": 4}, {"owner": 1, "card": 6}]}, "position.discard.1.card")]


def steps(check: tails.CheckResult) -> list[dict]:
    return [m.model_dump(mode="json") for m in check.moves]


def hint_steps(hint: tails.SolveResult) -> list[dict]:
    return [m.move.model_dump(mode="json") for m in hint.moves]


# ------------------------------------------------------------ under load (tests/test_stress.py)

_CUT_BY_TIME = {"limit": {"seconds": 0.005}}
STRESS = {
    "check": [_SIX],
    "solve": [_SIX, {**_SIX, **_CUT_BY_TIME}],
    "hint": [_SIX],
    "choose": [_CHOOSE, {**_CHOOSE, **_CUT_BY_TIME}],
    "generate": [{"seed": 7, "players": 6}],
    "deal": [{"seed": 7, "players": 2}],
}


def _hunt_facts(a: dict) -> dict:
    out: dict[Any, Any] = {"moves": sorted(facts.key(m["move"]) for m in a["moves"])}
    if a["flames"] is not None:
        out["flames"] = a["flames"]
    return out


def _choose_facts(a: dict) -> dict:
    return {("choice", facts.key(c["cards"])): c["expected_flames"] for c in a["choices"]
            if c["expected_flames"] is not None}


# What each search's answer proves when a cap cut it short.
PROVED = {"solve": _hunt_facts, "hint": _hunt_facts, "choose": _choose_facts}
