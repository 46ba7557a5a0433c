"""Hand-worked checks for the brute-force Volcano! reference (tests/volcano_reference.py).

Cell pictures use axial (q, r) and the spec's direction order
0 E (+1,0), 1 NE (+1,-1), 2 NW (0,-1), 3 W (-1,0), 4 SW (-1,+1), 5 SE (0,+1).
Default spaces: n=1 -> 1 space, n=5 -> 3 spaces.
"""

import itertools
import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import volcano_reference as vr  # noqa: E402
from volcano_positions import fl, pos  # noqa: E402

E, NE, NW, W, SW, SE = range(6)


def pawns(state):
    """cell -> pawns for the forest tiles of a state."""
    return {(t[0], t[1]): t[4] for t in state.tiles}


# Row A(0,0) B(1,0) C(2,0) with the volcano at (1,1) below B and C.
def row_abc(n, supply):
    return pos([(0, 0, n), (1, 0, n), (2, 0, n)], (1, 1), supply)


# ---------------------------------------------------------------- drops

def test_drop_order_same_row_from_both_ends():
    # 3-space tiles, only 2 pawns of colour 0: flying E from A drops on A, B;
    # flying W from C drops on C, B. Colour runs out mid-path, the plane flies on.
    s = vr.parse_position(row_abc(5, [2, 0, 0, 0]))
    east, lost = vr.apply_flight(s, fl(0, 0, 0, E))
    assert not lost
    assert pawns(east) == {(0, 0): 1, (1, 0): 1, (2, 0): 0}
    assert east.supply == (0, 0, 0, 0)
    west, _ = vr.apply_flight(s, fl(0, 2, 0, W))
    assert pawns(west) == {(0, 0): 0, (1, 0): 1, (2, 0): 1}
    # No pawns left and forest remains: loss.
    assert vr.status(east) == "loss" and vr.status(west) == "loss"


def test_drop_order_decides_win_or_loss():
    # 1-space tiles, supply [2,1]. E from A with colour 0 fills A and B, both
    # are extinguished (free NE/NW edges); C stays connected via the volcano.
    # W from C with colour 0 fills C and B; A is then cut off without pawns: loss.
    s = vr.parse_position(row_abc(1, [2, 1, 0, 0]))
    east, lost = vr.apply_flight(s, fl(0, 0, 0, E))
    assert not lost and pawns(east) == {(2, 0): 0}
    assert vr.status(east) == "ongoing"
    done, lost = vr.apply_flight(east, fl(1, 2, 0, NW))
    assert not lost and vr.status(done) == "win"
    west, lost = vr.apply_flight(s, fl(0, 2, 0, W))
    assert lost and vr.status(west) == "loss"


def test_full_tile_is_skipped_without_using_a_pawn():
    # X(0,0) full (n=1, 1 pawn); its occupied neighbours are E (1,0), NW (0,-1)=volcano,
    # SW (-1,1): free edges NE, W, SE are pairwise non-adjacent, so it is settled.
    # Flight E from (-1,0): path X, Y(1,0), Z(2,0). X is skipped, Y gets the single pawn,
    # Z gets nothing because colour 0 ran out.
    p = pos([(0, 0, 1, 1), (1, 0, 5), (2, 0, 5), (-1, 1, 5)], (0, -1), [1, 0, 0, 0])
    s = vr.parse_position(p)
    after, lost = vr.apply_flight(s, fl(0, 0, 0, E))
    assert not lost
    assert pawns(after) == {(0, 0): 1, (1, 0): 1, (2, 0): 0, (-1, 1): 0}
    p["supply"] = [2, 0, 0, 0]
    after, _ = vr.apply_flight(vr.parse_position(p), fl(0, 0, 0, E))
    assert pawns(after) == {(0, 0): 1, (1, 0): 1, (2, 0): 1, (-1, 1): 0}


# ---------------------------------------------------------------- legality

