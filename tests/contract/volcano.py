"""Volcano! for the contract suite (test_contract.py)."""

from smokejumper import volcano

# Per search, a request undecided after minutes: every search stops at a cap.
_LAYOUT_24 = {"position": volcano.generate(24).position.model_dump(mode="json")}
HARD = {"solve": _LAYOUT_24, "hint": _LAYOUT_24}
# A check's position the rules refuse, and what the refusal names.
BAD = [({"tiles": [{"q": 3, "r": 0, "n": 1}], "volcano": {"q": 0, "r": 0}}, "(3, 0)"),
       ({"tiles": [{"q": 1, "r": 0, "n": 9}], "volcano": {"q": 0, "r": 0}}, "position.tiles.0.n")]


def steps(check: volcano.CheckResult) -> list[dict]:
    """Every legal next step, merged ones too."""
    return [f.model_dump(mode="json") for c in check.flights for f in [c.flight, *c.equivalent]]


def hint_steps(hint: volcano.HintResult) -> list[dict]:
    return [f.model_dump(mode="json") for m in hint.moves for f in [m.flight, *m.equivalent]]
