"""Tests for the brute-force Wild Fire! reference (tests/wildfire_reference.py).

The hand-worked values are computed in the comments from
/work/shared/spec/wildfire.md, not read off the implementation.

Cells are axial (q, r); the neighbours of (q, r) are, in the spec's order,
E (q+1, r), NE (q+1, r-1), NW (q, r-1), W (q-1, r), SW (q-1, r+1), SE (q, r+1).
Default spaces: n=1,2 -> 1; n=3,4 -> 2; n=5,6 -> 3.
"""

import random

import pytest

import wildfire_reference as wf

DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
SPACES = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}
RING = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]   # the neighbours of (0, 0)


def deal(*numbers, supply=(0,), level=1):
    return {"deal": [{"n": n} for n in numbers], "level": level, "supply": list(supply)}


def mid(tiles, supply, rest=(), level=1):
    """Known-order mid-game; tiles are (q, r, n) or (q, r, n, pawns) or (q, r, n, pawns, spaces)."""
    out = []
    for t in tiles:
        d = {"q": t[0], "r": t[1], "n": t[2]}
        if len(t) > 3:
            d["pawns"] = list(t[3])
        if len(t) > 4:
            d["spaces"] = t[4]
        out.append(d)
    return {"tiles": out, "turn": len(tiles) - 1, "supply": list(supply), "level": level,
            "deal_rest": [{"n": n} for n in rest]}


def mv(place, color=None, tile=None, count=None):
    pawns = None if color is None else {"color": color, "tile": list(tile), "count": count}
    return {"place": list(place), "pawns": pawns}


def places(moves):
    return sorted({tuple(m["place"]) for m in moves})


def pawns_at(position):
    return {(t["q"], t["r"]): t["pawns"] for t in position["tiles"]}


def replay(position, line):
    for move in line:
        position = wf.apply(position, move)
    return position


# ---------------------------------------------------------------- hand-worked cases

def test_hottest_cell_and_ties():
    # Start 3 at (0,0): all six neighbours have heat 3, a six-way tie.
    p = deal(3, 5, 2)
    moves = wf.legal_moves(p)
    assert places(moves) == sorted(RING)
    assert all(m["pawns"] is None for m in moves)      # supply 0: no pawn moves
    # 5 at (1,0). Heat: (1,-1) and (0,1) touch both tiles, 3 + 5 = 8; (2,0), (2,-1),
    # (1,1) touch the 5 only (5); (0,-1), (-1,0), (-1,1) the 3 only (3). Tie of two.
    p1 = wf.apply(p, mv((1, 0)))
    assert p1["turn"] == 1 and p1["deal_rest"] == [{"n": 2, "spaces": 1}]
    assert places(wf.legal_moves(p1)) == [(0, 1), (1, -1)]
    with pytest.raises(ValueError, match="hottest"):
        wf.apply(p1, mv((2, 0)))
    # The new tile's own number does not count: a 6 to place instead of the 2
    # goes on the same cells.
    p6 = dict(p1, deal_rest=[{"n": 6}])
    assert places(wf.legal_moves(p6)) == [(0, 1), (1, -1)]
    # A tie broken by the player: either choice is accepted.
    assert (0, 1) in pawns_at(wf.apply(p1, mv((0, 1))))
    assert (1, -1) in pawns_at(wf.apply(p1, mv((1, -1))))


# A(0,0)=5 (3 spaces) with B(1,0)=6, C(0,-1)=6, D(-1,0)=6; a 4 to place.
# Heat: (1,-1) touches A, B, C: 17, the unique maximum ((-1,-1) touches C, D: 12;
# (0,1) touches A, B: 11; (-1,1) touches A, D: 11).  After the 4 lands on (1,-1),
# A's free edges are only SW (-1,1) and SE (0,1): 2 (it had 3 before).
CAP_TILES = [(0, 0, 5), (1, 0, 6), (0, -1, 6), (-1, 0, 6)]


