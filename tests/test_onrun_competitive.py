"""On the Run! competitive games (2-4 players): the engine's check and replay
against the plain-Python reference (tests/onrun_reference.py, written from
the spec, sharing no code with the engine) on seeded small positions played
to the end: legal move lists (in order), status, the end conditions, final
scores, damage and winners; properties (pawns kept per owner, tiles never
over their spaces); and the set-up, the JSON and the refusals one by one.

SMOKEJUMPER_CROSS_CASES scales the number of games (default 2000)."""

from __future__ import annotations

import os
import random

import pytest

import onrun_reference as ref
from smokejumper import Limit, onrun
from smokejumper._core import InvalidPositionError

CASES = int(os.environ.get("SMOKEJUMPER_CROSS_CASES", "2000"))
BOX = [n for n in range(1, 7) for _ in range(7)] + [3]


def small_game(seed: int) -> dict:
    """A short competitive deal from the start with a small supply."""
    rng = random.Random(seed)
    players = rng.choice([2, 3, 4])

    def tile() -> dict:
        n = rng.choice(BOX)
        return {"n": n, "spaces": rng.randint(1, 3)} if rng.random() < 0.3 else {"n": n}

    supply = [rng.choice([0, 1, 1, 2, 3]) for _ in range(4)]
    position: dict = {"players": players, "deal": [tile() for _ in range(len(ref.START[players]) + rng.randint(0, 4))]}
    if players == 3:
        position["neutral"] = [rng.choice([0, 1, 1, 2]) for _ in range(3)]
        supply[3] = sum(position["neutral"])
    position["supply"] = supply
    if rng.random() < 0.3:
        position["next"] = rng.randrange(players)
    return position


def normal(move: dict) -> dict:
    """A move as JSON with place (None after the last tile), action and colour."""
    a = dict(move.get("action") or {"kind": "pass"})
    for key in ("tile", "cell"):
        if key in a:
            a[key] = list(a[key])
    if "to" in a:
        a["to"] = [list(c) for c in a["to"]]
    place = move.get("place")
    return {"place": None if place is None else list(place), "action": a, "color": move.get("color")}


def dump(move: onrun.Move) -> dict:
    return normal(move.model_dump(mode="json"))


def totals(position: dict) -> list[int]:
    out = list(position["supply"])
    for t in position["tiles"]:
        assert sum(t["pawns"]) <= t["spaces"], t
        for k in range(4):
            out[k] += t["pawns"][k]
    for e in position["edge"]:
        out[e["color"]] += 1
    return out


@pytest.fixture(scope="module")
def games() -> list[dict]:
    """Each seeded game played to its end by random choices among the
    reference's moves, checked turn by turn against the engine."""
    played = []
    for seed in range(CASES):
        rng = random.Random(seed + 10**6)
        start = small_game(seed)
        s = ref.seats_load(start)
        line = []
        position = start
        kept = ref.seats_totals(s)
        while True:
            check = onrun.check(position)
            mine = ref.seats_moves(s)
            over = ref.seats_over(s)
            assert check.status == ("over" if over else "ongoing"), (seed, position)
            assert check.seat == s.seat and check.passes == s.passes, (seed, position)
            assert [dump(c.move) for c in check.moves] == [normal(m) for m, _ in mine], (seed, position)
            if over:
                assert [r.model_dump() for r in check.results] == ref.seats_results(s), (seed, position)
                break
            assert check.results is None
            # Prefer turns that do something while tiles are left, so that
            # evacuations come up; after the last tile, pass half the time
            # so that both ends come up.
            busy = [i for i, (m, _) in enumerate(mine) if m["action"]["kind"] != "pass"]
            eager = 0.75 if s.pos.rest else 0.5
            k = rng.choice(busy) if busy and rng.random() < eager else 0 if not s.pos.rest else rng.randrange(len(mine))
            move, s = mine[k]
            line.append(move)
            step = onrun.replay(position, [move])
            assert step.error is None, (seed, position, move, step.error)
            position = step.position.model_dump(mode="json", exclude_none=True)
            assert ref.seats_totals(ref.seats_load(position)) == kept == totals(position), (seed, position)
            if start["players"] == 3:
                assert sum(position["neutral"]) == position["supply"][3], (seed, position)
        played.append({"start": start, "line": line, "end": s})
    return played


