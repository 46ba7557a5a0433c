"""Fire! for the contract suite (test_contract.py)."""

from smokejumper import fire

# Per search, a request of minutes: the full solo Level 1, order hidden, and
# the full team Level 1 for split.
_SOLO = {"position": fire.levels.default_level1().position().model_dump(mode="json")}
HARD = {"solve": _SOLO, "hint": _SOLO,
        "split": {"position": fire.levels.team_level1().position().model_dump(mode="json")}}
BAD = [({"aliens": [{"strengths": [12, 9, 6, 3], "hits": 9}], "weapons": [[]]}, "position.aliens.0.hits"),
       ({"aliens": [{"strengths": [12, 9, 6, 3]}], "weapons": [[]], "draw": [{"energy": 6}]},
        "position.draw.0.energy")]


def steps(check: fire.CheckResult) -> list[dict]:
    """Every legal next step: a reveal of each battery that may come up, or a move."""
    if check.status == "reveal":
        position = check.position
        pile = position.draw if position.mode == "solo" else position.players[position.turn].draw
        if not pile:  # the discard pile is reshuffled first
            pile = position.discard if position.mode == "solo" else position.players[position.turn].discard
        return [{"reveal": b} for b in {fire.battery_text(b): b.model_dump(mode="json") for b in pile}.values()]
    return [m.model_dump(mode="json") for m in check.moves]


def hint_steps(hint: fire.HintResult) -> list[dict]:
    """Before a hidden reveal, the batteries that may come up; else the moves."""
    if hint.reveals:
        return [{"reveal": r.battery.model_dump(mode="json")} for r in hint.reveals]
    return [m.model_dump(mode="json") for c in hint.choices for m in [c.move, *c.equivalent]]
