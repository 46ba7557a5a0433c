"""A second, independent reading of Fire Tower: Rising Flames, solo mode: the
full turn flow (spec ../shared/spec/firetower.md, sections 3, 5, 7-11 and
15, with the readings the project fixed for this reference), on top of the
board rules of tests/firetower_reference.py. It shares no code with the C++
engine, so the two can be checked against each other.

The flow is written the way the spec reads: one Python generator runs the
game, yielding at every decision and chance point. A decision with exactly
one distinct legal move is applied at once. Copies replay the events since
the last top-level point from a snapshot of the state taken there.

    g = Game.load(position)          # a section 11.2 position
    g.decision() / g.chance() / g.moves() / g.apply(event)
    g.status() / g.score() / g.position() / g.copy()
"""

from __future__ import annotations

import copy as _copy
import itertools
import json
from collections import Counter
from fractions import Fraction

import firetower_reference as ref

Square = tuple[int, int]
TOWERS = ("NE", "SW", "SE")  # enemy order of every check
PHASES = ("setup_hawk", "inferno", "inferno_place", "wind", "action", "end")

# ------------------------------------------------------------ default data (spec sections 2 and 3)

DEFAULT_DATA = {
    "cards": [
        {"id": "explosion", "type": "fire", "base": 4, "exp": 0},
        {"id": "flare_up", "type": "fire", "base": 3, "exp": 0},
        {"id": "burning_snag", "type": "fire", "base": 4, "exp": 0},
        {"id": "ember", "type": "fire", "base": 3, "exp": 0},
        {"id": "wind_n", "type": "wind", "dirs": ["N"], "gem": "N", "base": 4, "exp": 0},
        {"id": "wind_e", "type": "wind", "dirs": ["E"], "gem": "E", "base": 4, "exp": 0},
        {"id": "wind_s", "type": "wind", "dirs": ["S"], "gem": "S", "base": 4, "exp": 0},
        {"id": "wind_w", "type": "wind", "dirs": ["W"], "gem": "W", "base": 4, "exp": 0},
        {"id": "dozer_line", "type": "firebreak", "base": 3, "exp": 0},
        {"id": "scratch_line", "type": "firebreak", "base": 3, "exp": 0},
        {"id": "de_reforest", "type": "firebreak", "base": 4, "exp": 0},
        {"id": "smokejumper", "type": "water", "base": 4, "exp": 0},
        {"id": "air_drop", "type": "water", "base": 4, "exp": 0},
        {"id": "fire_engine", "type": "water", "base": 4, "exp": 0},
        {"id": "crown_fire", "type": "fire", "base": 0, "exp": 4},
        {"id": "creeping_fires", "type": "fire", "base": 0, "exp": 3},
        {"id": "rolling_firebrand", "type": "fire", "base": 0, "exp": 3},
        {"id": "helitack", "type": "water", "base": 0, "exp": 3},
        {"id": "backburn", "type": "firebreak", "base": 0, "exp": 3},
        {"id": "wind_nw", "type": "wind", "dirs": ["N", "W"], "gem": "NW", "base": 0, "exp": 2},
        {"id": "wind_ne", "type": "wind", "dirs": ["N", "E"], "gem": "NE", "base": 0, "exp": 2},
        {"id": "wind_sw", "type": "wind", "dirs": ["S", "W"], "gem": "SW", "base": 0, "exp": 2},
        {"id": "wind_se", "type": "wind", "dirs": ["S", "E"], "gem": "SE", "base": 0, "exp": 2},
        {"id": "hawks_2", "name": "Pair of Hawks", "type": "hawk", "hawks": 2, "base": 0, "exp": 2},
        {"id": "hawks_3", "name": "Trio of Hawks", "type": "hawk", "hawks": 3, "base": 0, "exp": 2},
        {"id": "firestorm", "type": "event", "base": 1, "exp": 0},
    ],
    "inferno": ["burning_snag", "flare_up", "explosion", "wind_n", "wind_w"],
    "inferno_from_player_deck": True,
    "solo_remove_types": ["firebreak"], "solo_keep": ["de_reforest"],
    "wind_die": ["N", "N", "E", "E", "S", "S", "W", "W"],
    "hawks_total": 18,
    "levels": {
        "1": {"hand": 6, "firebreaks": [], "hawks": [], "player_bucket": True},
        "2": {"hand": 6, "firebreaks": [[3, 2], [2, 3]], "hawks": [], "player_bucket": True},
        "3": {"hand": 5, "firebreaks": [[3, 2], [2, 3]], "hawks": [[3, 1], [1, 3]], "player_bucket": True},
        "4": {"hand": 5, "firebreaks": [[3, 0], [3, 2], [2, 3], [0, 3]], "hawks": [[3, 1], [1, 3]],
              "player_bucket": True},
        "5": {"hand": 4, "firebreaks": [[3, 0], [3, 2], [2, 3], [0, 3]], "hawks": [[3, 1], [1, 3], [3, 3]],
              "player_bucket": True},
        "6": {"hand": 4, "firebreaks": [[3, 0], [3, 2], [2, 3], [0, 3]],
              "hawks": [[3, 1], [1, 3], [3, 3], [4, 4]], "player_bucket": False},
        "7": {"hand": 4, "firebreaks": [[3, 0], [3, 2], [2, 3], [0, 3], [4, 3], [3, 4]],
              "hawks": [[3, 1], [1, 3], [3, 3], [4, 4]], "player_bucket": False}},
    "challenge_skips": {"1": 2, "2": 1, "3": 0, "4": 0, "5": 0, "6": 0, "7": 0},
    "challenge_before_start": {"4": True, "5": True, "6": True, "7": True},
}

def helitack(b: ref.Board) -> list[dict]:
    """Helitack by the spec's equivalent test (section 6.8), much faster than
    the template search of ref.helitack; the tests check that they agree."""
    gems = sorted(g for g in b.gems if b.removable(g))

    def adjacent(x, y):
        return abs(x[0] - y[0]) + abs(x[1] - y[1]) == 1

    def open_side(x):
        return any(not ref.on(n) or not b.removable(n) for n in ref.neighbours(x))
    sets = [(g,) for g in gems]
    sets += [p for p in itertools.combinations(gems, 2) if adjacent(*p) or open_side(p[0]) or open_side(p[1])]
    sets += [t for t in itertools.combinations(gems, 3) if any(adjacent(x, y) for x, y in itertools.combinations(t, 2))]
    return ref.canonical([{"type": "play", "card": "helitack", "squares": ref.squares(s)} for s in sets])


