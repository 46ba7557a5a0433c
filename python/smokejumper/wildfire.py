"""Wild Fire! solitaire: known-order verdicts with certificates, legal moves,
replays, and hints that value every action of a turn (on sampled deals when
the order is hidden), and the 2-4 player scores of a table. Rules: the
project's spec, readings in docs/rules/wildfire.md.

>>> from smokejumper import wildfire, Limit
>>> wildfire.solve({"deal": [{"n": 1}, {"n": 5}], "supply": [1]}, Limit(seconds=10)).verdict
'win'
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Annotated, Any, Callable, Literal, Sequence

from pydantic import BaseModel, ConfigDict, Field, StrictInt, computed_field, model_serializer, model_validator

from smokejumper import _batch, _core, _text
from smokejumper._core import Control, InvalidPositionError
from smokejumper._inputs import load_model, load_models
from smokejumper.games import (Game, Operation, operations, position_call,
                               position_search, position_request, request, search_request)
from smokejumper.limits import Limit, LimitRequest
from smokejumper.stats import wilson_interval
from smokejumper.values import BatchCounts, Estimate, SearchCounts, SearchStats, StoppedBy, Verdict

_native = _core.wildfire
MAX_TILES: int = _native.MAX_TILES
MAX_COLORS: int = _native.MAX_COLORS
MAX_SUPPLY_PER_COLOR: int = _native.MAX_SUPPLY_PER_COLOR
MAX_COORDINATE: int = _native.MAX_COORDINATE
MAX_HINT_SAMPLES: int = _native.MAX_HINT_SAMPLES
# Each solve of a hint (one action on one deal) stops here and counts as
# unknown. A node cap, unlike a time limit, gives the same answer on any
# machine; late-game solves rarely need a tenth of this one.
DEFAULT_SAMPLE_NODES = 50_000

# The spec's table; an assumption about the box, not a fact from it.
DEFAULT_SPACES = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}

Coord = Annotated[StrictInt, Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)]
Count = Annotated[StrictInt, Field(ge=0, le=MAX_SUPPLY_PER_COLOR)]
Status = Literal["win", "loss", "ongoing"]

_FORMS = {
    "deal": ({"deal", "level", "supply"}, "known order from the start"),
    "start": ({"start", "pool", "turns", "drawn", "level", "supply"}, "hidden order from the start"),
    "tiles": ({"tiles", "turn", "supply", "level", "deal_rest", "pool", "turns_left", "drawn"}, "mid-game"),
}


class TileKind(BaseModel):
    """A tile off the table: number ``n`` and pawn ``spaces`` (default by number)."""

    model_config = ConfigDict(extra="forbid")
    n: StrictInt = Field(ge=1, le=6)
    spaces: StrictInt | None = Field(default=None, ge=1, le=3)

    def native(self) -> tuple[int, int]:
        return self.n, self.spaces or 0


class TableTile(TileKind):
    """A tile on the table at (q, r), with its pawns per colour (default none)."""

    q: Coord
    r: Coord
    pawns: list[Annotated[StrictInt, Field(ge=0, le=3)]] | None = Field(default=None, max_length=MAX_COLORS)


class Position(BaseModel):
    """The spec's position JSON, in any of its forms: ``deal`` (known order
    from the start), ``start`` + ``pool`` + ``turns`` (hidden order from the
    start), or ``tiles`` + ``turn`` with ``deal_rest`` (known order) or
    ``pool`` + ``turns_left`` (hidden order). A hidden order may add
    ``drawn``, the tile just drawn for this turn (the pool still lists it),
    which makes the turn playable and valuable by :func:`hint`."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [
            {"deal": [{"n": 1}, {"n": 5}, {"n": 3}], "level": 1, "supply": [2]},
            {"tiles": [{"q": 0, "r": 0, "n": 1, "pawns": [1]}], "turn": 0, "supply": [2],
             "level": 1, "deal_rest": [{"n": 5}]},
        ]},
    )
    deal: list[TileKind] | None = Field(default=None, min_length=1, max_length=MAX_TILES)
    start: TileKind | None = None
    pool: list[TileKind] | None = Field(default=None, max_length=MAX_TILES)
    turns: StrictInt | None = Field(default=None, ge=0, le=MAX_TILES)
    tiles: list[TableTile] | None = Field(default=None, min_length=1, max_length=MAX_TILES)
    turn: StrictInt | None = Field(default=None, ge=0, le=MAX_TILES)
    deal_rest: list[TileKind] | None = Field(default=None, max_length=MAX_TILES)
    turns_left: StrictInt | None = Field(default=None, ge=0, le=MAX_TILES)
    drawn: TileKind | None = Field(default=None, description="Hidden order: the tile drawn for this turn, "
                                   "one of the pool's")
    supply: list[Count] = Field(default_factory=lambda: [12, 12, 12, 12], min_length=1,
                                max_length=MAX_COLORS)
    level: StrictInt = Field(default=1, ge=1, le=3)

    @model_validator(mode="after")
    def _one_form(self) -> Position:
        given = self.model_fields_set
        forms = [f for f in _FORMS if f in given and getattr(self, f) is not None]
        if len(forms) != 1:
            raise ValueError("needs exactly one of 'deal' (known order from the start), 'start' "
                             f"(hidden order from the start) or 'tiles' (mid-game); got {forms}")
        form = forms[0]
        allowed, name = _FORMS[form]
        extra = sorted(k for k in given if k not in allowed)
        if extra:
            raise ValueError(f"{extra} not allowed in a {name} position; allowed {sorted(allowed)}")
        if form == "start":
            for key in ("pool", "turns"):
                if getattr(self, key) is None:
                    raise ValueError(f"a hidden-order start needs '{key}'")
            # Checked here to name the start form's own field (the core says turns_left).
            if self.turns is not None and self.pool is not None and self.turns > len(self.pool):
                raise ValueError(f"turns: {self.turns} must be 0..the pool size {len(self.pool)}")
        if form == "tiles":
            if self.turn is None:
                raise ValueError("a mid-game position needs 'turn' (turns already played)")
            known, hidden = self.deal_rest is not None, self.pool is not None or self.turns_left is not None
            if known == hidden:
                raise ValueError("a mid-game position needs 'deal_rest' (known order) or 'pool' and "
                                 "'turns_left' (hidden order), not both")
            if hidden and (self.pool is None or self.turns_left is None):
                raise ValueError("a hidden-order mid-game position needs both 'pool' and 'turns_left'")
            if known and "drawn" in given:
                raise ValueError("'drawn' is only for hidden order; a known order draws deal_rest[0]")
        return self

    @model_serializer(mode="wrap")
    def _drop_absent(self, handler: Any) -> dict[str, Any]:
        return {k: v for k, v in handler(self).items() if v is not None}

    @property
    def known(self) -> bool:
        return self.deal is not None or self.deal_rest is not None

    def native(self) -> tuple:
        """(tiles, turn, supply, level, known, rest, turns_left, drawn) as the C++ core takes them."""
        return self._native_form() + (self.drawn.native() if self.drawn else (0, 0),)

    def _native_form(self) -> tuple:
        colours = len(self.supply)
        if self.deal is not None:
            start, rest = self.deal[0], self.deal[1:]
            tiles = [(0, 0, start.n, start.spaces or 0, [0] * colours)]
            return tiles, 0, list(self.supply), self.level, True, [t.native() for t in rest], len(rest)
        if self.start is not None:
            tiles = [(0, 0, self.start.n, self.start.spaces or 0, [0] * colours)]
            return (tiles, 0, list(self.supply), self.level, False, [t.native() for t in self.pool or []],
                    self.turns or 0)
        tiles = [(t.q, t.r, t.n, t.spaces or 0, list(t.pawns) if t.pawns is not None else [])
                 for t in self.tiles or []]
        if self.deal_rest is not None:
            rest = [t.native() for t in self.deal_rest]
            return tiles, self.turn, list(self.supply), self.level, True, rest, len(rest)
        return (tiles, self.turn, list(self.supply), self.level, False,
                [t.native() for t in self.pool or []], self.turns_left)


