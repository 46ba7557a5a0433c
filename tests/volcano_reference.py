"""Brute-force reference implementation of Volcano! solitaire.

Written only from ``/work/shared/spec/README.md`` and ``/work/shared/spec/volcano.md``,
deliberately simple and independent of the fast solver, so the test suite can
cross-check the two.  Standard library only.

Flights are dicts ``{"color": c, "tile": [q, r], "dir": d}`` using the position's
own colour indices and cells.

Readings chosen where the spec leaves room:
- after a pawnless isolation the game is over: the state keeps ``lost=True``,
  has no legal flights and ``apply_flight`` refuses any further flight;
- ``apply_flight``'s ``lost`` flag means "this flight isolated a pawnless tile";
  running out of legal flights is reported by ``status`` instead;
- colours are NOT merged (states differing by a colour permutation are distinct),
  the supply keeps the input's order and length;
- ``parse_position`` rejects disconnected layouts and (by default) unsettled ones.

Cost grows quickly with the supply; keep solve() inputs small (about 8 forest
tiles with one or two colours of a few pawns, or one colour of any size).
"""

from __future__ import annotations

import functools
import random
from typing import NamedTuple

# Axial directions in the spec's fixed order: E, NE, NW, W, SW, SE.
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

# Default pawn spaces for forest numbers 1..6 (an assumption of the spec).
DEFAULT_SPACES = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}

DEFAULT_SUPPLY = (12, 12, 12, 12)


class State(NamedTuple):
    """Immutable, hashable game state.

    tiles:   sorted tuple of forest tiles ``(q, r, n, spaces, pawns)``
    volcano: the volcano cell ``(q, r)``
    supply:  pawns left per colour, in the input's colour order
    lost:    True once a pawnless tile has been isolated (game lost at once)
    """

    tiles: tuple
    volcano: tuple
    supply: tuple
    lost: bool = False


# ---------------------------------------------------------------- helpers

def _add(cell, d, k=1):
    dq, dr = DIRECTIONS[d]
    return (cell[0] + k * dq, cell[1] + k * dr)


@functools.cache  # the cells of small layouts, asked millions of times by the brute force
def _neighbours(cell):
    q, r = cell
    return tuple((q + dq, r + dr) for (dq, dr) in DIRECTIONS)


def _tile_map(state):
    """Map cell -> (n, spaces, pawns) for the forest tiles."""
    return {(q, r): (n, s, p) for (q, r, n, s, p) in state.tiles}


def _occupied(state):
    """Every cell holding a tile: forest tiles and the volcano."""
    cells = {(t[0], t[1]) for t in state.tiles}
    cells.add(state.volcano)
    return cells


def _has_two_adjacent_free_edges(cell, occupied):
    free = [nb not in occupied for nb in _neighbours(cell)]
    return any(free[i] and free[(i + 1) % 6] for i in range(6))


def _connected_to_volcano(volcano, occupied):
    """Cells reachable from the volcano through tiles."""
    seen = {volcano}
    stack = [volcano]
    while stack:
        cell = stack.pop()
        for nb in _neighbours(cell):
            if nb in occupied and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return seen


def _make_state(tiles_map, volcano, supply, lost):
    tiles = tuple(sorted((q, r, n, s, p) for (q, r), (n, s, p) in tiles_map.items()))
    return State(tiles, tuple(volcano), tuple(supply), bool(lost))


# ---------------------------------------------------------------- parsing

def parse_position(obj: dict, require_settled: bool = True) -> State:
    """Parse the spec's JSON position shape into a State.

    Raises ValueError on malformed input, on a disconnected layout and (unless
    ``require_settled`` is False) on an unsettled one.
    """
    if not isinstance(obj, dict):
        raise ValueError("position must be an object")
    try:
        volcano = (int(obj["volcano"]["q"]), int(obj["volcano"]["r"]))
    except (KeyError, TypeError) as exc:
        raise ValueError("position needs a volcano {q, r}") from exc
    supply = tuple(int(x) for x in obj.get("supply", DEFAULT_SUPPLY))
    if not supply or any(x < 0 for x in supply):
        raise ValueError("supply must be a non-empty list of non-negative counts")

    tiles_map = {}
    for t in obj.get("tiles", []):
        cell = (int(t["q"]), int(t["r"]))
        n = int(t["n"])
        if n not in DEFAULT_SPACES:
            raise ValueError(f"tile {cell}: number {n} not in 1..6")
        spaces = int(t.get("spaces", DEFAULT_SPACES[n]))
        pawns = int(t.get("pawns", 0))
        if not 1 <= spaces <= 3:
            raise ValueError(f"tile {cell}: spaces {spaces} not in 1..3")
        if not 0 <= pawns <= spaces:
            raise ValueError(f"tile {cell}: pawns {pawns} not in 0..{spaces}")
        if cell == volcano:
            raise ValueError(f"tile {cell}: on the volcano cell")
        if cell in tiles_map:
            raise ValueError(f"tile {cell}: cell given twice")
        tiles_map[cell] = (n, spaces, pawns)

    state = _make_state(tiles_map, volcano, supply, False)
    occupied = _occupied(state)
    reach = _connected_to_volcano(volcano, occupied)
    for cell in sorted(tiles_map):
        if cell not in reach:
            raise ValueError(f"tile {cell}: not connected to the volcano")
    if require_settled:
        for cell, (_n, s, p) in sorted(tiles_map.items()):
            if p == s and _has_two_adjacent_free_edges(cell, occupied):
                raise ValueError(f"tile {cell}: full with two adjacent free edges (unsettled)")
    return state