def test_pawn_cap_counts_free_edges_after_placement():
    p = mid(CAP_TILES, [3, 3], rest=[4])
    moves = wf.legal_moves(p)
    assert places(moves) == [(1, -1)]
    counts = {}
    for m in moves:
        if m["pawns"]:
            key = (m["pawns"]["color"], tuple(m["pawns"]["tile"]))
            counts[key] = max(counts.get(key, 0), m["pawns"]["count"])
    # Caps min(spaces, free edges after placing): A min(3, 2) = 2; the new 4 at (1,-1)
    # min(2, 3) = 2 (free E, NE, NW); B (1,0) min(3, 4) = 3; C (0,-1) min(3, 3) = 3
    # (free NE, NW, W); D (-1,0) min(3, 4) = 3.
    for c in (0, 1):
        assert counts[(c, (0, 0))] == 2
        assert counts[(c, (1, -1))] == 2
        assert counts[(c, (1, 0))] == 3 and counts[(c, (0, -1))] == 3
        assert counts[(c, (-1, 0))] == 3
    assert len(moves) == 1 + 2 * (2 + 2 + 3 + 3 + 3)
    with pytest.raises(ValueError, match="free edges 2"):
        wf.apply(p, mv((1, -1), 0, (0, 0), 3))
    # The new tile takes pawns.
    after = wf.apply(p, mv((1, -1), 1, (1, -1), 2))
    assert pawns_at(after)[(1, -1)] == [0, 2] and after["supply"] == [3, 1]
    # The cap counts every colour: one pawn of colour 0 already on A leaves room for one.
    tiles = [(0, 0, 5, (1, 0))] + CAP_TILES[1:]
    q = mid(tiles, [2, 3], rest=[4])
    with pytest.raises(ValueError):
        wf.apply(q, mv((1, -1), 1, (0, 0), 2))
    assert pawns_at(wf.apply(q, mv((1, -1), 1, (0, 0), 1)))[(0, 0)] == [1, 1]


def test_pawns_stay_when_edges_close():
    # A tile holding 3 pawns with 2 free edges is a legal input, and stays as it is.
    tiles = [(0, 0, 5, (2, 1))] + CAP_TILES[1:] + [(1, -1, 4)]
    p = mid(tiles, [0, 0], rest=[1])
    for m in wf.legal_moves(p):
        assert pawns_at(wf.apply(p, m))[(0, 0)] == [2, 1]


def test_level_blocks_the_first_turns():
    # Level L: no pawns on turns 1..L-1 (turn 1 is the first draw after the start).
    for level, blocked in ((1, 0), (2, 1), (3, 2)):
        p = deal(1, 4, 4, 4, supply=[1], level=level)
        for turn in range(1, 4):
            moves = wf.legal_moves(p)
            with_pawns = [m for m in moves if m["pawns"]]
            assert (not with_pawns) == (turn <= blocked), (level, turn)
            if turn <= blocked:
                with pytest.raises(ValueError, match="no pawns"):
                    wf.apply(p, mv(moves[0]["place"], 0, (0, 0), 1))
            p = wf.apply(p, moves[0])
    # Mid-game: one turn played at level 3, so the next turn (2) is still blocked.
    p = mid([(0, 0, 1), (1, 0, 4)], [1], rest=[4, 4], level=3)
    assert all(m["pawns"] is None for m in wf.legal_moves(p))
    # Deal [1, 4], one pawn: at level 1 turn 1 puts it on the 1-tile (a win);
    # at level 2 the only turn is blocked (a loss).
    assert wf.solve(deal(1, 4, supply=[1], level=1))[0] == "win"
    assert wf.solve(deal(1, 4, supply=[1], level=2)) == ("loss", None)


