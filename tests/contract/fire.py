"""Fire! for the contract suite (test_contract.py)."""

from typing import Any

import facts
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
    return [m.model_dump(mode="json") for c in hint.moves for m in [c.move, *c.equivalent]]


# ------------------------------------------------------------ under load (tests/test_stress.py)

_TEAM_2 = {"position": fire.levels.team_level1().position(aliens=2).model_dump(mode="json")}
_CUT_BY_TIME = {"limit": {"seconds": 0.005}}
STRESS = {
    "check": [_SOLO, _TEAM_2],
    "solve": [_SOLO, {**_SOLO, **_CUT_BY_TIME}],
    "hint": [_SOLO],
    "split": [_TEAM_2, {**_TEAM_2, **_CUT_BY_TIME}],
    "levels": [{}, {"aliens": 2, "seed": 7}],
}


def _values(a: dict, where: str = "") -> dict:
    """The proved interval of a value and of each reveal and choice under it."""
    out: dict[Any, Any] = {where: facts.Interval(*a["interval"])}
    for r in a.get("reveals", []):
        out |= _values(r, f"{where}/reveal {facts.key(r['battery'])}")
    for c in a.get("moves", []):
        out |= _values(c, f"{where}/move {facts.key(c['move'])}")
    return out


def _solve_facts(a: dict) -> dict:
    return _values(a) | ({} if a["won_for_certain"] is None else {"won_for_certain": a["won_for_certain"]})


# A hint cut by any cap may still depend on timing (under a node cap, a time
# slice of one of its phases can run out first; its stats name only the node
# cap), so only its intervals are compared.
PROVED = {
    "solve": _solve_facts,
    "hint": lambda a: _values(a) | {"status": a["status"], "position": a["position"]},
    "split": lambda a: {("plan", facts.key(a["aliens"])): facts.Interval(*a["interval"])},  # a plan's own value
}