def test_path_through_volcano_is_illegal():
    # A(0,0) V(1,0) B(2,0): flying along the row over the volcano is illegal even
    # though A and B have space; entering the row from the volcano side is illegal
    # (start cell occupied); the volcano is never an entry tile.
    s = vr.parse_position(pos([(0, 0, 5), (2, 0, 5)], (1, 0), [1, 0, 0, 0]))
    with pytest.raises(ValueError):
        vr.apply_flight(s, fl(0, 0, 0, E))
    with pytest.raises(ValueError):
        vr.apply_flight(s, fl(0, 2, 0, W))
    for d in range(6):
        with pytest.raises(ValueError):
            vr.apply_flight(s, fl(0, 1, 0, d))
    legal = vr.legal_flights(s)
    # Each of A, B: only the four one-tile flights NE, NW, SW, SE.
    assert sorted((f["tile"][0], f["dir"]) for f in legal) == [
        (0, NE), (0, NW), (0, SW), (0, SE), (2, NE), (2, NW), (2, SW), (2, SE)]


def test_entry_with_occupied_start_cell_is_illegal():
    # Row A B C, volcano (1,1). Entering B flying E starts on A (occupied): illegal,
    # never re-read as the shorter flight B, C. Same for W (start on C).
    # B NW starts on the volcano (illegal), B SE runs into the volcano (illegal).
    s = vr.parse_position(row_abc(5, [1, 0, 0, 0]))
    for d in (E, W, NW, SE):
        with pytest.raises(ValueError):
            vr.apply_flight(s, fl(0, 1, 0, d))
    assert sorted(f["dir"] for f in vr.legal_flights(s) if f["tile"] == [1, 0]) == [NE, SW]
    # Entry on an empty cell, bad colour, bad direction, colour without pawns.
    assert fl(0, 0, 0, NE) in vr.legal_flights(s)
    for bad in (fl(0, 5, 5, E), fl(4, 0, 0, NE), fl(0, 0, 0, 6), fl(1, 0, 0, NE)):
        with pytest.raises(ValueError):
            vr.apply_flight(s, bad)


def test_path_over_full_tiles_only_is_illegal():
    # X(0,0) full (n=1, 1 pawn); NE (1,-1) is the volcano, NW, SW, SE hold tiles with
    # space; only E and W are free (opposite edges, so X is settled). The flights E
    # and W into X have the one-tile path [X] with no space: illegal. Every other
    # direction starts on an occupied cell. So X is never an entry tile.
    tiles = [(0, 0, 1, 1), (0, -1, 5), (-1, 1, 5), (0, 1, 5)]
    s = vr.parse_position(pos(tiles, (1, -1), [1, 0, 0, 0]))
    for d in range(6):
        with pytest.raises(ValueError):
            vr.apply_flight(s, fl(0, 0, 0, d))
    assert [f for f in vr.legal_flights(s) if f["tile"] == [0, 0]] == []
    # X is still crossed by flights entering elsewhere, e.g. SE from (0,-2) over
    # (0,-1), X, (0,1): X is skipped and the one pawn lands on (0,-1).
    after, _ = vr.apply_flight(s, fl(0, 0, -1, SE))
    assert pawns(after) == {(0, -1): 1, (0, 0): 1, (-1, 1): 0, (0, 1): 0}


# ---------------------------------------------------------------- removals

def test_extinguish_needs_adjacent_free_edges():
    # X(0,0), n=1. Neighbours NE (1,-1)=volcano, NW (0,-1), SW (-1,1), SE (0,1) are
    # tiles; only E and W are free: opposite edges, so the full X stays.
    tiles = [(0, 0, 1), (0, -1, 5), (-1, 1, 5), (0, 1, 5)]
    s = vr.parse_position(pos(tiles, (1, -1), [1, 0, 0, 0]))
    after, lost = vr.apply_flight(s, fl(0, 0, 0, E))  # path X only: (1,0) is empty
    assert not lost and pawns(after)[(0, 0)] == 1
    assert vr.status(after) == "loss"  # supply empty, forest remains
    # Without the SE tile, X's free edges E and SE are adjacent (5 and 0 wrap): removed.
    # (-1,1) then hangs only on X: isolated, but it has a pawn, so that is fine.
    tiles = [(0, 0, 1), (0, -1, 5), (-1, 1, 5, 1)]
    s = vr.parse_position(pos(tiles, (1, -1), [1, 0, 0, 0]))
    after, lost = vr.apply_flight(s, fl(0, 0, 0, E))
    assert not lost
    assert pawns(after) == {(0, -1): 0}