class PawnAction(BaseModel):
    """Put ``count`` pawns of colour ``color`` on the tile at ``tile``."""

    model_config = ConfigDict(extra="forbid")
    color: StrictInt = Field(ge=0, lt=MAX_COLORS)
    tile: tuple[Coord, Coord]
    count: StrictInt = Field(ge=1, le=3)


class Move(BaseModel):
    """One turn: the cell for the drawn tile (given even when only one cell is
    hottest), then one pawn action or ``null`` for none."""

    model_config = ConfigDict(extra="forbid")
    place: tuple[Coord, Coord]
    pawns: PawnAction | None

    def native(self) -> tuple[int, int, int, int, int, int]:
        if self.pawns is None:
            return self.place[0], self.place[1], -1, 0, 0, 0
        p = self.pawns
        return self.place[0], self.place[1], p.color, p.tile[0], p.tile[1], p.count


class Stats(SearchStats):
    """How a search went (both searches together). ``stopped_by`` is null when it finished."""

    layouts: int = Field(0, description="complete layouts (tie choices) given a pawn-plan search")
    layouts_refuted: int = Field(0, description="... of which proved to admit no pawn plan")
    pawn_plan_nodes: int = 0
    decided_by: Literal["layouts", "moves"] | None = Field(
        None, description="which search gave the verdict: layouts first, or move by move")