def test_win_with_certificate():
    # Deal [1, 5, 4], two pawns of one colour.  The 1-tile has one space, so turn 1
    # puts one pawn on it (the 5 touches it wherever it goes); turn 2 puts the other
    # on the 5.  Region {1, 5} is connected and the 1 keeps free edges: a win.
    p = deal(1, 5, 4, supply=[2])
    verdict, line = wf.solve(p)
    assert verdict == "win" and len(line) == 2
    assert wf.is_won(replay(p, line))
    # By hand: 5 east of the 1, 4 on (1,-1) (heat 1 + 5 = 6, tied with (0,1)).
    end = replay(p, [mv((1, 0), 0, (0, 0), 1), mv((1, -1), 0, (1, 0), 1)])
    assert end["supply"] == [0] and end["deal_rest"] == []
    assert wf.is_won(end)
    assert wf.legal_moves(end) == []
    with pytest.raises(ValueError, match="over"):
        wf.apply(end, mv((0, 1)))
    # Two pawns both on the 5 leave the colour without a 1-tile: not a win.
    end = replay(p, [mv((1, 0), 0, (1, 0), 2), mv((1, -1))])
    assert not wf.is_won(end)
    # Four pawns: 1 on the 1, then 3 on the 5 (cap min(3, 4)): a win.  Five pawns: one
    # of the two turns must put a pawn on the 1-tile (1 space), so it places just that
    # one, and the other turn at most 3: 4 < 5, a loss.
    assert wf.solve(deal(1, 5, 4, supply=[5])) == ("loss", None)
    assert wf.solve(deal(1, 5, 4, supply=[4]))[0] == "win"


def test_loss_by_disconnected_region():
    # Row (0,0)=1, (1,0)=5, (2,0)=5; colour 0 on the 1 and on (2,0) but not (1,0):
    # two groups, not one region.
    split = mid([(0, 0, 1, [1]), (1, 0, 5, [0]), (2, 0, 5, [1])], [0])
    assert not wf.is_won(split)
    joined = mid([(0, 0, 1, [1]), (1, 0, 5, [1]), (2, 0, 5, [0])], [0])
    assert wf.is_won(joined)
    # Another colour on the middle tile does not join colour 0's groups.
    split2 = mid([(0, 0, 1, [1, 0], 2), (1, 0, 5, [0, 1]), (2, 0, 5, [1, 0])], [0, 0])
    assert not wf.is_won(split2)


def test_loss_when_the_one_tile_is_closed():
    # A 1 at (0,0) holding colour 0's pawn, 6-tiles on five of its neighbours, SE (0,1)
    # empty.  Heat at (0,1): 1 + 6 (E) + 6 (SW) = 13; any outer cell touches at most
    # two 6-tiles (12).  The last tile must close the 1: no free edge, a loss.
    tiles = [(0, 0, 1, [1])] + [(q, r, 6) for q, r in RING[:5]]
    p = mid(tiles, [0], rest=[2])
    assert wf.legal_moves(p) == [mv((0, 1))]
    end = wf.apply(p, mv((0, 1)))
    assert pawns_at(end)[(0, 0)] == [1]     # the pawn stays on the closed tile
    assert not wf.is_won(end)
    assert wf.solve(p) == ("loss", None)
    assert wf.score(end) == [0]             # a region with no free edge scores 0
    # Without that last tile the 1 still has its free edge: won.
    assert wf.is_won(dict(p, deal_rest=[]))


def test_colour_with_supply_zero_is_exempt():
    # Deal [1, 5]: one turn, one pawn on the 1-tile.  The other colour has none.
    assert wf.solve(deal(1, 5, supply=[1, 0]))[0] == "win"
    assert wf.solve(deal(1, 5, supply=[0, 1]))[0] == "win"
    # Both colours with a pawn: one turn places one colour only: a loss.
    assert wf.solve(deal(1, 5, supply=[1, 1])) == ("loss", None)
    # Supply 0 but pawns on the table is not exempt: colour 1 sits on a 5 without a 1.
    p = mid([(0, 0, 1, [1, 0]), (1, 0, 5, [0, 1])], [0, 0])
    assert not wf.is_won(p)


def test_colours_share_the_one_tile():
    # A 1-tile with 2 spaces; turn 1 puts colour 0 on it, turn 2 colour 1 (the 1 then
    # has two neighbours, 4 free edges, cap min(2, 4) = 2).
    p = {"deal": [{"n": 1, "spaces": 2}, {"n": 3}, {"n": 3}], "level": 1, "supply": [1, 1]}
    verdict, line = wf.solve(p)
    assert verdict == "win"
    end = replay(p, line)
    assert wf.is_won(end) and pawns_at(end)[(0, 0)] == [1, 1]
    # With the default single space the two colours cannot share it.
    assert wf.solve(deal(1, 3, 3, supply=[1, 1])) == ("loss", None)


