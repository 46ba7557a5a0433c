"""Brute-force reference implementation of Wild Fire! solitaire (Ablaze! box).

Written only from ``/work/shared/spec/README.md`` and ``/work/shared/spec/wildfire.md``
(the rulebook as evidence), deliberately simple and independent of the fast
solver, so the test suite can cross-check the two.  Standard library only.

Positions are the spec's JSON dicts; ``parse`` turns one into a ``State`` and
``to_position`` writes a ``State`` back in the mid-game form.  Moves are
``{"place": [q, r], "pawns": {"color": c, "tile": [q, r], "count": k}}`` or
``{"place": [q, r], "pawns": None}``, with the input's own cells and colours.

Readings chosen where the spec leaves room:
- defaults: ``supply`` [12, 12, 12, 12], ``level`` 1, ``spaces`` by number
  (1,1,2,2,3,3), a mid-game tile's ``pawns`` all 0; ``turn`` (mid-game) and
  ``turns`` / ``turns_left`` (hidden order) are required.  Unknown keys are
  rejected, so a misspelt key cannot silently fall back to a default;
- a mid-game position holds exactly ``turn + 1`` tiles (one start tile, one
  per turn played), connected, on distinct cells; a tile's pawns (all colours)
  are at most its spaces.  More pawns than free edges is allowed (pawns stay
  when edges close).  The history is not checked otherwise (hottest-cell
  placements, the level, pawns per turn);
- 1..4 colours; each tile's ``pawns`` list has one entry per colour; counts in
  the supply and the pool are not checked against the 43-tile box;
- ``legal_moves`` lists the hottest cells in (q, r) order and, per cell, the
  pawnless move first, then colour, tile in (q, r) order, count ascending.
  No two listed moves give the same state.  A finished game has none and
  ``apply`` refuses any move;
- known order: ``tile`` may be omitted; if given it must be the next tile of
  the deal.  Hidden order: ``tile`` (the drawn tile) is required and must be
  in the pool, which is a multiset (written back sorted);
- ``is_won`` refuses an unfinished position.  All pawns placed means every
  supply is 0; then a colour with no pawn on the table never had any, so it
  is the exempt colour of the spec.  The 1-tile with a free edge must be one
  of the region's own tiles (it holds a pawn of that colour);
- ``score`` and ``tie_break`` work on any position (current free edges).
  ``players`` splits the colours evenly in index order (2 players with 4
  colours: (0, 1) and (2, 3)); it must divide the number of colours, so the
  3-player game with its neutral fourth colour is not modelled (pass only the
  three players' colours).  Firebreak and dry-season variants are not modelled;
- ``solve`` is known order only.  It searches the plain state (colours are
  never merged) depth first, moves in ``legal_moves`` order, with a memo of
  lost states and two safe cuts: more pawns left than 3 per remaining
  pawn-allowed turn is a loss; more colours with pawns (on the table or in the
  supply) than spaces on 1-tiles (on the table and to come) is a loss, since
  each such colour needs a pawn on a 1-tile;
- ``random_midgame`` always leaves a turn to play and at least one pawn on the
  table.

Cost grows with deal length, ties and pawns: keep ``solve`` to about 8 tiles
and 5 pawns (random deals of 3-8 tiles solve in milliseconds on average, a few
losses take seconds).
"""

from __future__ import annotations

import random
from typing import NamedTuple, Optional

# Axial directions in the spec's fixed order: E, NE, NW, W, SW, SE.
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

# Default pawn spaces for numbers 1..6 (an assumption of the spec).
DEFAULT_SPACES = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}

DEFAULT_SUPPLY = (12, 12, 12, 12)
MAX_COLOURS = 4
MAX_PER_TURN = 3

# random_midgame gives up after this many deals.
ATTEMPTS = 1000

# The box: seven tiles of each number 1-6 and one extra 3.
BOX = tuple(sorted([n for n in range(1, 7) for _ in range(7)] + [3]))

