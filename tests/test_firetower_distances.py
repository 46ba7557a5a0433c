"""The fire's distances that Fire Tower's search steers by (`fire_distances`):
the least cost of a path of gems from the fire to each back corner, where an
empty square costs 1, a hawk 3 and a firebreak 4 (docs/architecture.md,
"Fire Tower's search"). The engine floods the board as bitboard layers; the
reference below is a plain Dijkstra over the board's text, sharing nothing
with it, compared on thousands of seeded random boards."""

from __future__ import annotations

import heapq
import json
import os
import random

import pytest

from firetower_positions import board, position
from smokejumper import _core, firetower
from test_firetower_cross import random_board

CASES = int(os.environ.get("SMOKEJUMPER_CROSS_CASES", "480"))
CORNERS = {"NW": (0, 0), "NE": (0, 15), "SW": (15, 0), "SE": (15, 15)}
COST = {".": 1, "H": 3, "#": 4}
CODES = ".FE#HX"  # board_array's codes: X a hawk with the gem that activated it


def engine_rows(state: dict) -> list[str]:
    """The board as the engine holds it (a position's checks may already
    have changed it: an unused Bucket washes gems out of its area)."""
    return ["".join(CODES[x] for x in row) for row in firetower.board_array(state)]


def reference_distances(rows: list[str]) -> dict[str, int]:
    """Dijkstra from every fire square (a gem or the Flame) at cost 0;
    stepping onto a square costs that square's COST."""
    best = {(r, c): 0 for r in range(16) for c in range(16) if rows[r][c] in "FEX"}
    queue = [(0, sq) for sq in best]
    heapq.heapify(queue)
    while queue:
        d, (r, c) = heapq.heappop(queue)
        if d > best[(r, c)]:
            continue
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < 16 and 0 <= nc < 16 and rows[nr][nc] in COST:
                nd = d + COST[rows[nr][nc]]
                if nd < best.get((nr, nc), 1 << 30):
                    best[(nr, nc)] = nd
                    heapq.heappush(queue, (nd, (nr, nc)))
    return {name: best[sq] for name, sq in CORNERS.items()}


def test_a_firebreak_and_a_hawk_in_the_way_cost_more_than_a_square():
    # Fire at [0,10]; towards NE's corner [0,15] along row 0: a firebreak
    # at [0,12] and a hawk at [0,14] (4 + 3 + 1 + 1 + 1 = 10), or round
    # them through row 1 (7 squares: 1 + 5 + 1).
    rows = board({0: "..........F.#.H.", 1: "................"})
    assert firetower.fire_distances(position(rows))["NE"] == 7
    # Walled in: row 1 firebreaks under the whole run, so the cheapest way
    # jumps the firebreak on row 0.
    rows = board({0: "..........F.#.H.", 1: "..........######", 2: "..........######"})
    assert firetower.fire_distances(position(rows))["NE"] == 10
    assert reference_distances(rows)["NE"] == 10


def test_a_back_corner_on_fire_is_at_distance_zero():
    rows = board({15: "F..............F"})
    d = firetower.fire_distances(position(rows, burned={"NE": False, "SW": True, "SE": True}))
    assert d["SW"] == d["SE"] == 0 and d["NE"] == reference_distances(rows)["NE"] > 0


def at_most_18_hawks(rows: list[str]) -> list[str]:
    text = "\n".join(rows)
    while text.count("H") > 18:
        text = text.replace("H", ".", 1)
    return text.split("\n")


@pytest.mark.parametrize("chunk", range(4))
def test_the_distances_agree_with_a_dijkstra_on_random_boards(chunk: int):
    for seed in range(chunk * CASES, (chunk + 1) * CASES):
        state = firetower.check(position(at_most_18_hawks(random_board(random.Random(seed))))).record
        rows = engine_rows(state)
        assert firetower.fire_distances(state) == reference_distances(rows), (seed, rows)


# ------------------------------------------------------------ search_h, one move on
# The search values every move of a decision; where a move leaves hawks and
# firebreaks alone (it adds or removes gems) it reads each distance from a
# flood from each corner, once a decision, instead of flooding the board
# again. The two must agree on every move.

KINDS = ["air_drop", "burning_snag", "creeping_fires", "crown_fire", "de_reforest", "ember", "explosion",
         "fire_engine", "flare_up", "hawks_2", "hawks_3", "helitack", "rolling_firebrand", "smokejumper",
         "wind_e", "wind_n", "wind_ne", "wind_nw", "wind_s", "wind_se", "wind_sw", "wind_w"]


def session_of(record: dict):
    return _core.firetower.replay(firetower.data(), json.dumps(record))[0]


def assert_both_ways_agree(session, where: object) -> int:
    compared, disagree = _core.firetower.search_h_both_ways(session)
    assert compared > 0 and not disagree, (where, disagree[:3])
    return compared


@pytest.mark.parametrize("chunk", range(4))
def test_search_h_after_each_move_agrees_with_a_new_flood_on_random_boards(chunk: int):
    for seed in range(chunk * CASES // 16, (chunk + 1) * CASES // 16):  # a board lists up to tens of thousands
        rng = random.Random(seed * 31 + 5)
        hand = rng.sample(KINDS, 5)
        session = session_of({"start": position(at_most_18_hawks(random_board(rng)), hand, wind=rng.choice("NESW")),
                              "events": []})
        if session.decision:
            assert_both_ways_agree(session, seed)


@pytest.mark.parametrize("level", range(1, 8))
def test_search_h_after_each_move_agrees_at_every_decision_of_played_games(level: int):
    """Every decision of whole games (the hawk placements, the wind, the
    Inferno's answer, Buckets, Firestorms), played by the random baseline."""
    checked = 0
    for seed in range(max(1, CASES // 80)):
        game = firetower.play(level, seed, policy="random")
        start = game.record.start.model_dump(mode="json", by_alias=True)
        events = [e if isinstance(e, dict) else e.model_dump(mode="json", exclude_none=True)
                  for e in game.record.events]
        for n in range(len(events)):
            session = session_of({"start": start, "events": events[:n]})
            if session.decision:
                checked += assert_both_ways_agree(session, (level, seed, n))
    assert checked > 100
