"""Tests of Wild Fire!'s multi-player scoring in the C++ engine through
``smokejumper.wildfire.score``.

Scores and tie-breaks are checked against the independent reference
(``tests/wildfire_reference.py``: ``score``, ``tie_break`` and its region
values per colour) on random positions, and against values worked out by
hand on small tables. The 3-player game with the neutral fourth colour is
not in the reference: there it is checked against the reference on the
same table without the fourth colour.

Axial directions (spec order): E (+1,0), NE (+1,-1), NW (0,-1), W (-1,0),
SW (-1,+1), SE (0,+1). Default spaces: n=1,2 -> 1; 3,4 -> 2; 5,6 -> 3.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import wildfire_reference as ref
from smokejumper import InvalidPositionError, wildfire

RING = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]  # around (0, 0)


# ---------------------------------------------------------------- helpers

def table(colours: int, *tiles: tuple) -> dict:
    """A finished mid-game table: tiles (q, r, n, {colour: pawns}), 3 spaces each."""
    out = []
    for q, r, n, pawns in tiles:
        counts = [pawns.get(c, 0) for c in range(colours)]
        out.append({"q": q, "r": r, "n": n, "spaces": 3, "pawns": counts})
    return {"tiles": out, "turn": len(out) - 1, "supply": [0] * colours, "deal_rest": []}


def random_table(rng: random.Random) -> dict:
    """A random connected table of 1..24 tiles with random pawns, grown
    compactly half of the time so that many tiles lose every free edge.
    The engine does not check a table's history, so none is needed."""
    colours = rng.randint(1, 4)
    cells = [(0, 0)]
    for _ in range(rng.randint(0, 23)):
        taken = set(cells)
        frontier = sorted({(q + dq, r + dr) for q, r in cells for dq, dr in ref.DIRECTIONS} - taken)
        if rng.random() < 0.5:
            def crowd(cell):
                return sum((cell[0] + dq, cell[1] + dr) in taken for dq, dr in ref.DIRECTIONS)
            top = max(map(crowd, frontier))
            frontier = [cell for cell in frontier if crowd(cell) == top]
        cells.append(rng.choice(frontier))
    density = rng.random()
    tiles = []
    for q, r in cells:
        spaces = rng.randint(1, 3)
        pawns = [0] * colours
        for _ in range(spaces):
            if rng.random() < density:
                pawns[rng.randrange(colours)] += 1
        tiles.append({"q": q, "r": r, "n": rng.randint(1, 6), "spaces": spaces, "pawns": pawns})
    return {"tiles": tiles, "turn": len(tiles) - 1, "supply": [rng.randint(0, 3) for _ in range(colours)],
            "deal_rest": [{"n": rng.randint(1, 6)} for _ in range(rng.randint(0, 3))]}


def without_last_colour(position: dict) -> dict:
    """The table with the last colour's pawns taken off (the neutral colour
    of a 3-player game, removed before scoring)."""
    out = dict(position, supply=position["supply"][:-1])
    out["tiles"] = [dict(t, pawns=t["pawns"][:-1]) for t in position["tiles"]]
    return out


def check_regions(position: dict, result: wildfire.ScoreResult) -> None:
    """The regions tile each scored colour's pawns exactly, each region is
    connected and maximal, their values are the reference's per colour and
    add up to the scores and tie-breaks."""
    state = ref.parse(position)
    holding = {c: {(t["q"], t["r"]) for t in position["tiles"] if (t.get("pawns") or [0] * 4)[c]}
               for cs in result.colors for c in cs}
    for player, colours in enumerate(result.colors):
        mine = [g for g in result.regions if g.player == player]
        assert {g.color for g in mine} <= set(colours)
        assert result.scores[player] == sum(g.value for g in mine)
        assert result.tie_breaks[player] == max([g.value for g in mine], default=0)
        for c in colours:
            regions = [set(g.tiles) for g in mine if g.color == c]
            assert sorted(map(sorted, regions)) == sorted(map(sorted, ref._components(holding[c])))
            assert Counter(g.value for g in mine if g.color == c) == Counter(ref._region_values(state, c))
    for g in result.regions:
        assert g.tiles == sorted(g.tiles)
    firsts = [(g.color, g.tiles[0]) for g in result.regions]
    assert firsts == sorted(firsts)


def player_counts(colours: int) -> list[int]:
    return [p for p in range(1, colours + 1) if colours % p == 0]