Cell = tuple  # (q, r)
Spec = tuple  # a tile not yet on the table: (n, spaces)


class State(NamedTuple):
    """Immutable, hashable game state.

    tiles:      sorted tuple of ``((q, r), n, spaces, pawns)``, pawns one count per colour
    supply:     pawns left per colour, in the input's colour order
    turn:       turns already played
    level:      1..3
    rest:       known order: the tiles still to come, in order; None for hidden order
    pool:       hidden order: the unseen tiles, sorted; None for known order
    turns_left: turns still to play (``len(rest)`` in known order)
    """

    tiles: tuple
    supply: tuple
    turn: int
    level: int
    rest: Optional[tuple]
    pool: Optional[tuple]
    turns_left: int


# ---------------------------------------------------------------- geometry

def _neighbours(cell: Cell) -> list:
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def _free_edges(cell: Cell, occupied) -> int:
    return sum(nb not in occupied for nb in _neighbours(cell))


def _components(cells) -> list:
    """The connected groups of a set of cells, each a set."""
    left = set(cells)
    groups = []
    while left:
        start = left.pop()
        group, stack = {start}, [start]
        while stack:
            for nb in _neighbours(stack.pop()):
                if nb in left:
                    left.remove(nb)
                    group.add(nb)
                    stack.append(nb)
        groups.append(group)
    return groups


def _tile_map(state: State) -> dict:
    """cell -> (n, spaces, pawns)."""
    return {cell: (n, s, p) for cell, n, s, p in state.tiles}


def _freeze(tmap: dict) -> tuple:
    return tuple(sorted((cell, n, s, p) for cell, (n, s, p) in tmap.items()))


def _hottest(tmap: dict) -> list:
    """The empty cells next to a tile with the highest heat, in (q, r) order."""
    heat = {}
    for cell, (n, _s, _p) in tmap.items():
        for nb in _neighbours(cell):
            if nb not in tmap:
                heat[nb] = heat.get(nb, 0) + n
    top = max(heat.values())
    return sorted(cell for cell, h in heat.items() if h == top)


# ---------------------------------------------------------------- parsing

def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _keys(obj, allowed: set, where: str) -> None:
    if not isinstance(obj, dict):
        raise ValueError(f"{where}: must be an object")
    extra = sorted(set(obj) - allowed)
    if extra:
        raise ValueError(f"{where}: unknown key(s) {extra}; allowed {sorted(allowed)}")


def _int_in(v, lo: int, hi: Optional[int], where: str) -> int:
    if not _is_int(v) or v < lo or (hi is not None and v > hi):
        span = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise ValueError(f"{where}: {v!r} must be an integer {span}")
    return v


def _spec(obj, where: str) -> Spec:
    """A tile off the table: ``{"n", "spaces"?}``."""
    _keys(obj, {"n", "spaces"}, where)
    if "n" not in obj:
        raise ValueError(f"{where}: missing 'n'")
    n = _int_in(obj["n"], 1, 6, f"{where}.n")
    s = _int_in(obj.get("spaces", DEFAULT_SPACES[n]), 1, 3, f"{where}.spaces")
    return (n, s)


def _specs(obj, where: str) -> list:
    if not isinstance(obj, list):
        raise ValueError(f"{where}: must be a list of tiles")
    return [_spec(t, f"{where}[{i}]") for i, t in enumerate(obj)]


def _supply(position: dict) -> tuple:
    supply = position.get("supply", list(DEFAULT_SUPPLY))
    if not isinstance(supply, list) or not 1 <= len(supply) <= MAX_COLOURS:
        raise ValueError(f"supply: {supply!r} must be a list of 1..{MAX_COLOURS} counts")
    return tuple(_int_in(x, 0, None, f"supply[{c}]") for c, x in enumerate(supply))


def _level(position: dict) -> int:
    return _int_in(position.get("level", 1), 1, 3, "level")