class CreepingFires:
    """Creeping Fires (section 6.6) without listing every set: the candidate
    squares form a grid graph (no triangles), so the sets of k pairwise
    non-adjacent candidates are counted in closed form, sampled by
    rejection and checked one by one. ``moves`` agrees with
    ref.creeping_fires (a test checks it)."""

    def __init__(self, b: ref.Board):
        self.cands = sorted(s for s in itertools.product(range(16), repeat=2) if b.placeable(s) and b.touches_fire(s))
        cset = set(self.cands)
        self.nbrs = {s: {n for n in ref.neighbours(s) if n in cset} for s in self.cands}
        self.size = next((k for k in (3, 2, 1) if self._count(k)), 0)

    def _count(self, k: int) -> int:
        from math import comb
        n = len(self.cands)
        edges = sum(len(v) for v in self.nbrs.values()) // 2
        paths = sum(comb(len(v), 2) for v in self.nbrs.values())
        return {1: n, 2: comb(n, 2) - edges, 3: comb(n, 3) - edges * (n - 2) + paths}[k] if n >= k else 0

    def count(self) -> int:
        return self._count(self.size) if self.size else 0

    def _apart(self, group) -> bool:
        return all(y not in self.nbrs[x] for x, y in itertools.combinations(group, 2))

    def _move(self, group) -> dict:
        return {"type": "play", "card": "creeping_fires", "squares": ref.squares(group)}

    def moves(self):
        for group in itertools.combinations(self.cands, self.size):
            if self._apart(group):
                yield self._move(group)

    def legal(self, m: dict) -> bool:
        try:
            group = [sq(s) for s in m["squares"]]
        except (KeyError, TypeError, ValueError, IndexError):
            return False
        return (self.size > 0 and m == self._move(group) and len(set(group)) == self.size
                and all(s in self.nbrs for s in group) and self._apart(group))

    def sample(self, rng) -> dict:
        for _ in range(200):
            group = rng.sample(self.cands, self.size)
            if self._apart(group):
                return self._move(group)
        return rng.choice(list(self.moves()))


# The board rules of every card the player may play (tests/firetower_reference.py).
BOARD_RULES = {
    "flare_up": ref.flare_up, "burning_snag": ref.burning_snag, "crown_fire": ref.crown_fire,
    "explosion": ref.explosion, "ember": ref.ember, "creeping_fires": ref.creeping_fires,
    "rolling_firebrand": ref.rolling_firebrand, "air_drop": ref.air_drop, "fire_engine": ref.fire_engine,
    "smokejumper": ref.smokejumper, "helitack": helitack, "de_reforest": ref.de_reforest,
    "backburn": ref.backburn, "dozer_line": ref.dozer_line, "scratch_line": ref.scratch_line,
}
INFERNO_RULES = {"flare_up": ref.inferno_flare_up, "burning_snag": ref.inferno_burning_snag,
                 "explosion": ref.inferno_explosion}


def text(m) -> str:
    """Canonical JSON text (spec section 12)."""
    return json.dumps(m, sort_keys=True, separators=(",", ":"))


def sort_keys(obj):
    """The same object with its keys sorted at every level."""
    return json.loads(json.dumps(obj, sort_keys=True))


def sq(s) -> Square:
    return (int(s[0]), int(s[1]))


def solo_deck(data: dict) -> Counter:
    """The solo player deck of section 2: every Action card, less the
    firebreak cards but De/Reforest, less the five Inferno cards, plus the
    Firestorm."""
    deck = Counter()
    for card in data["cards"]:
        n = card.get("base", 0) + card.get("exp", 0)
        if card["type"] in data["solo_remove_types"] and card["id"] not in data["solo_keep"]:
            continue
        if card["type"] == "event" and card["id"] != "firestorm":
            continue
        if n:
            deck[card["id"]] += n
    if data.get("inferno_from_player_deck", True):
        deck -= Counter(data["inferno"])
    return +deck


class GameOver(Exception):
    def __init__(self, status: str, score: int | None = None):
        super().__init__(status)
        self.status, self.score = status, score


# ------------------------------------------------------------ decisions and chance points


class Group:
    """A family of moves of one decision (one card's plays, the discards, the
    Bucket lines...). Families never share a move. ``kind`` is the key that
    a move of the family has (see ``kind_of``), None for any."""

    def __init__(self, kind, build, count=None, legal=None, sample=None):
        self.kind, self._build, self._count, self._legal, self._sample = kind, build, count, legal, sample
        self._texts: dict[str, dict] | None = None

    def texted(self) -> dict[str, dict]:
        """The distinct moves by their canonical text, in canonical order."""
        if self._texts is None:
            by_text = {text(m): m for m in self._build()}
            self._texts = {k: by_text[k] for k in sorted(by_text)}
        return self._texts

    def moves(self) -> list[dict]:
        return list(self.texted().values())

    def count(self) -> int:
        return self._count() if self._count else len(self.texted())

    def legal(self, m: dict) -> bool:
        if self.kind is not None and kind_of(m) != self.kind:
            return False
        if self._legal:
            return self._legal(m)
        return text(m) in self.texted()

    def sample(self, rng) -> dict:
        return self._sample(rng) if self._sample else rng.choice(self.moves())


def kind_of(m: dict):
    t = m.get("type")
    if t in ("play", "pick", "specialty"):
        return (t, m.get("card"), bool(m.get("double", False)))
    return (t, None, False)


class Decision:
    def __init__(self, name: str, groups: list[Group], top: str | None = None):
        self.name, self.groups, self.top = name, groups, top

    def moves(self) -> list[dict]:
        every = {}
        for g in self.groups:
            every.update(g.texted())
        return [every[k] for k in sorted(every)]

    def count(self) -> int:
        return sum(g.count() for g in self.groups)

    def single(self) -> dict | None:
        """The one distinct legal move, if there is exactly one."""
        total, found = 0, None
        for g in self.groups:
            n = g.count()
            total += n
            if total > 1:
                return None
            if n == 1:
                found = g.moves()[0]
        return found if total == 1 else None

    def legal(self, m: dict) -> bool:
        return any(g.legal(m) for g in self.groups)