class SolveResult(BaseModel):
    verdict: Verdict
    line: list[Move] | None = Field(description="A winning line (every turn's move) when the verdict is win")
    stats: Stats


class CheckResult(BaseModel):
    status: Status
    turn: int = Field(description="Turns already played")
    turns_left: int
    hottest: list[tuple[int, int]] = Field(description="The cells the next tile may go on")
    pawns_allowed: bool = Field(description="Whether the level allows pawns on the next turn")
    moves: list[Move] = Field(description="Every legal move of the next turn (known order, or hidden "
                                          "order with 'drawn')")
    position: Position = Field(description="The position in the mid-game form, spaces written out")


class ReplayStep(BaseModel):
    move: Move
    status: Status
    position: Position


class ReplayResult(BaseModel):
    status: Status
    steps: list[ReplayStep]
    position: Position = Field(description="The position after the last legal move")
    error: str | None = Field(description="Why the first illegal move is illegal, if one is")


class HintChoice(Estimate):
    """A move's share of won deals (``value``: wins / n, 0 when no deal was
    counted) and its 95% Wilson interval (``ci95``), unknown deals counted as
    losses for the lower end and as wins for the upper end; when exact, [wins,
    wins + unknown]."""

    move: Move
    wins: int = Field(description="Deals won after this move")
    losses: int = Field(description="Deals proved lost after this move")
    unknown: int = Field(description="Deals where a solve hit its node cap")

    @computed_field(description="The earlier name of `value`, still sent")
    @property
    def win_share(self) -> float:
        return self.value

    @computed_field(description="The earlier name of `ci95`, still sent")
    @property
    def interval95(self) -> tuple[float, float]:
        return self.ci95


class HintStats(SearchCounts):
    nodes: int = Field(description="Every node searched, also in samples not counted")
    stopped_by: StoppedBy | None = Field(description="Why fewer deals than requested were counted; null when all were")
    solves: int = Field(description="Known-order solves run (one per distinct state per deal)")
    workers: int = Field(description="Threads used")


class HintResult(BaseModel):
    exact: bool = Field(description="Only one deal is possible (known order, or nothing unseen left "
                                    "to choose): the counts are verdicts, not estimates")
    drawn: TileKind = Field(description="The tile this turn places")
    samples: int = Field(description="Deals counted, for every move alike: the first `samples` of "
                                     "those requested")
    samples_requested: int = Field(description="Deals asked for (1 when exact)")
    seed: int
    moves: list[HintChoice] = Field(description="Every legal move, best first (win share, then the "
                                                "interval's lower end, then the order of check's moves)")
    stats: HintStats

    @computed_field(description="The earlier name of `moves`, still sent")
    @property
    def choices(self) -> list[HintChoice]:
        return self.moves