def test_removal_cascades_into_another_extinguish():
    # Y(0,0) full (n=1, 1 pawn) with neighbours Z(1,0) E, volcano (0,-1) NW, W'(-1,1) SW:
    # free edges NE, W, SE are non-adjacent (settled). Flight W into Z from (2,0):
    # path Z, Y; Z gets the pawn and is extinguished; then Y has free E and NE
    # (adjacent) and is extinguished too; W'(-1,1) is cut off: it has a pawn, fine.
    p = pos([(0, 0, 1, 1), (1, 0, 1), (-1, 1, 5, 1)], (0, -1), [1, 0, 0, 0])
    s = vr.parse_position(p)
    assert vr.settled(s)
    after, lost = vr.apply_flight(s, fl(0, 1, 0, W))
    assert not lost and after.tiles == ()
    assert vr.status(after) == "win"
    # The same with W' pawnless: the last forest tile goes but a pawnless tile was
    # isolated by that flight, so the game is lost.
    p = pos([(0, 0, 1, 1), (1, 0, 1), (-1, 1, 5, 0)], (0, -1), [1, 0, 0, 0])
    after, lost = vr.apply_flight(vr.parse_position(p), fl(0, 1, 0, W))
    assert lost and after.tiles == () and vr.status(after) == "loss"
    # And no flight is allowed after a loss.
    with pytest.raises(ValueError):
        vr.apply_flight(after, fl(0, 1, 0, W))
    assert vr.legal_flights(after) == []


@pytest.mark.parametrize("b_pawns,expected", [(1, "win"), (0, "loss")])
def test_isolation_with_and_without_pawns(b_pawns, expected):
    # V(0,0) A(1,0) B(2,0). Filling A (NE, one-tile path) extinguishes it and cuts
    # B off. B with a pawn: removed and credited -> win. B pawnless: loss at once.
    p = pos([(1, 0, 1), (2, 0, 5, b_pawns)], (0, 0), [1, 0, 0, 0])
    after, lost = vr.apply_flight(vr.parse_position(p), fl(0, 1, 0, NE))
    assert after.tiles == ()
    assert lost == (expected == "loss")
    assert vr.status(after) == expected


# ---------------------------------------------------------------- end of game

def test_no_forest_tiles_is_a_win_with_empty_line():
    p = pos([], (0, 0), [0, 0, 0, 0])
    assert vr.status(vr.parse_position(p)) == "win"
    assert vr.solve(p) == {"verdict": "win", "line": []}
    assert vr.replay(p, []) == "win"


def test_empty_supply_with_forest_left_is_a_loss():
    p = pos([(1, 0, 5)], (0, 0), [0, 0, 0, 0])
    s = vr.parse_position(p)
    assert vr.legal_flights(s) == []
    assert vr.status(s) == "loss"
    assert vr.solve(p) == {"verdict": "loss", "line": None}


# ---------------------------------------------------------------- tiny solves

def test_solve_single_tile():
    # V(0,0) A(1,0): A can be flown alone NE, NW, SW, SE (E starts on V, W crosses V).
    p = pos([(1, 0, 1)], (0, 0), [1, 0, 0, 0])
    s = vr.parse_position(p)
    assert sorted(f["dir"] for f in vr.legal_flights(s)) == [NE, NW, SW, SE]
    assert len(vr.distinct_children(s)) == 1
    res = vr.solve(p)
    assert res["verdict"] == "win" and len(res["line"]) == 1
    assert vr.replay(p, res["line"]) == "win"


def test_solve_outer_tile_first():
    # V(0,0) A(1,0) B(2,0), 1 space each. Only one-tile flights exist (the row
    # crosses or starts on V). Filling A first isolates pawnless B: loss. So one
    # pawn loses, two pawns win only as B then A, and two colours work as well.
    p = pos([(1, 0, 1), (2, 0, 1)], (0, 0), [1, 0, 0, 0])
    assert vr.solve(p) == {"verdict": "loss", "line": None}
    p["supply"] = [2, 0, 0, 0]
    res = vr.solve(p)
    assert res["verdict"] == "win"
    assert [f["tile"] for f in res["line"]] == [[2, 0], [1, 0]]
    assert vr.replay(p, res["line"]) == "win"
    assert vr.replay(p, [fl(0, 1, 0, NE)]) == "loss"
    p["supply"] = [1, 1, 0, 0]
    res = vr.solve(p)
    assert res["verdict"] == "win"
    assert sorted(f["color"] for f in res["line"]) == [0, 1]


