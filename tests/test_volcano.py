"""Tests of the C++ Volcano! engine and solver through ``smokejumper.volcano``.

Most checks compare two independent methods: the fast C++ solver/engine and the
brute-force reference in ``tests/volcano_reference.py`` (written from the spec
only, colours kept distinct), or the engine against properties computed here
in plain Python.

Axial directions (spec order): 0 E (+1,0), 1 NE (+1,-1), 2 NW (0,-1),
3 W (-1,0), 4 SW (-1,+1), 5 SE (0,+1). Default spaces: n=1,2 -> 1; 3,4 -> 2; 5,6 -> 3.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import volcano_reference as ref
from volcano_bounds import least_pawns_to_win, plan_pawns_here
from smokejumper import Control, InvalidPositionError, Limit, volcano
from volcano_positions import fl, pos

E, NE, NW, W, SW, SE = range(6)
DIRS = ref.DIRECTIONS


# ---------------------------------------------------------------- helpers


def as_dict(f):
    """A flight (model or dict) as the reference's dict."""
    if isinstance(f, volcano.Flight):
        return {"color": f.color, "tile": [f.tile[0], f.tile[1]], "dir": f.dir}
    return {"color": f["color"], "tile": [f["tile"][0], f["tile"][1]], "dir": f["dir"]}


def ftuple(f):
    f = as_dict(f)
    return f["color"], tuple(f["tile"]), f["dir"]


def board(position):
    """cell -> (n, spaces, pawns) for a Position model or a position dict."""
    p = volcano.load_position(position)
    return {(t.q, t.r): (t.n, t.spaces or volcano.DEFAULT_SPACES[t.n], t.pawns) for t in p.tiles}


def volcano_of(position):
    p = volcano.load_position(position)
    return (p.volcano.q, p.volcano.r)


def canon_state(state):
    """A reference state up to colour permutation."""
    return frozenset(state.tiles), state.volcano, tuple(sorted(state.supply)), state.lost


def step(cell, d, k=1):
    return cell[0] + k * DIRS[d][0], cell[1] + k * DIRS[d][1]


def neighbours(cell):
    return [step(cell, d) for d in range(6)]


def two_adjacent_free(cell, occupied):
    free = [nb not in occupied for nb in neighbours(cell)]
    return any(free[i] and free[(i + 1) % 6] for i in range(6))


def reachable(start, occupied):
    seen, stack = {start}, [start]
    while stack:
        for nb in neighbours(stack.pop()):
            if nb in occupied and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return seen


def vary_spaces(rng, p):
    """Give every tile explicit random spaces; keep pawns below them (so settled)."""
    for t in p["tiles"]:
        t["spaces"] = rng.randint(1, 3)
        t["pawns"] = min(t.get("pawns", 0), t["spaces"] - 1)
    return p


# ---------------------------------------------------------------- 1. solve cross-check

N_CROSS = 300


def small_layout(i):
    """Layout i of the cross-check: 2-7 forest tiles, 1-4 colours of 0-4 pawns.

    The total supply is capped (8, or 6 on 6-7 tiles) to keep the reference,
    which does not merge colours, fast."""
    rng = random.Random(91_000 + i)
    n = rng.randint(2, 7)
    k = rng.randint(1, 4)
    cap = 8 if n <= 5 else 6
    while True:
        supply = [rng.randint(0, 4) for _ in range(k)]
        if sum(supply) <= cap:
            break
    p = ref.random_free_layout(rng, n, supply)
    if rng.random() < 0.2:
        vary_spaces(rng, p)
    return p


N_RING = 80


def ring_layout(i):
    """Layout i of the ring cross-check: the volcano at (0, 0) with 4-6 of its
    neighbours and up to two tiles beyond them (where the solver's ring
    bounds matter), mostly 1-space tiles, one colour of 3-10 or two of 1-4."""
    rng = random.Random(73_000 + i)
    outer = sorted({(a[0] + b[0], a[1] + b[1]) for a in DIRS for b in DIRS} - set(DIRS) - {(0, 0)})
    while True:
        cells = rng.sample(list(DIRS), rng.choice([4, 5, 6, 6]))
        near = [c for c in outer if any((c[0] - r[0], c[1] - r[1]) in DIRS for r in cells)]
        cells += rng.sample(near, rng.randint(0, 2))
        tiles = []
        for q, r in cells:
            n = rng.choice([1, 1, 2, 3, 4, 5])
            t = {"q": q, "r": r, "n": n}
            if rng.random() < 0.3:
                t["pawns"] = rng.randint(0, volcano.DEFAULT_SPACES[n] - 1)
            tiles.append(t)
        supply = [rng.randint(3, 10)] if rng.random() < 0.6 else [rng.randint(1, 4) for _ in range(2)]
        p = {"tiles": tiles, "volcano": {"q": 0, "r": 0}, "supply": supply}
        try:
            ref.parse_position(p)
            return p
        except ValueError:
            pass


LAYOUTS = {"free": small_layout, "ring": ring_layout}
SOLVE_CASES = [("free", i) for i in range(N_CROSS)] + [("ring", i) for i in range(N_RING)]
HINT_CASES = [("free", i) for i in range(0, N_CROSS, 3)] + [("ring", i) for i in range(0, N_RING, 4)]


def case_id(case):
    return f"{case[0]}-{case[1]}"


def test_cross_check_layouts_are_varied():
    """The cross-check would prove little if every layout had the same verdict
    or no pre-placed pawns."""
    layouts = [small_layout(i) for i in range(N_CROSS)]
    assert len({repr(p) for p in layouts}) == N_CROSS
    assert sum(any(t.get("pawns", 0) for t in p["tiles"]) for p in layouts) > 30
    assert sum("spaces" in p["tiles"][0] for p in layouts) > 30
    assert {len(p["tiles"]) for p in layouts} == set(range(2, 8))
    assert {len(p["supply"]) for p in layouts} == {1, 2, 3, 4}
    rings = [ring_layout(i) for i in range(N_RING)]
    assert len({repr(p) for p in rings}) == N_RING
    enclosed = [p for p in rings if neighbour_count((0, 0), {(t["q"], t["r"]) for t in p["tiles"]}) == 6]
    assert len(enclosed) > N_RING // 4


