"""On the Run! from the spec alone, in plain Python, sharing no code with the
engine: positions, flashpoints, edge areas, the four actions, evacuation
outcomes (enumerated pawn by pawn, not group by group as the engine does),
the end and the product score, the best final score by exhaustive search
(memoised on the whole state), and, with the order hidden, the expected
score by brute-force expectimax in exact fractions. Slow on purpose: for
small positions only.

A position is the spec's mid-game JSON (``tiles``, ``edge``, ``supply``,
``next``, ``deal_rest``) or a ``deal``; with the order hidden, ``start`` or
``tiles`` with ``pool``, ``turns_left`` and ``drawn``. Moves are the spec's
move JSON."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations_with_replacement

DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
SPACES = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}


def nbrs(c):
    return [(c[0] + dq, c[1] + dr) for dq, dr in DIRS]


class Pos:
    """tiles: {(q, r): (n, spaces, (p0, p1, p2, p3))}; edge: {(q, r): colour}."""

    __slots__ = ("tiles", "edge", "supply", "next", "rest", "in_play")

    def __init__(self, tiles, edge, supply, nxt, rest, in_play):
        self.tiles, self.edge, self.supply, self.next, self.rest, self.in_play = tiles, edge, supply, nxt, rest, in_play

    def frozen(self):
        return (tuple(sorted(self.tiles.items())), tuple(sorted(self.edge.items())), tuple(self.supply), self.next,
                len(self.rest))


def load(p: dict) -> Pos:
    if p.get("deal") is not None:
        d = p["deal"]
        tiles = {(0, 0): (d[0]["n"], d[0].get("spaces") or SPACES[d[0]["n"]], (0, 0, 0, 0)),
                 (1, 0): (d[1]["n"], d[1].get("spaces") or SPACES[d[1]["n"]], (0, 0, 0, 0))}
        rest, edge = d[2:], {}
    else:
        tiles = {}
        for t in p["tiles"]:
            pawns = t.get("pawns", [0, 0, 0, 0])
            pawns = (0, 0, 0, 0) if pawns == 0 else tuple(pawns)
            tiles[(t["q"], t["r"])] = (t["n"], t.get("spaces") or SPACES[t["n"]], pawns)
        edge = {(e["q"], e["r"]): e["color"] for e in p.get("edge") or []}
        rest = p.get("deal_rest") or []
    supply = list(p.get("supply", [12, 12, 12, 12]))
    rest = tuple((t["n"], t.get("spaces") or SPACES[t["n"]]) for t in rest)
    totals = [supply[c] + sum(t[2][c] for t in tiles.values()) + sum(1 for v in edge.values() if v == c)
              for c in range(4)]
    return Pos(tiles, edge, supply, p.get("next", 0), rest, tuple(x > 0 for x in totals))


def flashpoints(pos: Pos) -> list:
    for v in range(6, 0, -1):
        found = set()
        for c, (n, _, _) in pos.tiles.items():
            if n != v:
                continue
            for e in nbrs(c):
                if e not in pos.tiles and sum(1 for f in nbrs(e) if f in pos.tiles) >= 2:
                    found.add(e)
        if found:
            return sorted(found)
    return []


def edge_areas(pos: Pos) -> list:
    return sorted({e for c in pos.tiles for e in nbrs(c) if e not in pos.tiles})


def room(t) -> int:
    return t[1] - sum(t[2])


def groups(pos: Pos) -> list[set]:
    seen, out = set(), []
    for c in sorted(pos.tiles):
        if c in seen:
            continue
        g, todo = {c}, [c]
        seen.add(c)
        while todo:
            x = todo.pop()
            for y in nbrs(x):
                if y in pos.tiles and y not in seen and pos.tiles[y][0] == pos.tiles[c][0]:
                    seen.add(y)
                    g.add(y)
                    todo.append(y)
        out.append(g)
    return out


def evacuation_outcomes(pos: Pos, color: int, v: int) -> list[tuple]:
    """Every multiset (sorted tuple of cells) some maximal outcome reaches;
    [] when no pawn of ``color`` stands on a ``v`` tile."""
    gs = groups(pos)
    group_of = {c: i for i, g in enumerate(gs) for c in g}
    pawns = []  # (group index) per pawn
    dests = {}
    for i, g in enumerate(gs):
        if pos.tiles[next(iter(g))][0] != v:
            continue
        k = sum(pos.tiles[c][2][color] for c in g)
        if not k:
            continue
        touching = {group_of[y] for x in g for y in nbrs(x) if y in pos.tiles and group_of[y] != i}
        tiles = [c for j in touching for c in gs[j] if room(pos.tiles[c]) > 0]
        edges = [y for x in g for y in nbrs(x) if y not in pos.tiles and y not in pos.edge]
        dests[i] = sorted(set(tiles) | set(edges))
        pawns += [i] * k
    if not pawns:
        return []
    cap = {}
    for i, ds in dests.items():
        for d in ds:
            cap[d] = room(pos.tiles[d]) if d in pos.tiles else 1
    found = set()
    # Per group, a multiset of choices (a destination or None: back to the
    # supply) for its pawns; then capacities and maximality over all groups.
    per_group = []
    for i, ds in dests.items():
        k = pawns.count(i)
        per_group.append((i, list(combinations_with_replacement([None] + ds, k))))

    def rec(j, used, chosen):
        if j == len(per_group):
            for i, choice in chosen:
                if None in choice and any(used.get(d, 0) < cap[d] for d in dests[i]):
                    return
            found.add(tuple(sorted(d for _, choice in chosen for d in choice if d is not None)))
            return
        i, options = per_group[j]
        for choice in options:
            new = dict(used)
            ok = True
            for d in choice:
                if d is not None:
                    new[d] = new.get(d, 0) + 1
                    if new[d] > cap[d]:
                        ok = False
                        break
            if ok:
                rec(j + 1, new, chosen + [(i, choice)])

    rec(0, {}, [])
    return sorted(found)


def _act(pos: Pos, place, kind, arg) -> Pos:
    """The state after the turn: tile on ``place``, then the action."""
    tiles, edge, supply = dict(pos.tiles), dict(pos.edge), list(pos.supply)
    c = pos.next
    if place in edge:
        supply[edge.pop(place)] += 1
    n, s = pos.rest[0]
    tiles[place] = (n, s, (0, 0, 0, 0))
    if kind == "tile":
        cell, k = arg
        t = tiles[cell]
        p = list(t[2])
        p[c] += k
        tiles[cell] = (t[0], t[1], tuple(p))
        supply[c] -= k
    elif kind == "edge":
        edge[arg] = c
        supply[c] -= 1
    elif kind == "evacuate":
        v, to = arg
        leaving = 0
        for cell, t in list(tiles.items()):
            if t[0] == v and t[2][c]:
                leaving += t[2][c]
                p = list(t[2])
                p[c] = 0
                tiles[cell] = (t[0], t[1], tuple(p))
        for d in to:
            if d in tiles:
                t = tiles[d]
                p = list(t[2])
                p[c] += 1
                tiles[d] = (t[0], t[1], tuple(p))
            else:
                edge[d] = c
        supply[c] += leaving - len(to)
    return Pos(tiles, edge, supply, (c + 1) % 4, pos.rest[1:], pos.in_play)


def _placed(pos: Pos, place) -> Pos:
    tiles, edge, supply = dict(pos.tiles), dict(pos.edge), list(pos.supply)
    if place in edge:
        supply[edge.pop(place)] += 1
    tiles[place] = (pos.rest[0][0], pos.rest[0][1], (0, 0, 0, 0))
    return Pos(tiles, edge, supply, pos.next, pos.rest, pos.in_play)


def legal_moves(pos: Pos) -> list[tuple[dict, Pos]]:
    """Distinct legal moves in canonical order (the first of each set of moves
    giving one state), each with its state."""
    if not pos.rest:
        return []
    c = pos.next
    out, seen = [], set()
    for place in flashpoints(pos):
        p1 = _placed(pos, place)
        acts = [("pass", None, {"kind": "pass"})]
        for cell in sorted(p1.tiles):
            for k in range(1, 4):
                if k <= p1.supply[c] and k <= room(p1.tiles[cell]):
                    acts.append(("tile", (cell, k), {"kind": "tile", "tile": list(cell), "count": k}))
        if p1.supply[c] >= 1:
            for cell in edge_areas(p1):
                if cell not in p1.edge:
                    acts.append(("edge", cell, {"kind": "edge", "cell": list(cell)}))
        for v in range(1, 7):
            for to in evacuation_outcomes(p1, c, v):
                acts.append(("evacuate", (v, to), {"kind": "evacuate", "number": v, "to": [list(x) for x in to]}))
        for kind, arg, js in acts:
            nxt = _act(pos, place, kind, arg)
            key = nxt.frozen()
            if key not in seen:
                seen.add(key)
                out.append(({"place": list(place), "action": js}, nxt))
    return out


def apply(pos: Pos, move: dict) -> Pos | None:
    """The move played, or None when it is not legal."""
    if not pos.rest:
        return None
    place = tuple(move["place"])
    if place not in flashpoints(pos):
        return None
    a = move.get("action") or {"kind": "pass"}
    p1 = _placed(pos, place)
    c = pos.next
    kind = a["kind"]
    if kind == "pass":
        return _act(pos, place, "pass", None)
    if kind == "tile":
        cell, k = tuple(a["tile"]), a["count"]
        if cell not in p1.tiles or not 1 <= k <= 3 or k > p1.supply[c] or k > room(p1.tiles[cell]):
            return None
        return _act(pos, place, "tile", (cell, k))
    if kind == "edge":
        cell = tuple(a["cell"])
        if p1.supply[c] < 1 or cell not in edge_areas(p1) or cell in p1.edge:
            return None
        return _act(pos, place, "edge", cell)
    to = tuple(sorted(tuple(x) for x in a["to"]))
    if to not in evacuation_outcomes(p1, c, a["number"]):
        return None
    return _act(pos, place, "evacuate", (a["number"], to))


def won(pos: Pos) -> bool:
    return not any(pos.supply)


def score(pos: Pos) -> int:
    if not won(pos):
        return 0
    out = 1
    for c in range(4):
        if pos.in_play[c]:
            out *= sum(1 for v in pos.edge.values() if v == c)
    return out


def best(pos: Pos) -> tuple[int, bool]:
    """(the best final score, whether some line wins) by exhaustive search."""
    memo: dict = {}

    def value(p: Pos) -> int:  # 2 * score + won, maximised
        if not p.rest:
            return 2 * score(p) + (1 if won(p) else 0)
        key = p.frozen()
        if key not in memo:
            memo[key] = max(value(q) for _, q in legal_moves(p))
        return memo[key]

    v = value(pos)
    return v // 2, bool(v % 2)


def pawn_totals(pos: Pos) -> list[int]:
    return [pos.supply[c] + sum(t[2][c] for t in pos.tiles.values()) + sum(1 for v in pos.edge.values() if v == c)
            for c in range(4)]


# ------------------------------------------------------------ competitive (2-4 players)
#
# The spec's "Competitive games": the board and a turn as above, with colours
# owned by seats, the turns after the last tile (evacuate or pass) and the
# per-seat scores. Readings fixed in docs/rules/onrun.md: seat 0 moves first;
# 2 players: seat 0 blue+yellow, seat 1 red+green; 3 players: seat i colour i,
# green neutral, and a neutral pawn sent back goes to the seat whose turn it is.

START = {2: [(0, 0), (1, 0)], 3: [(0, 0), (1, 0), (0, 1)], 4: [(0, 0), (1, 0), (0, 1), (1, 1)]}


class Seats:
    """A competitive position: the board (``pos.next`` unused), the seat to
    move, passes in a row after the last tile, neutral pawns per seat (3 players)."""

    __slots__ = ("pos", "players", "seat", "passes", "neutral")

    def __init__(self, pos, players, seat, passes, neutral):
        self.pos, self.players, self.seat, self.passes, self.neutral = pos, players, seat, passes, neutral

    def frozen(self):
        return self.pos.frozen()[:3] + (len(self.pos.rest), self.seat, self.passes, tuple(self.neutral))


def seats_load(p: dict) -> Seats:
    players = p["players"]
    if p.get("deal") is not None:
        d = p["deal"]
        tiles = {cell: (d[i]["n"], d[i].get("spaces") or SPACES[d[i]["n"]], (0, 0, 0, 0))
                 for i, cell in enumerate(START[players])}
        p = {"tiles": [{"q": q, "r": r, "n": n, "spaces": s} for (q, r), (n, s, _) in tiles.items()],
             "supply": p.get("supply", [12, 12, 12, 12]), "next": p.get("next", 0),
             "deal_rest": d[len(START[players]):], "neutral": p.get("neutral")}
    pos = load(p)
    neutral = list(p.get("neutral") or ([4, 4, 4] if players == 3 else [0, 0, 0]))
    return Seats(pos, players, p.get("next", 0), p.get("passes") or 0, neutral)


def colours_of(players: int, seat: int) -> list[int]:
    return {2: [2 * seat, 2 * seat + 1], 3: [seat, 3], 4: [seat]}[players]


def _as(s: Seats, colour: int) -> Pos:
    """The board with ``colour`` to act and, with 3 players, the seat's own neutral pawns as green's supply."""
    supply = list(s.pos.supply)
    if s.players == 3:
        supply[3] = s.neutral[s.seat]
    return Pos(s.pos.tiles, s.pos.edge, supply, colour, s.pos.rest, s.pos.in_play)


def _after(s: Seats, board: Pos, passed: bool) -> Seats:
    neutral = list(s.neutral)
    supply = list(board.supply)
    if s.players == 3:
        neutral[s.seat] = supply[3]
        supply[3] = sum(neutral)
    pos = Pos(board.tiles, board.edge, supply, 0, board.rest, board.in_play)
    passes = s.passes + 1 if (not s.pos.rest and passed) else 0
    return Seats(pos, s.players, (s.seat + 1) % s.players, passes, neutral)


def _evacuated(board: Pos, colour: int, v: int, to) -> Pos:
    """After the last tile: the evacuation alone, no tile drawn."""
    tiles, edge, supply = dict(board.tiles), dict(board.edge), list(board.supply)
    leaving = 0
    for cell, (n, sp, pawns) in board.tiles.items():
        if n == v and pawns[colour]:
            leaving += pawns[colour]
            tiles[cell] = (n, sp, tuple(0 if k == colour else x for k, x in enumerate(pawns)))
    for d in to:
        if d in tiles:
            n, sp, pawns = tiles[d]
            tiles[d] = (n, sp, tuple(x + (k == colour) for k, x in enumerate(pawns)))
        else:
            edge[d] = colour
    supply[colour] += leaving - len(to)
    return Pos(tiles, edge, supply, colour, board.rest, board.in_play)


def seats_over(s: Seats) -> bool:
    """No tile left, and every seat passed in a row or no seat can send a pawn into an edge area."""
    if s.pos.rest:
        return False
    if s.passes >= s.players:
        return True
    for seat in range(s.players):
        for colour in colours_of(s.players, seat):
            for v in range(1, 7):
                if any(d not in s.pos.tiles for to in evacuation_outcomes(s.pos, colour, v) for d in to):
                    return False
    return True


def seats_moves(s: Seats) -> list[tuple[dict, Seats]]:
    """Distinct legal moves (each with ``color``; ``place`` None after the
    last tile), by place, then colour, then the co-op order; the first of
    those giving one state."""
    if seats_over(s):
        return []
    found = []  # (sort key, move, state)
    for colour in colours_of(s.players, s.seat):
        board = _as(s, colour)
        if s.pos.rest:
            for i, (move, nxt) in enumerate(legal_moves(board)):
                found.append(((tuple(move["place"]), colour, i), dict(move, color=colour), _after(s, nxt, False)))
        else:
            if colour == colours_of(s.players, s.seat)[0]:
                found.append((((0, 0), colour, -1), {"place": None, "action": {"kind": "pass"}, "color": colour},
                              _after(s, board, True)))
            i = 0
            for v in range(1, 7):
                for to in evacuation_outcomes(board, colour, v):
                    move = {"place": None, "color": colour,
                            "action": {"kind": "evacuate", "number": v, "to": [list(x) for x in to]}}
                    found.append((((0, 0), colour, i), move, _after(s, _evacuated(board, colour, v, to), False)))
                    i += 1
    found.sort(key=lambda x: x[0])
    out, seen = [], set()
    for _, move, nxt in found:
        if nxt.frozen() not in seen:
            seen.add(nxt.frozen())
            out.append((move, nxt))
    return out


def seats_apply(s: Seats, move: dict) -> Seats | None:
    """The move played (its ``color`` given), or None when it is not legal."""
    if seats_over(s) or move.get("color") not in colours_of(s.players, s.seat):
        return None
    colour = move["color"]
    board = _as(s, colour)
    if s.pos.rest:
        if move.get("place") is None:
            return None
        nxt = apply(board, move)
        return None if nxt is None else _after(s, nxt, False)
    if move.get("place") is not None:
        return None
    a = move.get("action") or {"kind": "pass"}
    if a["kind"] == "pass":
        return _after(s, board, True)
    if a["kind"] != "evacuate":
        return None
    to = tuple(sorted(tuple(x) for x in a["to"]))
    if to not in evacuation_outcomes(board, colour, a["number"]):
        return None
    return _after(s, _evacuated(board, colour, a["number"], to), False)


def seats_results(s: Seats) -> list[dict]:
    """Per seat: score, damage (own pawns on tiles, by tile number) and winner."""
    edge = [sum(1 for c in s.pos.edge.values() if c == k) for k in range(4)]
    damage = [sum(t[0] * t[2][k] for t in s.pos.tiles.values()) for k in range(4)]
    out = []
    for seat in range(s.players):
        if s.players == 2:
            a, b = 2 * seat, 2 * seat + 1
            out.append({"seat": seat, "score": edge[a] * edge[b] - s.pos.supply[a] - s.pos.supply[b],
                        "damage": damage[a] + damage[b]})
        else:
            out.append({"seat": seat, "score": edge[seat] - s.pos.supply[seat], "damage": damage[seat]})
    top = max(r["score"] for r in out)
    least = min(r["damage"] for r in out if r["score"] == top)
    for r in out:
        r["winner"] = r["score"] == top and r["damage"] == least
    return out


def seats_totals(s: Seats) -> list[int]:
    """Pawns per owner: each colour's, and with 3 players green's as the neutral pawns together."""
    return pawn_totals(s.pos)


# ------------------------------------------------------------ the order hidden

def _kind(t: dict) -> tuple[int, int]:
    return t["n"], t.get("spaces") or SPACES[t["n"]]


class Hidden:
    """A hidden-order position: the table (``pos``, no deal), the pool as a
    Counter of (n, spaces), the turns left and the drawn tile (or None)."""

    def __init__(self, p: dict):
        if p.get("start") is not None:
            table = {"deal": p["start"], "supply": p.get("supply", [12, 12, 12, 12])}
        else:
            table = {k: v for k, v in p.items() if k in ("tiles", "edge", "supply", "next")}
        self.pos = load(table)
        self.pos.rest = ()
        self.pool = Counter(_kind(t) for t in p["pool"])
        self.drawn = _kind(p["drawn"]) if p.get("drawn") is not None else None
        default = len(p["pool"]) + (self.drawn is not None)
        self.turns = p["turns_left"] if p.get("turns_left") is not None else default


def _with_tile(pos: Pos, tile) -> Pos:
    return Pos(pos.tiles, pos.edge, pos.supply, pos.next, (tile,), pos.in_play)


class Expectimax:
    """Exact expected scores, memoised on (table, pool, turns)."""

    def __init__(self):
        self.memo: dict = {}

    def chance(self, pos: Pos, pool: Counter, turns: int) -> Fraction:
        if turns == 0:
            return Fraction(score(pos))
        key = (pos.frozen(), tuple(sorted(pool.items())), turns)
        if key not in self.memo:
            total = sum(pool.values())
            self.memo[key] = sum((Fraction(c, total) * self.decide(pos, pool, turns, tile)
                                  for tile, c in pool.items() if c), Fraction(0))
        return self.memo[key]

    def decide(self, pos: Pos, pool: Counter, turns: int, tile) -> Fraction:
        """The best expected score with ``tile`` drawn from ``pool`` (still in it)."""
        rest = Counter(pool)
        rest[tile] -= 1
        return max(self.chance(q, rest, turns - 1) for _, q in legal_moves(_with_tile(pos, tile)))

    def moves(self, pos: Pos, pool: Counter, turns: int, tile) -> list[tuple[dict, Fraction]]:
        """With ``tile`` drawn (not in ``pool``): each distinct move and its
        expected score, best first, ties canonical."""
        out = [(m, self.chance(q, pool, turns - 1)) for m, q in legal_moves(_with_tile(pos, tile))]
        return sorted(out, key=lambda mv: -mv[1])


def expected_score(h: Hidden, ex: Expectimax | None = None) -> Fraction:
    ex = ex or Expectimax()
    if h.turns == 0:
        return Fraction(score(h.pos))
    if h.drawn is not None:
        return max(v for _, v in ex.moves(h.pos, h.pool, h.turns, h.drawn))
    return ex.chance(h.pos, h.pool, h.turns)


def draw_values(h: Hidden, ex: Expectimax) -> list[tuple[tuple[int, int], Fraction, Fraction]]:
    """With no tile drawn: (tile, probability, value) per kind in the pool."""
    total = sum(h.pool.values())
    return [(tile, Fraction(c, total), ex.decide(h.pos, h.pool, h.turns, tile))
            for tile, c in sorted(h.pool.items()) if c]