def test_one_tile_deal():
    # A 1-tile deal has no turns: over at once, won only with an empty supply.
    for p in (deal(4, supply=[0, 0]), deal(1, supply=[0])):
        assert wf.legal_moves(p) == []
        assert wf.is_won(p)
        assert wf.solve(p) == ("win", [])
    for p in (deal(4, supply=[1]), deal(1, supply=[1, 0])):
        assert not wf.is_won(p)
        assert wf.solve(p) == ("loss", None)
        with pytest.raises(ValueError):
            wf.apply(p, mv((1, 0), 0, (0, 0), 1))


def test_is_won_refuses_an_unfinished_game():
    with pytest.raises(ValueError, match="not over"):
        wf.is_won(deal(1, 5, supply=[0]))


# Centre 1 (closed) with the ring E 5, NE 2, NW 1, W 4, SW 2, SE 6 (numbers ordered as RING).
# Pawns: colour 0 on E and NE; colour 1 on the centre and SE; colour 2 on NW and W;
# colour 3 on E and W (two separate regions).
SCORE_TILES = [
    (0, 0, 1, [0, 1, 0, 0]),
    (1, 0, 5, [1, 0, 0, 1]),
    (1, -1, 2, [1, 0, 0, 0]),
    (0, -1, 1, [0, 0, 1, 0]),
    (-1, 0, 4, [0, 0, 1, 1]),
    (-1, 1, 2, [0, 0, 0, 0]),
    (0, 1, 6, [0, 1, 0, 0]),
]


def test_score_and_tie_break():
    p = mid(SCORE_TILES, [0, 0, 0, 0])
    # Colour 0: {5, 2}, both open, 7 // 2 = 3.
    # Colour 1: {1 closed, 6 open}: 7 // 6 = 1 (the closed 1 is not a divisor).
    # Colour 2: {1, 4} open: 5 // 1 = 5.
    # Colour 3: {5} and {4}, not adjacent: 5 // 5 + 4 // 4 = 2.
    assert wf.score(p) == [3, 1, 5, 2]
    assert wf.score(p, players=4) == [3, 1, 5, 2]
    assert wf.tie_break(p) == [3, 1, 5, 1]
    # Two players: colours (0, 1) and (2, 3), each colour scored on its own.
    assert wf.score(p, players=2) == [4, 7]
    assert wf.tie_break(p, players=2) == [3, 5]
    assert wf.score(p, players=1) == [11]
    with pytest.raises(ValueError, match="divide"):
        wf.score(p, players=3)
    # The rulebook's blue region 6 + 4 + 2 with the 2 open: 12 // 2 = 6.
    row = mid([(0, 0, 2, [1]), (1, 0, 4, [1]), (2, 0, 6, [1])], [0])
    assert wf.score(row) == [6] and wf.tie_break(row) == [6]


def test_hidden_order():
    p = {"start": {"n": 3}, "pool": [{"n": 5}, {"n": 1}, {"n": 5}], "turns": 2,
         "level": 1, "supply": [1]}
    with pytest.raises(ValueError, match="drawn tile"):
        wf.legal_moves(p)
    with pytest.raises(ValueError, match="not in the pool"):
        wf.legal_moves(p, {"n": 2})
    # A 5 drawn: six tied cells; each with no pawns, or the pawn on the 3 (cap
    # min(2, 5)) or on the new 5 (cap min(3, 5)): 6 * 3 moves.
    moves = wf.legal_moves(p, {"n": 5})
    assert len(moves) == 18 and places(moves) == sorted(RING)
    after = wf.apply(p, mv((0, 1), 0, (0, 0), 1), {"n": 5})
    assert after["pool"] == [{"n": 1, "spaces": 1}, {"n": 5, "spaces": 3}]
    assert after["turns_left"] == 1 and after["turn"] == 1 and after["supply"] == [0]
    with pytest.raises(ValueError, match="not over"):
        wf.is_won(after)
    end = wf.apply(after, wf.legal_moves(after, {"n": 1})[0], {"n": 1})
    assert end["turns_left"] == 0 and end["pool"] == [{"n": 5, "spaces": 3}]
    assert not wf.is_won(end)              # colour 0 sits on the 3, no 1 in its region
    assert wf.legal_moves(end, {"n": 5}) == []
    with pytest.raises(ValueError, match="known-order"):
        wf.solve(p)
    # Known order: a given tile must be the deal's next one.
    with pytest.raises(ValueError, match="next tile"):
        wf.apply(deal(1, 5, supply=[0]), mv((1, 0)), {"n": 4})
    assert wf.apply(deal(1, 5, supply=[0]), mv((1, 0)), {"n": 5, "spaces": 3})["turn"] == 1