@pytest.mark.parametrize("case", SOLVE_CASES, ids=case_id)
def test_solve_matches_reference(case):
    p = LAYOUTS[case[0]](case[1])
    expected = ref.solve(p)
    got = volcano.solve(p)
    assert got.stats.stopped_by is None
    assert got.verdict == expected["verdict"], p
    # The benchmark switches must not change the answer.
    assert volcano.solve(p, use_table=False).verdict == expected["verdict"]
    assert volcano.solve(p, use_pruning=False).verdict == expected["verdict"]
    assert volcano.solve(p, use_sleep_sets=False).verdict == expected["verdict"]

    if got.verdict == "win":
        line = [as_dict(f) for f in got.line]
        assert ref.replay(p, line) == "win", (p, line)
        r = volcano.replay(p, got.line)
        assert (r.status, r.error, r.position.tiles) == ("win", None, [])
    else:
        assert got.line is None

    if expected["verdict"] == "win":
        r = volcano.replay(p, expected["line"])
        assert (r.status, r.error) == ("win", None), (p, expected["line"])
        # pawns_needed is a lower bound: along a winning line, the pawns
        # still to be dropped are never fewer than it says.
        dropped = [s.dropped for s in r.steps]
        for k in range(len(expected["line"]) + 1):
            here = volcano.replay(p, expected["line"][:k]).position
            assert volcano.check(here).pawns_needed <= sum(dropped[k:]), (p, k)


def test_cross_check_saw_both_verdicts():
    # Counted here from the engine's verdicts, which the cases above hold
    # equal to the reference's: under pytest-xdist those cases are spread
    # over workers, so no worker sees them all.
    verdicts = Counter((kind, volcano.solve(LAYOUTS[kind](i)).verdict) for kind, i in SOLVE_CASES)
    assert verdicts["free", "win"] >= 60 and verdicts["free", "loss"] >= 60, verdicts
    assert verdicts["ring", "win"] >= 10 and verdicts["ring", "loss"] >= 10, verdicts


# ---------------------------------------------------------------- 1b. the removal-plan bound

PLAN_CASES = [("ring", i) for i in range(N_RING)] + [("free", i) for i in range(0, N_CROSS, 4)]


def test_plan_bound_is_admissible_and_matches_a_plain_search():
    # One test over every case, not one per case: the count of tight cases
    # at the end must see them all, and pytest-xdist would spread
    # parametrized cases over workers (a 6-of-155 count failed CI once).
    tight = Counter()
    for kind, i in PLAN_CASES:
        p = LAYOUTS[kind](i)
        chk = volcano.check(p)
        here = plan_pawns_here(p)
        assert chk.plan_pawns == (-1 if here is None else here), p
        least = least_pawns_to_win(p)
        if least is not None:
            assert here is not None and here <= least, (p, here, least)
            assert chk.pawns_needed <= least
            tight["tight" if here == least else "loose"] += 1
            tight["above pawns_needed"] += here > chk.pawns_needed
        # Along a winning line the bound never exceeds the pawns still to drop
        # (positions with pawns on them).
        expected = ref.solve(p)
        if expected["verdict"] == "win":
            r = volcano.replay(p, expected["line"])
            dropped = [s.dropped for s in r.steps]
            for k in range(1, len(expected["line"]) + 1):
                mid = volcano.replay(p, expected["line"][:k]).position
                assert volcano.check(mid).plan_pawns <= sum(dropped[k:]), (p, k)
    # The test means something only if the bound is often exact.
    assert tight["tight"] >= 30, tight


# Two layouts the plan bound once called unplannable ("no plan", -1) though
# each has a winning line: a child cut for costing more than the budget was
# read as a dead end, and the table kept that for every budget.
BUDGET_CUT_LAYOUTS = [
    ({"tiles": [{"q": 0, "r": 0, "n": 6, "spaces": 3}, {"q": 0, "r": -1, "n": 4, "spaces": 3},
                {"q": -1, "r": 0, "n": 6, "spaces": 1}, {"q": -1, "r": 1, "n": 6, "spaces": 3},
                {"q": 0, "r": 1, "n": 4, "spaces": 3}],
      "volcano": {"q": -2, "r": 0}, "supply": [6, 5]},
     [fl(0, -1, 0, NE), fl(0, -1, 0, NE), fl(0, -1, 0, SE), fl(0, -1, 0, SE), fl(1, 0, -1, SE)], 7),
    ({"tiles": [{"q": 0, "r": 0, "n": 5, "spaces": 1}, {"q": 0, "r": 1, "n": 5, "spaces": 3},
                {"q": 1, "r": -1, "n": 6, "spaces": 3}, {"q": 0, "r": -1, "n": 2, "spaces": 2},
                {"q": 0, "r": -2, "n": 1, "spaces": 2}, {"q": -1, "r": -1, "n": 3, "spaces": 2},
                {"q": 1, "r": -2, "n": 3, "spaces": 1}, {"q": 1, "r": 0, "n": 1, "spaces": 2}],
      "volcano": {"q": 2, "r": -3}, "supply": [60]},
     [fl(0, -1, -1, E), fl(0, -1, -1, E), fl(0, 0, -2, E), fl(0, 0, 0, E), fl(0, 0, 1, E), fl(0, 0, -2, E)], 9),
]


@pytest.mark.parametrize("p, line, plan", BUDGET_CUT_LAYOUTS)
def test_plan_bound_holds_where_a_budget_cut_child_once_read_as_a_dead_end(p, line, plan):
    assert ref.replay(p, line) == "win"
    dropped = sum(s.dropped for s in volcano.replay(p, line).steps)
    chk = volcano.check(p)
    assert chk.plan_pawns == plan == plan_pawns_here(p) <= least_pawns_to_win(p) <= dropped
    r = volcano.solve(p, Limit(seconds=60))
    assert r.verdict == "win" and ref.replay(p, [as_dict(f) for f in r.line]) == "win"


