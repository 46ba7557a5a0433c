"""The independent Fire Tower rules (tests/firetower_reference.py) against
every hand-checked count of the spec's section 13, with the squares where
the spec lists them; the engine is checked against this reference."""

from __future__ import annotations

import pytest

import firetower_reference as ref

EMPTY = "." * 16


def board(rows: dict[int, str]) -> ref.Board:
    """A board from its non-empty rows; the Eternal Flame is always there."""
    lines = [rows.get(r, EMPTY) for r in range(16)]
    for r in (7, 8):
        lines[r] = lines[r][:7] + "EE" + lines[r][9:]
    return ref.Board.parse(lines)


T1 = board({})
T2 = board({2: "..F.............", 3: "..F#............", 4: "...FF.H.........", 5: ".#..F...........",
            6: "....FF..........", 7: "......F........."})
T3 = board({1: ".............F..", 2: "...........FFFF.", 3: ".............F.."})
# The Level 7 start of section 3, as drawn there.
LEVEL7_PICTURE = ["............#...", "............H...", "............#...", "...........#H#H#",
                  "...........H#...", "................", "................", ".......EE.......",
                  ".......EE.......", "................", "................", "...#H......H#...",
                  "#H#H#......#H#H#", "...#........#...", "...H........H...", "...#........#..."]
LEVEL7 = {"firebreaks": [[3, 0], [3, 2], [2, 3], [0, 3], [4, 3], [3, 4]], "hawks": [[3, 1], [1, 3], [3, 3], [4, 4]]}


def sq(*cells) -> list[list[int]]:
    return [list(c) for c in sorted(cells)]


def moved(moves: list[dict]) -> list[list[list[int]]]:
    return [m["squares"] for m in moves]


def level_board(level: dict) -> ref.Board:
    """An enemy tower's squares in its local frame (a rows from its back
    corner row, b columns from its back corner column), for NE, SW, SE."""
    frames = [lambda a, b: (a, 15 - b), lambda a, b: (15 - a, b), lambda a, b: (15 - a, 15 - b)]
    return ref.Board(set(), {f(a, b) for f in frames for a, b in level["firebreaks"]},
                     {f(a, b) for f in frames for a, b in level["hawks"]})


# ------------------------------------------------------------ T1: only the Eternal Flame


@pytest.mark.parametrize("wind", "NESW")
def test_t1_wind_gem(wind):
    assert len(ref.wind_gem(T1, wind)) == 2
    if wind == "N":
        assert [m["square"] for m in ref.wind_gem(T1, "N")] == [[6, 7], [6, 8]]


@pytest.mark.parametrize("gem", ["NE", "NW", "SE", "SW"])
def test_t1_wind_card_gem(gem):
    targets = ref.gem_targets(T1, gem)
    assert len(targets) == 3
    if gem == "NE":
        assert targets == [(6, 8), (6, 9), (7, 9)]


@pytest.mark.parametrize("rule, count", [(ref.flare_up, 40), (ref.burning_snag, 20), (ref.crown_fire, 28),
                                         (ref.crown_fire_double, 192), (ref.explosion, 0), (ref.ember, 0),
                                         (ref.rolling_firebrand, 0), (ref.air_drop, 0), (ref.fire_engine, 0),
                                         (ref.smokejumper, 0), (ref.helitack, 0)],
                         ids=lambda v: getattr(v, "__name__", str(v)))
def test_t1_counts(rule, count):
    assert len(rule(T1)) == count


def test_t1_creeping_fires_takes_3_of_the_4_frontier_pairs():
    moves = ref.creeping_fires(T1)
    assert len(moves) == 32 and all(len(m["squares"]) == 3 for m in moves)


def test_t1_inferno():
    assert (len(ref.inferno_flare_up(T1)), len(ref.inferno_burning_snag(T1)), len(ref.inferno_explosion(T1))) == \
        (4, 2, 0)
    assert ref.inferno_storm(T1, "N") == [(6, 7)] and ref.inferno_storm(T1, "W") == [(7, 6)]


