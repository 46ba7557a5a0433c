"""Fire Tower for the contract suite (test_contract.py). A game is a record
({start, events}): the maker is `new`, and a replay takes the record with
the steps appended to its events."""

from typing import Any

import facts

from smokejumper import firetower

# The maker's answer is a game state; the state passed around is its record.
def made(answer: firetower.GameState) -> dict:
    return answer.record.model_dump(mode="json")


def replay_body(position: dict, steps: list[dict]) -> dict:
    record = position if "start" in position else {"start": position, "events": []}
    return {"position": {"start": record["start"], "events": record["events"] + steps}}


# A search of minutes: Level 1's first action, every card in a full hand.
_L1 = firetower.new(level=1, seed=11)
HARD = {"hint": {"position": firetower.apply(_L1.record, _L1.moves[0], seed=11).record.model_dump(mode="json"),
                 "seed": 1}}
BAD = [({"start": {**_L1.record.start.model_dump(mode="json"), "level": 9}, "events": []}, "position.start.level"),
       ({"start": _L1.record.start.model_dump(mode="json"), "events": [{"type": "end"}]}, "events[0]")]
# A hint's node is a whole simulated game, played out to its end for the
# values: fewer checks, of fewer nodes (the listing is what is checked).
HINT_EVERY = 30
HINT_NODES = 24
SEARCH_NODES = 200


def _listed_families(check: firetower.GameState) -> set[str]:
    return {u.card for u in check.unlisted}


def steps(check: firetower.GameState) -> list[dict]:
    """The legal moves listed (hawk cards with too many arrangements are
    counted, not listed), or at a chance point each possible event."""
    if check.chance:
        return [c.event for c in check.chances]
    return list(check.moves)


def hint_steps(hint: firetower.HintResult) -> list[dict]:
    """The hint lists every move and, for a hawk card with more arrangements
    than a listing holds, a few of them: those are left out, as check
    leaves out the whole card."""
    if hint.decision is None:
        return [c.event for c in hint.chances]
    moves = [m.move for h in hint.moves for m in [h, *[_Equivalent(e) for e in h.equivalent]]]
    big = {m["card"] for m in moves if m.get("hawks") is not None and hint.moves_total > len(moves)}
    return [m for m in moves if not (m.get("hawks") is not None and m["card"] in big)]


class _Equivalent:
    def __init__(self, move: dict[str, Any]) -> None:
        self.move = move


# ------------------------------------------------------------ under load (tests/test_stress.py)

_RECORD = firetower.play(level=3, seed=2, policy="random").record.model_dump(mode="json")
STRESS = {
    "check": [{"position": HARD["hint"]["position"]}, {"position": _RECORD}],
    "new": [{"level": 7, "seed": 3, "order_known": True}],
    "replay": [{"position": _RECORD}],
    "apply": [{"position": HARD["hint"]["position"], "move": {"type": "wind_gem", "square": [6, 7]}, "seed": 5}],
    "hint": [HARD["hint"], {**HARD["hint"], "limit": {"seconds": 0.005}}, {**HARD["hint"], "objective": "score"}],
}


def _hint_facts(a: dict) -> dict:
    # A sampled value proves nothing when a cap cuts it; the decision and the
    # moves it lists do not depend on the cut.
    return {"decision": a["decision"], "moves_total": a["moves_total"],
            "moves": sorted(facts.key(m["move"]) for m in a["moves"])}


PROVED = {"hint": _hint_facts}