def rim_layout(i):
    """The volcano, its whole ring and 3-6 tiles of 2-3 spaces beyond it, so
    that the ring must be dug open from the rim: where the plan bound beats
    the per-node bound. Too big for the reference; one colour of 40."""
    rng = random.Random(55_000 + i)
    outer = sorted({(a[0] + b[0], a[1] + b[1]) for a in DIRS for b in DIRS} - set(DIRS) - {(0, 0)})
    while True:
        cells = list(DIRS) + rng.sample(outer, rng.randint(3, 6))
        tiles = [{"q": q, "r": r, "n": rng.choice([1, 2, 3, 5] if (q, r) in DIRS else [3, 4, 5, 6])}
                 for q, r in cells]
        p = {"tiles": tiles, "volcano": {"q": 0, "r": 0}, "supply": [40]}
        try:
            ref.parse_position(p)
            return p
        except ValueError:
            pass


@pytest.mark.scale  # exhaustive searches without pruning; test_solve_matches_reference takes the path small
@pytest.mark.parametrize("i", [8, 23])
def test_plan_bound_is_exact_where_it_beats_the_per_node_bound(i):
    # Checked with the solver's pruning off (so neither bound is used): one
    # pawn fewer than the plan bound loses however the colours are split,
    # and the plan bound itself is enough.
    p = rim_layout(i)
    chk = volcano.check(p)
    assert chk.plan_pawns == plan_pawns_here(p) > chk.pawns_needed
    n = chk.plan_pawns - 1
    for supply in ([n], [n - n // 2, n // 2]):
        r = volcano.solve(dict(p, supply=supply), Limit(seconds=120), use_pruning=False)
        assert r.verdict == "loss", (supply, r.stats)
    r = volcano.solve(dict(p, supply=[n + 1]), Limit(seconds=60))
    assert r.verdict == "win" and ref.replay(dict(p, supply=[n + 1]), [as_dict(f) for f in r.line]) == "win"


def test_seed_1_is_lost_by_the_plan_bound():
    # The layout the seeds 1-20 left open: the per-node bound says
    # 47 of 48 pawns, but every removal plan needs 49.
    p = volcano.generate(1).position
    chk = volcano.check(p)
    assert (chk.pawns_needed, chk.plan_pawns, chk.supply_total) == (47, 49, 48)
    r = volcano.solve(p, Limit(seconds=60))
    assert r.verdict == "loss" and r.stats.stopped_by is None
    assert all(m.value == "loss" for m in volcano.hint(p, Limit(seconds=60)).moves)
    # One pawn more and no plan bound stops the search at the root.
    assert volcano.check(p.model_copy(update={"supply": [13, 12, 12, 12]})).plan_pawns == 49


# ---------------------------------------------------------------- 2. hint cross-check

@pytest.mark.parametrize("case", HINT_CASES, ids=case_id)
def test_hint_matches_reference(case):
    p = LAYOUTS[case[0]](case[1])
    state = ref.parse_position(p)
    h = volcano.hint(p)
    assert h.stats.stopped_by is None

    # Every legal flight appears exactly once, as a move or an equivalent.
    hinted = [f for m in h.moves for f in (m.flight, *m.equivalent)]
    ref_flights = ref.legal_flights(state)
    assert sorted(map(ftuple, hinted)) == sorted(map(ftuple, ref_flights))
    ref_children = {canon_state(ref.apply_flight(state, f)[0]) for f in ref_flights}

    seen = set()
    for m in h.moves:
        group = {canon_state(ref.apply_flight(state, as_dict(f))[0]) for f in (m.flight, *m.equivalent)}
        assert len(group) == 1, ("merged flights differ", p, m)
        (canon,) = group
        assert canon not in seen, ("two hint moves give the same state", p, m)
        seen.add(canon)

        child, lost = ref.apply_flight(state, as_dict(m.flight))
        if lost:
            expected = "loss"
        elif not child.tiles:
            expected = "win"
        else:
            expected = ref.solve(ref.to_position(child))["verdict"]
        assert m.value == expected, (p, m)
        if m.value == "win":
            line = [as_dict(m.flight)] + [as_dict(f) for f in m.line]
            assert ref.replay(p, line) == "win"
            assert volcano.replay(p, line).status == "win"
        else:
            assert m.line is None
    assert seen == ref_children

    rank = {"win": 0, "unknown": 1, "loss": 2}
    values = [rank[m.value] for m in h.moves]
    assert values == sorted(values), "wins first"
    assert (volcano.solve(p).verdict == "win") == any(m.value == "win" for m in h.moves)


# ---------------------------------------------------------------- 3. properties

@st.composite
def free_positions(draw, max_tiles=14, max_supply=12, max_colors=5, min_tiles=1):
    seed = draw(st.integers(0, 2**32 - 1))
    n = draw(st.integers(min_tiles, max_tiles))
    supply = draw(st.lists(st.integers(0, max_supply), min_size=1, max_size=max_colors))
    rng = random.Random(seed)
    p = ref.random_free_layout(rng, n, supply)
    if draw(st.booleans()):
        vary_spaces(rng, p)
    return p


def check_step(before, flight, step_, after):
    """Check one replayed flight against a drop and removal computed here."""
    tiles = board(before)
    vcell = volcano_of(before)
    supply_before = volcano.load_position(before).supply
    c, cell, d = ftuple(flight)

    # Drop, walked here: one pawn per tile with space while the colour lasts.
    occupied = set(tiles) | {vcell}
    left, post = supply_before[c], {k: v[2] for k, v in tiles.items()}
    while cell in occupied:
        assert cell != vcell, "a legal flight never reaches the volcano"
        if post[cell] < tiles[cell][1] and left > 0:
            post[cell] += 1
            left -= 1
        cell = step(cell, d)
    dropped = supply_before[c] - left
    assert dropped >= 1
    assert step_.dropped == dropped

    supply_after = list(after.supply)
    assert supply_after[c] == supply_before[c] - step_.dropped
    assert supply_after[:c] + supply_after[c + 1:] == supply_before[:c] + supply_before[c + 1:]

    ext = [tuple(x) for x in step_.extinguished]
    iso = [tuple(x) for x in step_.isolated]
    after_tiles = board(after)
    assert len(set(ext + iso)) == len(ext) + len(iso)
    assert set(ext) | set(iso) == set(tiles) - set(after_tiles)

    # Conservation: pawns on the board after == before + dropped - pawns that
    # left with the removed tiles (counted after the drop: a removed tile may
    # have just received one).
    before_total = sum(v[2] for v in tiles.values())
    after_total = sum(v[2] for v in after_tiles.values())
    removed_total = sum(post[x] for x in ext + iso)
    assert after_total == before_total + step_.dropped - removed_total
    for x, (n, s, p) in after_tiles.items():
        assert (n, s) == tiles[x][:2] and p == post[x]

    # The reported extinguish order is a valid sequence, it reaches the
    # fixpoint, and the isolated tiles are exactly those cut off after it.
    occ = set(occupied)
    for x in ext:
        assert post[x] == tiles[x][1], "only full tiles are extinguished"
        assert two_adjacent_free(x, occ), "extinguished before it had two adjacent free edges"
        occ.discard(x)
    for x in occ - {vcell}:
        assert not (post[x] == tiles[x][1] and two_adjacent_free(x, occ)), "fixpoint not reached"
    assert set(iso) == occ - reachable(vcell, occ)
    if any(post[x] == 0 for x in iso):
        assert step_.status == "loss"


def random_play(start, data, max_steps=200):
    """Play random legal flights (from volcano.check) to the end, checking each
    step against the reference and check_step. Returns the final status."""
    cur = volcano.load_position(start)
    state = ref.parse_position(cur.model_dump(exclude={"setup"}, exclude_none=True))
    for _ in range(max_steps):
        chk = volcano.check(cur)
        assert chk.status == ref.status(state)
        assert chk.supply_total == sum(state.supply)
        flights = [f for m in chk.moves for f in (m.flight, *m.equivalent)]
        assert sorted(map(ftuple, flights)) == sorted(map(ftuple, ref.legal_flights(state)))
        if chk.status != "ongoing":
            assert not flights
            return chk.status
        f = data.draw(st.sampled_from(flights))
        r = volcano.replay(cur, [f])
        assert r.error is None and len(r.steps) == 1
        assert r.steps[0].flight == f
        check_step(cur, f, r.steps[0], r.position)

        # The reference's own removal order gives the same state.
        child, _lost = ref.apply_flight(state, as_dict(f))
        assert board(r.position) == board(ref.to_position(child))
        assert tuple(r.position.supply) == child.supply
        assert r.steps[0].status == r.status == ref.status(child)
        if r.status != "ongoing":
            return r.status
        cur, state = r.position, child
    raise AssertionError("play did not end; every flight drops a pawn")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(p=free_positions(), data=st.data())
def test_random_play_conserves_pawns_and_matches_reference(p, data):
    assert random_play(p, data) in ("win", "loss")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), data=st.data())
