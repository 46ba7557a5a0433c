"""On the Run! (Ablaze! box), co-op / solitaire. Deal known: the best
final score with a certificate line, valued hints, deals and replays. Order
hidden (``pool``): the exact expected score as a fraction, or a sampled
answer labelled with what it bounds.
Rules: the project's spec, readings in docs/rules/onrun.md.

>>> from smokejumper import onrun, Limit
>>> position = onrun.deal(seed=3, tiles=6, supply=[1, 1, 1, 0]).position
>>> onrun.solve(position, Limit(seconds=10)).exact
True
"""

from __future__ import annotations

import math
import statistics
import time
from typing import Annotated, Any, Callable, Literal, Sequence, Union

from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator, model_validator

from smokejumper import _batch, _core, _text
from smokejumper._core import Control, InvalidPositionError
from smokejumper._inputs import load_model, load_models
from smokejumper.games import Game, Operation, operations, position_call, position_request, request, search_request
from smokejumper.limits import Limit, LimitRequest
from smokejumper.stats import Z95
from smokejumper.values import BatchCounts, SearchStats, StoppedBy, Verdict

_native = _core.onrun
MAX_TILES: int = _native.MAX_TILES
MAX_PAWNS_PER_COLOR: int = _native.MAX_PAWNS_PER_COLOR
MAX_COORDINATE: int = _native.MAX_COORDINATE
BOX_TILES = 43
# Sampled answers (order hidden): how many deals by default, and at most.
DEFAULT_SAMPLES = 64
MAX_SAMPLES = 100_000
# Sampled hints: how many moves (or draws) are valued by default, and at most.
HINT_CANDIDATES: int = _native.HINT_CANDIDATES
MAX_CANDIDATES = 100_000
COLORS = ("blue", "yellow", "red", "green")

# The spec's table; an assumption about the box, not a fact from it.
DEFAULT_SPACES = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}

Coord = Annotated[StrictInt, Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)]
EdgeCoord = Annotated[StrictInt, Field(ge=-MAX_COORDINATE - 1, le=MAX_COORDINATE + 1)]
Count = Annotated[StrictInt, Field(ge=0, le=MAX_PAWNS_PER_COLOR)]
Pair = tuple[EdgeCoord, EdgeCoord]
# A move's count or number: the engine judges its range (the spec's "replay
# stops, naming the turn"), so the model only keeps it within a C int.
EngineInt = Annotated[StrictInt, Field(ge=-(2**31), le=2**31 - 1)]
Status = Literal["win", "loss", "ongoing", "over"]
# The competitive start: the deal's first tiles, in deal order, per players.
START_CELLS = {2: [(0, 0), (1, 0)], 3: [(0, 0), (1, 0), (0, 1)], 4: [(0, 0), (1, 0), (0, 1), (1, 1)]}
NEUTRAL = 3  # with 3 players, green: four neutral pawns a seat


class NewTile(BaseModel):
    """A tile still face down: number ``n`` and pawn ``spaces`` (default by number)."""

    model_config = ConfigDict(extra="forbid")
    n: StrictInt = Field(ge=1, le=6)
    spaces: StrictInt | None = Field(default=None, ge=1, le=3)

    def native(self) -> tuple[int, int]:
        return self.n, self.spaces or DEFAULT_SPACES[self.n]


class Tile(BaseModel):
    """A forest tile on the table with the ``pawns`` of each colour on it."""

    model_config = ConfigDict(extra="forbid")
    q: Coord
    r: Coord
    n: StrictInt = Field(ge=1, le=6)
    spaces: StrictInt | None = Field(default=None, ge=1, le=3)
    pawns: list[Annotated[StrictInt, Field(ge=0, le=3)]] = Field(default_factory=lambda: [0, 0, 0, 0],
                                                                 min_length=4, max_length=4)

    @field_validator("pawns", mode="before")
    @classmethod
    def _zero(cls, v: Any) -> Any:
        return [0, 0, 0, 0] if v == 0 and isinstance(v, int) and not isinstance(v, bool) else v

    def native(self) -> tuple[int, int, int, int, list[int]]:
        return self.q, self.r, self.n, self.spaces or DEFAULT_SPACES[self.n], list(self.pawns)


class EdgePawn(BaseModel):
    """A pawn of ``color`` (0 blue, 1 yellow, 2 red, 3 green) in the edge area at (q, r)."""

    model_config = ConfigDict(extra="forbid")
    q: EdgeCoord
    r: EdgeCoord
    color: StrictInt = Field(ge=0, le=3)


