"""Tests of the C++ Wild Fire! engine and known-order solver through
``smokejumper.wildfire``.

Every answer is checked against the independent brute-force reference in
``tests/wildfire_reference.py`` (written from the spec only, colours never
merged): verdicts, certificates (replayed through both engines), legal moves
as sets, and random playouts step by step.

Axial directions (spec order): E (+1,0), NE (+1,-1), NW (0,-1), W (-1,0),
SW (-1,+1), SE (0,+1). Default spaces: n=1,2 -> 1; 3,4 -> 2; 5,6 -> 3.
"""

from __future__ import annotations

import random

import pytest

import wildfire_reference as ref
from smokejumper import InvalidPositionError, Limit, wildfire
from smokejumper.cli import main


# ---------------------------------------------------------------- helpers

def as_dict(m) -> dict:
    """A move (model or dict) as the reference's dict."""
    if isinstance(m, wildfire.Move):
        m = m.model_dump(mode="json")
    pawns = m["pawns"]
    if pawns is not None:
        pawns = {"color": pawns["color"], "tile": list(pawns["tile"]), "count": pawns["count"]}
    return {"place": list(m["place"]), "pawns": pawns}


def key(m) -> tuple:
    m = as_dict(m)
    p = m["pawns"]
    return (tuple(m["place"]),) + ((p["color"], tuple(p["tile"]), p["count"]) if p else ())


def random_position(rng: random.Random) -> dict:
    """A mix of starts and mid-games, small enough for the reference."""
    kind = rng.random()
    if kind < 0.45:
        return ref.random_deal(rng, rng.randint(2, 8), max_pawns=rng.randint(1, 6),
                               min_ones=rng.randint(0, 2), random_spaces=rng.random() < 0.3)
    level = rng.choice([1, 1, 2])
    return ref.random_midgame(rng, rng.randint(level + 2, 7), level=level,
                              random_spaces=rng.random() < 0.3)


def check_certificate(position: dict, line) -> None:
    moves = [as_dict(m) for m in line]
    assert wildfire.replay(position, moves).status == "win"
    p = position
    for m in moves:
        p = ref.apply(p, m)
    assert ref.is_won(p)


def permuted(position: dict, perm: list[int]) -> dict:
    """The position with colour c renamed perm[c]."""
    out = dict(position)
    supply = [0] * len(position["supply"])
    for c, x in enumerate(position["supply"]):
        supply[perm[c]] = x
    out["supply"] = supply
    if "tiles" in position:
        tiles = []
        for t in position["tiles"]:
            t = dict(t)
            if "pawns" in t:
                pawns = [0] * len(t["pawns"])
                for c, x in enumerate(t["pawns"]):
                    pawns[perm[c]] = x
                t["pawns"] = pawns
            tiles.append(t)
        out["tiles"] = tiles
    return out


# ---------------------------------------------------------------- solver against the reference

def test_solver_agrees_with_reference_on_300_positions():
    # Both searches on their own: layouts first (which decides these small
    # games alone, losses included) and move by move.
    rng = random.Random(2024)
    seen = {"win": 0, "loss": 0}
    by_layouts = 0
    for _ in range(320):
        position = random_position(rng)
        expected, _line = ref.solve(position)
        for use_layouts in (True, False):
            result = wildfire.solve(position, Limit(seconds=20), use_layouts=use_layouts)
            assert result.verdict == expected, (position, use_layouts)
            if expected == "win":
                check_certificate(position, result.line)
                assert len(result.line) == ref.parse(position).turns_left
            else:
                assert result.line is None
            by_layouts += result.stats.decided_by == "layouts"
        seen[expected] += 1
    assert seen["win"] >= 60 and seen["loss"] >= 60, seen
    assert by_layouts >= 300, by_layouts