def test_random_play_on_generated_layouts(seed, data):
    assert random_play(volcano.generate(seed).position, data) in ("win", "loss")


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(p=free_positions(min_tiles=40, max_tiles=63, max_supply=30, max_colors=8), data=st.data())
def test_random_play_on_large_layouts(p, data):
    """Up to 63 forest tiles: the volcano is then cell 64 of the bit sets."""
    assert random_play(p, data) in ("win", "loss")


def canon_after(p, f):
    r = volcano.replay(p, [f])
    assert r.error is None
    tiles = frozenset((t.q, t.r, t.n, t.spaces, t.pawns) for t in r.position.tiles)
    return tiles, tuple(sorted(r.position.supply)), r.status


@settings(max_examples=80, deadline=None)
@given(p=free_positions(max_tiles=12, max_supply=4, max_colors=6))
def test_equivalent_flights_give_equal_states(p):
    chk = volcano.check(p)
    groups = []
    for m in chk.moves:
        states = {canon_after(p, f) for f in (m.flight, *m.equivalent)}
        assert len(states) == 1, ("equivalent flights differ", m)
        groups.append(states.pop())
    assert len(set(groups)) == len(groups), "two distinct flights give the same state"


@settings(max_examples=80, deadline=None)
@given(p=free_positions())
def test_json_round_trip(p):
    model = volcano.Position.model_validate(p)
    assert volcano.Position.model_validate_json(model.model_dump_json()) == model
    filled = model.model_copy(update={"tiles": [
        t.model_copy(update={"spaces": t.spaces or volcano.DEFAULT_SPACES[t.n]}) for t in model.tiles]})
    assert volcano.replay(model, []).position == filled
    assert volcano.replay(model.model_dump_json(), []).position == filled
    assert volcano.check(model.model_dump_json()) == volcano.check(p)


def test_generated_position_round_trips():
    g = volcano.generate(11).position
    assert volcano.Position.model_validate_json(g.model_dump_json()) == g
    assert volcano.replay(g, []).position == g.model_copy(update={"setup": "free"})


# ---------------------------------------------------------------- 4. limits, generation

@pytest.fixture(scope="module")
def hard():
    # Still undecided after minutes (seed 1, the old hard case, is now
    # proved lost at once by the plan bound).
    return volcano.generate(24).position


def test_node_limit(hard):
    r = volcano.solve(hard, Limit(nodes=5000))
    assert r.verdict == "unknown" and r.line is None
    assert r.stats.stopped_by == "nodes"
    assert 1000 <= r.stats.nodes <= 5000 + 1


def test_time_limit(hard):
    t = time.monotonic()
    r = volcano.solve(hard, Limit(seconds=0.2))
    elapsed = time.monotonic() - t
    assert r.verdict == "unknown" and r.stats.stopped_by == "time"
    # Bounds loose enough for a busy CI machine: the point is that the search
    # stops, where unstopped it would run for many minutes.
    assert 0.19 <= r.stats.seconds and elapsed < 10


def test_control_stops_a_solve_from_another_thread(hard):
    control = Control()
    timer = threading.Timer(0.2, control.stop)
    timer.start()
    t = time.monotonic()
    try:
        r = volcano.solve(hard, Limit(seconds=30), control=control)
    finally:
        timer.cancel()
    assert time.monotonic() - t < 10
    assert r.verdict == "unknown" and r.stats.stopped_by == "stopped"
    assert control.stopped and control.nodes > 0


def test_stopped_control_stops_hint_at_once(hard):
    control = Control()
    control.stop()
    h = volcano.hint(hard, Limit(seconds=30), control=control)
    assert h.moves and all(m.value == "unknown" for m in h.moves)
    assert h.stats.stopped_by == "stopped"


def test_hint_shares_one_limit(hard):
    h = volcano.hint(hard, Limit(nodes=3000))
    assert h.stats.stopped_by == "nodes" and h.stats.nodes <= 3000 + 1
    assert any(m.value == "unknown" for m in h.moves)