@pytest.mark.parametrize("supply,verdict", [
    ([2, 0, 0, 0], "loss"),   # 3 one-space tiles need 3 pawns (a pawn makes a tile full)
    ([3, 0, 0, 0], "win"),    # one flight E along the row fills all three
    ([2, 1, 0, 0], "win"),    # A+B with colour 0 from the A end, then C
    ([1, 1, 1, 0], "win"),    # one tile at a time, A or C before B
    ([0, 0, 0, 3], "win"),    # colour indices as given
])
def test_solve_row_of_three(supply, verdict):
    p = row_abc(1, supply)
    res = vr.solve(p)
    assert res["verdict"] == verdict
    if verdict == "win":
        assert vr.replay(p, res["line"]) == "win"
    else:
        assert res["line"] is None


def test_replay_rejects_illegal_and_reports_ongoing():
    p = row_abc(1, [1, 1, 1, 0])
    assert vr.replay(p, []) == "ongoing"
    assert vr.replay(p, [fl(0, 0, 0, NE)]) == "ongoing"
    with pytest.raises(ValueError):
        vr.replay(p, [fl(0, 1, 0, E)])               # start cell occupied
    with pytest.raises(ValueError):
        vr.replay(p, [fl(0, 0, 0, NE), fl(0, 2, 0, NE)])  # colour 0 used up
    with pytest.raises(ValueError):
        vr.replay(p, [fl(0, 1, 0, NE), fl(1, 0, 0, NE)])  # B first: lost, then nothing


def test_parse_rejects_bad_layouts():
    with pytest.raises(ValueError):  # disconnected tile
        vr.parse_position(pos([(1, 0, 1), (5, 5, 1)], (0, 0)))
    with pytest.raises(ValueError):  # unsettled: full tile with adjacent free edges
        vr.parse_position(pos([(1, 0, 1, 1)], (0, 0)))
    with pytest.raises(ValueError):  # tile on the volcano cell
        vr.parse_position(pos([(0, 0, 1)], (0, 0)))
    with pytest.raises(ValueError):  # duplicate cell
        vr.parse_position(pos([(1, 0, 1), (1, 0, 2)], (0, 0)))
    with pytest.raises(ValueError):  # pawns above spaces
        vr.parse_position(pos([(1, 0, 1, 2)], (0, 0)))
    # Defaults: spaces by n, pawns 0, supply 12 x 4.
    s = vr.parse_position({"tiles": [{"q": 1, "r": 0, "n": 6}], "volcano": {"q": 0, "r": 0}})
    assert s.tiles == ((1, 0, 6, 3, 0),) and s.supply == (12, 12, 12, 12)
    assert vr.parse_position(vr.to_position(s)) == s


# ---------------------------------------------------------------- random layouts

def _components(cells):
    cells = set(cells)
    seen, groups = set(), 0
    for start in cells:
        if start in seen:
            continue
        groups += 1
        stack = [start]
        seen.add(start)
        while stack:
            q, r = stack.pop()
            for dq, dr in vr.DIRECTIONS:
                nb = (q + dq, r + dr)
                if nb in cells and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
    return groups


def test_random_layouts_are_connected_single_volcano_and_settled():
    holes = lines = with_pawns = 0
    for seed in range(300):
        rng = random.Random(seed)
        n_forest = seed % 11
        p = vr.random_free_layout(rng, n_forest, [2, 2, 0, 0])
        assert set(p) == {"tiles", "volcano", "supply"}
        volcano = (p["volcano"]["q"], p["volcano"]["r"])
        cells = [(t["q"], t["r"]) for t in p["tiles"]]
        assert len(cells) == n_forest and len(set(cells)) == n_forest
        assert volcano not in cells
        assert all(1 <= t["n"] <= 6 for t in p["tiles"])
        assert _components(cells + [volcano]) == 1
        s = vr.parse_position(p)  # raises if disconnected or unsettled
        assert vr.settled(s)
        assert p["supply"] == [2, 2, 0, 0]
        assert vr.parse_position(p) == s  # deterministic parse
        assert vr.random_free_layout(random.Random(seed), n_forest, [2, 2, 0, 0]) == p
        occ = set(cells) | {volcano}
        if any(all((q + dq, r + dr) in occ for dq, dr in vr.DIRECTIONS)
               for q, r in {(q + dq, r + dr) for q, r in occ for dq, dr in vr.DIRECTIONS} - occ):
            holes += 1
        if len(occ) >= 4 and any(
                all((q0 + k * dq, r0 + k * dr) in occ for k in range(len(occ)))
                for (q0, r0) in occ for (dq, dr) in vr.DIRECTIONS):
            lines += 1
        if any(t.get("pawns", 0) for t in p["tiles"]):
            with_pawns += 1
    assert holes > 5 and lines > 5 and with_pawns > 5