def rotated(position: dict, turns: int, mirror: bool) -> dict:
    """A mid-game position turned by 60 degrees ``turns`` times about the
    start tile (and mirrored first), so the same game on other cells."""
    q0, r0 = position["tiles"][0]["q"], position["tiles"][0]["r"]

    def move(q: int, r: int) -> tuple[int, int]:
        q, r = q - q0, r - r0
        if mirror:
            q, r = r, q
        for _ in range(turns):
            q, r = -r, q + r
        return q + q0, r + r0

    out = dict(position)
    out["tiles"] = [dict(t, q=move(t["q"], t["r"])[0], r=move(t["q"], t["r"])[1]) for t in position["tiles"]]
    return out


def test_turned_and_mirrored_tables_keep_the_verdict():
    # The layouts search tries tie cells once per symmetry of the table.
    rng = random.Random(31)
    checked = 0
    while checked < 40:
        position = ref.random_midgame(rng, rng.randint(3, 7), level=1)
        expected = wildfire.solve(position).verdict
        for turns, mirror in ((1, False), (3, True), (5, False)):
            turned = rotated(position, turns, mirror)
            result = wildfire.solve(turned)
            assert result.verdict == expected != "unknown", (position, turns, mirror)
            if result.verdict == "win":
                check_certificate(turned, result.line)
        checked += 1


def box_deal(seed: int) -> list[dict]:
    tiles = list(ref.BOX)
    random.Random(seed).shuffle(tiles)
    return [{"n": n} for n in tiles[:36]]


@pytest.mark.parametrize("level", [1, 2, 3])
def test_full_deals_are_decided_and_certificates_replay(level):
    # Full 36-tile deals from the box: the layouts search decides these in
    # well under a second each; every win replays through the reference.
    decided = 0
    for seed in range(1, 9):
        position = {"deal": box_deal(seed), "level": level}
        result = wildfire.solve(position, Limit(seconds=30))
        if result.verdict == "win":
            check_certificate(position, result.line)
        decided += result.verdict != "unknown"
    assert decided == 8


def test_colour_permutation_keeps_the_verdict():
    rng = random.Random(7)
    for _ in range(60):
        position = random_position(rng)
        colours = len(position["supply"])
        perm = list(range(colours))
        rng.shuffle(perm)
        a = wildfire.solve(position, Limit(seconds=20))
        b = wildfire.solve(permuted(position, perm), Limit(seconds=20))
        assert a.verdict == b.verdict != "unknown"
        if b.verdict == "win":
            check_certificate(permuted(position, perm), b.line)


def test_without_table_or_pruning_same_verdicts():
    rng = random.Random(11)
    for _ in range(40):
        position = random_position(rng)
        expected = wildfire.solve(position).verdict
        assert wildfire.solve(position, use_table=False, use_pruning=False).verdict == expected


# ---------------------------------------------------------------- the engine against the reference

def test_legal_moves_agree_with_reference():
    rng = random.Random(5)
    for _ in range(150):
        position = random_position(rng)
        mine = {key(m) for m in wildfire.check(position).moves}
        theirs = {key(m) for m in ref.legal_moves(position)}
        assert mine == theirs, position


def test_random_playouts_follow_the_reference_step_by_step():
    rng = random.Random(9)
    for _ in range(40):
        position = ref.random_deal(rng, rng.randint(4, 12), max_pawns=12, min_ones=1,
                                   level=rng.randint(1, 3), random_spaces=rng.random() < 0.5)
        p = position
        line = []
        while ref.parse(p).turns_left:
            check = wildfire.check(p)
            moves = ref.legal_moves(p)
            assert {key(m) for m in check.moves} == {key(m) for m in moves}
            state = ref.parse(p)
            for m in check.moves:
                # Placement is always on a hottest cell.
                assert tuple(m.place) in {tuple(c) for c in check.hottest}
                if m.pawns is not None:
                    assert state.turn + 1 >= state.level
            pawn_moves = [m for m in moves if m["pawns"] is not None]
            move = rng.choice(pawn_moves if pawn_moves and rng.random() < 0.7 else moves)
            line.append(move)
            p = ref.apply(p, move)
            # Pawn limits: nothing exceeds the spaces; supplies never go negative.
            assert all(sum(t["pawns"]) <= t["spaces"] for t in p["tiles"])
            assert all(x >= 0 for x in p["supply"])
        replayed = wildfire.replay(position, line)
        assert replayed.error is None
        assert [s.position.model_dump(mode="json") for s in replayed.steps][-1] == \
            wildfire.load_position(p).model_dump(mode="json")
        assert replayed.status == ("win" if ref.is_won(p) else "loss")