def _required(position: dict, key: str, why: str):
    if key not in position:
        raise ValueError(f"position: missing '{key}' ({why})")
    return position[key]


def _start_state(start: Spec, supply: tuple, level: int, rest, pool, turns_left: int) -> State:
    tiles = (((0, 0), start[0], start[1], (0,) * len(supply)),)
    return State(tiles, supply, 0, level, rest, pool, turns_left)


def _parse_known_start(position: dict) -> State:
    _keys(position, {"deal", "level", "supply"}, "position (known order from the start)")
    deal = _specs(position["deal"], "deal")
    if not deal:
        raise ValueError("deal: needs at least the start tile")
    return _start_state(deal[0], _supply(position), _level(position), tuple(deal[1:]), None,
                        len(deal) - 1)


def _parse_hidden_start(position: dict) -> State:
    _keys(position, {"start", "pool", "turns", "level", "supply"},
          "position (hidden order from the start)")
    start = _spec(position["start"], "start")
    pool = _specs(_required(position, "pool", "the unseen tiles"), "pool")
    turns = _int_in(_required(position, "turns", "how many tiles will be drawn"),
                    0, len(pool), "turns (at most the pool size)")
    return _start_state(start, _supply(position), _level(position), None,
                        tuple(sorted(pool)), turns)


def _parse_midgame(position: dict) -> State:
    _keys(position, {"tiles", "turn", "supply", "level", "deal_rest", "pool", "turns_left"},
          "position (mid-game)")
    supply = _supply(position)
    level = _level(position)
    turn = _int_in(_required(position, "turn", "turns already played"), 0, None, "turn")

    if "deal_rest" in position:
        if "pool" in position or "turns_left" in position:
            raise ValueError("position: give either 'deal_rest' (known order) or "
                             "'pool' and 'turns_left' (hidden order), not both")
        rest = tuple(_specs(position["deal_rest"], "deal_rest"))
        pool, turns_left = None, len(rest)
    elif "pool" in position:
        rest = None
        pool = _specs(position["pool"], "pool")
        turns_left = _int_in(_required(position, "turns_left", "hidden order"),
                             0, len(pool), "turns_left (at most the pool size)")
        pool = tuple(sorted(pool))
    else:
        raise ValueError("position: mid-game needs 'deal_rest' (known order) or "
                         "'pool' and 'turns_left' (hidden order)")

    tiles = position["tiles"]
    if not isinstance(tiles, list):
        raise ValueError("tiles: must be a list")
    if len(tiles) != turn + 1:
        raise ValueError(f"tiles: {len(tiles)} tiles after {turn} turns; "
                         f"a solitaire table holds turn + 1 = {turn + 1}")
    tmap = {}
    for i, t in enumerate(tiles):
        where = f"tiles[{i}]"
        _keys(t, {"q", "r", "n", "spaces", "pawns"}, where)
        for key in ("q", "r", "n"):
            if key not in t:
                raise ValueError(f"{where}: missing '{key}'")
        for key in ("q", "r"):
            if not _is_int(t[key]):
                raise ValueError(f"{where}.{key}: {t[key]!r} must be an integer")
        cell = (t["q"], t["r"])
        n, s = _spec({k: t[k] for k in ("n", "spaces") if k in t}, where)
        pawns = t.get("pawns", [0] * len(supply))
        if not isinstance(pawns, list) or len(pawns) != len(supply):
            raise ValueError(f"{where}.pawns: {pawns!r} must list one count per colour "
                             f"({len(supply)} colours in the supply)")
        pawns = tuple(_int_in(x, 0, None, f"{where}.pawns[{c}]") for c, x in enumerate(pawns))
        if sum(pawns) > s:
            raise ValueError(f"{where} at {cell}: {sum(pawns)} pawns on a tile with {s} spaces")
        if cell in tmap:
            raise ValueError(f"{where}: cell {cell} already holds a tile")
        tmap[cell] = (n, s, pawns)
    if len(_components(tmap)) != 1:
        raise ValueError("tiles: not connected (every tile is placed next to the forest)")
    return State(_freeze(tmap), supply, turn, level, rest, pool, turns_left)


