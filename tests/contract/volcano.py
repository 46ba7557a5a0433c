"""Volcano! for the contract suite (test_contract.py)."""

from typing import Any

import facts
from smokejumper import volcano

# Per search, a request undecided after minutes: every search stops at a cap.
_LAYOUT_24 = {"position": volcano.generate(24).position.model_dump(mode="json")}
HARD = {"solve": _LAYOUT_24, "hint": _LAYOUT_24}
# A check's position the rules refuse, and what the refusal names.
BAD = [({"tiles": [{"q": 3, "r": 0, "n": 1}], "volcano": {"q": 0, "r": 0}}, "(3, 0)"),
       ({"tiles": [{"q": 1, "r": 0, "n": 9}], "volcano": {"q": 0, "r": 0}}, "position.tiles.0.n")]


def steps(check: volcano.CheckResult) -> list[dict]:
    """Every legal next step, merged ones too."""
    return [f.model_dump(mode="json") for c in check.moves for f in [c.flight, *c.equivalent]]


def hint_steps(hint: volcano.HintResult) -> list[dict]:
    return [f.model_dump(mode="json") for m in hint.moves for f in [m.flight, *m.equivalent]]


# ------------------------------------------------------------ under load (tests/test_stress.py)

# Requests beyond the OpenAPI examples: ones that reach the caps, or are cut by time.
STRESS = {
    "check": [_LAYOUT_24],  # issue 16: fifty clients checking this layout crashed the server
    "solve": [_LAYOUT_24, {**_LAYOUT_24, "limit": {"seconds": 0.005}}],
    "hint": [_LAYOUT_24, {**_LAYOUT_24, "limit": {"seconds": 0.005}}],
    "generate": [{"seed": 24, "solvable": True, "rate": True}],
}


def _hint_facts(a: dict) -> dict:
    out: dict[Any, Any] = {"flights": sorted(facts.key(m["flight"]) for m in a["moves"])}
    return out | {facts.key(m["flight"]): m["value"] for m in a["moves"] if m["value"] != "unknown"}


def _generate_facts(a: dict) -> dict:
    out = {("layout", a["layout_seed"]): a["position"]}
    if a["verdict"] != "unknown":
        out[("verdict", a["layout_seed"])] = a["verdict"]
    return out


# What each search's answer proves when a cap cut it short.
PROVED = {"solve": facts.verdict, "hint": _hint_facts, "generate": _generate_facts}