PositionLike = Position | dict | str | bytes


def load_position(position: PositionLike) -> Position:
    """A validated Position from a model, dict or JSON text."""
    return load_model(Position, position)


def check(position: PositionLike) -> CheckResult:
    """Validate the rules (errors name the tile or cell); status, hottest cells and legal moves."""
    return CheckResult.model_validate(_native.check(load_position(position).native()))


def solve(position: PositionLike, limit: Limit | None = None, *, control: Control | None = None,
          use_table: bool = True, use_pruning: bool = True, use_layouts: bool = True) -> SolveResult:
    """Known order: win with a certificate line, proved loss, or unknown at a limit.

    Layouts (the tie choices) are searched first with a pawn plan for each,
    then move by move. ``use_table``, ``use_pruning`` and ``use_layouts``
    exist for benchmarks and tests; leave them on."""
    p = load_position(position)
    if not p.known:
        raise InvalidPositionError("solve: needs a known-order position ('deal' or 'deal_rest')")
    raw = _native.solve(p.native(), *(limit or Limit()).native(), control, use_table, use_pruning,
                        use_layouts)
    return SolveResult.model_validate(raw)


def replay(position: PositionLike, line: Sequence[Move | dict]) -> ReplayResult:
    """Play ``line`` through the engine step by step. ``status`` is "win" only
    if every move is legal and the game ends won."""
    p = load_position(position)
    moves = load_models(Move, line, "line")
    return ReplayResult.model_validate(_native.replay(p.native(), [m.native() for m in moves]))


def _check_sampling(samples: int, seed: int) -> None:
    if not 1 <= samples <= MAX_HINT_SAMPLES:
        raise ValueError(f"samples must be 1..{MAX_HINT_SAMPLES}, got {samples}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be 0..2**64-1, got {seed}")


def hint(position: PositionLike, limit: Limit | None = None, *, samples: int = 200, seed: int = 0,
         sample_nodes: int = DEFAULT_SAMPLE_NODES, workers: int | None = None,
         control: Control | None = None) -> HintResult:
    """Every legal move of this turn with its share of won deals, best first.

    Hidden order (the position needs ``drawn``): ``samples`` deals are drawn
    uniformly from the unseen tiles (seeded; ``sample_deals`` lists them),
    every move is solved in known order on the same deals, and each solve
    stops after ``sample_nodes`` nodes (unknown). Known order: each move is
    solved once (``exact``). ``limit`` bounds the whole hint; when it (or
    ``control``) stops it early, the first ``samples`` deals are counted for
    every move. ``workers`` threads (default: every core) give the same
    answer as one, unless a time limit or a stop cuts it short."""
    _check_sampling(samples, seed)
    if not 1 <= sample_nodes < 2**63:
        raise ValueError(f"sample_nodes must be 1..2**63-1, got {sample_nodes}")
    threads = _batch.thread_count(workers)
    p = load_position(position)
    raw = _native.hint(p.native(), samples, seed, sample_nodes, threads, *(limit or Limit()).native(), control)
    n, exact = raw["samples"], raw["exact"]
    moves = []
    for c in raw["moves"]:
        wins, unknown = c["wins"], c["unknown"]
        if exact and n:
            interval = (float(wins), float(wins + unknown))
        else:
            interval = (wilson_interval(wins, n)[0], wilson_interval(wins + unknown, n)[1])
        moves.append({**c, "value": wins / n if n else 0.0, "ci95": interval, "n": n})
    # Best first: the share won, then the interval's ends (a move that may
    # still win before one proved lost at the same share), then canonical.
    order = sorted(range(len(moves)),
                   key=lambda i: (-moves[i]["value"], -moves[i]["ci95"][0], -moves[i]["ci95"][1], i))
    return HintResult.model_validate({**raw, "moves": [moves[i] for i in order]})