def parse(position: dict) -> State:
    """Parse any of the spec's position forms; raise ValueError on invalid input."""
    if not isinstance(position, dict):
        raise ValueError("position: must be an object")
    forms = [k for k in ("tiles", "deal", "start") if k in position]
    if len(forms) != 1:
        raise ValueError("position: needs exactly one of 'deal' (known order from the start), "
                         "'start' (hidden order from the start) or 'tiles' (mid-game); "
                         f"got {forms}")
    return {"tiles": _parse_midgame, "deal": _parse_known_start,
            "start": _parse_hidden_start}[forms[0]](position)


def _spec_dict(t: Spec) -> dict:
    return {"n": t[0], "spaces": t[1]}


def to_position(state: State) -> dict:
    """The state in the spec's mid-game form (spaces and pawns written out)."""
    out = {
        "tiles": [{"q": cell[0], "r": cell[1], "n": n, "spaces": s, "pawns": list(p)}
                  for cell, n, s, p in state.tiles],
        "turn": state.turn,
        "supply": list(state.supply),
        "level": state.level,
    }
    if state.rest is not None:
        out["deal_rest"] = [_spec_dict(t) for t in state.rest]
    else:
        out["pool"] = [_spec_dict(t) for t in state.pool]
        out["turns_left"] = state.turns_left
    return out


# ---------------------------------------------------------------- turns

def _pawns_allowed(state: State) -> bool:
    # The turn being played is number turn + 1; level L blocks turns 1..L-1.
    return state.turn + 1 >= state.level


def _pawn_actions(state: State, tmap: dict) -> list:
    """(colour, cell, k) for every legal pawn placement on the table ``tmap``
    (this turn's tile already on it), in colour, cell, k order."""
    if not _pawns_allowed(state):
        return []
    occupied = set(tmap)
    room = {}
    for cell in sorted(tmap):
        _n, s, p = tmap[cell]
        room[cell] = min(s, _free_edges(cell, occupied)) - sum(p)
    return [(c, cell, k)
            for c, left in enumerate(state.supply)
            for cell in sorted(tmap)
            for k in range(1, min(MAX_PER_TURN, left, room[cell]) + 1)]


def _drawn(state: State, tile) -> Spec:
    """The tile this turn places; raise ValueError if none or not the right one."""
    if state.turns_left == 0:
        raise ValueError("the game is over: no turns left")
    given = None if tile is None else _spec(tile, "tile")
    if state.rest is not None:
        if given is not None and given != state.rest[0]:
            raise ValueError(f"tile {tile!r} is not the next tile of the deal "
                             f"{_spec_dict(state.rest[0])}")
        return state.rest[0]
    if given is None:
        raise ValueError("hidden order: pass the drawn tile as 'tile'")
    if given not in state.pool:
        raise ValueError(f"tile {tile!r} is not in the pool")
    return given


def _place(state: State, tile: Spec, cell: Cell) -> State:
    """Put the drawn tile on ``cell`` and end the draw (turn counted, tile used up)."""
    tmap = _tile_map(state)
    tmap[cell] = (tile[0], tile[1], (0,) * len(state.supply))
    if state.rest is not None:
        rest, pool = state.rest[1:], None
    else:
        pool = list(state.pool)
        pool.remove(tile)
        rest, pool = None, tuple(pool)
    return State(_freeze(tmap), state.supply, state.turn + 1, state.level, rest, pool,
                 state.turns_left - 1)