class Chance:
    def __init__(self, outcomes: list[tuple[dict, Fraction]], top: str | None = None):
        self.outcomes, self.top = outcomes, top


# ------------------------------------------------------------ the state


class State:
    """Everything a position holds, plus what lives only inside a step."""

    def __init__(self):
        self.board: ref.Board = ref.Board(set(), set(), set())
        self.pending: set[Square] = set()  # activated hawks (board char X), only inside a step
        self.level = 1
        self.wind: str | None = None
        self.hand = Counter()
        self.draw: Counter | list = Counter()  # a list (top first) while its order is known
        self.discard = Counter()
        self.aside: list[str] = []  # drawn Firestorms and Lookout/Patrol draws, only inside a step
        self.inferno_deck: Counter | list = Counter()
        self.inferno_discard: list[str] = []
        self.revealed: str | None = None
        self.penalty = False
        self.round_ends = False
        self.burned = {t: False for t in TOWERS}
        self.buckets = {"NW": "unused", "NE": "unused", "SW": "unused", "SE": "unused"}
        self.bucket_taken = False
        self.specialty = {"heavy_winds": "front", "lookout": "front"}
        self.turn = 1
        self.round = 1
        self.phase = "inferno"
        self.options: dict = {}
        self.depth = 0  # steps under way
        self.queued: list[str] = []  # Firestorms drawn during a step, waiting for its end

    def __deepcopy__(self, memo):
        new = State.__new__(State)
        for k, v in self.__dict__.items():
            if isinstance(v, ref.Board):
                v = v.copy()
            elif isinstance(v, (set, list, dict)):  # Counters too; their items are immutable or flat
                v = _copy.copy(v) if not isinstance(v, dict) or isinstance(v, Counter) else _copy.deepcopy(v)
            new.__dict__[k] = v
        return new


# ------------------------------------------------------------ the game