def sample_deals(position: PositionLike, samples: int = 200, seed: int = 0) -> list[list[TileKind]]:
    """The deals ``hint`` values the moves on with these ``samples`` and
    ``seed``: per deal, the tiles drawn after ``drawn``, in order (one deal
    when only one is possible; a known order's is its ``deal_rest[1:]``)."""
    _check_sampling(samples, seed)
    p = load_position(position)
    return [[TileKind.model_validate(t) for t in deal] for deal in _native.sample_deals(p.native(), samples, seed)]


# The spec's box: seven tiles of each number and one extra 3.
BOX: tuple[int, ...] = tuple(n for n in range(1, 7) for _ in range(7)) + (3,)
DEAL_TILES = 36  # 7 of the 43 are removed unseen


def deal(seed: int, level: int = 1) -> Position:
    """The full known-order deal of ``seed``: the 43 box tiles (default
    spaces) shuffled, the first 36 kept in order (the first is the start
    tile), supply 12 per colour. The shuffle does not depend on ``level``,
    so a seed is the same deal at every level."""
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be 0..2**64-1, got {seed}")
    if level not in (1, 2, 3):
        raise ValueError(f"level must be 1, 2 or 3, got {level}")
    tiles = list(BOX)
    # Fisher-Yates on Mersenne Twister bits, written out rather than
    # random.shuffle (whose algorithm Python does not promise to keep), so a
    # seed is the same deal on every Python; today both give the same order.
    rng = random.Random(seed)
    for i in range(len(tiles) - 1, 0, -1):
        bits = (i + 1).bit_length()
        j = rng.getrandbits(bits)
        while j > i:
            j = rng.getrandbits(bits)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return Position(deal=[TileKind(n=n) for n in tiles[:DEAL_TILES]], level=level)


def hidden(position: PositionLike) -> Position:
    """A known-order position (a full deal, or a mid-game with
    ``deal_rest``) as its player sees it: the order hidden, every box tile
    not on the table in the pool (the 7 removed unseen among them), and the
    deal's next tile drawn."""
    p = load_position(position)
    if p.deal is not None:
        table, rest = p.deal[:1], p.deal[1:]
    elif p.deal_rest is not None:
        table, rest = p.tiles or [], p.deal_rest
    else:
        raise ValueError("hidden: needs a known order ('deal', or 'tiles' with 'deal_rest')")
    if not rest:
        raise ValueError("hidden: no tile is left to draw")
    unseen = Counter(BOX) - Counter(t.n for t in table)
    pool = [TileKind(n=n) for n in sorted(unseen.elements())]
    drawn = TileKind(n=rest[0].n)
    if p.deal is not None:
        return Position(start=p.deal[0], pool=pool, turns=len(rest), drawn=drawn, supply=p.supply, level=p.level)
    return Position(tiles=p.tiles, turn=p.turn, supply=p.supply, level=p.level, pool=pool,
                    turns_left=len(rest), drawn=drawn)


class DealVerdict(BaseModel):
    seed: int
    verdict: Verdict
    nodes: int
    seconds: float
    decided_by: Literal["layouts", "moves"] | None = Field(
        description="which search gave the verdict (null when unknown)")
    stopped_by: StoppedBy | None = Field(None, description="What stopped the solve (null when it finished)")


class Analysis(BatchCounts):
    """How many random full deals of one level can be won with the order known."""

    deals: int
    level: int
    seed: int = Field(description="The first deal's seed; deals are seed .. seed+deals-1")
    results: list[DealVerdict] = Field(description="Per deal, in seed order")