def _put_pawns(placed: State, action) -> State:
    """Add pawn action (colour, cell, k) to a state whose tile is already placed."""
    c, cell, k = action
    tiles = list(placed.tiles)
    i = next(i for i, t in enumerate(tiles) if t[0] == cell)
    n, s, p = tiles[i][1:]
    tiles[i] = (cell, n, s, p[:c] + (p[c] + k,) + p[c + 1:])
    supply = placed.supply[:c] + (placed.supply[c] - k,) + placed.supply[c + 1:]
    return placed._replace(tiles=tuple(tiles), supply=supply)


def _move_dict(cell: Cell, action) -> dict:
    if action is None:
        return {"place": [cell[0], cell[1]], "pawns": None}
    c, tcell, k = action
    return {"place": [cell[0], cell[1]],
            "pawns": {"color": c, "tile": [tcell[0], tcell[1]], "count": k}}


def _successors(state: State, tile: Spec):
    """Yield (move dict, child state) for every legal move with the drawn ``tile``."""
    for cell in _hottest(_tile_map(state)):
        # Free edges for the cap are counted after this turn's tile is placed.
        placed = _place(state, tile, cell)
        yield _move_dict(cell, None), placed
        for action in _pawn_actions(state, _tile_map(placed)):
            yield _move_dict(cell, action), _put_pawns(placed, action)


def _cell(v, where: str) -> Cell:
    if not isinstance(v, list) or len(v) != 2 or not all(_is_int(x) for x in v):
        raise ValueError(f"{where}: {v!r} must be [q, r]")
    return (v[0], v[1])


def _step(state: State, move, tile) -> State:
    """Check ``move`` against the rules and return the state after it."""
    drawn = _drawn(state, tile)
    _keys(move, {"place", "pawns"}, "move")
    for key in ("place", "pawns"):
        if key not in move:
            raise ValueError(f"move: missing '{key}' (use \"pawns\": null to place none)")
    cell = _cell(move["place"], "move.place")
    hottest = _hottest(_tile_map(state))
    if cell not in hottest:
        raise ValueError(f"move.place: {list(cell)} is not a hottest cell; "
                         f"hottest are {[list(x) for x in hottest]}")
    placed = _place(state, drawn, cell)
    if move["pawns"] is None:
        return placed

    pw = move["pawns"]
    _keys(pw, {"color", "tile", "count"}, "move.pawns")
    for key in ("color", "tile", "count"):
        if key not in pw:
            raise ValueError(f"move.pawns: missing '{key}'")
    c = _int_in(pw["color"], 0, len(state.supply) - 1, "move.pawns.color")
    tcell = _cell(pw["tile"], "move.pawns.tile")
    k = _int_in(pw["count"], 1, MAX_PER_TURN, "move.pawns.count")
    if not _pawns_allowed(state):
        raise ValueError(f"move.pawns: no pawns on turn {state.turn + 1} at level {state.level}")
    if k > state.supply[c]:
        raise ValueError(f"move.pawns: colour {c} has only {state.supply[c]} pawns left")
    tmap = _tile_map(placed)
    if tcell not in tmap:
        raise ValueError(f"move.pawns.tile: no tile at {list(tcell)}")
    _n, s, p = tmap[tcell]
    free = _free_edges(tcell, set(tmap))
    if sum(p) + k > min(s, free):
        raise ValueError(f"move.pawns: {sum(p)} + {k} pawns on {list(tcell)} exceed "
                         f"min(spaces {s}, free edges {free} after placing)")
    return _put_pawns(placed, (c, tcell, k))


def legal_moves(position: dict, tile: Optional[dict] = None) -> list:
    """Every legal move for the next turn (see the module docstring for the order).

    Known order: ``tile`` may be omitted.  Hidden order: ``tile`` is the drawn tile.
    A finished game has no moves.
    """
    state = parse(position)
    if state.turns_left == 0:
        return []
    return [move for move, _child in _successors(state, _drawn(state, tile))]


def apply(position: dict, move: dict, tile: Optional[dict] = None) -> dict:
    """The mid-game position after ``move``; raise ValueError if it is illegal."""
    return to_position(_step(parse(position), move, tile))