class Position(BaseModel):
    """The spec's position JSON. Deal known: from the start (``deal``: the
    first two tiles at (0,0) and (1,0), the rest drawn in order) or mid-game
    (``tiles``, ``edge``, ``next`` and ``deal_rest``). With ``players``
    (2-4) it is a competitive position: ``next`` is then the seat, with
    ``passes`` and (3 players) ``neutral``. Order hidden (co-op): from the
    start (``start``: the two tiles at (0,0) and (1,0)) or mid-game
    (``tiles``...), with the ``pool`` still face down, ``turns_left``
    (default: the pool's size, +1 with ``drawn``) and optionally the tile
    ``drawn`` for the next turn (not in the pool)."""

    tiles: list[Tile] | None = Field(default=None, max_length=MAX_TILES)
    edge: list[EdgePawn] = Field(default_factory=list, max_length=4 * MAX_PAWNS_PER_COLOR)
    supply: list[Count] = Field(default_factory=lambda: [12, 12, 12, 12], min_length=4, max_length=4)
    next: StrictInt = Field(default=0, ge=0, le=3)
    deal: list[NewTile] | None = Field(default=None, max_length=MAX_TILES)
    deal_rest: list[NewTile] | None = Field(default=None, max_length=MAX_TILES)
    players: StrictInt | None = Field(default=None, ge=2, le=4,
                                      description="2-4: the competitive game (next is then the seat); absent: co-op")
    passes: StrictInt | None = Field(default=None, ge=0, le=4,
                                     description="competitive, after the last tile: passes in a row (default 0)")
    neutral: list[Count] | None = Field(default=None, min_length=3, max_length=3,
                                        description="3 players: each seat's neutral pawns in its supply (default 4 each)")
    start: list[NewTile] | None = Field(default=None, description="Order hidden, from the start: the two tiles up")
    pool: list[NewTile] | None = Field(default=None, max_length=MAX_TILES,
                                       description="Order hidden: the tiles still face down, in any order")
    turns_left: StrictInt | None = Field(default=None, description="Order hidden: default len(pool), +1 with drawn")
    drawn: NewTile | None = Field(default=None, description="Order hidden: the tile drawn for the next turn")

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"deal": [{"n": 3}, {"n": 5}, {"n": 2}, {"n": 6}, {"n": 1}],
                                         "supply": [1, 1, 1, 1]}]})

    @model_validator(mode="after")
    def _one_form(self) -> Position:
        if self.pool is None:
            for name in ("start", "turns_left", "drawn"):
                if getattr(self, name) is not None:
                    raise ValueError(f"{name}: only with the order hidden (give pool)")
        else:
            self._hidden_form()
            return self
        if self.deal is not None:
            if self.tiles is not None:
                raise ValueError("give either deal (from the start) or tiles (mid-game), not both")
            if len(self.deal) < 2:
                raise ValueError("deal: fewer than 2 tiles")
            if self.edge or self.deal_rest:
                raise ValueError("a deal starts with no edge pawns and no deal_rest")
        elif self.tiles is None:
            raise ValueError("give deal (from the start) or tiles (mid-game)")
        if self.players is None and (self.passes is not None or self.neutral is not None):
            raise ValueError("passes and neutral belong to a competitive position (players 2-4)")
        if self.players is not None:
            if self.neutral is not None and self.players != 3:
                raise ValueError("neutral: only a 3-player position has neutral pawns")
            if self.deal is not None and len(self.deal) < len(START_CELLS[self.players]):
                raise ValueError(f"deal: fewer than {len(START_CELLS[self.players])} tiles for {self.players} players")
        return self

    def contest_native(self) -> tuple:
        """(tiles, edge, supply, next, deal_rest, players, passes, neutral) for
        the competitive core; from a deal, its first tiles are the start."""
        assert self.players is not None
        neutral = list(self.neutral) if self.neutral is not None else [4, 4, 4] if self.players == 3 else [0, 0, 0]
        if self.deal is not None:
            cells = START_CELLS[self.players]
            first = [(q, r, *self.deal[i].native(), [0, 0, 0, 0]) for i, (q, r) in enumerate(cells)]
            return (first, [], list(self.supply), self.next, [t.native() for t in self.deal[len(cells):]],
                    self.players, self.passes or 0, neutral)
        tiles = [t.native() for t in self.tiles or []]
        return (tiles, [(e.q, e.r, e.color) for e in self.edge], list(self.supply), self.next,
                [t.native() for t in self.deal_rest or []], self.players, self.passes or 0, neutral)
    def _hidden_form(self) -> None:
        if self.players is not None:
            raise ValueError("players and pool: the order hidden is served for the co-op game only")
        if self.deal_rest is not None:  # even empty: the spec refuses both given
            raise ValueError("deal_rest and pool: give one (order known) or the other (order hidden), not both")
        if self.deal is not None:
            raise ValueError("deal and pool: give start (order hidden) or deal (order known), not both")
        if self.start is not None:
            if self.tiles is not None:
                raise ValueError("give either start (from the start) or tiles (mid-game), not both")
            if len(self.start) != 2:
                raise ValueError(f"start: {len(self.start)} tiles, not 2")
            if self.edge:
                raise ValueError("a start has no edge pawns")
        elif self.tiles is None:
            raise ValueError("give start (from the start) or tiles (mid-game) with the pool")
        assert self.pool is not None
        available = len(self.pool) + (self.drawn is not None)
        if self.turns_left is not None:
            if self.turns_left < 0:
                raise ValueError(f"turns_left: {self.turns_left} is negative")
            if self.turns_left > available:
                raise ValueError(f"turns_left: {self.turns_left} is larger than the {available} tiles available "
                                 f"(pool{' and drawn' if self.drawn is not None else ''})")
            if self.turns_left == 0 and self.drawn is not None:
                raise ValueError("turns_left: 0 with a tile drawn (the drawn tile's turn counts)")

    def with_spaces(self) -> Position:
        """This position with every tile's spaces written out: answers echo
        the tiles with the spaces they used (the spec's "Positions")."""
        def filled(t: Any) -> Any:
            return t.model_copy(update={"spaces": t.spaces or DEFAULT_SPACES[t.n]})
        update: dict[str, Any] = {name: [filled(t) for t in getattr(self, name)]
                                  for name in ("tiles", "deal", "deal_rest", "start", "pool")
                                  if getattr(self, name) is not None}
        if self.drawn is not None:
            update["drawn"] = filled(self.drawn)
        return self.model_copy(update=update)

    @property
    def hidden(self) -> bool:
        """Whether the order is hidden (a pool instead of a deal)."""
        return self.pool is not None

    def hidden_native(self) -> tuple:
        """(tiles, edge, supply, next, pool, turns_left or -1, drawn) as the C++ core takes them."""
        assert self.pool is not None
        if self.start is not None:
            tiles = [(q, 0, *self.start[q].native(), [0, 0, 0, 0]) for q in (0, 1)]
        else:
            tiles = [t.native() for t in self.tiles or []]
        return (tiles, [(e.q, e.r, e.color) for e in self.edge], list(self.supply), self.next,
                [t.native() for t in self.pool], -1 if self.turns_left is None else self.turns_left,
                self.drawn.native() if self.drawn is not None else None)

    def native(self) -> tuple[list, list, list[int], int, list[tuple[int, int]]]:
        """(tiles, edge, supply, next, deal_rest) as the C++ core takes them."""
        if self.hidden:
            raise InvalidPositionError("position: the order is hidden (pool); this needs a known order (deal or deal_rest)")
        if self.deal is not None:
            first = [(q, 0, *self.deal[q].native(), [0, 0, 0, 0]) for q in (0, 1)]
            return first, [], list(self.supply), self.next, [t.native() for t in self.deal[2:]]
        tiles = [t.native() for t in self.tiles or []]
        return tiles, [(e.q, e.r, e.color) for e in self.edge], list(self.supply), self.next, \
            [t.native() for t in self.deal_rest or []]