# ---------------------------------------------------------------- self-consistency

def _naive_wins(state):
    """Plain minimax over distinct children, no memo."""
    if state.lost:
        return False
    if not state.tiles:
        return True
    return any(_naive_wins(child) for child in vr.distinct_children(state))


def test_legal_flights_match_apply_flight_and_children():
    for seed in range(40):
        rng = random.Random(1000 + seed)
        p = vr.random_free_layout(rng, 1 + seed % 7, [1, 0, 2, 0])
        s = vr.parse_position(p)
        legal = vr.legal_flights(s)
        cells = {(t[0], t[1]) for t in s.tiles} | {s.volcano}
        ring = cells | {(q + dq, r + dr) for q, r in cells for dq, dr in vr.DIRECTIONS}
        accepted = []
        for c, cell, d in itertools.product(range(4), sorted(ring), range(6)):
            f = fl(c, cell[0], cell[1], d)
            try:
                vr.apply_flight(s, f)
            except ValueError:
                continue
            accepted.append(f)
        key = lambda f: (f["color"], tuple(f["tile"]), f["dir"])  # noqa: E731
        assert sorted(map(key, legal)) == sorted(map(key, accepted))
        children = vr.distinct_children(s)
        merged = [f for fs in children.values() for f in fs]
        assert sorted(map(key, merged)) == sorted(map(key, legal))
        for child, fs in children.items():
            for f in fs:
                assert vr.apply_flight(s, f)[0] == child


def test_solve_agrees_with_naive_search_on_random_layouts():
    verdicts = set()
    for seed in range(100):
        rng = random.Random(seed)
        p = vr.random_free_layout(rng, rng.randint(0, 5), [rng.randint(0, 3), rng.randint(0, 1), 0, 0])
        res = vr.solve(p)
        verdicts.add(res["verdict"])
        assert res["verdict"] == ("win" if _naive_wins(vr.parse_position(p)) else "loss")
        if res["verdict"] == "win":
            assert vr.replay(p, res["line"]) == "win"
        else:
            assert res["line"] is None
        assert vr.solve(p) == res  # deterministic
    assert verdicts == {"win", "loss"}


def test_children_are_settled():
    # After the extinguish fixpoint and the isolation step nothing else is removable:
    # isolated tiles were never adjacent to the volcano's group, so no survivor
    # gains a free edge. Every child that is not lost must read as settled.
    for seed in range(40):
        rng = random.Random(2000 + seed)
        s = vr.parse_position(vr.random_free_layout(rng, 2 + seed % 7, [3, 1, 0, 0]))
        for child in vr.distinct_children(s):
            assert child.lost or vr.settled(child)
            if not child.lost:
                assert vr.parse_position(vr.to_position(child)) == child


def test_solve_eight_tile_layouts():
    # Larger free layouts with one colour: wins replay to a win; a loss is checked one
    # level down (every distinct child is lost at once or is itself a solved loss).
    verdicts = []
    for seed in range(8):
        p = vr.random_free_layout(random.Random(700 + seed), 8, [12, 0, 0, 0])
        res = vr.solve(p)
        verdicts.append(res["verdict"])
        if res["verdict"] == "win":
            assert vr.replay(p, res["line"]) == "win"
        else:
            for child in vr.distinct_children(vr.parse_position(p)):
                assert child.lost or vr.solve(vr.to_position(child))["verdict"] == "loss"
    assert "win" in verdicts and "loss" in verdicts