def test_small_memory_limit(hard):
    r = volcano.solve(hard, Limit(nodes=100_000, memory_mb=1))
    assert r.verdict == "unknown" and r.stats.stopped_by == "nodes"
    assert 0 < r.stats.table_bytes <= 1 << 20
    assert r.stats.table_used <= r.stats.table_capacity
    for i in range(0, 60, 6):
        p = small_layout(i)
        assert volcano.solve(p, Limit(memory_mb=1)).verdict == volcano.solve(p).verdict
    assert volcano.solve(volcano.generate(3).position, Limit(memory_mb=1, seconds=20)).verdict == "win"


def test_default_memory_is_bounded():
    r = volcano.solve(small_layout(0))
    assert r.stats.table_bytes <= 256 << 20


@pytest.mark.parametrize("bad", [dict(nodes=-1), dict(seconds=-0.1), dict(seconds=float("nan")),
                                 dict(seconds=float("inf")), dict(memory_mb=0)])
def test_invalid_limits_are_refused(bad):
    with pytest.raises(ValueError):
        Limit(**bad)


def test_node_limit_allows_exactly_that_many_nodes():
    empty = pos([], (0, 0), [1])                  # won at the root: one node
    assert volcano.solve(empty, Limit(nodes=1)).verdict == "win"
    one = pos([(1, 0, 1)], (0, 0), [1])           # root and one child: two nodes
    r = volcano.solve(one, Limit(nodes=2))
    assert r.verdict == "win", r.stats


def neighbour_count(cell, cells):
    return sum(nb in cells for nb in neighbours(cell))


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 42, 2**64 - 1])
def test_generated_layouts_follow_the_standard_setup(seed):
    g = volcano.generate(seed)
    assert g == volcano.generate(seed), "deterministic per seed"
    assert (g.layout_seed, g.attempts, g.verdict, g.line) == (seed, 1, None, None)
    p = g.position
    # Checked here, independently of the C++ validation ...
    cells = [(t.q, t.r) for t in p.tiles]
    v = (p.volcano.q, p.volcano.r)
    allcells = set(cells) | {v}
    assert len(cells) == 35 and len(allcells) == 36
    assert sorted(Counter(t.n for t in p.tiles).values()) == [5, 6, 6, 6, 6, 6]
    assert all(t.pawns == 0 and t.spaces == volcano.DEFAULT_SPACES[t.n] for t in p.tiles)
    assert p.supply == [12, 12, 12, 12]
    assert all(neighbour_count(c, allcells) >= 2 for c in cells)
    assert neighbour_count(v, allcells) == 6
    assert reachable(v, allcells) == allcells
    # ... and by the C++ standard validation.
    volcano.check(p.model_copy(update={"setup": "standard"}))
    volcano.check(dict(p.model_dump(), setup="standard"))


def test_different_seeds_give_different_layouts():
    layouts = {volcano.generate(s).position.model_dump_json() for s in range(10)}
    assert len(layouts) == 10


def test_solve_is_deterministic():
    p = volcano.generate(3).position
    a, b = volcano.solve(p), volcano.solve(p)
    assert a.verdict == "win" and a.line == b.line and a.stats.nodes == b.stats.nodes
    assert volcano.hint(small_layout(5)).moves == volcano.hint(small_layout(5)).moves


def test_same_answer_when_searches_run_in_parallel():
    # The C++ releases the GIL, so these really run at once on two cores;
    # each search owns its table, so the answers must match the serial ones.
    from concurrent.futures import ThreadPoolExecutor

    positions = [volcano.generate(s).position for s in (2, 9, 10, 17)]
    serial = [volcano.solve(p) for p in positions]
    with ThreadPoolExecutor(max_workers=4) as pool:
        parallel = list(pool.map(volcano.solve, positions))
    for a, b in zip(serial, parallel):
        assert (a.verdict, a.line, a.stats.nodes) == (b.verdict, b.line, b.stats.nodes)


def test_generate_solvable_and_rated():
    # A node limit, not a time one: the same answer on a slow machine (a
    # sanitizer build under load ran out of 30 s and left the rating open).
    g = volcano.generate(3, solvable=True, rate=True, limit=Limit(nodes=10**7))
    assert g.verdict == "win" and g.stats is not None
    r = volcano.replay(g.position, g.line)
    assert (r.status, r.error) == ("win", None)
    d = g.difficulty
    assert d is not None and d.complete
    assert d.steps == len(g.line) and 0 <= d.forced_steps <= d.steps
    assert 0 < d.winning_share <= 1


def test_generate_solvable_respects_limits():
    t = time.monotonic()
    g = volcano.generate(1, solvable=True, limit=Limit(nodes=20_000))
    assert time.monotonic() - t < 5
    assert g.verdict == "unknown" and g.line is None and g.stats.stopped_by == "nodes"


@pytest.mark.parametrize("kwargs", [dict(seed=-1), dict(seed=2**64), dict(seed=0, max_attempts=0)])
def test_generate_refuses_bad_arguments(kwargs):
    with pytest.raises(ValueError):
        volcano.generate(**kwargs)


# ---------------------------------------------------------------- 5. validation

V0 = {"q": 0, "r": 0}


def tile(q, r, n=3, **kw):
    return {"q": q, "r": r, "n": n, **kw}


def rim_tile_touching_one(p):
    """Move one forest tile of a standard layout to a cell touching only one
    tile, keeping the rest of the standard rules; return (position, cell)."""
    d = p.model_dump()
    v = (d["volcano"]["q"], d["volcano"]["r"])
    cells = [(t["q"], t["r"]) for t in d["tiles"]]
    for i, x in enumerate(cells):
        rest = set(cells[:i] + cells[i + 1:]) | {v}
        if neighbour_count(v, rest) < 6 or any(neighbour_count(c, rest) < 2 for c in rest - {v}):
            continue
        if reachable(v, rest) != rest:
            continue
        for y in sorted({nb for c in rest for nb in neighbours(c)} - rest - {x}):
            if neighbour_count(y, rest) == 1:
                d["tiles"][i]["q"], d["tiles"][i]["r"] = y
                d["setup"] = "standard"
                return d, y
    raise AssertionError("no such tile")