class PassAction(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["pass"] = "pass"


class TileAction(BaseModel):
    """Place ``count`` pawns of the turn's colour on the tile at ``tile``."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["tile"]
    tile: Pair
    count: EngineInt = Field(description="1..3; another count is an illegal move (a replay stops there)")


class EdgeAction(BaseModel):
    """Place one pawn of the turn's colour in the edge area ``cell``."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["edge"]
    cell: Pair


class EvacuateAction(BaseModel):
    """Evacuate the turn's colour from the tiles numbered ``number``; ``to``
    lists a cell per pawn that moves (the rest go back to the supply)."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["evacuate"]
    number: EngineInt = Field(description="1..6; another number is an illegal move (a replay stops there)")
    to: list[Pair] = Field(default_factory=list, max_length=MAX_PAWNS_PER_COLOR)


Action = Annotated[Union[PassAction, TileAction, EdgeAction, EvacuateAction], Field(discriminator="kind")]
_KINDS = {"pass": 0, "tile": 1, "edge": 2, "evacuate": 3}


class Move(BaseModel):
    """One turn: the new tile goes on the flashpoint ``place``, then the
    turn's colour takes ``action`` (null: pass)."""

    model_config = ConfigDict(extra="forbid")
    place: Pair | None = Field(default=None, description="where the tile goes; absent only when no tile is left "
                                                       "(competitive, after the last tile)")
    action: Action = Field(default_factory=PassAction)
    color: StrictInt | None = Field(default=None, ge=0, le=3,
                                    description="co-op: optional, must be the turn's colour; competitive: the colour "
                                                "that acts, needed when the seat has a choice")

    @field_validator("action", mode="before")
    @classmethod
    def _null_is_pass(cls, v: Any) -> Any:
        return {"kind": "pass"} if v is None else v

    def native(self) -> tuple[int, int, int, int, int, int, int, list[tuple[int, int]]]:
        a = self.action
        cell = a.tile if isinstance(a, TileAction) else a.cell if isinstance(a, EdgeAction) else (0, 0)
        count = a.count if isinstance(a, TileAction) else 0
        number = a.number if isinstance(a, EvacuateAction) else 0
        to = [tuple(c) for c in a.to] if isinstance(a, EvacuateAction) else []
        place = self.place or (0, 0)
        return (place[0], place[1], _KINDS[a.kind], cell[0], cell[1], count, number, to)


class Stats(SearchStats):
    """How a search went. ``stopped_by`` is null when it finished."""


class Value(BaseModel):
    best_score: int | None = Field(description="The best final score over all lines; null unless exact")
    won: bool | None = Field(description="Whether some line wins (empty supply); null when not known")
    score_bounds: tuple[int, int] = Field(description="Proved [lower, upper] on the best final score")
    exact: bool


class MoveChoice(BaseModel):
    move: Move
    equivalent: list[Move] = Field(description="Other moves that give the same state")


Mode = Literal["known", "hidden"]
_MODE = "Which answered: known (the deal known: best_score, won, line) or hidden (the order hidden: expected_score)"
_FRACTION = r"^[0-9]+/[1-9][0-9]*$"
Fraction = Annotated[str, Field(pattern=_FRACTION)]


_ECHO = "The position asked about, every tile's spaces written out (the spaces the answer used)"


class SampledEstimate(BaseModel):
    estimate: float = Field(description="The mean over the samples")
    interval: tuple[float, float] = Field(description="Its 95% confidence interval (normal, the low end cut at 0; "
                                           "both ends the mean below 2 samples)")
    quantity: str = Field(description="What the mean estimates: a lower or an upper bound of the expected score")


class SampledAnswer(BaseModel):
    """With the order hidden, when the exact search cannot finish: sampled
    deals of the pool, each played by a policy (a lower bound's estimate)
    and solved with the order known (an upper bound's)."""

    seed: int
    samples: int = Field(description="Samples played (a time limit may cut them short: see stats.stopped_by)")
    samples_asked: int
    lookahead: bool = Field(description="The policy is the lookahead one (play_policy), not the fixed one")
    policy: SampledEstimate = Field(description="LOWER bound: a policy that sees only the drawn tile (and, the "
                                    "lookahead one, which tiles are left, not their order)")
    clairvoyant: SampledEstimate = Field(description="UPPER bound: the clairvoyant mean, never the expected score itself")
    clairvoyant_bounded: int = Field(description="Samples whose known-order solve stopped at its node quota: "
                                     "its proved upper bound counted (still an upper bound)")
    clairvoyant_nodes: int = Field(description="The node quota of each known-order solve")


_HINT_SAMPLED = ("Order hidden, not exact: the sampled bounds after it, on the same deals as the others sampled "
                 "(only the policy's first few are sampled; null for the rest)")


class HintMove(MoveChoice, Value):
    line: list[Move] | None = Field(description="The turns after this move reaching its lower bound")
    expected_score: Fraction | None = Field(None, description="Order hidden: the move's exact expected score")
    sampled: SampledAnswer | None = Field(None, description=_HINT_SAMPLED)


class DrawValue(BaseModel):
    tile: NewTile
    probability: Fraction = Field(description="Its count in the pool over the pool's size")
    expected_score: Fraction | None = Field(description="The expected score once it is drawn; null unless exact")
    sampled: SampledAnswer | None = Field(None, description=_HINT_SAMPLED)


class SolveResult(Value):
    mode: Mode = Field("known", description=_MODE)
    verdict: Verdict = Field(description="win: a winning line was found (the line); loss: proved no line wins; "
                             "unknown with the order hidden")
    line: list[Move] | None = Field(description="A line reaching the lower bound (the best score when exact)")
    expected_score: Fraction | None = Field(None, description="Order hidden: the exact expected score under "
                                            "optimal play, a reduced fraction p/q; null unless exact")
    not_exact_because: Literal["limit", "overflow", "large", "asked"] | None = Field(
        None, description="Order hidden: why no exact value (a limit; 128-bit overflow; too many turns to "
        "enumerate; sampling asked for)")
    sampled: SampledAnswer | None = Field(None, description="Order hidden, not exact: the sampled bounds")
    stats: Stats
    position: Position | None = Field(None, description=_ECHO)




class HintResult(BaseModel):
    mode: Mode = Field("known", description=_MODE)
    moves: list[HintMove] = Field(description="Every distinct legal move with its value, best first "
                                  "(order hidden: only when the next tile is drawn)")
    draws: list[DrawValue] = Field(default_factory=list,
                                   description="Order hidden, no tile drawn: the value of each possible draw")
    expected_score: Fraction | None = Field(None, description="Order hidden: the position's expected score")
    stats: Stats
    position: Position | None = Field(None, description=_ECHO)


class SeatResult(BaseModel):
    seat: int
    score: int
    damage: int = Field(description="The sum of the numbers of the tiles under the seat's own pawns")
    winner: bool = Field(description="Highest score, then lowest damage; ties share the win")


class CheckResult(BaseModel):
    status: Status = Field(description="co-op: win, loss or ongoing; competitive: over or ongoing")
    turns_left: int = Field(description="Tiles still to place")
    color: int = Field(description="The colour of the next turn (competitive: the seat's first colour)")
    score: int | None = Field(description="The final score, once no tile is left (co-op)")
    upper_score: int | None = Field(description="An admissible bound on the best final score (co-op)")
    flashpoints: list[tuple[int, int]]
    edge_areas: list[tuple[int, int]]
    seat: int | None = Field(default=None, description="competitive: the seat to move")
    colors: list[int] | None = Field(default=None, description="competitive: the colours the seat may act with")
    passes: int | None = Field(default=None, description="competitive: passes in a row after the last tile")
    results: list[SeatResult] | None = Field(default=None, description="competitive, once over: per seat")
    moves: list[MoveChoice] = Field(description="Every distinct legal move, in canonical order "
                                    "(order hidden: only when the next tile is drawn)")
    mode: Mode = Field("known", description=_MODE)
    pool_size: int | None = Field(None, description="Order hidden: the tiles still face down")
    position: Position | None = Field(None, description=_ECHO)


class ReplayStep(BaseModel):
    move: Move
    tile: int = Field(description="The number of the tile placed")
    covered: int | None = Field(description="The colour of the edge pawn the tile sent back, if any")
    returned: int = Field(description="Pawns an evacuation sent back to the supply")
    status: Status
    seat: int | None = Field(default=None, description="competitive: the seat that moved")


class ReplayResult(BaseModel):
    status: Status
    score: int | None
    results: list[SeatResult] | None = Field(default=None, description="competitive, once over: per seat")
    steps: list[ReplayStep]
    position: Position = Field(description="The position after the last legal move")
    error: str | None = Field(description="Why the first illegal move is illegal, if one is")


class PolicyResult(BaseModel):
    score: int | None = Field(description="The final score of the policy's game; null when a limit stopped it")
    line: list[Move] = Field(description="The moves the policy played (all of them when it finished)")
    stats: Stats


class DealResult(BaseModel):
    position: Position
    seed: int


PositionLike = Position | dict | str | bytes


def load_position(position: PositionLike) -> Position:
    return load_model(Position, position)


def check(position: PositionLike) -> CheckResult:
    """Validate the rules (errors name the field and cell) and list the distinct legal moves."""
    p = load_position(position)
    if p.players is not None:
        raw = _native.contest_check(*p.contest_native())
        raw |= {"color": raw["colors"][0], "score": None, "upper_score": None}
    elif p.hidden:
        raw = {**_native.hidden_check(*p.hidden_native()), "mode": "hidden"}
    else:
        raw = _native.check(*p.native())
    return CheckResult.model_validate({**raw, "position": p.with_spaces()})


def _co_op_only(p: Position, what: str) -> None:
    if p.players is not None:
        raise InvalidPositionError(f"position.players: {what} serves the co-op / solitaire game only; "
                                   "a competitive position has check and replay")


def bounds(position: PositionLike) -> dict:
    """The search's admissible upper bound (for the bound tests)."""
    return _native.bounds(*load_position(position).native())


def search_order(position: PositionLike) -> list[tuple[dict, int]]:
    """The moves in the order solve's search tries them, each with the
    bound it is ordered by (for the tests of the search's listing)."""
    return _native.search_order(*load_position(position).native())


def solve(position: PositionLike, limit: Limit | None = None, *, control: Control | None = None,
          use_bound: bool = True, spread: bool = True, beams: bool = True, walks: bool = True, seed: int = 0,
          samples: int = DEFAULT_SAMPLES, sample_only: bool = False, lookahead: bool = False) -> SolveResult:
    """Deal known: the best final score with a certificate line (exact
    unless a limit stopped it). For measuring what each is worth:
    ``use_bound=False`` cuts only by the score of every pawn saved;
    ``spread=False`` searches depth-first from the start, without first
    diving to a scoring line, running beams and walks (far from the end)
    and then giving every first move a share of the limit to find a line
    under; ``beams=False`` leaves out the beams only, ``walks=False`` the
    walks only (short searches from every turn of the best line). Order
    hidden: the exact expected score, or, when the exact search cannot
    finish, ``samples`` deals drawn by ``seed``: a policy's mean (a lower
    bound's estimate; the fixed policy's, or with ``lookahead`` the far
    tighter lookahead policy's, at 10,000 nodes a turn of each deal) and
    the clairvoyant mean (an upper bound's); ``sample_only`` (for tests
    and measuring) skips the exact search."""
    p = load_position(position)
    _co_op_only(p, "solve")
    if p.hidden:
        _check_sampling(seed, samples)
        raw = _native.hidden_solve(*p.hidden_native(), *(limit or Limit()).native(), control, seed, samples,
                                   sample_only, lookahead)
        upper = _native.hidden_check(*p.hidden_native())["upper_score"]
        return SolveResult.model_validate({**raw, "mode": "hidden", "verdict": "unknown", "best_score": None,
                                           "won": None, "score_bounds": (0, upper), "line": None,
                                           "position": p.with_spaces()})
    raw = _native.solve(*p.native(), *(limit or Limit()).native(), control, use_bound, spread, beams, walks)
    return SolveResult.model_validate({**raw, "position": p.with_spaces()})


def _check_seed(seed: int) -> None:
    if not 0 <= seed < 2**64:
        raise InvalidPositionError(f"seed must be 0..2**64-1, got {seed}")


def _check_sampling(seed: int, samples: int) -> None:
    _check_seed(seed)
    if not 1 <= samples <= MAX_SAMPLES:
        raise InvalidPositionError(f"samples must be 1..{MAX_SAMPLES}, got {samples}")


def hint(position: PositionLike, limit: Limit | None = None, *, control: Control | None = None, seed: int = 0,
         samples: int = DEFAULT_SAMPLES, candidates: int = HINT_CANDIDATES, beams: bool = True,
         lookahead: bool = False) -> HintResult:
    """Every distinct legal move with its best final score (order hidden:
    expected score), best first; the limit is shared by the moves, each
    valued as ``solve`` does without its spread (``beams=False``, for
    measuring: depth-first only, without the dive and the beams). Order
    hidden with no tile drawn: the value of each possible draw instead.
    Order hidden, when the exact values cannot be had: the policy's first
    ``candidates`` moves (or the likeliest draws; 0: every one) get sampled
    bounds, ``samples`` deals drawn by ``seed``, the same deals for each,
    ranked by the policy's mean (``lookahead``: as in ``solve``)."""
    p = load_position(position)
    _co_op_only(p, "hint")
    if not 0 <= candidates <= MAX_CANDIDATES:
        raise ValueError(f"candidates must be 0 (every one) .. {MAX_CANDIDATES}, got {candidates}")
    if p.hidden:
        _check_sampling(seed, samples)
        raw = _native.hidden_hint(*p.hidden_native(), *(limit or Limit()).native(), control, seed, samples,
                                  candidates, lookahead)
        upper = _native.hidden_check(*p.hidden_native())["upper_score"]
        moves = [{**m, "best_score": None, "won": None, "score_bounds": (0, upper), "exact": m["expected_score"] is not None,
                  "line": None} for m in raw["moves"]]
        return HintResult.model_validate({**raw, "moves": moves, "mode": "hidden", "position": p.with_spaces()})
    raw = _native.hint(*p.native(), *(limit or Limit()).native(), control, beams)
    return HintResult.model_validate({**raw, "position": p.with_spaces()})


def replay(position: PositionLike, line: Sequence[Move | dict]) -> ReplayResult:
    """Play ``line`` through the engine; stops at the first illegal move."""
    p = load_position(position)
    moves = load_models(Move, line, "line")
    if p.players is not None:
        return _contest_replay(p, moves)
    native = p.native()
    for k, m in enumerate(moves):
        if m.place is None:
            raw = _native.replay(*native, [x.native() for x in moves[:k]])
            raw["error"] = f"turn {k}: place is missing (every co-op turn places a tile)"
            return ReplayResult.model_validate(raw)
        if m.color is not None and m.color != (native[3] + k) % 4:
            moves = moves[:k]
            raw = _native.replay(*native, [x.native() for x in moves])
            raw["error"] = f"turn {k}: colour {m.color} is not the turn's colour {(native[3] + k) % 4}"
            return ReplayResult.model_validate(raw)
    return ReplayResult.model_validate(_native.replay(*native, [m.native() for m in moves]))


def play_policy(position: PositionLike, limit: Limit | None = None, *, control: Control | None = None,
                lookahead: bool = False, seed: int = 0) -> PolicyResult:
    """The sampled answers' default (fixed) policy (order hidden) played on a
    known deal: each turn the move the search tries first, seeing only the
    board and the tile drawn, never the tiles to come. On deals drawn at
    random its mean score is a lower bound on the value with the order
    hidden. ``lookahead``: a stronger policy, as blind to the order, about
    15 s a full game (9-40 s): each turn two orders of the tiles left,
    shuffled by ``seed``, solved with the order known under 5,000 nodes
    each, and the first move of the better lines played."""
    p = load_position(position)
    _co_op_only(p, "the policy")
    _check_seed(seed)
    return PolicyResult.model_validate(_native.policy(*p.native(), *(limit or Limit()).native(), control, lookahead,
                                                      seed))


def _contest_replay(p: Position, moves: list[Move]) -> ReplayResult:
    """A competitive replay: each move's colour filled in where the seat has
    one choice (or passes), the place checked against whether a tile is left."""
    native = p.contest_native()
    players, first_seat = native[5], native[3]
    with_tile = len(native[4])
    played: list[tuple] = []
    error = None
    for k, m in enumerate(moves):
        seat = (first_seat + k) % players
        colors = [2 * seat, 2 * seat + 1] if players == 2 else [seat, NEUTRAL] if players == 3 else [seat]
        if k < with_tile and m.place is None:
            error = f"turn {k}: place is missing (a tile is left to place)"
        elif k >= with_tile and m.place is not None:
            error = f"turn {k}: no tile is left to place, so place must be absent"
        elif m.color is None and len(colors) > 1 and m.action.kind != "pass":
            error = f"turn {k}: color is needed: seat {seat} may act with colours {colors[0]} or {colors[1]}"
        if error:
            break
        played.append((*m.native(), colors[0] if m.color is None else m.color))
    raw = _native.contest_replay(*native, played)
    if error and raw["error"] is None:
        raw["error"] = error
    raw["score"] = None
    return ReplayResult.model_validate(raw)


def deal(seed: int, *, tiles: int = BOX_TILES, supply: Sequence[int] = (12, 12, 12, 12),
         players: int | None = None) -> DealResult:
    """The first ``tiles`` tiles of the 43-tile box shuffled by ``seed`` (a
    full game: 43), as a position from the start; ``players`` 2-4: the
    competitive game (its first 2-4 tiles are the start)."""
    _check_seed(seed)
    if not 2 <= tiles <= BOX_TILES:
        raise InvalidPositionError(f"tiles must be 2..{BOX_TILES}, got {tiles}")
    drawn = [{"n": n, "spaces": s} for n, s in _native.deal(seed, tiles)]
    position = load_position({"deal": drawn, "supply": list(supply)} | ({} if players is None else {"players": players}))
    return DealResult(position=position, seed=seed)


class DealScore(BaseModel):
    seed: int
    verdict: Verdict = Field(description="win: some line wins (one was found); loss: proved none does")
    best_score: int | None = Field(description="The best final score, when proved")
    # Two columns, not a pair: a row is one line of a CSV table.
    lower_score: int = Field(description="The score of the best line found (the solve's, or the policy's game "
                                         "when it scores more): a proved lower bound on the best")
    upper_score: int = Field(description="A proved upper bound on the best final score")
    policy_score: int | None = Field(
        description="The policy's (fixed or lookahead) final score on this deal, seeing each tile only when drawn "
                    "(null: a limit stopped its game)")
    nodes: int
    seconds: float
    stopped_by: StoppedBy | None = Field(None, description="What stopped the solve (null when it finished)")


class ScoreCount(BaseModel):
    score: int
    deals: int


class Analysis(BatchCounts):
    """Seeded deals solved with the order known: the winnable share (a deal
    is won once a winning line is found), the best scores; and the value of
    play with the order hidden bounded on both sides: the fixed policy's
    mean below, the clairvoyant mean above."""

    deals: int
    tiles: int
    pawns: int = Field(description="Pawns of each colour in the supply")
    seed: int = Field(description="The first deal's seed; deals are seed .. seed+deals-1")
    lookahead: bool = Field(description="The lower side's policy is the lookahead policy, not the fixed one")
    exact: int = Field(description="Deals whose best score was proved")
    best_scores: list[ScoreCount] = Field(description="The proved best scores, how many deals each")
    found_scores: tuple[int, int, int] = Field(
        description="The scores of the lines found (every deal's lower end): min, median, max")
    clairvoyant_bounds: tuple[float, float] = Field(
        description="The mean over these deals of the lower and of the upper ends")
    clairvoyant_interval95: tuple[float, float] = Field(
        description="95% interval (normal approximation) on the clairvoyant mean, the expected best score "
                    "with the order known: an upper bound on the value with the order hidden, never that "
                    "value itself. Exact per deal only where every deal was proved")
    policy_mean: float = Field(
        description="LOWER bound: the mean over these deals of the fixed policy's score (the sampled answers' "
                    "default; with lookahead, the lookahead policy's; each deal's tiles seen only when drawn; a "
                    "game a limit stopped counts 0): an estimate of a lower bound on the value with the order "
                    "hidden")
    policy_interval95: tuple[float, float] = Field(
        description="95% interval (normal approximation) on the policy's mean, the lower bound")
    policy_stopped: int = Field(description="Deals whose policy game a limit stopped (each counted as 0)")
    hidden_value_interval95: tuple[float, float] = Field(
        description="The value with the order hidden, at least 95% sure: from the lower end of the policy's "
                    "interval (LOWER bound) to the upper end of the clairvoyant mean's (UPPER bound)")
    results: list[DealScore] = Field(description="Per deal, in seed order")


def _mean_interval(values: Sequence[int], side: int) -> float:
    """The end (side -1: lower, +1: upper) of the normal-approximation 95%
    interval on the mean of ``values``."""
    mean = statistics.fmean(values)
    spread = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean + side * Z95 * spread


def analyse(deals: int, *, tiles: int = BOX_TILES, pawns: int = 12, seed: int = 1, limit: Limit | None = None,
            workers: int | None = None, progress: Callable[[int, int], None] | None = None,
            control: Control | None = None, client: Any = None, lookahead: bool = False) -> Analysis:
    """Solve the deals of seeds ``seed .. seed+deals-1`` (:func:`deal`, the
    first ``tiles`` of the box, ``pawns`` of each colour), each under
    ``limit``, and play each with :func:`play_policy` under the same limit
    (``lookahead``: its lookahead policy, seeded by the deal's seed; about
    15 s a full game and up to 40 s, so give a full deal a minute or its
    game stops),
    on ``workers`` threads (default: every core) or on the Dask cluster of
    ``client``. Results are in seed order whatever the engine."""
    seed_range = _batch.seeds(deals, seed, "deals")
    threads = _batch.thread_count(workers, client)
    supply = [pawns] * 4
    deal(seed, tiles=tiles, supply=supply)  # the arguments' errors before any thread starts

    cache = _batch.Engine.of(client).cache

    def one(deal_seed: int, control: Control) -> DealScore:
        position = deal(deal_seed, tiles=tiles, supply=supply).position
        r = _batch.searched(cache, "onrun", "solve", limit, control, position=position)
        # The deal's own order is the policy's draws: drawn from the seed and
        # paired with the solve, so its score is at most the deal's best.
        policy = play_policy(position, limit, control=control, lookahead=lookahead, seed=deal_seed)
        # The policy's game is a line of the deal too, and may score more
        # than the solve's (the lookahead policy often does on full deals);
        # a score above 0 is a win (a lost game scores 0).
        played = policy.score or 0
        return DealScore(seed=deal_seed, verdict="win" if played > 0 else r.verdict, best_score=r.best_score,
                         lower_score=max(r.score_bounds[0], played), upper_score=r.score_bounds[1],
                         policy_score=policy.score,
                         nodes=r.stats.nodes, seconds=r.stats.seconds, stopped_by=r.stats.stopped_by)

    start = time.perf_counter()
    results = _batch.run(one, seed_range, threads, progress, control, client)
    wall = time.perf_counter() - start
    t = _batch.Tally.of(results)
    lows = [r.lower_score for r in results]
    highs = [r.upper_score for r in results]
    proved = sorted(r.best_score for r in results if r.best_score is not None)
    policy = [r.policy_score or 0 for r in results]  # a stopped game as 0: every score is at least that
    policy_interval = (max(0.0, _mean_interval(policy, -1)), _mean_interval(policy, +1))
    clairvoyant_interval = (max(0.0, _mean_interval(lows, -1)), _mean_interval(highs, +1))
    return Analysis(
        deals=deals, tiles=tiles, pawns=pawns, seed=seed, lookahead=lookahead, **t.counts(wall, threads),
        exact=len(proved),
        best_scores=[ScoreCount(score=v, deals=proved.count(v)) for v in sorted(set(proved))],
        found_scores=(min(lows), int(statistics.median_low(lows)), max(lows)),
        clairvoyant_bounds=(statistics.fmean(lows), statistics.fmean(highs)),
        clairvoyant_interval95=clairvoyant_interval, policy_mean=statistics.fmean(policy),
        policy_interval95=policy_interval, policy_stopped=sum(r.policy_score is None for r in results),
        hidden_value_interval95=(policy_interval[0], clairvoyant_interval[1]), results=results)


# ------------------------------------------------------------ the game, as the house sees it

# A co-op line has a turn per tile; a competitive one goes on after the last tile.
MAX_LINE = 2 * MAX_TILES

_EXAMPLE: dict = {"deal": [{"n": 3}, {"n": 5}, {"n": 2}, {"n": 6}, {"n": 1}], "supply": [1, 1, 1, 1]}
# Competitive: 3 players (own and neutral pawns), and 2 players choosing a colour.
_THREE: dict = {"players": 3, "deal": [{"n": 3}, {"n": 5}, {"n": 2}, {"n": 6}, {"n": 1}],
                "supply": [1, 1, 1, 3], "neutral": [1, 1, 1]}
_TWO: dict = {"players": 2, "tiles": [{"q": 0, "r": 0, "n": 3, "pawns": [1, 0, 0, 0]}, {"q": 1, "r": 0, "n": 5}],
              "supply": [1, 1, 1, 1], "deal_rest": [{"n": 2}]}

# The order hidden, a tile drawn: its moves are listed too.
_HIDDEN_EXAMPLE: dict = {"start": [{"n": 3}, {"n": 5}], "pool": [{"n": 2}, {"n": 6}], "drawn": {"n": 1},
                         "supply": [1, 1, 1, 0]}
CheckRequest = position_request("OnrunCheckRequest", Position,
                                [{"position": _EXAMPLE}, {"position": _THREE}, {"position": _TWO},
                                 {"position": _HIDDEN_EXAMPLE}])
_SAMPLING = dict(
    seed=(int, Field(0, ge=0, lt=2**64, description="Order hidden, sampled: the seed of the deals")),
    samples=(int, Field(DEFAULT_SAMPLES, ge=1, le=MAX_SAMPLES, description="Order hidden, sampled: how many deals")),
    lookahead=(bool, Field(False, description="Order hidden, sampled: the lower side by the lookahead policy "
                                              "(10,000 nodes a turn of each deal), not the fixed one")))
SearchRequest = search_request("OnrunSearchRequest", Position, [{"position": _EXAMPLE, "limit": {"seconds": 5}}],
                               **_SAMPLING)
HintRequest = search_request(
    "OnrunHintRequest", Position, [{"position": _EXAMPLE, "limit": {"seconds": 5}}], **_SAMPLING,
    candidates=(int, Field(HINT_CANDIDATES, ge=0, le=MAX_CANDIDATES,
                           description="Order hidden, sampled: moves (or draws) valued, the policy's first; 0: "
                                       "every one (the same limit shared among more)")))
ReplayRequest = request(
    "OnrunReplayRequest", "A position and the moves to play from it.",
    [{"position": _EXAMPLE, "line": [{"place": [0, 1], "action": {"kind": "tile", "tile": [1, 0], "count": 1}}]},
     {"position": _TWO, "line": [{"place": [0, 1], "action": {"kind": "tile", "tile": [1, 0], "count": 1}, "color": 1},
                                 {"action": {"kind": "pass"}},
                                 {"action": {"kind": "evacuate", "number": 3, "to": [[-1, 0]]}, "color": 0},
                                 {}, {}]}],
    position=(Position, ...), line=(list[Move], Field(max_length=MAX_LINE, description="Moves to play in order")))
DealRequest = request(
    "OnrunDealRequest", "Which deal to make.", [{"seed": 3, "tiles": 43}, {"seed": 3, "tiles": 43, "players": 4}],
    seed=(int, Field(ge=0, lt=2**64, description="the deal's seed: same seed, same deal")),
    tiles=(int, Field(BOX_TILES, ge=2, le=BOX_TILES, description="how many tiles of the shuffled box (43: a full game)")),
    # One count for every colour: a number, so the CLI takes it as an option
    # (a list field would be read as a JSON file).
    pawns=(int, Field(12, ge=0, le=MAX_PAWNS_PER_COLOR, description="pawns of each colour in the supply")),
    players=(int | None, Field(None, ge=2, le=4, description="2-4: a competitive game; absent: co-op")))
AnalyseRequest = request(
    "OnrunAnalyseRequest", "Which deals to solve.", [{"deals": 4, "tiles": 10, "pawns": 2, "seed": 1}],
    deals=(int, Field(ge=1, le=_batch.MAX_COUNT, description="how many deals")),
    tiles=(int, Field(BOX_TILES, ge=2, le=BOX_TILES, description="tiles of each shuffled box (43: a full game)")),
    pawns=(int, Field(12, ge=0, le=MAX_PAWNS_PER_COLOR, description="pawns of each colour in the supply")),
    seed=(int, Field(1, ge=0, lt=2**64, description="the first deal's seed")),
    workers=(int | None, Field(None, ge=1, le=_batch.MAX_WORKERS, description="threads (default: every core)")),
    lookahead=(bool, Field(False, description="the lower side by the lookahead policy (about 15 s a full game, "
                                              "up to 40 s: give each deal a minute), not the fixed one")),
    limit=(LimitRequest | None, Field(None, description="For each deal, not for the whole run")))


def _cell(c: Sequence[int]) -> str:
    return f"({c[0]}, {c[1]})"


def move_text(m: Move) -> str:
    a = m.action
    what = ("pass" if isinstance(a, PassAction)
            else f"{a.count} on {_cell(a.tile)}" if isinstance(a, TileAction)
            else f"edge {_cell(a.cell)}" if isinstance(a, EdgeAction)
            else f"evacuate {a.number} to [{', '.join(_cell(c) for c in a.to)}]")
    colour = "" if m.color is None else f"{COLORS[m.color]}: "
    return (f"tile to {_cell(m.place)}, " if m.place is not None else "no tile, ") + colour + what


def _value_text(v: Value) -> str:
    lo, hi = v.score_bounds
    return f"{v.best_score}" if v.exact else f"[{lo}, {hi}]"


def _solve_text(_request: object, r: SolveResult) -> str:
    if r.mode == "hidden":
        return "\n".join(_hidden_text(r) + [_text.stopped_text(r.stats)])
    lines = [f"verdict: {r.verdict}; best score: {_value_text(r)}"]
    lines += [f"  {i:2}. {move_text(m)}" for i, m in enumerate(r.line or [], 1)]
    return "\n".join(lines + [_text.stopped_text(r.stats)])


def _hidden_text(r: SolveResult) -> list[str]:
    if r.expected_score is not None:
        return [f"expected score (order hidden, exact): {r.expected_score}"]
    lines = [f"expected score (order hidden): not exact ({r.not_exact_because})"]
    if r.sampled is not None:
        s = r.sampled
        for e in (s.policy, s.clairvoyant):
            lines.append(f"  {e.estimate:.3f} [{e.interval[0]:.3f}, {e.interval[1]:.3f}] -- {e.quantity}")
        lines.append(f"  {s.samples} samples, seed {s.seed}")
    return lines


def _hidden_value_text(x: HintMove | DrawValue) -> str:
    if x.expected_score is not None:
        return x.expected_score
    if x.sampled is not None:
        return f"{x.sampled.policy.estimate:.1f} .. {x.sampled.clairvoyant.estimate:.1f}"
    return "?"


def _hint_text(_request: object, r: HintResult) -> str:
    if r.mode == "hidden":
        lines = [f"expected score: {r.expected_score or 'not exact'}"]
        if any(x.sampled for x in [*r.moves, *r.draws]):
            lines.append("(sampled: the policy's mean, a lower bound .. the clairvoyant mean, an upper bound)")
        lines += [f"{_hidden_value_text(m):>16}  {move_text(m.move)}" for m in r.moves]
        lines += [f"{_hidden_value_text(d):>16}  draw {d.tile.n} ({d.tile.spaces} spaces), p = {d.probability}"
                  for d in r.draws]
        return "\n".join(lines + [_text.stopped_text(r.stats)])
    return "\n".join([f"{_value_text(m):>10}  {move_text(m.move)}" for m in r.moves] + [_text.stopped_text(r.stats)])


def _results_text(results: list[SeatResult]) -> list[str]:
    return [f"  seat {x.seat}: score {x.score}, damage {x.damage}" + (" (wins)" if x.winner else "") for x in results]


def _check_text(_request: object, r: CheckResult) -> str:
    if r.seat is not None:
        colors = " or ".join(COLORS[c] for c in r.colors or [])
        head = f"status: {r.status}; {r.turns_left} tiles left; seat {r.seat} ({colors}) to move; {r.passes} passes"
        return "\n".join([head] + _results_text(r.results or []) + [f"  {move_text(c.move)}" for c in r.moves])
    head = f"status: {r.status}; {r.turns_left} turns left; next colour {COLORS[r.color]}; score at most {r.upper_score}"
    if r.score is not None:
        head += f"; final score {r.score}"
    if r.pool_size is not None:
        head += f"; order hidden, {r.pool_size} tiles face down"
    return "\n".join([head] + [f"  {move_text(c.move)}" for c in r.moves])


def _replay_text(_request: object, r: ReplayResult) -> str:
    lines = [f"{i:2}. {move_text(s.move)} -> {s.status}" for i, s in enumerate(r.steps, 1)]
    if r.error:
        lines.append(f"illegal: {r.error}")
    lines.append(f"result: {r.status}" + (f", score {r.score}" if r.score is not None else ""))
    return "\n".join(lines + _results_text(r.results or []))


def _replay_outcome(request: Any, r: ReplayResult) -> tuple[int, str | None]:
    """Co-op: the house's rule (every step legal and won); competitive: every step legal and the game over."""
    if request.position.players is None:
        return _text.replay_outcome(request, r)
    return (0 if r.status == "over" and r.error is None else 1), None


def _analyse_text(_request: object, r: Analysis) -> str:
    text = _text.share_table(
        f"On the Run!, {r.tiles} tiles and {r.pawns} pawns a colour, {_text.seeds_text(r.seed, r.deals)}, "
        "order known", "deals", r,
        {"median s": f"{r.median_seconds:,.2f}", "max s": f"{r.max_seconds:,.2f}",
         "median nodes": f"{r.median_nodes:,.0f}", "nodes/s": f"{r.nodes_per_second:,.0f}"})
    lo, mid, hi = r.found_scores
    scores = ", ".join(f"{c.score} ({c.deals})" for c in r.best_scores) or "none"
    (blo, bhi), (ilo, ihi) = r.clairvoyant_bounds, r.clairvoyant_interval95
    (plo, phi), (vlo, vhi) = r.policy_interval95, r.hidden_value_interval95
    stopped = f" ({r.policy_stopped} games stopped by the limit, counted as 0)" if r.policy_stopped else ""
    return "\n".join([
        text, f"best score proved on {r.exact} of {r.deals} deals: {scores}",
        f"scores of the lines found: min {lo}, median {mid}, max {hi}",
        f"{'lookahead ' if r.lookahead else ''}policy mean (a lower bound on play with the order hidden): "
        f"{r.policy_mean:,.1f}{stopped}; "
        f"95% interval [{plo:,.1f}, {phi:,.1f}]",
        f"clairvoyant mean (an upper bound on play with the order hidden): between {blo:,.1f} and {bhi:,.1f} "
        f"on these deals; 95% interval [{ilo:,.1f}, {ihi:,.1f}]",
        f"value with the order hidden: between {vlo:,.1f} and {vhi:,.1f} (95% at least)",
        f"wall time {r.wall_seconds:.1f} s on {r.workers} threads"])


def _deal_text(_request: object, r: DealResult) -> str:
    return _text.position_file(r.position.model_dump(mode="json", exclude_none=True))


GAME = Game(
    name="onrun",
    title="On the Run!",
    summary="Save the animals from the spreading fire: the best final score with a certificate line",
    rank=5,
    position=Position,
    move=Move,
    move_text=move_text,
    operations=operations(
        Operation("solve", "The best final score with a line reaching it (exact unless a limit stops it)", "search",
                  SearchRequest, SolveResult,
                  lambda q, limit, control: solve(q.position, limit, control=control, seed=q.seed, samples=q.samples,
                                                  lookahead=q.lookahead),
                  _solve_text),
        Operation("hint", "Every distinct legal move with its best final score, best first", "search",
                  HintRequest, HintResult,
                  lambda q, limit, control: hint(q.position, limit, control=control, seed=q.seed, samples=q.samples,
                                                 candidates=q.candidates, lookahead=q.lookahead),
                  _hint_text),
        Operation("check", "Validate a position and list its distinct legal moves", "quick",
                  CheckRequest, CheckResult, position_call(check), _check_text),
        Operation("replay", "Play moves in order; status is win only if every move is legal and the game ends won",
                  "quick", ReplayRequest, ReplayResult, lambda q: replay(q.position, q.line), _replay_text,
                  outcome=_replay_outcome),
        # Named as the other games' makers are, so the house's CLI and tests find it.
        Operation("generate", "A shuffled deal of the box from a seed (43 tiles: a full game)", "quick",
                  DealRequest, DealResult,
                  lambda q: deal(q.seed, tiles=q.tiles, supply=[q.pawns] * 4, players=q.players), _deal_text),
        Operation("analyse", "Seeded deals solved with the order known: the winnable share, the best scores "
                  "and the value with the order hidden between the policy's mean and the clairvoyant mean",
                  "batch", AnalyseRequest, Analysis,
                  lambda q, limit, control, progress, client=None: analyse(
                      q.deals, tiles=q.tiles, pawns=q.pawns, seed=q.seed, limit=limit, workers=q.workers,
                      progress=progress, control=control, client=client, lookahead=q.lookahead),
                  _analyse_text, chunked=True, seed_search="solve"),
    ),
)