class Game:
    def __init__(self):
        self.s = State()
        self.data: dict = DEFAULT_DATA
        self.cards: dict = {}
        self._gen = None
        self._req: Decision | Chance | None = None
        self._status = "ongoing"
        self._score: int | None = None
        self._snap: State | None = None  # the state at the last top-level stop
        self._since: list[dict] = []  # events applied since then

    # ---------------------------------------------------------------- public interface

    @staticmethod
    def load(position: dict, data: dict | None = None) -> Game:
        g = Game()
        g.data = dict(DEFAULT_DATA, **(data or {}))
        g.cards = {c["id"]: c for c in g.data["cards"]}
        g.s = g._parse(position)
        g._start()
        return g

    def decision(self) -> str | None:
        return self._req.name if isinstance(self._req, Decision) else None

    def chance(self) -> list[tuple[dict, Fraction]]:
        return list(self._req.outcomes) if isinstance(self._req, Chance) else []

    def moves(self) -> list[dict]:
        return self._req.moves() if isinstance(self._req, Decision) else []

    def move_count(self) -> int:
        """The number of distinct legal moves, without building the move lists
        of hawk cards."""
        return self._req.count() if isinstance(self._req, Decision) else 0

    def random_move(self, rng) -> dict:
        """A legal move for playouts: a family (one card's plays, the
        discards, the Bucket...) uniformly among the non-empty ones, then a
        move uniformly within it. Not uniform over all moves."""
        if not isinstance(self._req, Decision):
            raise ValueError("not at a decision")
        groups = list(self._req.groups)
        rng.shuffle(groups)
        for grp in groups:
            if grp.count():
                return grp.sample(rng)
        raise AssertionError("a decision without moves")

    def apply(self, event: dict) -> None:
        if self._status != "ongoing":
            raise ValueError(f"the game is over ({self._status})")
        if not isinstance(event, dict):
            raise ValueError("an event is a JSON object")
        if isinstance(self._req, Chance):
            if "chance" not in event:
                raise ValueError(f"a chance event is expected here, not the move {text(event)}")
            if not any(text(e) == text(event) for e, _ in self._req.outcomes):
                possible = ", ".join(text(e) for e, _ in self._req.outcomes)
                raise ValueError(f"impossible chance event {text(event)}; possible: {possible}")
        else:
            if "chance" in event:
                raise ValueError(f"decision {self._req.name} is pending, not a chance event: {text(event)}")
            if not self._req.legal(event):
                raise ValueError(f"illegal move at decision {self._req.name}: {text(event)}")
        event = json.loads(text(event))  # our own copy
        self._since.append(event)
        self._advance(event)

    def status(self) -> str:
        return self._status

    def score(self) -> int | None:
        return self._score if self._status == "win" else None

    def position(self) -> dict | None:
        if self._status != "ongoing" or self._req is None or self._req.top is None:
            return None
        return self._export(self.s)

    def copy(self) -> Game:
        g = Game()
        g.data, g.cards = self.data, self.cards
        g._status, g._score = self._status, self._score
        if self._status != "ongoing":
            g.s = _copy.deepcopy(self.s)
            return g
        g.s = _copy.deepcopy(self._snap)
        g._start()
        for e in self._since:
            g.apply(e)
        return g

    # ---------------------------------------------------------------- driving the generator

    def _start(self):
        self._gen = self._run()
        self._snap, self._since = _copy.deepcopy(self.s), []
        self._advance(None)

    def _advance(self, value):
        while True:
            try:
                req = self._gen.send(value)
            except GameOver as over:
                self._status, self._score, self._req = over.status, over.score, None
                return
            if isinstance(req, Decision):
                only = req.single()
                if only is not None:
                    value = only
                    continue
            self._req = req
            if req.top is not None:
                self.s.phase = req.top
                self._snap, self._since = _copy.deepcopy(self.s), []
            return

    # ---------------------------------------------------------------- small helpers

    def _type(self, card: str) -> str:
        return self.cards[card]["type"]

    def hand_size(self) -> int:
        return self.data["levels"][str(self.s.level)]["hand"] + sum(self.s.burned.values())

    def _allowed(self) -> list[str]:
        return ref.allowed_winds(self.s.burned)

    def _die(self, exclude: str | None = None, top=None):
        """A roll of the wind die, barred faces (and ``exclude``) rerolled."""
        faces = [f for f in self.data["wind_die"] if f in self._allowed() and f != exclude]
        counts = Counter(faces)
        outcomes = [({"chance": "die", "dir": d}, Fraction(counts[d], len(faces))) for d in "NESW" if counts[d]]
        ev = yield Chance(outcomes, top)
        return ev["dir"]

    def _place(self, s: Square):
        """A gem lands on s; a hawk there is activated."""
        b = self.s.board
        assert b.placeable(s), s
        b.gems.add(s)
        if s in b.hawks:
            self.s.pending.add(s)

    def _bucket_usable(self) -> bool:
        # A Bucket line exists iff the NW area holds a gem (the line through it).
        return self.s.buckets["NW"] == "unused" and any(ref.area_of(g) == "NW" for g in self.s.board.gems)

    def _bucket_group(self) -> list[Group]:
        if not self._bucket_usable():
            return []
        return [Group(("bucket", None, False), lambda: ref.player_bucket(self.s.board))]

    def _to_discard(self, card: str):
        """A card from the hand to the discard pile."""
        assert self.s.hand[card] > 0, card
        self.s.hand[card] -= 1
        self.s.discard[card] += 1
        self.s.hand = +self.s.hand

    # ---------------------------------------------------------------- draws (section 5.5, readings 7 and 9)

    def _raw_draw(self):
        s = self.s
        if not (sum(s.draw.values()) if isinstance(s.draw, Counter) else s.draw):
            if not s.discard:
                return None
            s.draw, s.discard = Counter(s.discard), Counter()  # reshuffled: order unknown
        if isinstance(s.draw, list):
            ev = yield Chance([({"chance": "draw", "card": s.draw[0]}, Fraction(1))])
            s.draw.pop(0)
        else:
            total = sum(s.draw.values())
            ev = yield Chance([({"chance": "draw", "card": c}, Fraction(n, total)) for c, n in sorted(s.draw.items())])
            s.draw[ev["card"]] -= 1
            s.draw = +s.draw
        return ev["card"]

    def _draw_into(self, dest: list | None = None):
        """Draw one card into the hand (or onto ``dest``, set aside). A drawn
        Firestorm is set aside and replaced at once; inside a step its storm
        waits for the outermost step's end, outside one it resolves right
        after the replacement. Returns whether a card arrived."""
        s = self.s
        while True:
            card = yield from self._raw_draw()
            if card is None:
                return False
            if card == "firestorm":
                s.aside.append(card)
                if s.depth > 0:
                    s.queued.append(card)
                    continue
                got = yield from self._draw_into(dest)
                yield from self._firestorm_step()
                return got
            if dest is None:
                s.hand[card] += 1
            else:
                dest.append(card)
                s.aside.append(card)
            return True

    def _draw_up(self):
        while sum(self.s.hand.values()) < self.hand_size():
            if not (yield from self._draw_into()):
                return

    # ---------------------------------------------------------------- steps, hawks, checks (sections 5.2, 7)

    def _step(self, effect, before_hawks=None):
        s = self.s
        s.depth += 1
        yield from effect
        if before_hawks:
            before_hawks()
        yield from self._hawks()
        yield from self._checks()
        s.depth -= 1
        while s.depth == 0 and s.queued:
            s.queued.pop(0)
            yield from self._firestorm_step()

    def _firestorm_step(self):
        def to_discard():
            self.s.aside.remove("firestorm")
            self.s.discard["firestorm"] += 1
        yield from self._step(self._storm(full=True), before_hawks=to_discard)

    def _hawks(self):
        s, b = self.s, self.s.board
        while s.pending:
            def build():
                out = []
                for h in sorted(s.pending):
                    dests = ref.hawk_destinations(b, h, own=ref.in_nw_quadrant(h))
                    out += [{"type": "hawk", "from": list(h), "to": list(d)} for d in dests] or \
                        [{"type": "hawk", "from": list(h), "to": None}]
                return out
            m = yield Decision("hawk", [Group(None, build)])
            h = sq(m["from"])
            b.gems.discard(h)
            b.hawks.discard(h)  # back to the supply
            s.pending.discard(h)
            if m["to"] is not None:
                self._place(sq(m["to"]))

    def _checks(self):
        s, b = self.s, self.s.board
        if (0, 0) in b.gems:
            raise GameOver("loss")
        newly = []
        for t in TOWERS:
            if not s.burned[t] and ref.BACK[t] in b.gems:
                s.burned[t] = True
                newly.append(t)
                if s.buckets["NW"] == "none" and not s.bucket_taken and s.buckets[t] == "unused":
                    s.buckets["NW"], s.bucket_taken = "unused", True
        if all(s.burned.values()):
            raise GameOver("win", sum((r, c) not in b.gems for r in range(3) for c in range(3)))
        for t in TOWERS:
            if not s.burned[t] and s.buckets[t] == "unused" and any(ref.area_of(g) == t for g in b.gems):
                lines = ref.enemy_bucket(b, t)
                m = yield Decision("enemy_bucket", [Group(None, lambda lines=lines: lines)])
                for g in m["squares"]:
                    b.gems.discard(sq(g))
                s.buckets[t] = "used"
        for t in newly:
            yield from self._step(self._storm(full=False))
            yield from self._draw_into()

    # ---------------------------------------------------------------- Firestorms (section 8, reading 8)

    def _storm(self, full: bool):
        s = self.s
        state = {"reroll": False}
        d = yield from self._die()
        d = yield from self._reroll(state, d)
        for target in ref.firestorm(s.board, d):
            self._place(target)
        w = yield from self._die()
        s.wind = yield from self._reroll(state, w)
        if full:
            hand = sorted(s.hand.elements())
            m = yield Decision("storm_discard", [Group(None, lambda: [
                {"type": "storm_discard", "cards": list(c)} for c in sub_multisets(hand, 0)])])
            for c in m["cards"]:
                self._to_discard(c)
            yield from self._draw_up()

    def _reroll(self, state, result):
        s = self.s
        winds = sorted(c for c in s.hand if self._type(c) == "wind")
        if state["reroll"] or not winds:
            return result
        m = yield Decision("storm_reroll", [Group(None, lambda: [{"type": "keep"}] + [
            {"type": "reroll", "discard": c} for c in winds])])
        if m["type"] == "keep":
            return result
        state["reroll"] = True
        self._to_discard(m["discard"])
        result = yield from self._die()
        yield from self._draw_into()
        return result

    # ---------------------------------------------------------------- the turn (section 5.1)

    def _run(self):
        s = self.s
        start = s.phase
        if start == "setup_hawk":
            squares = ref.setup_hawk(s.board)
            if squares and len(s.board.hawks) < self.data["hawks_total"]:
                m = yield Decision("setup_hawk", [Group(None, lambda: squares)], top="setup_hawk")
                s.board.hawks.add(sq(m["square"]))
            s.wind = yield from self._die()
            start = "inferno"
        while True:
            yield from self._turn(start)
            start = "inferno"

    def _turn(self, start: str):
        s = self.s
        order = ["inferno", "inferno_place", "wind", "action", "end"]
        at = order.index(start)
        if at <= 0:
            s.revealed = yield from self._inferno_draw(top="inferno")
            s.penalty = False
        if at <= 1:
            yield from self._inferno_place()
        if at <= 2:
            yield from self._wind()
        if at <= 3:
            yield from self._action()
            yield from self._draw_up()
        yield from self._end()
        # round end (reading 5)
        if not self._deck_left() or s.round_ends:
            s.inferno_deck = Counter(self.data["inferno"])
            s.inferno_discard, s.round_ends = [], False
            s.round += 1
        if s.turn >= s.options["turn_limit"]:
            raise GameOver("timeout")
        s.turn += 1

    def _inferno_draw(self, top=None):
        """The top Inferno card (uniform over the deck unless its order is known)."""
        s = self.s
        if isinstance(s.inferno_deck, list):
            ev = yield Chance([({"chance": "inferno", "card": s.inferno_deck[0]}, Fraction(1))], top)
            s.inferno_deck.pop(0)
        else:
            total = sum(s.inferno_deck.values())
            ev = yield Chance([({"chance": "inferno", "card": c}, Fraction(n, total))
                               for c, n in sorted(s.inferno_deck.items())], top)
            s.inferno_deck[ev["card"]] -= 1
            s.inferno_deck = +s.inferno_deck
        return ev["card"]

    def _deck_left(self) -> int:
        d = self.s.inferno_deck
        return len(d) if isinstance(d, list) else sum(d.values())

    # ---------------------------------------------------------------- Phase One: the Inferno (section 5.3)

    def _inferno_moves(self, card: str) -> list[dict]:
        if self._type(card) == "wind":
            return [{"type": "inferno"}]
        return INFERNO_RULES[card](self.s.board)

    def _inferno_place(self):
        s = self.s
        while True:
            card = s.revealed
            legal = self._inferno_moves(card)
            if not legal and s.penalty:
                raise GameOver("loss")  # a penalty-drawn fire card that cannot be placed (15.6)
            if not legal:
                legal = [{"type": "penalty", "storm": "N"}, {"type": "penalty", "storm": "W"}]
            m = yield Decision("inferno_place", [Group(None, lambda legal=legal: legal)] + self._bucket_group(),
                               top="inferno_place")
            if m["type"] == "bucket":
                yield from self._step(self._bucket(m))
                continue
            if m["type"] == "penalty":
                s.inferno_discard.append(card)
                s.revealed, s.penalty = None, False
                yield from self._step(self._inferno_storm(m["storm"]))
                if not self._deck_left():  # all five, the failed card included; the round ends after this turn
                    s.inferno_deck, s.inferno_discard, s.round_ends = Counter(s.inferno_discard), [], True
                s.revealed = yield from self._inferno_draw()
                s.penalty = True
                continue
            yield from self._step(self._inferno_effect(card, m))
            s.inferno_discard.append(card)
            s.revealed, s.penalty = None, False
            return

    def _inferno_effect(self, card: str, m: dict):
        b = self.s.board
        if self._type(card) == "wind":
            yield from self._inferno_storm(self.cards[card]["gem"])
        elif "center" in m:
            c = sq(m["center"])
            fills = [s for s in ref.ring(c) if ref.in_nw_quadrant(s) and b.placeable(s)]
            b.gems.discard(c)
            b.breaks.add(c)
            for s in fills:
                self._place(s)
        else:
            for s in m["squares"]:
                self._place(sq(s))
        return
        yield

    def _inferno_storm(self, d: str):
        for s in ref.inferno_storm(self.s.board, d):
            self._place(s)
        return
        yield

    def _bucket(self, m: dict):
        for g in m["squares"]:
            self.s.board.gems.discard(sq(g))
        self.s.buckets["NW"] = "used"
        return
        yield

    # ---------------------------------------------------------------- the wind step

    def _wind(self):
        s = self.s
        while True:
            targets = ref.wind_gem(s.board, s.wind)
            if not targets:
                return
            m = yield Decision("wind", [Group(("wind_gem", None, False), lambda: targets)] + self._bucket_group(),
                               top="wind")
            if m["type"] == "bucket":
                yield from self._step(self._bucket(m))
                continue
            yield from self._step(self._one_gem(sq(m["square"])))
            return

    def _one_gem(self, s: Square):
        self._place(s)
        return
        yield

    # ---------------------------------------------------------------- the end of the turn

    def _end(self):
        while self._bucket_usable():
            m = yield Decision("end", self._bucket_group() + [Group(("end", None, False), lambda: [{"type": "end"}])],
                               top="end")
            if m["type"] == "end":
                return
            yield from self._step(self._bucket(m))

    # ---------------------------------------------------------------- Phase Two: the action

    def _plays(self, card: str, b: ref.Board | None = None) -> Group:
        """The plays of one card from the hand (section 6), as a family."""
        s = self.s
        b = b or s.board
        info = self.cards[card]
        kind = ("play", card, False)
        if info["type"] == "wind":
            return Group(kind, lambda: ref.wind_card(b, card, info["dirs"], info["gem"], s.wind, s.burned))
        if info["type"] == "hawk":
            hp = ref.hawk_play(b, card, info["hawks"], self.data["hawks_total"])
            return Group(kind, hp.moves, count=hp.count, legal=hp.legal, sample=hp.sample)
        if card == "creeping_fires":
            cf = CreepingFires(b)
            return Group(kind, cf.moves, count=cf.count, legal=cf.legal, sample=cf.sample)
        if card in BOARD_RULES:
            return Group(kind, lambda: BOARD_RULES[card](b))
        return Group(kind, lambda: [])

    def _action_groups(self) -> list[Group]:
        s = self.s
        hand = sorted(s.hand.elements())
        groups = []
        if hand:
            groups.append(Group(("discard", None, False), lambda: [
                {"type": "discard", "cards": list(c)} for c in sub_multisets(hand, 1)]))
        if s.specialty["lookout"] == "front":
            groups.append(Group(("specialty", "lookout", False),
                                lambda: [{"type": "specialty", "card": "lookout"}]))
        else:
            groups.append(Group(("specialty", "patrol", False), lambda: [
                {"type": "specialty", "card": "patrol", "discard": c} for c in sorted(s.hand)]))
        if s.specialty["heavy_winds"] == "front":
            groups.append(Group(("specialty", "heavy_winds", False), lambda: [
                {"type": "specialty", "card": "heavy_winds"}] if self._wind_gems() else []))
        groups.append(Group(("reckless", None, False), self._reckless_moves))
        for card in sorted(s.hand):
            groups.append(self._plays(card))
        if s.hand["crown_fire"] >= 2:
            groups.append(Group(("play", "crown_fire", True), lambda: ref.crown_fire_double(s.board)))
        return groups

    def _reckless_moves(self) -> list[dict]:
        s = self.s
        if s.buckets["NW"] != "used" or not any(ref.area_of(g) == "NW" for g in s.board.gems):
            return []
        squares = ref.reckless(s.board)
        if not squares:
            return []
        out = []
        for kind in ("water", "firebreak"):
            cards = sorted(c for c in s.hand.elements() if self._type(c) == kind)
            for trio in sorted(set(itertools.combinations(cards, 3))):
                out += [{"type": "reckless", "discard": list(trio), "squares": sqs} for sqs in squares]
        return out

    def _wind_gems(self) -> list[tuple[str, Square]]:
        """(wind card in hand, square) for each wind card's `gem` option now."""
        s = self.s
        return [(c, t) for c in sorted(s.hand) if self._type(c) == "wind"
                for t in ref.gem_targets(s.board, self.cards[c]["gem"])]

    def _action(self):
        s = self.s
        while True:
            groups = self._action_groups()
            if not any(g.count() for g in groups):
                return  # no legal action: skipped
            m = yield Decision("action", groups + self._bucket_group(), top="action")
            if m["type"] == "bucket":
                yield from self._step(self._bucket(m))
                continue
            yield from self._step(self._action_effect(m))
            return

    def _action_effect(self, m: dict):
        s = self.s
        t = m["type"]
        if t == "discard":
            for c in m["cards"]:
                self._to_discard(c)
        elif t == "reckless":
            for c in m["discard"]:
                self._to_discard(c)
            for g in m["squares"]:
                self._place(sq(g))
        elif t == "play":
            card = m["card"]
            self._to_discard(card)
            if m.get("double"):
                self._to_discard(card)
            yield from self._play_effect(card, m)
            if self._type(card) == "wind" and s.specialty["heavy_winds"] == "back":
                yield from self._light_breeze()
        elif m["card"] == "heavy_winds":
            s.specialty["heavy_winds"] = "back"
            yield from self._heavy_winds()
        elif m["card"] == "lookout":
            s.specialty["lookout"] = "back"
            yield from self._lookout()
        elif m["card"] == "patrol":
            self._to_discard(m["discard"])
            yield from self._patrol()

    def _play_effect(self, card: str, m: dict):
        """A card's effect (the card itself is already discarded)."""
        s, b = self.s, self.s.board
        info = self.cards[card]
        if info["type"] == "wind":
            if m["option"] == "set":
                s.wind = m["wind"]
            elif m["option"] == "roll":
                s.wind = yield from self._die(exclude=s.wind)
            else:
                self._place(sq(m["square"]))
        elif info["type"] == "hawk":
            for h in m["take"]:
                b.hawks.discard(sq(h))
            b.hawks -= {h for h in b.hawks if ref.in_nw_quadrant(h)}
            b.hawks |= {sq(h) for h in m["hawks"]}
        elif card == "explosion":
            c = sq(m["center"])
            fills = [x for x in ref.ring(c) if b.placeable(x)]
            b.gems.discard(c)
            b.breaks.add(c)
            for x in fills:
                self._place(x)
        elif card == "ember":
            b.gems.discard(sq(m["from"]))
            self._place(sq(m["to"]))
        elif card == "rolling_firebrand":
            pair = [sq(p) for p in m["pair"]]
            d = ref.DIRS[m["dir"]]
            ends = []
            for g in pair:
                end = ref.add(g, d, 2)
                for k in (1, 2):  # stopped by the first hawk on its path
                    x = ref.add(g, d, k)
                    if x not in pair and x in b.hawks:
                        end = x
                        break
                ends.append(end)
            for g in pair:
                b.gems.discard(g)
            for e in ends:
                self._place(e)
        elif info["type"] == "water":
            for g in m["squares"]:
                b.gems.discard(sq(g))
        elif card == "de_reforest":
            (b.breaks.add if m["option"] == "add" else b.breaks.discard)(sq(m["square"]))
        elif card == "backburn":
            b.gems.discard(sq(m["square"]))
            b.breaks.add(sq(m["square"]))
        elif card in ("dozer_line", "scratch_line"):
            b.breaks |= {sq(x) for x in m["squares"]}
        else:  # fire patterns: flare_up, burning_snag, crown_fire (1 or 2), creeping_fires
            for x in m["squares"]:
                self._place(sq(x))

    def _light_breeze(self):
        s = self.s

        def build():
            return [{"type": "light_breeze", "card": None}] + [
                {"type": "light_breeze", "card": c, "square": list(t)} for c, t in self._wind_gems()]
        m = yield Decision("light_breeze", [Group(None, build)])
        if m["card"] is not None:
            self._to_discard(m["card"])
            self._place(sq(m["square"]))

    def _heavy_winds(self):
        played = 0
        while True:
            options = self._wind_gems()
            if not options:
                return

            def build(options=options, played=played):
                return [{"type": "heavy_wind", "card": c, "square": list(t)} for c, t in options] + (
                    [{"type": "heavy_wind", "card": None}] if played else [])
            m = yield Decision("heavy_wind", [Group(None, build)])
            if m["card"] is None:
                return
            self._to_discard(m["card"])
            self._place(sq(m["square"]))
            played += 1

    def _pick_group(self, card: str, keep: str | None) -> Group:
        """One drawn card's plays as `pick` moves (with `keep` for Patrol)."""
        plays = self._plays(card)
        extra = {} if keep is None else {"keep": keep}

        def conv(m):
            return dict({k: v for k, v in m.items() if k != "type"}, type="pick", **extra)

        def legal(m):
            if m.get("keep") != keep or ("keep" in m) != (keep is not None):
                return False
            inner = dict({k: v for k, v in m.items() if k not in ("type", "keep")}, type="play")
            return plays.legal(inner)
        return Group(("pick", card, False), lambda: [conv(m) for m in plays.moves()], count=plays.count,
                     legal=legal, sample=lambda rng: conv(plays.sample(rng)))

    def _lookout(self):
        s = self.s
        drawn: list[str] = []
        for _ in range(3):
            if not (yield from self._draw_into(drawn)):
                break
        groups = [self._pick_group(c, None) for c in sorted(set(drawn))]
        if not any(g.count() for g in groups):
            groups = [Group(None, lambda: [{"type": "pick", "card": None}])]
        m = yield Decision("pick", groups)
        for c in drawn:
            s.aside.remove(c)
            s.discard[c] += 1
        if m["card"] is not None:
            yield from self._play_effect(m["card"], m)

    def _patrol(self):
        s = self.s
        drawn: list[str] = []
        for _ in range(2):
            if not (yield from self._draw_into(drawn)):
                break
        if not drawn:
            return
        if len(drawn) == 1:
            groups = [self._pick_group(drawn[0], None)]
            nothing = [{"type": "pick", "card": None, "keep": drawn[0]}]
        else:
            a, b = drawn
            groups = [self._pick_group(a, b)] + ([self._pick_group(b, a)] if b != a else [])
            nothing = [{"type": "pick", "card": None, "keep": c} for c in sorted(set(drawn))]
        if not any(g.count() for g in groups):
            groups = [Group(None, lambda: nothing)]
        m = yield Decision("pick", groups)
        played = m["card"]
        keep = m.get("keep")
        for c in drawn:
            s.aside.remove(c)
        rest = list(drawn)
        if played is not None:
            rest.remove(played)
            s.discard[played] += 1
        if keep is not None:
            rest.remove(keep)
            s.hand[keep] += 1
        for c in rest:
            s.discard[c] += 1
        if played is not None:
            yield from self._play_effect(played, m)

    # ---------------------------------------------------------------- positions in and out (section 11.2)

    def _parse(self, p: dict) -> State:
        data = self.data
        s = State()

        def need(field, ok, why):
            if not ok:
                raise ValueError(f"{field}: {why}")

        need("game", p.get("game", "firetower-solo") == "firetower-solo", "must be firetower-solo")
        s.level = int(p.get("level", 1))
        need("level", str(s.level) in data["levels"], f"unknown level {p.get('level')}")
        opts = dict({"challenges": "off", "order_known": False, "turn_limit": 100, "deck": "default"},
                    **(p.get("options") or {}))
        need("options.challenges", opts["challenges"] == "off", "only challenges 'off' is implemented")
        need("options.turn_limit", isinstance(opts["turn_limit"], int) and opts["turn_limit"] >= 1,
             "a positive integer")
        s.options = opts
        known = bool(opts["order_known"])
        # board
        rows = p.get("board")
        need("board", isinstance(rows, list) and len(rows) == 16 and all(isinstance(r, str) and len(r) == 16
                                                                          for r in rows), "16 rows of 16 characters")
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                need(f"board[{r}][{c}]", ch in ".FE#H", f"unknown character {ch!r}")
                need(f"board[{r}][{c}]", (ch == "E") == ((r, c) in ref.EF), "E exactly on the Eternal Flame")
                if ch == "F":
                    s.board.gems.add((r, c))
                elif ch == "#":
                    s.board.breaks.add((r, c))
                elif ch == "H":
                    s.board.hawks.add((r, c))
        need("board", (0, 0) not in s.board.gems, "a gem on [0,0]")
        need("board", len(s.board.hawks) <= data["hawks_total"], "more hawks than the supply")
        # cards
        for field in ("hand",):
            need(field, isinstance(p.get(field), list), "a list of card ids")
        s.hand = Counter(p["hand"])
        for c in s.hand:
            need("hand", c in self.cards and c != "firestorm", f"card {c!r} cannot be in the hand")
        s.draw = self._pile(p.get("draw_pile", {}), known, "draw_pile")
        s.discard = Counter(p.get("discard") or {}) if isinstance(p.get("discard"), dict) else Counter(
            p.get("discard") or [])
        deck = solo_deck(data) if opts["deck"] == "default" else Counter(opts["deck"])
        for c in deck:
            need("options.deck", c in self.cards, f"unknown card {c!r}")
            need("options.deck", self._type(c) != "event" or c == "firestorm", f"event {c!r} is not modelled")
            need("options.deck", self._type(c) in ("wind", "hawk", "event") or c in BOARD_RULES,
                 f"no rules for card {c!r}")
        pile = s.draw if isinstance(s.draw, Counter) else Counter(s.draw)
        need("hand+draw_pile+discard", +(s.hand + pile + s.discard) == +deck,
             "must be the deck exactly")
        # the Inferno
        inf = p.get("inferno") or {}
        s.inferno_deck = self._pile(inf.get("deck", {}), known, "inferno.deck")
        s.inferno_discard = list(inf.get("discard") or [])
        s.revealed = inf.get("revealed")
        s.penalty = bool(inf.get("penalty", False))
        s.round_ends = bool(inf.get("round_ends", False))
        ideck = s.inferno_deck if isinstance(s.inferno_deck, Counter) else Counter(s.inferno_deck)
        need("inferno", ideck + Counter(s.inferno_discard) + Counter([s.revealed] if s.revealed else [])
             == Counter(data["inferno"]), "deck + discard + revealed must be the five Inferno cards")
        for c in data["inferno"]:
            need("inferno", c in self.cards and (self._type(c) == "wind" or c in INFERNO_RULES),
                 f"no Inferno rule for {c!r}")
        # the rest
        s.burned = {t: bool((p.get("burned") or {}).get(t, False)) for t in TOWERS}
        s.buckets = dict(s.buckets, **(p.get("buckets") or {}))
        for k, v in s.buckets.items():
            need(f"buckets.{k}", v in ("unused", "used", "none"), "unused, used or none")
        s.bucket_taken = bool(p.get("bucket_taken", False))
        s.specialty = dict(s.specialty, **(p.get("specialty") or {}))
        for k, v in s.specialty.items():
            need(f"specialty.{k}", v in ("front", "back"), "front or back")
        s.turn, s.round = int(p.get("turn", 1)), int(p.get("round", 1))
        s.phase = p.get("phase")
        need("phase", s.phase in PHASES, f"one of {', '.join(PHASES)}")
        need("inferno.revealed", (s.revealed is not None) == (s.phase == "inferno_place"),
             "set exactly at phase inferno_place")
        need("inferno.penalty", not s.penalty or s.phase == "inferno_place", "only at phase inferno_place")
        need("inferno.deck", s.phase != "inferno" or sum(ideck.values()) > 0, "empty at the Inferno draw")
        s.wind = p.get("wind")
        need("wind", s.wind in ("N", "E", "S", "W") or (s.phase == "setup_hawk" and s.wind is None),
             "N, E, S or W (null only at setup_hawk)")
        self.s = s
        need("hand", sum(s.hand.values()) <= self.hand_size(), f"more than hand_size {self.hand_size()} cards")
        if "hand_size" in p:
            need("hand_size", p["hand_size"] == self.hand_size(), f"should be {self.hand_size()}")
        if "hawk_supply" in p:
            supply = data["hawks_total"] - len(s.board.hawks)
            need("hawk_supply", p["hawk_supply"] == supply, f"should be {supply}")
        return s

    @staticmethod
    def _pile(value, known: bool, field: str):
        if isinstance(value, list):
            return list(value) if known else Counter(value)
        if isinstance(value, dict):
            if any(not isinstance(n, int) or n < 0 for n in value.values()):
                raise ValueError(f"{field}: counts must be non-negative integers")
            return +Counter(value)
        raise ValueError(f"{field}: a list or a map of counts")

    def _export(self, s: State) -> dict:
        b = s.board
        rows = []
        for r in range(16):
            row = ""
            for c in range(16):
                x = (r, c)
                row += ("E" if x in ref.EF else "X" if x in b.gems and x in b.hawks else "F" if x in b.gems
                        else "#" if x in b.breaks else "H" if x in b.hawks else ".")
            rows.append(row)

        def pile(v):
            return list(v) if isinstance(v, list) else {c: n for c, n in v.items() if n}
        return sort_keys({
            "game": "firetower-solo", "version": 1, "level": s.level, "board": rows, "wind": s.wind,
            "hand": sorted(s.hand.elements()), "draw_pile": pile(s.draw),
            "discard": {c: n for c, n in s.discard.items() if n},
            "inferno": {"deck": pile(s.inferno_deck), "discard": list(s.inferno_discard), "revealed": s.revealed,
                        "penalty": s.penalty, "round_ends": s.round_ends},
            "burned": dict(s.burned), "buckets": dict(s.buckets), "bucket_taken": s.bucket_taken,
            "specialty": dict(s.specialty), "turn": s.turn, "round": s.round, "phase": s.phase,
            "options": dict(s.options), "hand_size": self.hand_size(),
            "hawk_supply": self.data["hawks_total"] - len(b.hawks)})