# ---------------------------------------------------------------- goal and scoring

def _won(state: State) -> bool:
    if any(state.supply):
        return False
    tmap = _tile_map(state)
    occupied = set(tmap)
    for c in range(len(state.supply)):
        cells = {cell for cell, (_n, _s, p) in tmap.items() if p[c] > 0}
        if not cells:
            continue    # supply 0 and nothing on the table: the colour never had pawns
        if len(_components(cells)) != 1:
            return False
        if not any(tmap[cell][0] == 1 and _free_edges(cell, occupied) > 0 for cell in cells):
            return False
    return True


def is_won(position: dict) -> bool:
    """Whether a finished game meets the solitaire goal; raise ValueError if unfinished."""
    state = parse(position)
    if state.turns_left:
        raise ValueError(f"the game is not over: {state.turns_left} turns left")
    return _won(state)


def _region_values(state: State, c: int) -> list:
    """Values of colour c's wooded regions."""
    tmap = _tile_map(state)
    occupied = set(tmap)
    values = []
    for region in _components({cell for cell, (_n, _s, p) in tmap.items() if p[c] > 0}):
        total = sum(tmap[cell][0] for cell in region)
        open_numbers = [tmap[cell][0] for cell in region if _free_edges(cell, occupied) > 0]
        values.append(total // min(open_numbers) if open_numbers else 0)
    return values


def _player_colours(colours: int, players: Optional[int]) -> list:
    players = colours if players is None else players
    if not _is_int(players) or not 1 <= players <= MAX_COLOURS or colours % players:
        raise ValueError(f"players: {players!r} must be 1..{MAX_COLOURS} and divide the "
                         f"{colours} colours evenly")
    each = colours // players
    return [range(i * each, (i + 1) * each) for i in range(players)]


def score(position: dict, players: Optional[int] = None) -> list:
    """Each player's score: the sum of their colours' region values.

    ``players`` defaults to one per colour; colours are split evenly in index order.
    """
    state = parse(position)
    return [sum(sum(_region_values(state, c)) for c in cs)
            for cs in _player_colours(len(state.supply), players)]


def tie_break(position: dict, players: Optional[int] = None) -> list:
    """Each player's single most valuable region (0 without regions)."""
    state = parse(position)
    return [max([v for c in cs for v in _region_values(state, c)], default=0)
            for cs in _player_colours(len(state.supply), players)]


# ---------------------------------------------------------------- search

def _pawn_turns_left(state: State) -> int:
    """Remaining turns on which the level allows pawns."""
    first = max(state.turn + 1, state.level)
    return max(0, state.turn + state.turns_left - first + 1)


def _enough_ones(state: State) -> bool:
    """Whether the 1-tiles (on the table and to come) have a space for each colour
    that has pawns (on the table or in the supply).  Both sides stay the same all
    game, and a win needs a pawn of each such colour on a 1-tile."""
    colours = sum(1 for c, left in enumerate(state.supply)
                  if left or any(p[c] for _cell, _n, _s, p in state.tiles))
    spaces = sum(s for _cell, n, s, _p in state.tiles if n == 1)
    return colours <= spaces + sum(s for n, s in state.rest if n == 1)


def solve(position: dict):
    """Exhaustive search of a known-order position.

    Returns ("win", moves) with a certificate that replays through ``apply`` to
    a won finish, or ("loss", None).
    """
    root = parse(position)
    if root.rest is None:
        raise ValueError("solve: needs a known-order position ('deal' or 'deal_rest')")
    lost = set()
    line = []

    def wins(state: State) -> bool:
        if state.turns_left == 0:
            return _won(state)
        # level and the tiles to come are fixed by the turn, given the root.
        key = (state.tiles, state.supply, state.turn)
        if key in lost:
            return False
        if sum(state.supply) <= MAX_PER_TURN * _pawn_turns_left(state):
            for move, child in _successors(state, state.rest[0]):
                if wins(child):
                    line.append(move)
                    return True
        lost.add(key)
        return False

    if _enough_ones(root) and wins(root):
        line.reverse()
        return ("win", line)
    return ("loss", None)


# ---------------------------------------------------------------- random positions

def random_deal(rng: random.Random, tiles: int, colours: Optional[int] = None,
                max_pawns: int = 4, level: Optional[int] = None, min_ones: int = 0,
                random_spaces: bool = False) -> dict:
    """A random known-order start position.

    The deal is ``tiles`` tiles drawn from the 43-tile box, at least ``min_ones``
    of them 1-tiles.  Spaces are omitted (defaults) unless ``random_spaces``,
    which writes 1..3 on every tile.  The supply has ``colours`` colours (1..4
    if None) holding 0..``max_pawns`` pawns in all, some colours possibly 0.
    """
    if not 1 <= tiles <= len(BOX) or not 0 <= min_ones <= min(tiles, BOX.count(1)):
        raise ValueError(f"random_deal: {tiles} tiles with {min_ones} 1-tiles do not fit the box")
    box = list(BOX)
    numbers = []
    for _ in range(min_ones):
        box.remove(1)
        numbers.append(1)
    numbers += rng.sample(box, tiles - min_ones)
    rng.shuffle(numbers)
    deal = [{"n": n, "spaces": rng.randint(1, 3)} if random_spaces else {"n": n}
            for n in numbers]
    colours = rng.randint(1, MAX_COLOURS) if colours is None else colours
    supply = [0] * colours
    for _ in range(rng.randint(0, max_pawns)):
        supply[rng.randrange(colours)] += 1
    return {"deal": deal, "level": rng.randint(1, 3) if level is None else level,
            "supply": supply}


def random_midgame(rng: random.Random, tiles: int = 6, want: Optional[str] = None,
                   **deal_options) -> dict:
    """A random known-order mid-game position with at least one pawn on the table
    and at least one turn still to play (so ``tiles`` must be the level + 2 or more).

    ``want`` ("win" or "loss"; a fair coin if None) is the verdict of ``solve`` on
    the result.  Wins replay a prefix of a winning certificate; losses play a
    prefix of random moves, pawn moves favoured.  ``deal_options`` go to
    ``random_deal`` (``min_ones`` defaults to 1 and ``max_pawns`` to 5).
    """
    level = deal_options.get("level") or 1
    if tiles < level + 2:
        raise ValueError(f"random_midgame: {tiles} tiles leave no pawn turn with a turn "
                         f"after it at level {level}")
    want = want or rng.choice(["win", "loss"])
    deal_options.setdefault("min_ones", 1)
    deal_options.setdefault("max_pawns", 5)
    for _ in range(ATTEMPTS):
        position = random_deal(rng, tiles, **deal_options)
        state = parse(position)
        if want == "win":
            verdict, line = solve(position)
            if verdict != "win":
                continue
            with_pawns = [i for i, m in enumerate(line) if m["pawns"] is not None]
            if not with_pawns or with_pawns[0] == len(line) - 1:
                continue
            for move in line[:rng.randint(with_pawns[0] + 1, len(line) - 1)]:
                state = _step(state, move, None)
            return to_position(state)
        played = 0
        for _ in range(rng.randint(1, state.turns_left - 1)):
            moves = [m for m, _c in _successors(state, state.rest[0])]
            pawn_moves = [m for m in moves if m["pawns"] is not None]
            move = rng.choice(pawn_moves if pawn_moves and rng.random() < 0.7 else moves)
            state = _step(state, move, None)
            played += move["pawns"] is not None
        if not played:
            continue
        result = to_position(state)
        if solve(result)[0] == "loss":
            return result
    raise ValueError(f"random_midgame: no {want} found in {ATTEMPTS} deals; "
                     "loosen the deal options")