def test_moves_status_and_results_agree_with_the_reference_turn_by_turn(games):
    assert len(games) == CASES
    by_players = {p: sum(1 for g in games if g["start"]["players"] == p) for p in (2, 3, 4)}
    assert min(by_players.values()) > CASES // 5, by_players


def test_a_whole_game_replayed_ends_with_the_reference_scores_damage_and_winners(games):
    for i, g in enumerate(games):
        r = onrun.replay(g["start"], g["line"])
        assert r.error is None and r.status == "over", (i, r.error)
        assert [x.model_dump() for x in r.results] == ref.seats_results(g["end"]), i
        assert [st.seat for st in r.steps] == [(g["start"].get("next", 0) + k) % g["start"]["players"]
                                              for k in range(len(g["line"]))]


def test_both_ends_after_the_last_tile_come_up(games):
    by_passes = sum(1 for g in games if g["end"].passes >= g["end"].players)
    no_escape = sum(1 for g in games if g["end"].passes < g["end"].players)
    after_last = sum(1 for g in games if any(m["place"] is None for m in g["line"]))
    assert by_passes > CASES // 20 and no_escape > CASES // 20 and after_last > CASES // 10, \
        (by_passes, no_escape, after_last)
    # Damage decides some games: the top score is shared, one winner.
    decided = 0
    for g in games:
        res = ref.seats_results(g["end"])
        top = max(r["score"] for r in res)
        decided += sum(r["score"] == top for r in res) > sum(r["winner"] for r in res)
    assert decided > 0


def test_a_move_off_the_reference_list_is_refused_by_both():
    rng = random.Random(7)
    refused = 0
    for seed in range(300):
        position = small_game(seed)
        s = ref.seats_load(position)
        if ref.seats_over(s):
            continue
        colours = ref.colours_of(s.players, s.seat)
        legal = [normal(m) for m, _ in ref.seats_moves(s)]
        for _ in range(5):
            place = None if not s.pos.rest else list(rng.choice(ref.edge_areas(s.pos)))
            kind = rng.choice(["tile", "edge", "evacuate", "pass"])
            a = ({"kind": "pass"} if kind == "pass"
                 else {"kind": "tile", "tile": list(rng.choice(sorted(s.pos.tiles))), "count": rng.randint(1, 3)}
                 if kind == "tile" else {"kind": "edge", "cell": list(rng.choice(ref.edge_areas(s.pos)))}
                 if kind == "edge" else {"kind": "evacuate", "number": rng.randint(1, 6), "to": []})
            move = {"place": place, "action": a, "color": rng.choice(colours + [(colours[0] + 1) % 4])}
            ok = ref.seats_apply(s, move) is not None
            r = onrun.replay(position, [move])
            assert (r.error is None) == ok, (seed, move, r.error)
            refused += not ok
    assert refused > 100


# ------------------------------------------------------------ one rule at a time


@pytest.mark.parametrize("players,cells", [(2, [(0, 0), (1, 0)]), (3, [(0, 0), (1, 0), (0, 1)]),
                                           (4, [(0, 0), (1, 0), (0, 1), (1, 1)])])
def test_the_start_takes_the_deal_s_first_tiles_in_order(players, cells):
    deal = [{"n": n} for n in (3, 5, 4, 4, 6, 2)]
    end = onrun.replay({"players": players, "deal": deal}, []).position
    assert [(t.q, t.r, t.n) for t in end.tiles] == [(q, r, d["n"]) for (q, r), d in zip(cells, deal)]
    assert len(end.deal_rest) == len(deal) - players
    assert onrun.check({"players": players, "deal": deal}).seat == 0