def analyse(deals: int, *, level: int, seed: int = 1, limit: Limit | None = None, workers: int | None = None,
            progress: Callable[[int, int], None] | None = None, control: Control | None = None,
            client: Any = None) -> Analysis:
    """Solve the deals of seeds ``seed .. seed+deals-1`` (see :func:`deal`)
    at ``level``, each under ``limit``, on ``workers`` threads (default:
    every core; the C++ releases the GIL), or on the Dask cluster of
    ``client`` (a ``distributed.Client``). Results are in seed order
    whatever the engine; ``progress(done, total)`` is called as they come,
    and ``control`` stops every solve."""
    seed_range = _batch.seeds(deals, seed, "deals")
    threads = _batch.thread_count(workers, client)
    if level not in (1, 2, 3):
        raise ValueError(f"level must be 1, 2 or 3, got {level}")

    cache = _batch.Engine.of(client).cache

    def one(deal_seed: int, control: Control) -> DealVerdict:
        r = _batch.searched(cache, "wildfire", "solve", limit, control, position=deal(deal_seed, level))
        return DealVerdict(seed=deal_seed, verdict=r.verdict, nodes=r.stats.nodes, seconds=r.stats.seconds,
                           decided_by=r.stats.decided_by, stopped_by=r.stats.stopped_by)

    start = time.perf_counter()
    results = _batch.run(one, seed_range, threads, progress, control, client)
    wall = time.perf_counter() - start
    return Analysis(deals=deals, level=level, seed=seed, **_batch.Tally.of(results).counts(wall, threads),
                    results=results)


class ScoredRegion(BaseModel):
    """One wooded region: a maximal connected group of tiles holding a pawn of ``color``."""

    player: int = Field(description="The player who scores it")
    color: int
    tiles: list[tuple[int, int]] = Field(description="Its cells, in (q, r) order")
    value: int = Field(description="The sum of its tiles' numbers divided by the smallest number among "
                                   "its tiles with a free edge, rounded down; 0 when none has one")


class ScoreResult(BaseModel):
    """Multi-player scores on the position's current free edges (any time, not only at the end)."""

    colors: list[list[int]] = Field(description="Per player, the colours they score (the neutral colour "
                                                "of a 3-player game is nobody's)")
    scores: list[int] = Field(description="Per player, the sum of their regions' values")
    tie_breaks: list[int] = Field(description="Per player, their single most valuable region (0 if none)")
    regions: list[ScoredRegion] = Field(description="Every scored region, by colour, then by its first "
                                                    "cell in (q, r) order")


def score(position: PositionLike, players: int | None = None) -> ScoreResult:
    """Each player's score and tie-break, and every region's value.

    ``players`` (default one per colour) split the colours evenly in index
    order (two players with four colours: 0, 1 and 2, 3); three players with
    four colours play colours 0, 1 and 2, and colour 3 is the neutral
    auxiliary colour, removed before scoring. Any other count is an
    InvalidPositionError. Firebreaks are not modelled; the dry season is a
    deal without 1-tiles."""
    p = load_position(position)
    if players is None:
        players = len(p.supply)
    if not isinstance(players, int) or isinstance(players, bool):
        raise ValueError(f"players must be an integer 1..{MAX_COLORS}, got {players!r}")
    if not 1 <= players <= MAX_COLORS:
        raise InvalidPositionError(f"players: {players} must be 1..{MAX_COLORS}")
    return ScoreResult.model_validate(_native.score(p.native(), players))


# ------------------------------------------------------------ the game, as the house sees it

# Two colours of two pawns on a five-tile deal: won (the 1-tiles take one
# colour each), solved at once.
_EXAMPLE_DEAL: dict = {"deal": [{"n": 1}, {"n": 5}, {"n": 3}, {"n": 1}, {"n": 2}], "level": 1, "supply": [2, 2]}
_EXAMPLE_MOVE: dict = {"place": [1, 0], "pawns": {"color": 0, "tile": [0, 0], "count": 1}}
# Hidden order, a 5 just drawn: the second colour needs the pool's 1-tile to
# come up in the next two draws, so some moves win about half the deals.
_EXAMPLE_HIDDEN: dict = {"start": {"n": 1}, "pool": [{"n": 5}, {"n": 3}, {"n": 1}, {"n": 2}, {"n": 6}],
                         "turns": 3, "supply": [2, 1], "drawn": {"n": 5}}


class GenerateResult(BaseModel):
    seed: int
    level: int
    hidden: bool
    position: Position


SearchRequest = search_request("WildfireSearchRequest", Position,
                               [{"position": _EXAMPLE_DEAL, "limit": {"seconds": 5}}])