def test_defaults_and_round_trip():
    p = wf.parse({"deal": [{"n": 6}, {"n": 1}]})
    assert p.supply == (12, 12, 12, 12) and p.level == 1
    assert p.tiles == (((0, 0), 6, 3, (0, 0, 0, 0)),) and p.rest == ((1, 1),)
    for position in (deal(3, 5, 2, supply=[2, 1, 0, 0], level=2), mid(SCORE_TILES, [1, 0, 2, 0]),
                     {"start": {"n": 3}, "pool": [{"n": 5}], "turns": 1}):
        state = wf.parse(position)
        assert wf.parse(wf.to_position(state)) == state


GOOD = mid([(0, 0, 1), (1, 0, 5)], [1, 1], rest=[2])


def _with_tile(**changes):
    p = mid([(0, 0, 1), (1, 0, 5)], [1, 1], rest=[2])
    p["tiles"][1].update(changes)
    return p


@pytest.mark.parametrize("position, message", [
    ("deal", "object"),
    ({"deal": []}, "start tile"),
    ({"deal": [{"n": 0}]}, "n"),
    ({"deal": [{"n": 7}]}, "n"),
    ({"deal": [{"n": 3, "spaces": 0}]}, "spaces"),
    ({"deal": [{"n": 3, "spaces": 4}]}, "spaces"),
    ({"deal": [{"n": True}]}, "n"),
    ({"deal": [{"n": 3, "colour": 1}]}, "unknown key"),
    ({"deal": [{"n": 3}], "level": 0}, "level"),
    ({"deal": [{"n": 3}], "level": 4}, "level"),
    ({"deal": [{"n": 3}], "supply": [1, -1]}, "supply"),
    ({"deal": [{"n": 3}], "supply": []}, "supply"),
    ({"deal": [{"n": 3}], "supply": [1, 1, 1, 1, 1]}, "supply"),
    ({"deal": [{"n": 3}], "suply": [1]}, "unknown key"),
    ({"deal": [{"n": 3}], "start": {"n": 3}}, "exactly one"),
    ({"start": {"n": 3}, "pool": [{"n": 1}], "turns": 2}, "turns"),
    ({"start": {"n": 3}, "pool": [{"n": 1}]}, "turns"),
    (_with_tile(n=9), "n"),
    (_with_tile(pawns=[1]), "one count per colour"),
    (_with_tile(pawns=[2, 2]), "spaces"),
    (_with_tile(pawns=[0, -1]), "pawns"),
    (_with_tile(q=0, r=0), "already holds"),
    (_with_tile(q=2, r=0), "not connected"),
    (dict(GOOD, turn=2), "turn \\+ 1"),
    (dict(GOOD, pool=[{"n": 1}], turns_left=1), "not both"),
    ({k: v for k, v in GOOD.items() if k != "deal_rest"}, "deal_rest"),
    ({k: v for k, v in GOOD.items() if k != "turn"}, "turn"),
])
def test_invalid_positions_raise(position, message):
    with pytest.raises(ValueError, match=message):
        wf.parse(position)


def test_invalid_moves_raise():
    # GOOD: 1 at (0,0), 5 at (1,0), a 2 to come; hottest (1,-1) and (0,1) (heat 6).
    assert places(wf.legal_moves(GOOD)) == [(0, 1), (1, -1)]
    for bad in (
        {"place": [0, 1]},                               # "pawns" missing
        {"place": [0, 1], "pawns": None, "x": 1},        # unknown key
        mv((0, 0)),                                      # occupied cell
        mv((5, 5)),                                      # not next to the forest
        mv((0, 1), 2, (0, 0), 1),                        # colour out of range
        mv((0, 1), 0, (0, 0), 0),                        # count 0
        mv((0, 1), 0, (1, 0), 2),                        # more than the supply
        mv((0, 1), 0, (3, 3), 1),                        # no tile there
        {"place": [0, 1], "pawns": {"color": 0, "tile": [0, 0]}},
    ):
        with pytest.raises(ValueError):
            wf.apply(GOOD, bad)