def test_two_players_choose_the_colour_of_each_turn_and_must_say_it():
    p = {"players": 2, "deal": [{"n": 1}, {"n": 2}, {"n": 3}], "supply": [1, 1, 1, 1]}
    check = onrun.check(p)
    assert check.colors == [0, 1]
    assert {m.move.color for m in check.moves if m.move.action.kind == "tile"} == {0, 1}
    place = list(check.flashpoints[0])
    r = onrun.replay(p, [{"place": place, "action": {"kind": "tile", "tile": [0, 0], "count": 1}}])
    assert r.error and "color is needed" in r.error
    r = onrun.replay(p, [{"place": place, "action": {"kind": "tile", "tile": [0, 0], "count": 1}, "color": 2}])
    assert r.error and "colour 2 is not one seat 0 may use" in r.error
    r = onrun.replay(p, [{"place": place, "action": {"kind": "tile", "tile": [0, 0], "count": 1}, "color": 1}])
    assert r.error is None and r.position.supply == [1, 0, 1, 1] and r.position.next == 1
    # A pass needs no colour.
    assert onrun.replay(p, [{"place": place}]).error is None


def test_three_players_use_own_or_neutral_pawns_and_a_returned_neutral_pawn_is_the_mover_s():
    p = {"players": 3, "tiles": [{"q": 0, "r": 0, "n": 1}, {"q": 1, "r": 0, "n": 1}, {"q": 0, "r": 1, "n": 1}],
         "edge": [{"q": 1, "r": -1, "color": 3}], "supply": [1, 1, 1, 2], "neutral": [0, 0, 2], "next": 0,
         "deal_rest": [{"n": 2}]}
    check = onrun.check(p)
    assert check.colors == [0, 3]
    # Seat 0 has no neutral pawn in its supply: no neutral placement unless
    # the tile covers the neutral pawn at (1, -1).
    placing = {m.move.place for m in check.moves if m.move.color == 3 and m.move.action.kind in ("tile", "edge")}
    assert placing == {(1, -1)} and {(-1, 1), (1, 1)} <= set(check.flashpoints)
    r = onrun.replay(p, [{"place": [1, -1], "action": {"kind": "edge", "cell": [2, -1]}, "color": 3}])
    # The covered neutral pawn went to seat 0, which placed it again at once.
    assert r.error is None and r.position.neutral == [0, 0, 2] and r.position.supply == [1, 1, 1, 2]
    assert [(e.q, e.r, e.color) for e in r.position.edge] == [(2, -1, 3)]


def test_after_the_last_tile_a_turn_is_an_evacuation_or_a_pass_and_a_round_of_passes_ends_it():
    p = {"players": 2, "tiles": [{"q": 0, "r": 0, "n": 1, "pawns": [1, 0, 0, 0]}, {"q": 1, "r": 0, "n": 2}],
         "supply": [0, 0, 0, 0]}
    check = onrun.check(p)
    assert check.status == "ongoing" and check.flashpoints == [] and check.turns_left == 0
    assert {m.move.action.kind for m in check.moves} == {"pass", "evacuate"}
    assert all(m.move.place is None for m in check.moves)
    assert "only an evacuation or a pass" in onrun.replay(p, [{"action": {"kind": "edge", "cell": [0, 1]},
                                                               "color": 0}]).error
    assert "place must be absent" in onrun.replay(p, [{"place": [0, 1]}]).error
    r = onrun.replay(p, [{}, {}])
    assert r.status == "over" and [s.status for s in r.steps] == ["ongoing", "over"]
    assert [(x.score, x.damage, x.winner) for x in r.results] == [(0, 1, False), (0, 0, True)]
    # Seat 0 saves its pawn; then nobody can reach an edge area: over at once.
    r = onrun.replay(p, [{"action": {"kind": "evacuate", "number": 1, "to": [[0, 1]]}, "color": 0}])
    assert r.status == "over" and [(x.score, x.winner) for x in r.results] == [(0, True), (0, True)]