@pytest.mark.parametrize("d", "NESW")
def test_t1_firestorm(d):
    assert len(ref.firestorm(T1, d)) == 2


def test_t1_de_reforest_add_everywhere_but_the_flame_and_the_nw_area():
    assert len(ref.de_reforest(T1)) == 243 == 256 - 4 - 9


# ------------------------------------------------------------ T2: fire in the NW quadrant


def test_t2_wind_gem():
    assert [len(ref.wind_gem(T2, w)) for w in "NESW"] == [6, 6, 7, 7]
    assert [m["square"] for m in ref.wind_gem(T2, "N")] == sq((1, 2), (3, 4), (5, 5), (6, 6), (6, 7), (6, 8))


def test_t2_wind_card_gem():
    assert [len(ref.gem_targets(T2, g)) for g in ("NE", "NW", "SE", "SW")] == [11, 5, 5, 11]


def test_t2_flare_up_pieces_at_firebreaks():
    moves = moved(ref.flare_up(T2))
    assert len(moves) == 94
    for legal in (sq((3, 4)), sq((3, 1)), sq((4, 5)), sq((5, 5), (5, 6)), sq((4, 5), (4, 6), (4, 7))):
        assert legal in moves, legal
    assert sq((3, 5), (3, 6)) not in moves


def test_t2_burning_snag_jumps_firebreaks():
    moves = moved(ref.burning_snag(T2))
    assert len(moves) == 51 and sq((4, 1), (4, 2), (5, 2)) in moves


def test_t2_crown_fire():
    assert (len(ref.crown_fire(T2)), len(ref.crown_fire_double(T2))) == (64, 327)


def test_t2_creeping_fires():
    assert len(ref.creeping_fires(T2)) == 997


def test_t2_explosion_on_every_gem():
    assert len(ref.explosion(T2)) == 8
    assert ref.explosion_fills(T2, (4, 3)) == sq((3, 4), (4, 2), (5, 2), (5, 3))


def test_t2_ember_per_source():
    moves = ref.ember(T2)
    per = {}
    for m in moves:
        per[tuple(m["from"])] = per.get(tuple(m["from"]), 0) + 1
    assert len(moves) == 135
    assert per == {(3, 2): 19, (4, 3): 20, (4, 4): 18, (5, 4): 20, (6, 4): 18, (6, 5): 20, (7, 6): 20}


def test_t2_rolling_firebrand():
    got = {(tuple(map(tuple, m["pair"])), m["dir"]) for m in ref.rolling_firebrand(T2)}
    want = {(((2, 2), (3, 2)), "N"), (((2, 2), (3, 2)), "W"), (((4, 3), (4, 4)), "E"), (((4, 3), (4, 4)), "W"),
            (((4, 4), (5, 4)), "N"), (((4, 4), (5, 4)), "E"), (((5, 4), (6, 4)), "S"), (((5, 4), (6, 4)), "W"),
            (((6, 4), (6, 5)), "S"), (((6, 4), (6, 5)), "E"), (((6, 4), (6, 5)), "W")}
    assert got == want


def test_t2_water():
    assert [len(f(T2)) for f in (ref.air_drop, ref.fire_engine, ref.smokejumper, ref.helitack)] == [12, 14, 9, 45]
    # The Eternal Flame may be a Smokejumper's centre: [7,7] alone gives {[7,6]}.
    assert sq((7, 6)) in moved(ref.smokejumper(T2))
    sizes = [len(m) for m in moved(ref.helitack(T2))]
    assert (sizes.count(1), sizes.count(2), sizes.count(3)) == (7, 21, 17)