def sub_multisets(cards: list[str], least: int) -> list[tuple[str, ...]]:
    """Every sub-multiset of a sorted list with at least ``least`` cards,
    each once, sorted."""
    out = set()
    for k in range(least, len(cards) + 1):
        out |= set(itertools.combinations(cards, k))
    return sorted(out)


# ------------------------------------------------------------ set-up positions (section 3)


def setup_position(level: int, rng, data: dict | None = None, order_known: bool = False,
                   turn_limit: int = 100) -> dict:
    """A set-up position (phase setup_hawk) of the level: the enemy
    firebreaks and hawks, a hand dealt from the shuffled solo deck, then the
    Firestorm cut into the draw pile at a uniform place."""
    data = dict(DEFAULT_DATA, **(data or {}))
    lv = data["levels"][str(level)]
    b = ref.Board(set(), set(), set())
    for frame in (lambda a, c: (a, 15 - c), lambda a, c: (15 - a, c), lambda a, c: (15 - a, 15 - c)):
        b.breaks |= {frame(a, c) for a, c in lv["firebreaks"]}
        b.hawks |= {frame(a, c) for a, c in lv["hawks"]}
    deck = solo_deck(data)
    cards = sorted((deck - Counter(["firestorm"])).elements())
    rng.shuffle(cards)
    hand, pile = cards[:lv["hand"]], cards[lv["hand"]:]
    for _ in range(deck["firestorm"]):
        pile.insert(rng.randrange(len(pile) + 1), "firestorm")
    inferno = list(data["inferno"])
    rng.shuffle(inferno)
    board = ["".join("E" if (r, c) in ref.EF else "#" if (r, c) in b.breaks else "H" if (r, c) in b.hawks else "."
                     for c in range(16)) for r in range(16)]
    return {"game": "firetower-solo", "version": 1, "level": level, "board": board, "wind": None,
            "hand": sorted(hand), "draw_pile": pile if order_known else dict(Counter(pile)), "discard": {},
            "inferno": {"deck": inferno if order_known else dict(Counter(inferno)), "discard": [],
                        "revealed": None, "penalty": False, "round_ends": False},
            "burned": {t: False for t in TOWERS},
            "buckets": {"NW": "unused" if lv["player_bucket"] else "none", "NE": "unused", "SW": "unused",
                        "SE": "unused"},
            "bucket_taken": False, "specialty": {"heavy_winds": "front", "lookout": "front"},
            "turn": 1, "round": 1, "phase": "setup_hawk",
            "options": {"challenges": "off", "order_known": order_known, "turn_limit": turn_limit,
                        "deck": "default"}}