# ---------------------------------------------------------------- a naive second method

def naive_wins(position):
    """Whether any move sequence wins: every sequence tried, no memo, own rules code.

    Reads a known-order start (``deal``) or mid-game (``tiles``) position.
    """
    if "deal" in position:
        first = position["deal"][0]
        supply = list(position["supply"])
        board = {(0, 0): (first["n"], first.get("spaces", SPACES[first["n"]]), [0] * len(supply))}
        rest, turn = position["deal"][1:], 0
    else:
        supply = list(position["supply"])
        board = {(t["q"], t["r"]): (t["n"], t.get("spaces", SPACES[t["n"]]), list(t["pawns"]))
                 for t in position["tiles"]}
        rest, turn = position["deal_rest"], position["turn"]
    rest = [(t["n"], t.get("spaces", SPACES[t["n"]])) for t in rest]
    return _naive(board, supply, rest, turn + 1, position["level"])


def _free(board, cell):
    return sum((cell[0] + dq, cell[1] + dr) not in board for dq, dr in DIRS)


def _naive(board, supply, rest, turn, level):
    if not rest:
        return _naive_goal(board, supply)
    heat = {}
    for (q, r), (n, _s, _p) in board.items():
        for dq, dr in DIRS:
            if (q + dq, r + dr) not in board:
                heat[(q + dq, r + dr)] = heat.get((q + dq, r + dr), 0) + n
    for cell in [c for c, h in heat.items() if h == max(heat.values())]:
        after = dict(board)
        after[cell] = (rest[0][0], rest[0][1], [0] * len(supply))
        if _naive(after, supply, rest[1:], turn + 1, level):
            return True
        if turn < level:
            continue
        for col in range(len(supply)):
            for tcell, (n, s, p) in after.items():
                for k in range(1, 4):
                    if k > supply[col] or sum(p) + k > min(s, _free(after, tcell)):
                        continue
                    with_pawns = dict(after)
                    with_pawns[tcell] = (n, s, [x + k * (i == col) for i, x in enumerate(p)])
                    left = [x - k * (i == col) for i, x in enumerate(supply)]
                    if _naive(with_pawns, left, rest[1:], turn + 1, level):
                        return True
    return False


def _naive_goal(board, supply):
    if sum(supply):
        return False
    for col in range(len(supply)):
        mine = [c for c, (_n, _s, p) in board.items() if p[col]]
        if not mine:
            continue
        seen, todo = {mine[0]}, [mine[0]]
        while todo:
            q, r = todo.pop()
            for dq, dr in DIRS:
                nb = (q + dq, r + dr)
                if nb in mine and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        if len(seen) != len(mine):
            return False
        if not any(board[c][0] == 1 and _free(board, c) for c in mine):
            return False
    return True


def test_naive_method_agrees_with_solve():
    rng = random.Random(2024)
    positions = [wf.random_deal(rng, rng.choice([3, 4, 4, 5]), colours=rng.randint(1, 3),
                                max_pawns=4, min_ones=rng.randint(0, 2),
                                random_spaces=i % 3 == 0)
                 for i in range(80)]
    positions += [wf.random_midgame(rng, rng.choice([5, 6]), colours=rng.randint(1, 3),
                                    max_pawns=4)
                  for _ in range(20)]
    verdicts = []
    for p in positions:
        verdict, line = wf.solve(p)
        assert (verdict == "win") == naive_wins(p), p
        verdicts.append(verdict)
    # Both answers are well represented.
    assert verdicts.count("win") >= 30 and verdicts.count("loss") >= 30


# ---------------------------------------------------------------- properties on random deals