def to_position(state: State) -> dict:
    """Inverse of parse_position (spaces and pawns written out)."""
    return {
        "tiles": [{"q": q, "r": r, "n": n, "spaces": s, "pawns": p}
                  for (q, r, n, s, p) in state.tiles],
        "volcano": {"q": state.volcano[0], "r": state.volcano[1]},
        "supply": list(state.supply),
    }


def settled(state: State) -> bool:
    """True if the removal steps would remove nothing (and the game is not lost)."""
    if state.lost:
        return False
    occupied = _occupied(state)
    reach = _connected_to_volcano(state.volcano, occupied)
    for (q, r, _n, s, p) in state.tiles:
        if (q, r) not in reach:
            return False
        if p == s and _has_two_adjacent_free_edges((q, r), occupied):
            return False
    return True


# ---------------------------------------------------------------- flights

def _paths(state):
    """Yield (tile, d, path) for every entry whose path is legal for some colour.

    Checks everything except the colour: entry tile is a forest tile, ``t - d``
    is empty, the path avoids the volcano and has a forest tile with space.
    """
    tiles = _tile_map(state)
    occupied = _occupied(state)
    for tile in sorted(tiles):
        for d in range(6):
            if _add(tile, d, -1) in occupied:
                continue
            path = _walk(occupied, tile, d)
            if state.volcano in path:
                continue
            if not any(tiles[x][2] < tiles[x][1] for x in path):
                continue
            yield tile, d, path


def _walk(occupied, tile, d):
    """The cells from `tile` in direction `d` up to the first empty cell."""
    path = []
    cell = tile
    while cell in occupied:
        path.append(cell)
        cell = _add(cell, d)
    return path


def _legal(state):
    """List of (flight, colour, path) for every legal flight, in colour, tile, direction order."""
    if state.lost:
        return []
    entries = list(_paths(state))
    result = []
    for c, left in enumerate(state.supply):
        if left < 1:
            continue
        for tile, d, path in entries:
            result.append(({"color": c, "tile": [tile[0], tile[1]], "dir": d}, c, path))
    return result


def _check_flight(state, flight):
    """Return (color, path) for a legal flight; raise ValueError otherwise."""
    try:
        c = int(flight["color"])
        tile = (int(flight["tile"][0]), int(flight["tile"][1]))
        d = int(flight["dir"])
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise ValueError(f"malformed flight {flight!r}") from exc
    if state.lost:
        raise ValueError("game already lost")
    if not 0 <= c < len(state.supply):
        raise ValueError(f"colour {c} out of range")
    if not 0 <= d < 6:
        raise ValueError(f"direction {d} out of range")
    if state.supply[c] < 1:
        raise ValueError(f"colour {c} has no pawns left")
    tiles = _tile_map(state)
    occupied = _occupied(state)
    if tile not in tiles:
        raise ValueError(f"entry {tile} is not a forest tile")
    if _add(tile, d, -1) in occupied:
        raise ValueError(f"entry {tile} direction {d}: start cell is not empty")
    path = _walk(occupied, tile, d)
    if state.volcano in path:
        raise ValueError("flight path crosses the volcano")
    if not any(tiles[x][2] < tiles[x][1] for x in path):
        raise ValueError("no empty space on the flight path")
    return c, path


def legal_flights(state: State) -> list:
    """Every legal (colour, entry tile, direction), in colour, tile, direction order."""
    return [flight for flight, _c, _path in _legal(state)]


def _apply(state, c, path):
    """Drop pawns of colour c along path, then extinguish and isolate. No legality checks."""
    tiles = _tile_map(state)
    supply = list(state.supply)

    # Drop: one pawn per forest tile with space, in path order, while colour c lasts.
    for cell in path:
        n, s, p = tiles[cell]
        if p < s and supply[c] > 0:
            tiles[cell] = (n, s, p + 1)
            supply[c] -= 1

    # Extinguish, repeated until nothing changes.
    changed = True
    while changed:
        changed = False
        occupied = set(tiles) | {state.volcano}
        for cell in sorted(tiles):
            n, s, p = tiles[cell]
            if p == s and _has_two_adjacent_free_edges(cell, occupied):
                del tiles[cell]
                changed = True
                break

    # Isolate, once.
    occupied = set(tiles) | {state.volcano}
    reach = _connected_to_volcano(state.volcano, occupied)
    lost = False
    for cell in sorted(tiles):
        if cell not in reach:
            if tiles[cell][2] == 0:
                lost = True
            del tiles[cell]

    return _make_state(tiles, state.volcano, supply, lost), lost


