"""A second, independent reading of Fire Tower's board rules (spec
../shared/spec/firetower.md, sections 1, 4, 5.3, 6-9), in plain Python and
by brute force, sharing nothing with the C++ engine: the legal moves of the
wind step, every card the player plays, the Inferno, the Buckets and the
hawks, as the spec's move JSON, for the engine to be checked against.

Boards are the spec's 16 strings of 16 characters (section 11.2). A move's
squares are sorted lists of [r, c]; moves come in canonical order (section
12: the byte order of their JSON with sorted keys and no spaces)."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass

Square = tuple[int, int]
SIZE = 16
EF = frozenset({(7, 7), (7, 8), (8, 7), (8, 8)})
DIRS = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1),
        "NE": (-1, 1), "NW": (-1, -1), "SE": (1, 1), "SW": (1, -1)}
ORTHO = [DIRS[d] for d in "NESW"]
AREAS = {"NW": (0, 0), "NE": (0, 13), "SW": (13, 0), "SE": (13, 13)}  # top-left of each 3x3
BACK = {"NW": (0, 0), "NE": (0, 15), "SW": (15, 0), "SE": (15, 15)}


def on(s: Square) -> bool:
    return 0 <= s[0] < SIZE and 0 <= s[1] < SIZE


def add(s: Square, d: tuple[int, int], k: int = 1) -> Square:
    return (s[0] + k * d[0], s[1] + k * d[1])


def neighbours(s: Square) -> list[Square]:
    return [add(s, d) for d in ORTHO]


def area_of(s: Square) -> str | None:
    for name, (r, c) in AREAS.items():
        if r <= s[0] < r + 3 and c <= s[1] < c + 3:
            return name
    return None


def in_nw_quadrant(s: Square) -> bool:
    return s[0] < 8 and s[1] < 8


@dataclass
class Board:
    gems: set[Square]
    breaks: set[Square]
    hawks: set[Square]

    @staticmethod
    def parse(rows: list[str]) -> Board:
        assert len(rows) == SIZE and all(len(r) == SIZE for r in rows)
        cells = {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row)}
        assert {s for s, ch in cells.items() if ch == "E"} == EF
        return Board({s for s, ch in cells.items() if ch in "FX"}, {s for s, ch in cells.items() if ch == "#"},
                     {s for s, ch in cells.items() if ch in "HX"})

    def copy(self) -> Board:
        return Board(set(self.gems), set(self.breaks), set(self.hawks))

    def fire(self, s: Square) -> bool:
        return s in self.gems or s in EF

    def placeable(self, s: Square) -> bool:
        return on(s) and s not in self.gems and s not in self.breaks and s not in EF

    def empty(self, s: Square) -> bool:
        return self.placeable(s) and s not in self.hawks

    def removable(self, s: Square) -> bool:
        return s in self.gems and area_of(s) is None

    def touches_fire(self, s: Square) -> bool:
        return any(self.fire(n) for n in neighbours(s))


def squares(cells) -> list[list[int]]:
    return [list(s) for s in sorted(cells)]


def canonical(moves: list[dict]) -> list[dict]:
    """Distinct moves (equal JSON is one move), in canonical order."""
    text = {json.dumps(m, sort_keys=True, separators=(",", ":")): m for m in moves}
    return [text[k] for k in sorted(text)]


# ------------------------------------------------------------ templates


def lines(k: int) -> list[list[Square]]:
    """Every placement of k squares in a row or column with at least one on
    the board (off-board squares included, in order)."""
    out = []
    for a in range(-(k - 1), SIZE):
        for b in range(SIZE):
            out.append([(b, a + i) for i in range(k)])
            out.append([(a + i, b) for i in range(k)])
    return out


def blocks() -> list[list[Square]]:
    """Every 2x2 placement with at least one square on the board."""
    return [[(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)] for r in range(-1, SIZE) for c in range(-1, SIZE)]


def ring(centre: Square) -> list[Square]:
    return [add(centre, (dr, dc)) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def dominoes_on_board() -> list[tuple[Square, Square]]:
    return [((r, c), (r + dr, c + dc)) for r in range(SIZE) for c in range(SIZE) for dr, dc in ((0, 1), (1, 0))
            if on((r + dr, c + dc))]


# ------------------------------------------------------------ fire patterns


def _fill(b: Board, shape: list[Square]) -> set[Square] | None:
    """The fill rule with the adjacency test on pre-existing fire: the gems
    placed, or None when the placement is illegal."""
    placed = {s for s in shape if b.placeable(s)}
    if placed and any(b.touches_fire(s) for s in placed):
        return placed
    return None


def flare_up(b: Board) -> list[dict]:
    moves = []
    for line in lines(3):
        piece: list[Square] = []
        for s in line + [None]:  # firebreaks cut the line into pieces
            if s is None or s in b.breaks:
                placed = _fill(b, piece) if piece else None
                if placed:
                    moves.append({"type": "play", "card": "flare_up", "squares": squares(placed)})
                piece = []
            else:
                piece.append(s)
    return canonical(moves)


def _pattern(b: Board, card: str, shapes: list[list[Square]]) -> list[dict]:
    return canonical([{"type": "play", "card": card, "squares": squares(p)} for shape in shapes
                      if (p := _fill(b, shape))])


def burning_snag(b: Board) -> list[dict]:
    return _pattern(b, "burning_snag", blocks())


def crown_fire(b: Board) -> list[dict]:
    return _pattern(b, "crown_fire", lines(2))


def crown_fire_double(b: Board) -> list[dict]:
    dominoes = [d for d in dominoes_on_board() if all(b.placeable(s) for s in d)]
    moves = []
    for d1, d2 in itertools.combinations(dominoes, 2):
        cells = set(d1) | set(d2)
        if len(cells) != 4:
            continue
        if not any(n in d2 for s in d1 for n in neighbours(s)):
            continue
        if any(b.touches_fire(s) for s in cells):
            moves.append({"type": "play", "card": "crown_fire", "double": True, "squares": squares(cells)})
    return canonical(moves)


def explosion(b: Board) -> list[dict]:
    moves = []
    for centre in b.gems:
        if any(b.placeable(s) for s in ring(centre)):
            moves.append({"type": "play", "card": "explosion", "center": list(centre)})
    return canonical(moves)


def explosion_fills(b: Board, centre: Square) -> list[list[int]]:
    return squares(s for s in ring(centre) if b.placeable(s))


def ember(b: Board) -> list[dict]:
    moves = []
    for src in b.gems:
        if area_of(src) is not None:
            continue
        lifted = b.copy()
        lifted.gems.discard(src)
        for r in range(SIZE):
            for c in range(SIZE):
                dst = (r, c)
                if dst != src and lifted.placeable(dst) and lifted.touches_fire(dst):
                    moves.append({"type": "play", "card": "ember", "from": list(src), "to": list(dst)})
    return canonical(moves)


def creeping_fires(b: Board) -> list[dict]:
    candidates = sorted(s for s in itertools.product(range(SIZE), repeat=2) if b.placeable(s) and b.touches_fire(s))

    def apart(group) -> bool:
        return all(y not in neighbours(x) for x, y in itertools.combinations(group, 2))

    for size in (3, 2, 1):
        sets = [g for g in itertools.combinations(candidates, size) if apart(g)]
        if sets:
            return canonical([{"type": "play", "card": "creeping_fires", "squares": squares(g)} for g in sets])
    return []


def rolling_firebrand(b: Board) -> list[dict]:
    moves = []
    for pair in dominoes_on_board():
        if not all(s in b.gems for s in pair):
            continue
        for name in "NESW":
            d = DIRS[name]
            ends = []
            for g in pair:
                end = add(g, d, 2)
                ok = True
                for k in (1, 2):
                    s = add(g, d, k)
                    if s in pair:
                        continue
                    if not on(s) or b.fire(s) or s in b.breaks:
                        ok = False
                        break
                if not ok:
                    break
                for k in (1, 2):  # captured by the first hawk on its path
                    s = add(g, d, k)
                    if s not in pair and s in b.hawks:
                        end = s
                        break
                if area_of(g) is not None and area_of(end) != area_of(g):
                    ok = False
                    break
                ends.append(end)
            if len(ends) == 2 and ends[0] != ends[1]:
                moves.append({"type": "play", "card": "rolling_firebrand", "pair": squares(pair), "dir": name})
    return canonical(moves)


# ------------------------------------------------------------ water


def _water(b: Board, card: str, shapes) -> list[dict]:
    return canonical([{"type": "play", "card": card, "squares": squares(r)} for shape in shapes
                      if (r := {s for s in shape if b.removable(s)})])


def air_drop(b: Board) -> list[dict]:
    return _water(b, "air_drop", lines(3))


def fire_engine(b: Board) -> list[dict]:
    return _water(b, "fire_engine", blocks())


def smokejumper(b: Board) -> list[dict]:
    centres = [s for s in itertools.product(range(SIZE), repeat=2) if b.fire(s)]
    return _water(b, "smokejumper", [ring(c) for c in centres])


def helitack(b: Board) -> list[dict]:
    everywhere = list(itertools.product(range(SIZE), repeat=2))
    shapes = [domino + [extra] for domino in lines(2) for extra in everywhere if extra not in domino]
    return _water(b, "helitack", shapes)


# ------------------------------------------------------------ wind, storms, firebreaks


def allowed_winds(burned: dict[str, bool]) -> list[str]:
    out = []
    for d in "NESW":
        if d == "E" and burned.get("NE") and burned.get("SE"):
            continue
        if d == "S" and burned.get("SW") and burned.get("SE"):
            continue
        out.append(d)
    return out


def gem_targets(b: Board, d: str, where=lambda s: True) -> list[Square]:
    """Placeable squares s with s - d on fire (the wind step, a wind card's
    gem, a storm's targets); ``where`` narrows them (the NW quadrant)."""
    v = DIRS[d]
    return sorted(s for s in itertools.product(range(SIZE), repeat=2)
                  if where(s) and b.placeable(s) and b.fire(add(s, v, -1)))


def wind_gem(b: Board, wind: str) -> list[dict]:
    return canonical([{"type": "wind_gem", "square": list(s)} for s in gem_targets(b, wind)])


def wind_card(b: Board, card: str, dirs: list[str], gem: str, wind: str, burned: dict[str, bool]) -> list[dict]:
    allowed = allowed_winds(burned)
    moves = [{"type": "play", "card": card, "option": "set", "wind": d} for d in dirs if d in allowed and d != wind]
    if [d for d in allowed if d != wind]:
        moves.append({"type": "play", "card": card, "option": "roll"})
    moves += [{"type": "play", "card": card, "option": "gem", "square": list(s)} for s in gem_targets(b, gem)]
    return canonical(moves)


def de_reforest(b: Board) -> list[dict]:
    moves = [{"type": "play", "card": "de_reforest", "option": "add", "square": list(s)}
             for s in itertools.product(range(SIZE), repeat=2)
             if b.empty(s) and area_of(s) != "NW" and not any(n in b.breaks for n in neighbours(s))]
    moves += [{"type": "play", "card": "de_reforest", "option": "remove", "square": list(s)} for s in b.breaks]
    return canonical(moves)


# ------------------------------------------------------------ the Inferno


def inferno_flare_up(b: Board) -> list[dict]:
    return _inferno_shapes(b, [line for line in lines(3)])


def inferno_burning_snag(b: Board) -> list[dict]:
    return _inferno_shapes(b, blocks())


def _inferno_shapes(b: Board, shapes) -> list[dict]:
    moves = []
    for shape in shapes:
        if all(on(s) and in_nw_quadrant(s) and b.placeable(s) for s in shape) and any(b.touches_fire(s)
                                                                                      for s in shape):
            moves.append({"type": "inferno", "squares": squares(shape)})
    return canonical(moves)


def inferno_explosion(b: Board) -> list[dict]:
    moves = []
    for centre in b.gems:
        if in_nw_quadrant(centre) and len([s for s in ring(centre) if in_nw_quadrant(s) and b.placeable(s)]) >= 4:
            moves.append({"type": "inferno", "center": list(centre)})
    return canonical(moves)


def inferno_storm(b: Board, d: str) -> list[Square]:
    return gem_targets(b, d, in_nw_quadrant)


def firestorm(b: Board, d: str) -> list[Square]:
    return gem_targets(b, d)


# ------------------------------------------------------------ Buckets and hawks


def bucket_lines(b: Board, area: str) -> list[set[Square]]:
    """The gems each 3-square line holding a gem of ``area`` would remove."""
    out = []
    for line in lines(3):
        removed = {s for s in line if s in b.gems}
        if any(area_of(s) == area for s in removed):
            out.append(removed)
    return out


def player_bucket(b: Board) -> list[dict]:
    return canonical([{"type": "bucket", "squares": squares(r)} for r in bucket_lines(b, "NW")])


def enemy_bucket(b: Board, tower: str) -> list[dict]:
    """The lines an enemy's Bucket may use: most gems inside its area, then
    most in all; distinct results only."""
    found = bucket_lines(b, tower)
    if not found:
        return []
    score = lambda r: (sum(area_of(s) == tower for s in r), len(r))  # noqa: E731
    best = max(map(score, found))
    return canonical([{"type": "enemy_bucket", "tower": tower, "squares": squares(r)}
                      for r in found if score(r) == best])


def hawk_destinations(b: Board, hawk: Square, own: bool) -> list[Square]:
    """Where an activated hawk may carry its gem (section 7): the gem is
    lifted, so it is not fire for its own destination (other pending hawks'
    gems are, 15.9); the hawk's square is excluded; an enemy hawk's gem
    stays in the NW quadrant."""
    lifted = b.copy()
    lifted.gems.discard(hawk)
    return sorted(s for s in itertools.product(range(SIZE), repeat=2)
                  if s != hawk and lifted.placeable(s) and lifted.touches_fire(s) and (own or in_nw_quadrant(s)))


def reckless(b: Board) -> list[list[list[int]]]:
    """The gem squares Reckless Abandon may place (the discards aside)."""
    candidates = sorted(s for s in itertools.product(range(SIZE), repeat=2) if b.placeable(s) and b.touches_fire(s))
    if len(candidates) == 1:
        return [squares(candidates)]
    return [squares(g) for g in itertools.combinations(candidates, 2)]


# ------------------------------------------------------------ hawk cards, the set-up hawk, firebreak cards out of solo
# (added for tests/firetower_game_reference.py; section 6.10 and section 3 step 3)


def hawk_squares(b: Board) -> list[Square]:
    """Empty NW-quadrant squares outside the NW area and off the EF: where
    the set-up hawk and a hawk card's new hawks may go."""
    return sorted(s for s in itertools.product(range(8), repeat=2) if b.empty(s) and area_of(s) != "NW")


def setup_hawk(b: Board) -> list[dict]:
    return canonical([{"type": "setup_hawk", "square": list(s)} for s in hawk_squares(b)])


@dataclass
class HawkPlay:
    """What a Pair or Trio of Hawks may do on a board (section 6.10): own
    hawks, enemy hawks that may be taken, the squares the final own set is
    chosen from, the hawks placed from the supply and the most that may be
    taken."""
    card: str
    own: list[Square]
    enemy: list[Square]
    pool: list[Square]
    placed: int
    take_max: int

    def sizes(self):
        """(taken, size of the final own set) for every legal count taken."""
        return [(t, len(self.own) + self.placed + t) for t in range(self.take_max + 1) if self.placed + t >= 1]

    def count(self) -> int:
        from math import comb
        return sum(comb(len(self.enemy), t) * comb(len(self.pool), n) for t, n in self.sizes())

    def moves(self):
        """Every move (a generator; there may be very many), in no order."""
        for t, n in self.sizes():
            for taken in itertools.combinations(self.enemy, t):
                for final in itertools.combinations(self.pool, n):
                    yield {"type": "play", "card": self.card, "hawks": squares(final), "take": squares(taken)}

    def legal(self, m: dict) -> bool:
        try:
            final = [tuple(s) for s in m["hawks"]]
            taken = [tuple(s) for s in m["take"]]
        except (KeyError, TypeError, ValueError):
            return False
        if set(m) != {"type", "card", "hawks", "take"} or m["card"] != self.card:
            return False
        if final != sorted(set(final)) or taken != sorted(set(taken)):
            return False
        return ((len(taken), len(final)) in self.sizes() and all(s in self.enemy for s in taken)
                and all(s in self.pool for s in final))

    def sample(self, rng) -> dict:
        """One move, uniform over all of them."""
        from math import comb
        weights = [comb(len(self.enemy), t) * comb(len(self.pool), n) for t, n in self.sizes()]
        t, n = rng.choices(self.sizes(), weights=weights)[0]
        return {"type": "play", "card": self.card, "hawks": squares(rng.sample(self.pool, n)),
                "take": squares(rng.sample(self.enemy, t))}


def hawk_play(b: Board, card: str, k: int, hawks_total: int = 18) -> HawkPlay:
    own = sorted(h for h in b.hawks if in_nw_quadrant(h))
    enemy = sorted(h for h in b.hawks if not in_nw_quadrant(h))
    free = hawk_squares(b)
    pool = sorted(set(free) | {h for h in own if area_of(h) != "NW" and h not in EF})
    supply = hawks_total - len(b.hawks)
    placed = max(0, min(k, supply, len(free)))
    take_max = min(k - placed, len(free) - placed, len(enemy)) if supply < k else 0
    return HawkPlay(card, own, enemy, pool, placed, max(0, take_max))


def hawk_card(b: Board, card: str, k: int, hawks_total: int = 18) -> list[dict]:
    return canonical(list(hawk_play(b, card, k, hawks_total).moves()))


def _break_ok(b: Board, s: Square) -> bool:
    """A square a firebreak card may build on: empty, off the NW area and
    the EF, no orthogonally adjacent firebreak."""
    return b.empty(s) and area_of(s) != "NW" and not any(n in b.breaks for n in neighbours(s))


def backburn(b: Board) -> list[dict]:
    """A gem (not the EF, not in the NW area, no adjacent firebreak) becomes
    a firebreak. Move JSON (our choice): {"card":"backburn","square":s}."""
    return canonical([{"type": "play", "card": "backburn", "square": list(s)} for s in b.gems
                      if area_of(s) != "NW" and not any(n in b.breaks for n in neighbours(s))])


def dozer_line(b: Board) -> list[dict]:
    """Two orthogonally adjacent squares get firebreaks ("squares")."""
    return canonical([{"type": "play", "card": "dozer_line", "squares": squares(p)} for p in dominoes_on_board()
                      if all(_break_ok(b, s) for s in p)])


def scratch_line(b: Board) -> list[dict]:
    """Two squares in a row or column with one square between get firebreaks."""
    pairs = [((r, c), (r + dr, c + dc)) for r in range(SIZE) for c in range(SIZE) for dr, dc in ((0, 2), (2, 0))
             if on((r + dr, c + dc))]
    return canonical([{"type": "play", "card": "scratch_line", "squares": squares(p)} for p in pairs
                      if all(_break_ok(b, s) for s in p)])