HintRequest = search_request(
    "WildfireHintRequest", Position,
    [{"position": _EXAMPLE_HIDDEN, "samples": 50, "seed": 1, "limit": {"seconds": 5}}],
    samples=(int, Field(200, ge=1, description="hidden order: deals to sample")),
    seed=(int, Field(0, ge=0, lt=2**64, description="sampling seed: same position, samples and seed, same answer")),
    sample_nodes=(int, Field(DEFAULT_SAMPLE_NODES, ge=1, lt=2**63,
                             description="node cap of each solve (a move on a deal) before it counts as unknown")),
    workers=(int | None, Field(None, ge=1, le=_batch.MAX_WORKERS, description="threads (default: every core)")))
CheckRequest = position_request("WildfireCheckRequest", Position, [{"position": _EXAMPLE_DEAL}])
ReplayRequest = request(
    "WildfireReplayRequest", "A position and the moves to play from it.",
    [{"position": _EXAMPLE_DEAL, "line": [_EXAMPLE_MOVE]}],
    position=(Position, ...),
    line=(list[Move], Field(max_length=MAX_TILES, description="Moves in order, one per turn")))
ScoreRequest = request(
    "WildfireScoreRequest", "A position and how many players share its colours.",
    [{"position": {**_EXAMPLE_DEAL, "supply": [2, 2]}, "players": 2}],
    position=(Position, ...),
    players=(int | None, Field(None, ge=1, le=MAX_COLORS, description="players (default: one per colour)")))
GenerateRequest = request(
    "WildfireGenerateRequest", "Which deal to make.", [{"seed": 7, "level": 1, "hidden": False}],
    seed=(int, Field(ge=0, lt=2**64, description="the deal's seed: same seed, same deal at every level")),
    level=(int, Field(1, ge=1, le=3, description="the level, 1-3")),
    hidden=(bool, Field(False, description="the deal as its player sees it at the first turn: order hidden, "
                                          "the second tile drawn")))
AnalyseRequest = request(
    "WildfireAnalyseRequest", "Which full deals to solve.", [{"deals": 20, "level": 1, "seed": 1}],
    deals=(int, Field(ge=1, le=_batch.MAX_COUNT, description="how many deals")),
    level=(int, Field(ge=1, le=3, description="the level, 1-3")),
    seed=(int, Field(1, ge=0, lt=2**64, description="the first deal's seed")),
    workers=(int | None, Field(None, ge=1, le=_batch.MAX_WORKERS, description="threads (default: every core)")),
    limit=(LimitRequest | None, Field(None, description="For each deal, not for the whole run")))


def move_text(m: Move) -> str:
    text = f"place at ({m.place[0]}, {m.place[1]})"
    if m.pawns is not None:
        p = m.pawns
        text += f", {p.count} pawn{'s' if p.count > 1 else ''} of colour {p.color} on ({p.tile[0]}, {p.tile[1]})"
    return text


def _solve_text(_request: object, r: SolveResult) -> str:
    lines = [f"verdict: {r.verdict}"] + [f"  {i:2}. {move_text(m)}" for i, m in enumerate(r.line or [], 1)]
    return "\n".join(lines + [_text.stopped_text(r.stats)])


def _hint_text(_request: object, r: HintResult) -> str:
    d = r.drawn
    drawn = f"drawn: tile {d.n} with {d.spaces} space{'s' if (d.spaces or 0) > 1 else ''}"
    if r.exact:
        verdict = {(1, 0, 0): "win", (0, 1, 0): "loss"}
        lines = [f"{drawn}; one possible deal, so exact verdicts"]
        lines += [f"  {verdict.get((c.wins, c.losses, c.unknown), 'unknown'):7} {move_text(c.move)}" for c in r.moves]
    else:
        lines = [f"{drawn}; {r.samples} of {r.samples_requested} sampled deals counted (seed {r.seed})",
                 "| move | wins | losses | unknown | win share | 95% interval |",
                 "| --- | ---: | ---: | ---: | ---: | --- |"]
        lines += [f"| {move_text(c.move)} | {c.wins} | {c.losses} | {c.unknown} | {c.value:.3f} | "
                  f"[{c.ci95[0]:.3f}, {c.ci95[1]:.3f}] |" for c in r.moves]
    s = r.stats
    lines.append(f"nodes: {s.nodes}  solves: {s.solves}  seconds: {s.seconds:.3f}  stopped by: {s.stopped_by or '-'}")
    return "\n".join(lines)


