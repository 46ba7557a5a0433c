"""On the Run! for the contract suite (test_contract.py)."""

from typing import Any

import facts
from smokejumper import onrun

# A full deal (41 turns): a search's node there may list 10^3 evacuations.
_FULL = {"position": onrun.deal(24).position.model_dump(mode="json")}
# Per search, a request undecided after minutes whose nodes are cheap (the
# suite spends thousands): 8 turns, two pawns a colour, best score 0..16.
_SHORT = {"position": onrun.deal(0, tiles=10, supply=[2, 2, 2, 2]).position.model_dump(mode="json")}
HARD = {"solve": _SHORT, "hint": _SHORT}
# The suite's playouts and hints start from what `made` reads: the seed's deal
# cut to its first 8 tiles (6 turns) with two pawns a colour. A full deal's
# turn can list 10^5 evacuation outcomes, and the suite checks every
# listing; the full deal is what the stress tests and the searches' own tests use.
START_TILES = 8
START_SUPPLY = [2, 2, 2, 2]


def made(answer: onrun.DealResult) -> dict:
    deal = answer.position.model_dump(mode="json")["deal"][:START_TILES]
    return onrun.load_position({"deal": deal, "supply": START_SUPPLY}).model_dump(mode="json")


# A check's position the rules refuse, and what the refusal names.
BAD = [({"tiles": [{"q": 0, "r": 0, "n": 1}, {"q": 3, "r": 0, "n": 2}]}, "(3, 0)"),
       ({"deal": [{"n": 9}, {"n": 1}]}, "position.deal.0.n")]


def steps(check: onrun.CheckResult) -> list[dict]:
    """Every legal next move, merged ones too."""
    return [m.model_dump(mode="json") for c in check.moves for m in [c.move, *c.equivalent]]


def hint_steps(hint: onrun.HintResult) -> list[dict]:
    return [m.model_dump(mode="json") for h in hint.moves for m in [h.move, *h.equivalent]]


# ------------------------------------------------------------ under load (tests/test_stress.py)

STRESS = {
    "check": [_FULL],
    "solve": [_FULL, {**_FULL, "limit": {"seconds": 0.005}}],
    "hint": [_FULL, {**_FULL, "limit": {"seconds": 0.005}}],
    "generate": [{"seed": 24}, {"seed": 7, "tiles": 6, "pawns": 1}],
}


def _value_facts(a: dict, where: str = "") -> dict:
    out: dict[Any, Any] = {f"{where}score": facts.Interval(*a["score_bounds"])}
    if a.get("won") is not None:
        out[f"{where}won"] = a["won"]
    return out


def _hint_facts(a: dict) -> dict:
    out: dict[Any, Any] = {"moves": sorted(facts.key(m["move"]) for m in a["moves"])}
    for m in a["moves"]:
        out |= _value_facts(m, facts.key(m["move"]) + "/")
    return out


# What each search's answer proves when a cap cut it short.
PROVED = {"solve": lambda a: facts.verdict(a) | _value_facts(a), "hint": _hint_facts}
