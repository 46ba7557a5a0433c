"""Volcano!'s bounds for the soundness check (bounds.py): the per-node pawn
counts, the removal-plan bound and the dead-end tests built on them, on
random free layouts of 5-9 tiles (where a budget-cut plan bound once said
"no plan" for 2% of winnable layouts)."""

from __future__ import annotations

import functools
import heapq
import itertools
import json
import random

import volcano_reference as ref
from bounds import GameBounds, Truth, cost_lower_bound, dead_end, Bound
from smokejumper import _core, volcano

# The plan bound's node cap here: enough for every layout drawn (so the plan
# bound is exact and comparable with plan_pawns_here), as the solver's is.
PLAN_NODES = 1 << 20
PLENTY = 200  # pawns of one colour: more than any layout drawn here can take


def least_pawns_to_win(p):
    """The fewest pawns any winning line drops whatever the supply (None: no
    line wins), by exhausting the reference's states with one colour of
    plenty: the true cost the bounds must not exceed. (The bounds ignore
    colours, and a split supply only forbids lines.) With plenty, what is
    still to pay depends on the tiles alone, so states merge across the
    pawns already spent."""
    return _least_for_layout(json.dumps({"tiles": p["tiles"], "volcano": p["volcano"]}, sort_keys=True))


@functools.lru_cache(maxsize=1)  # position() and truth() ask it of one layout in turn
def _least_for_layout(layout: str):
    root = ref.parse_position(dict(json.loads(layout), supply=[PLENTY]))
    memo = {}

    def least(s):  # the fewest pawns a win from s drops, or None
        if s.lost:
            return None
        if not s.tiles:
            return 0
        if s.tiles not in memo:
            full = s._replace(supply=(PLENTY,))
            # With plenty, a flight drops one pawn on every tile of its path
            # with room, in any order: one flight per set of tiles.
            paths = {frozenset(path) for _flight, _c, path in ref._legal(full)}
            costs = [PLENTY - child.supply[0] + rest for child, _lost in (ref._apply(full, 0, list(path)) for path in paths)
                     if (rest := least(child)) is not None]
            memo[s.tiles] = min(costs, default=None)
        return memo[s.tiles]

    return least(root)


def plan_pawns_here(p):
    """The removal-plan bound worked out here, independently of the C++ (and
    without its shortcuts): one pawn on every pawnless tile, plus the missing
    pawns of every tile the plan extinguishes. A plan removes one tile at a
    time, each with two adjacent free edges, and whatever that cuts off from
    the volcano goes with it for free. Dijkstra over the tiles still standing;
    None when no plan clears the board."""
    state = ref.parse_position(p)
    tiles = {(q, r): (spaces, pawns) for q, r, _n, spaces, pawns in state.tiles}
    base = sum(pawns == 0 for _spaces, pawns in tiles.values())
    start = frozenset(tiles)
    best = {start: 0}
    tie = itertools.count()
    heap = [(0, next(tie), start)]
    while heap:
        cost, _, standing = heapq.heappop(heap)
        if cost > best[standing]:
            continue
        if not standing:
            return base + cost
        occupied = standing | {state.volcano}
        for cell in standing:
            if not ref._has_two_adjacent_free_edges(cell, occupied):
                continue
            reach = ref._connected_to_volcano(state.volcano, occupied - {cell})
            after = frozenset(c for c in standing if c in reach and c != cell)
            spaces, pawns = tiles[cell]
            step = cost + spaces - max(pawns, 1)
            if step < best.get(after, step + 1):
                best[after] = step
                heapq.heappush(heap, (step, next(tie), after))
    return None


def position(rng: random.Random) -> dict:
    # Most layouts keep plenty of one colour, which measures the bounds
    # against the true least cost; the rest get a supply near that cost, in
    # one colour or two, where the dead-end tests must tell won from lost
    # (on at most 7 tiles: the reference's exhaustive search grows fast).
    tight = rng.random() < 0.4
    p = ref.random_free_layout(rng, rng.randint(5, 7 if tight else 9), [60])
    if rng.random() < 0.2:
        for t in p["tiles"]:
            t["spaces"] = rng.randint(1, 3)
            t["pawns"] = min(t.get("pawns", 0), t["spaces"] - 1)
    if tight:
        least = least_pawns_to_win(p)
        total = max(0, (least if least is not None else rng.randint(3, 12)) + rng.randint(-2, 1))
        first = total if rng.random() < 0.7 else rng.randint(0, total)
        p["supply"] = [first] if first == total else [first, total - first]
    return p


def truth(p: dict) -> Truth:
    least = least_pawns_to_win(p)
    # 60 pawns of one colour are more than any layout drawn here can take.
    won = least is not None and (p["supply"] == [60] or ref.solve(p)["verdict"] == "win")
    plan = plan_pawns_here(p)
    return Truth(won=won, cost=least, extra={"plan": -1 if plan is None else plan})


def measure(p: dict) -> dict:
    tiles, cell, supply, standard = volcano.load_position(p).native()
    return _core.volcano.bounds(tiles, cell, supply, standard, PLAN_NODES)


BOUNDS = GameBounds(
    game="volcano",
    position=position,
    truth=truth,
    measure=measure,
    bounds=(
        cost_lower_bound("pawns_needed", at_least=300),
        cost_lower_bound("pawns_needed_shallow", at_least=200),
        cost_lower_bound("plan_pawns", at_least=300),
        # The C++ plan search against the plain Dijkstra above: the same
        # number, every time (the cap is never reached on these layouts).
        Bound("plan_pawns", lambda v, t: v == t.extra["plan"], lambda v, t: v >= 0, at_least=1500,
              label="plan_pawns equals a plain Dijkstra"),
        dead_end("hopeless", at_least=100),
        dead_end("deep_hopeless", at_least=100),
    ),
)