def test_t2_inferno():
    assert (len(ref.inferno_flare_up(T2)), len(ref.inferno_burning_snag(T2)), len(ref.inferno_explosion(T2))) == \
        (22, 12, 7)
    assert [m["center"] for m in ref.inferno_explosion(T2)].count([7, 6]) == 0  # only 3 NW squares there
    assert (len(ref.inferno_storm(T2, "N")), len(ref.inferno_storm(T2, "W"))) == (5, 6)


def test_t2_player_bucket():
    assert sorted(moved(ref.player_bucket(T2))) == [sq((2, 2)), sq((2, 2), (3, 2))]


def test_t2_de_reforest():
    moves = ref.de_reforest(T2)
    assert [sum(m["option"] == o for m in moves) for o in ("add", "remove")] == [227, 2]


def test_t2_hawk_follow_up():
    # After the Flare Up {[4,5],[4,6],[4,7]}, the hawk on [4,6] holds its gem.
    after = T2.copy()
    after.gems |= {(4, 5), (4, 6), (4, 7)}
    assert len(ref.hawk_destinations(after, (4, 6), own=True)) == 23
    assert len(ref.hawk_destinations(after, (4, 6), own=False)) == 16


# ------------------------------------------------------------ T3: the NE Bucket's tie


def test_t3_enemy_bucket_tie():
    lines = moved(ref.enemy_bucket(T3, "NE"))
    assert lines == [sq((1, 13), (2, 13), (3, 13)), sq((2, 12), (2, 13), (2, 14))]
    assert sq((2, 11), (2, 12), (2, 13)) not in lines


@pytest.mark.parametrize("rule, count", [(ref.flare_up, 82), (ref.burning_snag, 48), (ref.ember, 50),
                                         (ref.rolling_firebrand, 3), (ref.air_drop, 4), (ref.helitack, 7)],
                         ids=lambda v: getattr(v, "__name__", str(v)))
def test_t3_counts(rule, count):
    assert len(rule(T3)) == count


# ------------------------------------------------------------ the Level 7 start


def test_level7_board_is_the_spec_picture():
    assert level_board(LEVEL7) == ref.Board.parse(LEVEL7_PICTURE)


def test_level7_counts():
    b = ref.Board.parse(LEVEL7_PICTURE)
    moves = ref.de_reforest(b)
    assert [sum(m["option"] == o for m in moves) for o in ("add", "remove")] == [186, 18]
    for rule, count in [(ref.flare_up, 40), (ref.burning_snag, 20), (ref.crown_fire, 28), (ref.crown_fire_double, 192)]:
        assert len(rule(b)) == count, rule.__name__
    assert [len(ref.wind_gem(b, w)) for w in "NESW"] == [2, 2, 2, 2]


# ------------------------------------------------------------ on seeded random boards


def random_board(seed: int) -> ref.Board:
    import random

    rng = random.Random(seed)
    free = [s for s in ((r, c) for r in range(16) for c in range(16)) if s not in ref.EF]
    picked = rng.sample(free, 60)
    return ref.Board(set(picked[:40]), set(picked[40:52]), set(picked[52:]))


@pytest.mark.parametrize("seed", range(4))  # brute force: about 5 s a board
def test_every_move_keeps_to_its_squares_and_comes_once_in_order(seed):
    b = random_board(seed)
    for rule in (ref.flare_up, ref.burning_snag, ref.crown_fire, ref.creeping_fires):
        moves = rule(b)
        assert moves == ref.canonical(moves + moves[:3]), rule.__name__  # distinct, canonical order
        for m in moves:
            placed = [tuple(s) for s in m["squares"]]
            assert placed == sorted(placed) and all(b.placeable(s) for s in placed), (rule.__name__, m)
    for rule in (ref.air_drop, ref.fire_engine, ref.smokejumper, ref.helitack):
        for m in rule(b):
            assert m["squares"] and all(b.removable(tuple(s)) for s in m["squares"]), (rule.__name__, m)
    for m in ref.ember(b):
        assert ref.area_of(tuple(m["from"])) is None and b.placeable(tuple(m["to"]))