def test_replay_refuses_illegal_moves_with_a_reason():
    position = {"deal": [{"n": 3}, {"n": 5}, {"n": 2}], "supply": [2]}
    r = wildfire.replay(position, [{"place": [1, 0], "pawns": None}, {"place": [2, 0], "pawns": None}])
    assert r.status == "ongoing" and len(r.steps) == 1 and "hottest" in r.error
    r = wildfire.replay(position, [{"place": [1, 0], "pawns": {"color": 0, "tile": [0, 0], "count": 3}}])
    assert "colour 0 has only 2" in r.error
    r = wildfire.replay({**position, "supply": [3]},
                        [{"place": [1, 0], "pawns": {"color": 0, "tile": [0, 0], "count": 2}},
                         {"place": [0, 1], "pawns": {"color": 0, "tile": [0, 0], "count": 1}}])
    assert "exceed" in r.error                   # 2 pawns already fill the 3's two spaces
    r = wildfire.replay({**position, "level": 2}, [{"place": [1, 0],
                                                   "pawns": {"color": 0, "tile": [0, 0], "count": 1}}])
    assert "level 2" in r.error
    r = wildfire.replay(position, [{"place": [1, 0], "pawns": None}] * 3)
    assert "over" in r.error or "hottest" in r.error


def test_free_edges_count_after_this_turns_tile():
    # A 5 (3 spaces) at (0,0) ringed by five tiles has one free edge; the sixth
    # tile closes it, so no pawn fits on it that turn.
    ring = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)]
    tiles = [{"q": 0, "r": 0, "n": 5}] + [{"q": q, "r": r, "n": 6} for q, r in ring]
    position = {"tiles": tiles, "turn": 5, "supply": [3], "deal_rest": [{"n": 2}]}
    hot = wildfire.check(position).hottest
    moves = wildfire.check(position).moves
    assert {key(m) for m in moves} == {key(m) for m in ref.legal_moves(position)}
    for m in moves:
        if m.pawns is not None and tuple(m.place) == (0, 1):
            assert tuple(m.pawns.tile) != (0, 0)
    assert hot


# ---------------------------------------------------------------- small cases and limits

def test_one_tile_deals():
    assert wildfire.solve({"deal": [{"n": 4}], "supply": [0, 0]}).verdict == "win"
    assert wildfire.solve({"deal": [{"n": 4}], "supply": [1]}).verdict == "loss"
    assert wildfire.check({"deal": [{"n": 4}], "supply": [0]}).status == "win"


def test_node_limit_gives_unknown():
    rng = random.Random(2)   # a full deal: 35 turns need more than 20 nodes
    p = {"deal": [{"n": n} for n in rng.sample(list(ref.BOX), 36)], "supply": [12] * 4, "level": 2}
    r = wildfire.solve(p, Limit(nodes=20))
    assert r.verdict == "unknown" and r.stats.stopped_by == "nodes" and r.line is None
    assert r.stats.nodes <= 20


