"""Wild Fire! for the contract suite (test_contract.py)."""

from typing import Any

import facts
from smokejumper import wildfire

# Per search, a request far past small caps: a full deal in known order;
# the first turn of a deal in hidden order, on many samples.
HARD = {"solve": {"position": {"deal": [{"n": int(n)} for n in "216416554112616634534234353232533564"]}},
        "hint": {"position": {"start": {"n": 1}, "pool": [{"n": n} for n in range(1, 7) for _ in range(6)],
                              "turns": 35, "drawn": {"n": 1}}, "samples": 1000}}
BAD = [({"deal": [{"n": 7}]}, "position.deal.0.n"),
       ({"tiles": [{"q": 0, "r": 0, "n": 1, "pawns": [1]}], "turn": 0, "supply": [2], "deal_rest": [{"n": 5}],
         "pool": []}, "position")]


def steps(check: wildfire.CheckResult) -> list[dict]:
    return [m.model_dump(mode="json") for m in check.moves]


def hint_steps(hint: wildfire.HintResult) -> list[dict]:
    return [c.move.model_dump(mode="json") for c in hint.moves]


# ------------------------------------------------------------ under load (tests/test_stress.py)

_KNOWN = HARD["solve"]
_HIDDEN = {"position": HARD["hint"]["position"]}
STRESS = {
    "check": [_KNOWN, _HIDDEN],
    "solve": [_KNOWN, {**_KNOWN, "limit": {"seconds": 0.005}}],
    "hint": [{**_HIDDEN, "samples": 8, "seed": 3}],
}


def _hint_facts(a: dict) -> dict:
    # Deals are counted in index order: with as many counted, the same deals,
    # so the same number of winnable ones, which each answer bounds.
    out: dict[Any, Any] = {"moves": sorted(facts.key(c["move"]) for c in a["moves"]), "drawn": a["drawn"]}
    return out | {(a["samples"], facts.key(c["move"])): facts.Interval(c["wins"], c["wins"] + c["unknown"])
                  for c in a["moves"]}


PROVED = {"solve": facts.verdict, "hint": _hint_facts}