def standard_cases():
    g = volcano.generate(5).position
    base = g.model_dump()
    v = (base["volcano"]["q"], base["volcano"]["r"])
    cases = [("free layout marked standard", pos([(1, 0, 3)], (0, 0)) | {"setup": "standard"},
              ["standard", "35"])]

    mix = dict(base, setup="standard")
    counts = Counter(t["n"] for t in mix["tiles"])
    six = sorted(k for k, c in counts.items() if c == 6)
    mix["tiles"] = [dict(t) for t in mix["tiles"]]
    next(t for t in mix["tiles"] if t["n"] == six[0])["n"] = six[1]
    cases.append(("wrong number mix", mix, ["number", str(six[1]), "7"]))

    allcells = {(t["q"], t["r"]) for t in base["tiles"]} | {v}
    rim = next((t["q"], t["r"]) for t in base["tiles"] if neighbour_count((t["q"], t["r"]), allcells) < 6)
    swapped = dict(base, setup="standard", volcano={"q": rim[0], "r": rim[1]})
    swapped["tiles"] = [dict(t, q=v[0], r=v[1]) if (t["q"], t["r"]) == rim else t for t in base["tiles"]]
    cases.append(("volcano not enclosed", swapped, [f"({rim[0]}, {rim[1]})", "enclosed"]))

    leaf, cell = rim_tile_touching_one(g)
    cases.append(("tile touching one other", leaf, [f"({cell[0]}, {cell[1]})", "two"]))
    return cases


VALIDATION_CASES = [
    ("duplicate tile", pos([(1, 0, 3), (2, 0, 3), (1, 0, 4)], (0, 0)), ["(1, 0)", "twice"]),
    ("tile on the volcano", pos([(1, 0, 3), (0, 0, 3)], (0, 0)), ["(0, 0)", "volcano"]),
    ("disconnected tile", pos([(1, 0, 3), (3, -1, 3)], (0, 0)), ["(3, -1)", "not connected"]),
    ("disconnected pair", pos([(1, 0, 3), (5, 5, 3), (5, 6, 3)], (0, 0)), ["(5, 5)", "not connected"]),
    # (2, 0) is full (1 pawn, 1 space) with free edges E and NE.
    ("unsettled full tile", pos([(1, 0, 3), (2, 0, 1, 1)], (0, 0)), ["(2, 0)", "settled"]),
    ("pawns above spaces", pos([(1, 0, 3), (2, 0, 1, 2)], (0, 0)), ["(2, 0)", "pawns"]),
    ("pawns above explicit spaces", pos([(1, 0, 3), (2, 0, 6, 3, 2)], (0, 0)), ["(2, 0)", "pawns"]),
    ("pawns above 3", pos([(1, 0, 3), (2, 0, 6, 4)], (0, 0)), ["tiles.1.pawns"]),
    ("n = 0", pos([(1, 0, 3), (2, 0, 0)], (0, 0)), ["tiles.1.n"]),
    ("n = 7", pos([(1, 0, 3), (2, 0, 7)], (0, 0)), ["tiles.1.n"]),
    ("spaces = 4", pos([(1, 0, 3, 0, 4)], (0, 0)), ["tiles.0.spaces"]),
    ("64 forest tiles", pos([(q, 0, 1) for q in range(1, 65)], (0, 0)), ["tiles", "63"]),
    ("9 colours", pos([(1, 0, 3)], (0, 0), [1] * 9), ["supply", "8"]),
    ("no colours", pos([(1, 0, 3)], (0, 0), []), ["supply"]),
    ("negative supply", pos([(1, 0, 3)], (0, 0), [3, -1]), ["supply.1"]),
    ("supply too large", pos([(1, 0, 3)], (0, 0), [1001]), ["supply.0"]),
    ("coordinate out of range", pos([(1, 0, 3)], (0, 20000)), ["volcano.r"]),
    ("unknown field", pos([(1, 0, 3)], (0, 0)) | {"colour": 1}, ["colour"]),
    ("no volcano", {"tiles": [tile(1, 0)]}, ["volcano"]),
    ("not an object", [1, 2, 3], ["input"]),
    # Numbers are not converted from other JSON types.
    ("n as text", {"tiles": [{"q": 1, "r": 0, "n": "3"}], "volcano": {"q": 0, "r": 0}}, ["tiles.0.n"]),
    ("n as a float", {"tiles": [{"q": 1, "r": 0, "n": 3.0}], "volcano": {"q": 0, "r": 0}}, ["tiles.0.n"]),
    ("pawns as a flag", {"tiles": [{"q": 1, "r": 0, "n": 3, "pawns": True}], "volcano": {"q": 0, "r": 0}},
     ["tiles.0.pawns"]),
    ("coordinate as text", {"tiles": [{"q": 1, "r": 0, "n": 3}], "volcano": {"q": "0", "r": 0}}, ["volcano.q"]),
    ("supply as floats", pos([(1, 0, 3)], (0, 0), [1.0]), ["supply.0"]),
] + standard_cases()


@pytest.mark.parametrize("name,position,words", VALIDATION_CASES, ids=[c[0] for c in VALIDATION_CASES])
def test_invalid_positions_are_rejected_with_a_clear_message(name, position, words):
    for api in (volcano.check, volcano.solve, volcano.hint, lambda p: volcano.replay(p, [])):
        with pytest.raises(InvalidPositionError) as err:
            api(position)
        message = str(err.value)
        assert "\n" not in message
        for w in words:
            assert w in message, (name, message)
    assert isinstance(err.value, ValueError)


def test_63_forest_tiles_are_accepted():
    p = pos([(q, 0, 5) for q in range(1, 64)], (0, 0), [1])
    assert volcano.check(p).status == "ongoing"


def test_replay_names_the_illegal_flight():
    p = pos([(1, 0, 3), (2, 0, 3)], (0, 0), [4])
    r = volcano.replay(p, [fl(0, 2, 0, SE), fl(0, 2, 0, E), fl(0, 1, 0, SE)])
    assert r.error is not None and r.error.startswith("flight 1:"), r.error
    assert len(r.steps) == 1 and r.status != "win"
    assert r.position == volcano.replay(p, [fl(0, 2, 0, SE)]).position

    r = volcano.replay(p, [fl(0, 9, 9, E)])
    assert r.error.startswith("flight 0:") and "(9, 9)" in r.error and r.steps == []
    r = volcano.replay(p, [fl(3, 2, 0, SE)])
    assert r.error.startswith("flight 0:") and "colour 3" in r.error