def agree(position: dict) -> int:
    """Check every players count on ``position`` against the reference;
    return how many were checked."""
    colours = len(position["supply"])
    checked = 0
    for players in player_counts(colours):
        result = wildfire.score(position, players)
        assert result.scores == ref.score(position, players), (position, players)
        assert result.tie_breaks == ref.tie_break(position, players), (position, players)
        check_regions(position, result)
        checked += 1
    assert wildfire.score(position) == wildfire.score(position, colours)
    if colours == 4:
        result = wildfire.score(position, 3)
        bare = without_last_colour(position)
        assert result.colors == [[0], [1], [2]]
        assert result.scores == ref.score(bare, 3), position
        assert result.tie_breaks == ref.tie_break(bare, 3), position
        assert all(g.color != 3 for g in result.regions)
        check_regions(position, result)
        checked += 1
    return checked


# ---------------------------------------------------------------- against the reference

def test_agrees_with_reference_on_random_midgames():
    # random_midgame's losses are random playouts (pawn moves favoured),
    # its wins prefixes of winning lines; both are positions a game reaches.
    rng = random.Random(7)
    by_players = Counter()
    nonzero = 0
    for k in range(300):
        colours = (1, 2, 3, 4)[k % 4]
        # Wins with one or two colours only (more take the reference long).
        want = "win" if k % 8 < 2 else "loss"
        position = ref.random_midgame(rng, rng.randint(4, 8), want=want, level=rng.choice([1, 1, 2]),
                                      colours=colours, max_pawns=rng.randint(2, 8),
                                      random_spaces=rng.random() < 0.5)
        by_players[colours] += agree(position)
        nonzero += any(ref.score(position))
    assert by_players == {1: 75, 2: 150, 3: 150, 4: 300}
    assert nonzero >= 250


def test_agrees_with_reference_on_random_crowded_tables():
    # Larger tables than a game of the reference's size reaches: closed
    # tiles, several regions per colour, shared tiles.
    rng = random.Random(11)
    seen = Counter()
    for _ in range(250):
        position = random_table(rng)
        agree(position)
        result = wildfire.score(position, 1)
        number = {(t["q"], t["r"]): t["n"] for t in position["tiles"]}
        for g in result.regions:
            numbers = [number[c] for c in g.tiles]
            open_numbers = [number[c] for c in g.tiles if ref._free_edges(c, number) > 0]
            seen["no free edge"] += not open_numbers
            seen["closed tile smaller"] += bool(open_numbers) and min(numbers) < min(open_numbers)
            seen["rounded down"] += bool(open_numbers) and sum(numbers) % min(open_numbers) > 0
        seen["split colour"] += len({g.color for g in result.regions}) < len(result.regions)
    # The cases the rules single out all occur many times.
    assert min(seen.values()) >= 40 and len(seen) == 4, seen


def test_the_order_of_the_tiles_changes_nothing():
    rng = random.Random(3)
    for _ in range(50):
        position = random_table(rng)
        tiles = list(position["tiles"])
        rng.shuffle(tiles)
        shuffled = dict(position, tiles=tiles)
        for players in player_counts(len(position["supply"])):
            assert wildfire.score(shuffled, players) == wildfire.score(position, players)


# ---------------------------------------------------------------- by hand

def test_value_is_rounded_down():
    # 2 + 5 = 7 over the smallest open number 2: 3 (3.5 rounded down).
    position = table(1, (0, 0, 2, {0: 1}), (1, 0, 5, {0: 2}))
    result = wildfire.score(position)
    assert result.scores == [3] == ref.score(position)
    assert [(g.tiles, g.value) for g in result.regions] == [([(0, 0), (1, 0)], 3)]


def test_region_without_a_free_edge_scores_zero():
    # Colour 0 holds only the surrounded centre; colour 1 a tile of the ring.
    position = table(2, (0, 0, 6, {0: 3}), *((q, r, 4, {1: 1} if (q, r) == (1, 0) else {})
                                             for q, r in RING))
    result = wildfire.score(position)
    assert result.scores == [0, 1] == ref.score(position)
    assert result.tie_breaks == [0, 1]
    assert [(g.color, g.tiles, g.value) for g in result.regions] == [(0, [(0, 0)], 0), (1, [(1, 0)], 1)]