def test_scores_follow_the_rulebook_examples():
    # 2 players: 4 green and 2 red saved, one green left in the supply: 8 - 1.
    green = [(1, 0), (1, -1), (0, -1), (-1, 0)]
    red = [(-1, 1), (1, 1)]
    p = {"players": 2, "tiles": [{"q": 0, "r": 0, "n": 5}, {"q": 0, "r": 1, "n": 5}], "supply": [0, 0, 0, 1],
         "edge": [{"q": q, "r": r, "color": 3} for q, r in green] + [{"q": q, "r": r, "color": 2} for q, r in red]}
    r = onrun.check(p)
    assert r.status == "over"
    assert [(x.score, x.winner) for x in r.results] == [(0, False), (4 * 2 - 1, True)]
    # 4 players: saved minus left in the supply; a tie is broken by damage.
    p = {"players": 4, "tiles": [{"q": 0, "r": 0, "n": 6, "pawns": [1, 0, 0, 0]}, {"q": 1, "r": 0, "n": 2,
                                                                                 "pawns": [0, 1, 0, 0]}],
         "edge": [{"q": 0, "r": -1, "color": 0}, {"q": 2, "r": -1, "color": 1}], "supply": [0, 0, 1, 1],
         "passes": 4}
    r = onrun.check(p)
    assert [(x.score, x.damage, x.winner) for x in r.results] == [(1, 6, False), (1, 2, True), (-1, 0, False),
                                                                  (-1, 0, False)]


def test_bad_competitive_input_names_the_field():
    base = {"players": 3, "deal": [{"n": 1}, {"n": 2}, {"n": 3}]}
    for bad, field in [({**base, "players": 5}, "players"), ({**base, "neutral": [4, 4, 3]}, "position.neutral"),
                       ({**base, "next": 3}, "position.next"), ({**base, "passes": 1, "deal": base["deal"] + [{"n": 2}]},
                                                               "position.passes"),
                       ({**base, "deal": [{"n": 1}, {"n": 2}]}, "deal"), ({"deal": base["deal"], "passes": 1}, "passes"),
                       ({**base, "players": 2, "neutral": [1, 1, 1]}, "neutral")]:
        with pytest.raises((InvalidPositionError, ValueError)) as e:
            onrun.check(bad)
        assert field in str(e.value), (bad, e.value)


def test_solve_and_hint_refuse_a_competitive_position():
    p = {"players": 4, "deal": [{"n": 1}, {"n": 2}, {"n": 3}, {"n": 4}, {"n": 5}]}
    for call in (onrun.solve, onrun.hint):
        with pytest.raises(InvalidPositionError, match="position.players: .* co-op"):
            call(p, Limit(seconds=1))


def test_generate_takes_players_and_co_op_is_unchanged():
    four = onrun.deal(3, tiles=8, players=4).position
    assert four.players == 4 and onrun.check(four).seat == 0
    co_op = onrun.deal(3, tiles=8).position
    assert co_op.players is None and onrun.check(co_op).seat is None
    assert "players" not in co_op.model_dump(mode="json", exclude_none=True)


def test_after_the_last_tile_pawns_may_trade_places_for_ever_and_the_game_goes_on():
    p = {"players": 4, "tiles": [{"q": 0, "r": 0, "n": 3, "pawns": [1, 0, 0, 0]}, {"q": 1, "r": 0, "n": 5}],
         "supply": [0, 0, 0, 0]}
    there = {"action": {"kind": "evacuate", "number": 3, "to": [[1, 0]]}}
    back = {"action": {"kind": "evacuate", "number": 5, "to": [[0, 0]]}}
    line = [there, {}, {}, {}, back, {}, {}, {}] * 5
    r = onrun.replay(p, line)
    assert r.error is None and r.status == "ongoing" and r.position.passes == 3
    assert [t.pawns for t in r.position.tiles] == [[1, 0, 0, 0], [0, 0, 0, 0]]


def test_the_documented_competitive_replay_ends_over_and_reads_as_a_success():
    op = onrun.GAME.operations["replay"]
    example = op.request.model_json_schema()["examples"][1]
    request = op.request.model_validate(example)
    answer = op.call(request)
    assert answer.error is None and answer.status == "over" and op.outcome(request, answer) == (0, None)
    assert "seat 0: score -1, damage 5 (wins)" in op.text(request, answer)
    check = onrun.GAME.operations["check"]
    request = check.request.model_validate({"position": example["position"]})
    assert "seat 0 (blue or yellow) to move" in check.text(request, check.call(request))