def test_replay_refuses_a_flight_after_the_colour_runs_out():
    p = pos([(1, 0, 5), (2, 0, 5)], (0, 0), [1, 5])
    r = volcano.replay(p, [fl(0, 2, 0, SE), fl(0, 2, 0, SE)])
    assert r.error.startswith("flight 1:") and "colour 0" in r.error


def test_replay_refuses_malformed_flights():
    p = pos([(1, 0, 3)], (0, 0), [4])
    for bad in ({"color": 0, "tile": [1], "dir": 0}, {"color": 0, "tile": [1, 0], "dir": 6},
                {"color": 0, "tile": [1, 0]}, {"color": -1, "tile": [1, 0], "dir": 0}, 7):
        with pytest.raises(InvalidPositionError):
            volcano.replay(p, [bad])


@pytest.mark.parametrize("text", [
    "[", "{", "", "nul", '{"tiles": [', '{"tiles": [], "volcano": {"q": 0, "r": 0},}',
    "[" * 100_000, '{"tiles": ' + "[" * 200_000, "x" * (2 << 20), b" " * (2 << 20), b"\x00\x00\x00{",
], ids=lambda t: repr(t[:12]) + f"..{len(t)}")
def test_malformed_json_is_rejected_quickly(text):
    t = time.monotonic()
    with pytest.raises(InvalidPositionError) as err:
        volcano.check(text)
    assert time.monotonic() - t < 5
    assert "\n" not in str(err.value) and len(str(err.value)) < 300


@pytest.mark.parametrize("data", [b"\xff", b"\xff\xfe{", b'{"tiles": [], "volcano": {"q": 0, "r": 0}, "x": "\xff"}'])
def test_non_utf8_bytes_raise_invalid_position_error(data):
    with pytest.raises(InvalidPositionError):
        volcano.check(data)


# ---------------------------------------------------------------- 6. spec edge cases

# Row V(0,0) A(1,0) B(2,0).
ROW = pos([(1, 0, 5), (2, 0, 5)], (0, 0), [6])


def legal_set(p):
    return {ftuple(f) for m in volcano.check(p).moves for f in (m.flight, *m.equivalent)}


def test_entry_cell_must_be_empty():
    # Into B flying E: the plane would stand on A. Never re-read as a flight into B alone.
    r = volcano.replay(ROW, [fl(0, 2, 0, E)])
    assert r.error and r.error.startswith("flight 0:") and "not empty" in r.error
    assert (0, (2, 0), E) not in legal_set(ROW)
    # Into A flying E: the plane would stand on the volcano.
    assert volcano.replay(ROW, [fl(0, 1, 0, E)]).error
    assert (0, (1, 0), E) not in legal_set(ROW)
    # The same tiles entered from empty cells are legal.
    assert {(0, (2, 0), SE), (0, (1, 0), SE), (0, (2, 0), NE)} <= legal_set(ROW)
    with pytest.raises(ValueError):
        ref.apply_flight(ref.parse_position(ROW), fl(0, 2, 0, E))


def test_entry_on_the_volcano_is_illegal():
    for d in range(6):
        r = volcano.replay(ROW, [fl(0, 0, 0, d)])
        assert r.error and r.error.startswith("flight 0:"), d
        assert r.steps == []
    assert all(t[1] != (0, 0) for t in legal_set(ROW))


def test_path_reaching_the_volcano_is_illegal():
    # Into B flying W: B and A have space, then the volcano.
    r = volcano.replay(ROW, [fl(0, 2, 0, W)])
    assert r.error and "volcano" in r.error
    assert (0, (2, 0), W) not in legal_set(ROW)
    # Also when the volcano is further along a longer row.
    p = pos([(1, 0, 5), (2, 0, 5), (3, 0, 5), (-1, 0, 5)], (0, 0), [6])
    assert volcano.replay(p, [fl(0, 3, 0, W)]).error
    assert volcano.replay(p, [fl(0, -1, 0, E)]).error
    assert volcano.replay(p, [fl(0, 3, 0, SE)]).error is None


def test_last_tile_removed_while_a_pawnless_tile_is_isolated_is_a_loss():
    # V(0,0) A(1,0) one space, B(2,0) pawnless. Flying NE into A fills it; A
    # is extinguished (free NE and NW), B is cut off with no pawn.
    p = pos([(1, 0, 1), (2, 0, 1)], (0, 0), [1])
    r = volcano.replay(p, [fl(0, 1, 0, NE)])
    assert r.error is None
    s = r.steps[0]
    assert (s.dropped, s.extinguished, s.isolated) == (1, [(1, 0)], [(2, 0)])
    assert s.status == r.status == "loss" and r.position.tiles == []
    assert ref.replay(p, [fl(0, 1, 0, NE)]) == "loss"
    assert volcano.solve(p).verdict == "loss" == ref.solve(p)["verdict"]
    h = volcano.hint(p)
    assert all(m.value == "loss" for m in h.moves)
    # With one more pawn, B can be cleared first: a win.
    p2 = pos([(1, 0, 1), (2, 0, 1)], (0, 0), [2])
    assert volcano.solve(p2).verdict == "win"
    # And if B holds a pawn, its isolation is credited: the same flight wins.
    p3 = pos([(1, 0, 1), (2, 0, 3, 1)], (0, 0), [1])
    r3 = volcano.replay(p3, [fl(0, 1, 0, NE)])
    assert (r3.status, r3.steps[0].isolated) == ("win", [(2, 0)])


def test_no_flight_after_a_loss():
    # As above, with C(-1,0) left on the other side of the volcano: the game
    # is lost at once and refuses further flights although C remains.
    p = pos([(1, 0, 1), (2, 0, 1), (-1, 0, 1)], (0, 0), [3])
    r = volcano.replay(p, [fl(0, 1, 0, NE), fl(0, -1, 0, NW)])
    assert r.steps[0].status == r.status == "loss"
    assert r.error and r.error.startswith("flight 1:")
    assert board(r.position) == {(-1, 0): (1, 1, 0)} and r.position.supply == [2]
    with pytest.raises(ValueError):
        ref.replay(p, [fl(0, 1, 0, NE), fl(0, -1, 0, NW)])
    # The written position is the board as it stands (docs/rules/volcano.md):
    # the loss was the flight's, so a check of it reads on, a new game.
    assert volcano.check(r.position).status == "ongoing"