def _check_text(_request: object, r: CheckResult) -> str:
    return "\n".join([f"status: {r.status}; turn {r.turn}, {r.turns_left} left; the next tile goes on "
                      + ", ".join(f"({q}, {rr})" for q, rr in r.hottest)]
                     + [f"  {move_text(m)}" for m in r.moves])


def _replay_text(_request: object, r: ReplayResult) -> str:
    return _text.replay_text([move_text(s.move) for s in r.steps], r)


def _score_text(_request: object, r: ScoreResult) -> str:
    return "\n".join(f"player {i}: {score} (colours {', '.join(map(str, colors))}; tie-break {tie})"
                     for i, (score, colors, tie) in enumerate(zip(r.scores, r.colors, r.tie_breaks)))


def _generate(q: Any) -> GenerateResult:
    position = deal(q.seed, q.level)
    if q.hidden:
        position = hidden(position)
    return GenerateResult(seed=q.seed, level=q.level, hidden=q.hidden, position=position)


def _generate_text(_request: object, r: GenerateResult) -> str:
    return _text.position_file(r.position.model_dump(mode="json", exclude_none=True))


def _analyse_text(req: Any, r: Analysis) -> str:
    text = _text.share_table(
        f"Wild Fire! level {r.level}, full deals of {_text.seeds_text(r.seed, r.deals)}, order known", "deals", r,
        {"median ms": f"{1000 * r.median_seconds:,.2f}", "max ms": f"{1000 * r.max_seconds:,.2f}",
         "median nodes": f"{r.median_nodes:,.0f}", "nodes/s": f"{r.nodes_per_second:,.0f}"})
    return text + f"\nwall time {r.wall_seconds:.1f} s on {r.workers} threads"


GAME = Game(
    name="wildfire",
    title="Wild Fire!",
    summary="Place the drawn tile and your pawns so every colour joins its 1-tile: verdicts and sampled hints",
    rank=3,
    position=Position,
    move=Move,
    move_text=move_text,
    operations=operations(
        Operation("solve", "Known order: win with every turn's move, proved loss, or unknown at a limit", "search",
                  SearchRequest, SolveResult, position_search(solve),
                  _solve_text),
        Operation("hint", "Every legal move of this turn, best first, with its win share over sampled deals "
                  "(hidden order) or its verdict (known order)", "search", HintRequest, HintResult,
                  lambda q, limit, control: hint(q.position, limit, samples=q.samples, seed=q.seed,
                                                 sample_nodes=q.sample_nodes, workers=q.workers, control=control),
                  _hint_text, capped={"samples": "samples", "sample_nodes": "nodes", "workers": "threads"}),
        Operation("check", "Validate a position; its status, hottest cells and every legal move", "quick",
                  CheckRequest, CheckResult, position_call(check), _check_text),
        Operation("replay", "Play moves in order; status is win only if every move is legal and the game ends won",
                  "quick", ReplayRequest, ReplayResult, lambda q: replay(q.position, q.line), _replay_text,
                  outcome=_text.replay_outcome),
        Operation("score", "Each player's score and tie-break on the current free edges, and every region's value",
                  "quick", ScoreRequest, ScoreResult, lambda q: score(q.position, q.players), _score_text),
        Operation("generate", "The full deal of a seed, in known order or as its player sees it", "data",
                  GenerateRequest, GenerateResult, _generate, _generate_text),
        Operation("analyse", "The share of random full deals of a level that can be won with the order known",
                  "batch", AnalyseRequest, Analysis,
                  lambda q, limit, control, progress, client=None: analyse(
                      q.deals, level=q.level, seed=q.seed, limit=limit, workers=q.workers, progress=progress,
                      control=control, client=client),
                  _analyse_text, chunked=True, seed_search="solve"),
    ),
)