def apply_flight(state: State, flight: dict):
    """Apply one flight and the removals; return (new_state, lost).

    ``lost`` is True when the flight isolated a pawnless tile.  Raises
    ValueError on an illegal flight (including any flight after a loss).
    """
    c, path = _check_flight(state, flight)
    return _apply(state, c, path)


def status(state: State) -> str:
    """'win', 'loss' or 'ongoing'."""
    if state.lost:
        return "loss"
    if not state.tiles:
        return "win"
    if not legal_flights(state):
        return "loss"
    return "ongoing"


def distinct_children(state: State) -> dict:
    """Map each distinct resulting state to the flights that reach it (insertion ordered)."""
    children = {}
    for flight, c, path in _legal(state):
        child, _lost = _apply(state, c, path)
        children.setdefault(child, []).append(flight)
    return children


# ---------------------------------------------------------------- search

def solve(position: dict) -> dict:
    """Exhaustive DFS; returns {"verdict": "win"|"loss", "line": flights or None}."""
    state = parse_position(position)
    lost_memo = {}

    def wins(s, line):
        if s.lost:
            return False
        if not s.tiles:
            return True
        if s in lost_memo:
            return False
        tried = set()
        for flight, c, path in _legal(s):
            # Flights with the same colour and the same path in the same order
            # (e.g. one-tile paths entered from different sides) give the same child.
            if (c, tuple(path)) in tried:
                continue
            tried.add((c, tuple(path)))
            child, _lost = _apply(s, c, path)
            if wins(child, line):
                line.append(flight)
                return True
        lost_memo[s] = True
        return False

    line = []
    if wins(state, line):
        line.reverse()
        return {"verdict": "win", "line": line}
    return {"verdict": "loss", "line": None}


def replay(position: dict, line: list) -> str:
    """Replay flights from a position; return the final status or raise ValueError."""
    state = parse_position(position)
    for flight in line:
        state, _lost = apply_flight(state, flight)
    return status(state)


# ---------------------------------------------------------------- random layouts

def _grow(rng, cells, total, forbidden=frozenset()):
    """Add random neighbours of existing cells until there are ``total`` cells."""
    while len(cells) < total:
        frontier = sorted({nb for c in cells for nb in _neighbours(c)}
                          - set(cells) - set(forbidden))
        cells.append(rng.choice(frontier))
    return cells


def _shape_blob(rng, total):
    return _grow(rng, [(0, 0)], total)


def _shape_line(rng, total):
    d = rng.randrange(6)
    return [_add((0, 0), d, k) for k in range(total)]


def _shape_snake(rng, total):
    cells = [(0, 0)]
    while len(cells) < total:
        options = [nb for nb in _neighbours(cells[-1]) if nb not in cells]
        if not options:
            return _grow(rng, cells, total)
        cells.append(rng.choice(options))
    return cells


def _shape_ring(rng, total):
    """A hex ring around an empty centre (a hole), then grown outwards."""
    radius = 1 if total < 12 or rng.random() < 0.5 else 2
    ring = []
    cell = _add((0, 0), 4, radius)
    for d in range(6):
        for _ in range(radius):
            ring.append(cell)
            cell = _add(cell, d)
    start = rng.randrange(len(ring))
    arc = [ring[(start + i) % len(ring)] for i in range(min(total, len(ring)))]
    inside = {(0, 0)} if radius == 1 else {(0, 0)} | set(_neighbours((0, 0)))
    return _grow(rng, arc, total, forbidden=inside)


def random_free_layout(rng: random.Random, n_forest: int, supply: list) -> dict:
    """A random connected, settled free layout: one volcano plus ``n_forest`` forest tiles.

    Shapes vary (blob, straight line, snake, ring with a hole); numbers are 1..6
    with default spaces (``spaces`` omitted); sometimes a few pawns are pre-placed.
    """
    total = n_forest + 1
    shape = rng.choice(["blob", "line", "snake", "ring"])
    if shape == "ring" and total < 6:
        shape = "blob"
    builder = {"blob": _shape_blob, "line": _shape_line,
               "snake": _shape_snake, "ring": _shape_ring}[shape]
    cells = builder(rng, total)
    oq, orr = rng.randint(-3, 3), rng.randint(-3, 3)
    cells = [(q + oq, r + orr) for (q, r) in cells]

    volcano = rng.choice(cells)
    occupied = set(cells)
    with_pawns = rng.random() < 0.4
    tiles = []
    for cell in sorted(c for c in cells if c != volcano):
        n = rng.randint(1, 6)
        spaces = DEFAULT_SPACES[n]
        pawns = 0
        if with_pawns and rng.random() < 0.5:
            pawns = rng.randint(1, spaces)
            if pawns == spaces and _has_two_adjacent_free_edges(cell, occupied):
                pawns -= 1       # keep the position settled
        tiles.append({"q": cell[0], "r": cell[1], "n": n, "pawns": pawns})
    return {"tiles": tiles, "volcano": {"q": volcano[0], "r": volcano[1]},
            "supply": list(supply)}