def test_63_tiles_in_a_row():
    # Cells 0..62 are forest, the volcano is the 64th cell. Every tile must
    # hold a pawn when it goes (full, or isolated with a pawn), so 63 pawns
    # are needed and enough.
    p = pos([(q, 0, 1) for q in range(1, 64)], (0, 0), [63])
    r = volcano.solve(p, Limit(seconds=20))
    assert r.verdict == "win" and len(r.line) == 63
    assert ref.replay(p, [as_dict(f) for f in r.line]) == "win"
    assert volcano.replay(p, r.line).status == "win"
    assert volcano.check(p).pawns_needed == 63
    for supply in ([62], [20, 20, 22]):
        assert volcano.solve(dict(p, supply=supply), Limit(seconds=20)).verdict == "loss"
    r = volcano.solve(dict(p, supply=[20, 20, 23]), Limit(seconds=20))
    assert r.verdict == "win" and ref.replay(dict(p, supply=[20, 20, 23]), [as_dict(f) for f in r.line]) == "win"


def test_no_forest_tiles_is_a_win_with_an_empty_line():
    for supply in ([12, 12, 12, 12], [0], [0, 0, 0]):
        p = pos([], (3, -2), supply)
        r = volcano.solve(p)
        assert (r.verdict, r.line) == ("win", [])
        chk = volcano.check(p)
        assert (chk.status, chk.moves, chk.pawns_needed) == ("win", [], 0)
        assert volcano.hint(p).moves == []
        assert volcano.replay(p, []).status == "win"
        assert volcano.replay(p, [fl(0, 3, -2, E)]).error


def test_forest_left_and_empty_supply_is_a_loss():
    p = pos([(1, 0, 3), (2, 0, 4, 1)], (0, 0), [0, 0])
    r = volcano.solve(p)
    assert (r.verdict, r.line) == ("loss", None)
    chk = volcano.check(p)
    assert (chk.status, chk.moves, chk.supply_total) == ("loss", [], 0)
    assert volcano.hint(p).moves == []
    assert volcano.replay(p, []).status == "loss"
    r = volcano.replay(p, [fl(0, 2, 0, E)])
    assert r.error and "colour 0" in r.error


def test_same_row_from_both_ends_differs_when_the_colour_runs_out():
    # Row A(0,0) B(1,0) C(2,0), volcano below at (1,1); 3 spaces each, 2 pawns.
    p = pos([(0, 0, 5), (1, 0, 5), (2, 0, 5)], (1, 1), [2])
    east = volcano.replay(p, [fl(0, 0, 0, E)])
    west = volcano.replay(p, [fl(0, 2, 0, W)])
    assert board(east.position) == {(0, 0): (5, 3, 1), (1, 0): (5, 3, 1), (2, 0): (5, 3, 0)}
    assert board(west.position) == {(0, 0): (5, 3, 0), (1, 0): (5, 3, 1), (2, 0): (5, 3, 1)}
    assert east.steps[0].dropped == west.steps[0].dropped == 2
    # Both stay distinct moves in a hint.
    reps = [{ftuple(m.flight), *map(ftuple, m.equivalent)} for m in volcano.check(p).moves]
    assert not any((0, (0, 0), E) in g and (0, (2, 0), W) in g for g in reps)


def test_flights_to_the_same_state_are_one_move():
    # One 1-space tile: four entry sides and two colours of equal supply all
    # give the same state up to colours.
    p = pos([(1, 0, 1)], (0, 0), [1, 1])
    chk = volcano.check(p)
    assert len(chk.moves) == 1 and len(chk.moves[0].equivalent) == 7
    assert len(legal_set(p)) == 8 == len(ref.legal_flights(ref.parse_position(p)))
    # Unequal supplies are not merged.
    assert len(volcano.check(pos([(1, 0, 1)], (0, 0), [1, 2])).moves) == 2


def test_moves_use_the_inputs_colour_indices_and_cells():
    p = pos([(11, 7, 3), (12, 7, 1), (11, 8, 5)], (10, 8), [0, 0, 9])
    r = volcano.solve(p)
    assert r.verdict == "win"
    assert {f.color for f in r.line} == {2}
    assert {f.tile for f in r.line} <= {(11, 7), (12, 7), (11, 8)}
    assert ref.replay(p, [as_dict(f) for f in r.line]) == "win"


def test_wilson_interval_matches_known_values():
    from smokejumper.stats import wilson_interval

    lo, hi = wilson_interval(8, 10)  # textbook value: [0.490, 0.943]
    assert round(lo, 3) == 0.490 and round(hi, 3) == 0.943
    assert wilson_interval(0, 5)[0] == 0.0 and wilson_interval(5, 5)[1] == 1.0


def test_analyse_counts_and_is_independent_of_threads():
    limit = Limit(nodes=200_000)
    one = volcano.analyse(6, seed=2, limit=limit, workers=1)
    two = volcano.analyse(6, seed=2, limit=limit, workers=2)
    assert [r.model_dump(exclude={"seconds"}) for r in one.results] == \
        [r.model_dump(exclude={"seconds"}) for r in two.results]
    assert [r.seed for r in one.results] == list(range(2, 8))
    assert one.wins + one.losses + one.unknown == 6
    for r in one.results:  # each verdict is the one solve gives on its own
        alone = volcano.solve(volcano.generate(r.seed).position, limit)
        assert (alone.verdict, alone.stats.nodes) == (r.verdict, r.nodes)
    lo, hi = one.interval95
    assert lo <= one.win_share <= hi


def test_input_size_counts_utf8_bytes():
    # 600,000 characters but 1.2 MB of UTF-8: over the 1 MiB cap.
    text = '{"tiles": [], "volcano": {"q": 0, "r": 0}, "x": "' + "\u00e9" * 600_000 + '"}'
    with pytest.raises(InvalidPositionError, match="bytes"):
        volcano.check(text)