@pytest.mark.parametrize("position, needle", [
    ({"deal": []}, "deal"),
    ({"deal": [{"n": 7}]}, "deal.0.n"),
    ({"deal": [{"n": 1}], "supply": []}, "supply"),
    ({"deal": [{"n": 1}], "supply": [1, 1, 1, 1, 1]}, "supply"),
    ({"deal": [{"n": 1}], "level": 4}, "level"),
    ({"deal": [{"n": 1}], "turn": 0}, "not allowed"),
    ({"deal": [{"n": 1}], "tiles": [{"q": 0, "r": 0, "n": 1}]}, "exactly one"),
    ({"tiles": [{"q": 0, "r": 0, "n": 1}], "deal_rest": []}, "turn"),
    ({"tiles": [{"q": 0, "r": 0, "n": 1}], "turn": 0}, "deal_rest"),
    ({"tiles": [{"q": 0, "r": 0, "n": 1}, {"q": 2, "r": 0, "n": 1}], "turn": 1, "deal_rest": []},
     "not connected"),
    ({"tiles": [{"q": 0, "r": 0, "n": 1}, {"q": 0, "r": 0, "n": 2}], "turn": 1, "deal_rest": []},
     "already holds"),
    ({"tiles": [{"q": 0, "r": 0, "n": 1}], "turn": 1, "deal_rest": []}, "turn \\+ 1"),
    ({"tiles": [{"q": 0, "r": 0, "n": 3, "pawns": [2, 1]}], "turn": 0, "supply": [1, 1], "deal_rest": []},
     "2 spaces"),
    ({"tiles": [{"q": 0, "r": 0, "n": 3, "pawns": [1]}], "turn": 0, "supply": [1, 1], "deal_rest": []},
     "one per colour"),
    ({"deal": [{"n": 1}] * 65}, "deal"),
    ({"tiles": [{"q": 0, "r": 0, "n": 1}], "turn": 0, "pool": [{"n": 2}], "turns_left": 2}, "turns_left"),
    # Numbers are not converted from other JSON types.
    ({"deal": [{"n": "1"}]}, "deal.0.n"),
    ({"deal": [{"n": 1.0}]}, "deal.0.n"),
    ({"deal": [{"n": True}]}, "deal.0.n"),
    ({"deal": [{"n": 1}], "level": "1"}, "level"),
    ({"deal": [{"n": 1}], "supply": [1, 1, 1, True]}, "supply.3"),
])
def test_bad_input_gives_one_clear_error(position, needle):
    with pytest.raises(InvalidPositionError, match=needle):
        wildfire.check(position)


def test_hidden_order_is_parsed_but_not_solved():
    hidden = {"start": {"n": 3}, "pool": [{"n": 1}, {"n": 5}], "turns": 1, "supply": [1]}
    c = wildfire.check(hidden)
    assert c.status == "ongoing" and c.turns_left == 1 and len(c.hottest) == 6
    assert c.position.pool is not None and c.position.turns_left == 1
    with pytest.raises(InvalidPositionError, match="known-order"):
        wildfire.solve(hidden)


# ---------------------------------------------------------------- CLI

def test_cli_solve_and_replay(tmp_path, capsys):
    import json
    position = {"deal": [{"n": 1}, {"n": 5}, {"n": 3}], "supply": [2]}
    f = tmp_path / "p.json"
    f.write_text(json.dumps(position))
    assert main(["solve", "wildfire", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "win" and len(out["line"]) == 2 and "nodes" in out["stats"]
    line = tmp_path / "line.json"
    line.write_text(json.dumps(out))
    assert main(["replay", "wildfire", str(f), str(line)]) == 0
    line.write_text(json.dumps([{"place": m["place"], "pawns": None} for m in out["line"]]))
    assert main(["replay", "wildfire", str(f), str(line)]) == 1
    f.write_text(json.dumps({"deal": [{"n": 9}]}))
    with pytest.raises(SystemExit) as e:
        main(["solve", "wildfire", str(f)])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "deal" in err


def test_a_stranded_colour_is_refuted_before_any_layout():
    # Colour 0 holds both ends of a row of four tiles but has one pawn left:
    # joining them needs two. The layouts search refutes it at its root;
    # the reference agrees by exhausting the game.
    position = {
        "tiles": [{"q": 0, "r": 0, "n": 3, "pawns": [1]}, {"q": 1, "r": 0, "n": 4},
                  {"q": 2, "r": 0, "n": 4}, {"q": 3, "r": 0, "n": 1, "pawns": [1]}],
        "turn": 3, "supply": [1], "deal_rest": [{"n": 5}, {"n": 2}, {"n": 6}],
    }
    assert ref.solve(position)[0] == "loss"
    result = wildfire.solve(position)
    assert result.verdict == "loss" and result.stats.decided_by == "layouts"
    assert result.stats.layouts == 0
    # With a second pawn the same row can be joined.
    two = dict(position, supply=[2])
    assert ref.solve(two)[0] == wildfire.solve(two).verdict