def test_divisor_is_the_smallest_number_among_open_tiles_only():
    # The 1 in the middle is closed, so it does not divide: (1 + 4 + 6) / 4.
    ring = [(q, r, 6 if (q, r) == (1, -1) else 4, {0: 1} if (q, r) in ((1, 0), (1, -1)) else {})
            for q, r in RING]
    position = table(1, (0, 0, 1, {0: 1}), *ring)
    result = wildfire.score(position)
    assert result.scores == [11 // 4] == ref.score(position)
    assert result.regions[0].tiles == [(0, 0), (1, -1), (1, 0)]
    # Open the 1 by taking a ring tile away: now it divides, 11 / 1.
    opened = table(1, (0, 0, 1, {0: 1}), *ring[:-1])
    assert wildfire.score(opened).scores == [11] == ref.score(opened)


def test_two_regions_of_one_colour_add_up():
    # (2 + 6) / 2 = 4 and, past an empty 3, (3 + 5) / 3 = 2.
    position = table(1, (0, 0, 2, {0: 1}), (1, 0, 6, {0: 1}), (2, 0, 3, {}), (3, 0, 3, {0: 1}),
                     (4, 0, 5, {0: 1}))
    result = wildfire.score(position)
    assert result.scores == [6] == ref.score(position)
    assert result.tie_breaks == [4] == ref.tie_break(position)
    assert [(g.tiles, g.value) for g in result.regions] == [([(0, 0), (1, 0)], 4), ([(3, 0), (4, 0)], 2)]


def test_colours_sharing_a_tile_both_count_it():
    # The 6 holds both colours: colour 0 (2 + 6) / 2 = 4, colour 1 (6 + 3) / 3 = 3.
    position = table(2, (0, 0, 2, {0: 1}), (1, 0, 6, {0: 1, 1: 1}), (2, 0, 3, {1: 2}))
    result = wildfire.score(position)
    assert result.scores == [4, 3] == ref.score(position)
    assert [(g.color, g.tiles) for g in result.regions] == [(0, [(0, 0), (1, 0)]), (1, [(1, 0), (2, 0)])]
    # One player with both colours scores each colour's region on its own.
    assert wildfire.score(position, 1).scores == [7] == ref.score(position, 1)
    assert wildfire.score(position, 1).tie_breaks == [4]


def test_players_split_the_colours_in_index_order():
    position = table(4, (0, 0, 1, {0: 1, 3: 1}), (1, 0, 6, {1: 1, 2: 1}), (2, 0, 5, {2: 1, 3: 2}))
    four = wildfire.score(position, 4)
    assert four.colors == [[0], [1], [2], [3]]
    # Colour 2: (6 + 5) / 5 = 2; colour 3: two 1-point regions (the 1 and the 5).
    assert four.scores == [1, 1, 2, 2] == ref.score(position, 4)
    two = wildfire.score(position, 2)
    assert two.colors == [[0, 1], [2, 3]]
    assert two.scores == [2, 4] == ref.score(position, 2)
    assert two.tie_breaks == [1, 2] == ref.tie_break(position, 2)
    assert [g.player for g in two.regions] == [0, 0, 1, 1, 1]


def test_three_players_leave_the_neutral_fourth_colour_out():
    # Colour 3's pawns join nothing and score for nobody.
    position = table(4, (0, 0, 1, {0: 1, 3: 1}), (1, 0, 4, {3: 1}), (2, 0, 5, {0: 1, 3: 1}))
    result = wildfire.score(position, 3)
    assert result.colors == [[0], [1], [2]]
    assert result.scores == [2, 0, 0]
    assert [(g.color, g.tiles) for g in result.regions] == [(0, [(0, 0)]), (0, [(2, 0)])]
    # Three colours and three players: one each, as the reference has it.
    bare = without_last_colour(position)
    assert wildfire.score(bare, 3).scores == ref.score(bare, 3) == [2, 0, 0]


def test_any_position_form_scores_its_table():
    assert wildfire.score({"deal": [{"n": 1}, {"n": 5}]}).model_dump() == {
        "colors": [[0], [1], [2], [3]], "scores": [0, 0, 0, 0], "tie_breaks": [0, 0, 0, 0], "regions": []}
    hidden = {"tiles": [{"q": 0, "r": 0, "n": 3, "pawns": [2]}, {"q": 0, "r": 1, "n": 4, "pawns": [1]}],
              "turn": 1, "supply": [4], "pool": [{"n": 2}], "turns_left": 1}
    assert wildfire.score(hidden).scores == [7 // 3] == ref.score(hidden)


@pytest.mark.parametrize("colours, players, needle", [
    (2, 3, "players: 3 does not fit 2 colours; allowed 1, 2"),
    (3, 2, "players: 2 does not fit 3 colours; allowed 1, 3"),
    (1, 2, "players: 2 does not fit 1 colours; allowed 1"),
    (4, 0, "players: 0 must be 1..4"),
    (4, 5, "players: 5 must be 1..4"),
])
def test_bad_players_count_is_refused(colours, players, needle):
    position = table(colours, (0, 0, 1, {0: 1}))
    with pytest.raises(InvalidPositionError, match=needle):
        wildfire.score(position, players)
    with pytest.raises(ValueError):
        ref.score(position, players)


@pytest.mark.parametrize("players", ["2", 2.0, True])
def test_players_must_be_an_integer(players):
    with pytest.raises(ValueError, match="players must be an integer"):
        wildfire.score(table(2, (0, 0, 1, {0: 1})), players)


def test_native_binding_refuses_bad_players_too():
    position = wildfire.load_position(table(4, (0, 0, 1, {0: 1}))).native()
    for players in (-1, 0, 5, 1 << 20):
        with pytest.raises(InvalidPositionError, match="players"):
            wildfire._native.score(position, players)