def _positions(seed, count):
    rng = random.Random(seed)
    out = []
    for i in range(count):
        if i % 2:
            out.append(wf.random_midgame(rng, rng.randint(4, 7)))
        else:
            out.append(wf.random_deal(rng, rng.randint(3, 6), max_pawns=4,
                                      min_ones=rng.randint(0, 2), random_spaces=i % 4 == 0))
    return out


def test_certificates_replay_to_a_win():
    wins = 0
    for p in _positions(11, 60):
        verdict, line = wf.solve(p)
        if verdict == "win":
            wins += 1
            end = replay(p, line)
            assert end["deal_rest"] == [] and wf.is_won(end)
    assert wins >= 20


def test_random_midgame_gives_the_wanted_verdict():
    rng = random.Random(5)
    for i in range(30):
        want = ("win", "loss")[i % 2]
        p = wf.random_midgame(rng, rng.randint(4, 8), want=want)
        assert any(sum(t["pawns"]) for t in p["tiles"]) and p["deal_rest"]
        assert wf.solve(p)[0] == want


def _fuzz_moves(rng, position, count):
    """Random move dicts, legal or not, near the forest."""
    cells = [cell for cell, _n, _s, _p in wf.parse(position).tiles]
    near = sorted({(q + dq, r + dr) for q, r in cells for dq, dr in DIRS} - set(cells))
    colours = len(position["supply"])
    out = []
    for _ in range(count):
        place = rng.choice(near + [(9, 9)])
        if rng.random() < 0.2:
            out.append(mv(place))
            continue
        tile = rng.choice(cells + [place, (9, 9)])
        out.append(mv(place, rng.randint(-1, colours), tile, rng.randint(0, 4)))
    return out


def test_apply_accepts_exactly_the_legal_moves():
    rng = random.Random(3)
    for p in _positions(12, 24):
        for _ in range(3):        # a few turns into each game
            legal = wf.legal_moves(p)
            if not legal:
                break
            assert len({repr(m) for m in legal}) == len(legal)
            results = {repr(wf.apply(p, m)) for m in legal}
            assert len(results) == len(legal)           # distinct moves, distinct states
            for m in _fuzz_moves(rng, p, 60):
                try:
                    wf.apply(p, m)
                except ValueError:
                    assert m not in legal, m
                else:
                    assert m in legal, m
            p = wf.apply(p, rng.choice(legal))


def _permute(position, perm):
    """Colour c becomes perm[c]: the supply and every tile's pawns move with it."""
    def moved(values):
        out = [0] * len(values)
        for c, v in enumerate(values):
            out[perm[c]] = v
        return out
    q = dict(position, supply=moved(position["supply"]))
    if "tiles" in q:
        q["tiles"] = [dict(t, pawns=moved(t["pawns"])) for t in position["tiles"]]
    return q


def test_permuting_colours_keeps_the_verdict():
    rng = random.Random(13)
    for p in _positions(14, 40):
        perm = list(range(len(p["supply"])))
        rng.shuffle(perm)
        verdict, line = wf.solve(_permute(p, perm))
        assert verdict == wf.solve(p)[0]
        if verdict == "win":
            assert wf.is_won(replay(_permute(p, perm), line))


def test_hidden_order_with_the_same_draws_matches_known_order():
    # Drawing the deal's tiles in order from a pool gives the same moves and tables.
    rng = random.Random(21)
    for i in range(15):
        known = wf.random_deal(rng, rng.randint(2, 6), random_spaces=i % 2 == 0)
        extra = [{"n": rng.randint(1, 6)} for _ in range(rng.randint(0, 2))]
        hidden = {"start": known["deal"][0], "pool": known["deal"][1:] + extra,
                  "turns": len(known["deal"]) - 1, "level": known["level"],
                  "supply": known["supply"]}
        for drawn in known["deal"][1:]:
            moves = wf.legal_moves(known)
            assert wf.legal_moves(hidden, drawn) == moves
            move = rng.choice(moves)
            known, hidden = wf.apply(known, move), wf.apply(hidden, move, drawn)
            for key in ("tiles", "turn", "supply", "level"):
                assert known[key] == hidden[key]
            assert hidden["turns_left"] == len(known["deal_rest"])
        assert wf.legal_moves(hidden, extra[0] if extra else None) == []
        assert wf.is_won(known) == wf.is_won(hidden)
