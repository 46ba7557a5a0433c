"""Wild Fire! solitaire: known-order verdicts with certificates, legal moves
and replays. Rules: the project's spec, readings in docs/rules/wildfire.md.

>>> from smokejumper import wildfire, Limit
>>> wildfire.solve({"deal": [{"n": 1}, {"n": 5}], "supply": [1]}, Limit(seconds=10)).verdict
'win'
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Sequence

from pydantic import BaseModel, ConfigDict, Field, model_serializer, model_validator

from smokejumper import _core
from smokejumper._core import Control, InvalidPositionError
from smokejumper._inputs import load_model, load_models
from smokejumper.limits import Limit

_native = _core.wildfire
MAX_TILES: int = _native.MAX_TILES
MAX_COLORS: int = _native.MAX_COLORS
MAX_SUPPLY_PER_COLOR: int = _native.MAX_SUPPLY_PER_COLOR
MAX_COORDINATE: int = _native.MAX_COORDINATE

# The spec's table; an assumption about the box, not a fact from it.
DEFAULT_SPACES = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}

Coord = Annotated[int, Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)]
Count = Annotated[int, Field(ge=0, le=MAX_SUPPLY_PER_COLOR)]
Verdict = Literal["win", "loss", "unknown"]
Status = Literal["win", "loss", "ongoing"]

_FORMS = {
    "deal": ({"deal", "level", "supply"}, "known order from the start"),
    "start": ({"start", "pool", "turns", "level", "supply"}, "hidden order from the start"),
    "tiles": ({"tiles", "turn", "supply", "level", "deal_rest", "pool", "turns_left"}, "mid-game"),
}


class TileKind(BaseModel):
    """A tile off the table: number ``n`` and pawn ``spaces`` (default by number)."""

    model_config = ConfigDict(extra="forbid")
    n: int = Field(ge=1, le=6)
    spaces: int | None = Field(default=None, ge=1, le=3)

    def native(self) -> tuple[int, int]:
        return self.n, self.spaces or 0


class TableTile(TileKind):
    """A tile on the table at (q, r), with its pawns per colour (default none)."""

    q: Coord
    r: Coord
    pawns: list[Annotated[int, Field(ge=0, le=3)]] | None = Field(default=None, max_length=MAX_COLORS)


class Position(BaseModel):
    """The spec's position JSON, in any of its forms: ``deal`` (known order
    from the start), ``start`` + ``pool`` + ``turns`` (hidden order from the
    start), or ``tiles`` + ``turn`` with ``deal_rest`` (known order) or
    ``pool`` + ``turns_left`` (hidden order)."""

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
    turns: int | None = Field(default=None, ge=0, le=MAX_TILES)
    tiles: list[TableTile] | None = Field(default=None, min_length=1, max_length=MAX_TILES)
    turn: int | None = Field(default=None, ge=0, le=MAX_TILES)
    deal_rest: list[TileKind] | None = Field(default=None, max_length=MAX_TILES)
    turns_left: int | None = Field(default=None, ge=0, le=MAX_TILES)
    supply: list[Count] = Field(default_factory=lambda: [12, 12, 12, 12], min_length=1,
                                max_length=MAX_COLORS)
    level: int = Field(default=1, ge=1, le=3)

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
        if form == "tiles":
            if self.turn is None:
                raise ValueError("a mid-game position needs 'turn' (turns already played)")
            known, hidden = self.deal_rest is not None, self.pool is not None or self.turns_left is not None
            if known == hidden:
                raise ValueError("a mid-game position needs 'deal_rest' (known order) or 'pool' and "
                                 "'turns_left' (hidden order), not both")
            if hidden and (self.pool is None or self.turns_left is None):
                raise ValueError("a hidden-order mid-game position needs both 'pool' and 'turns_left'")
        return self

    @model_serializer(mode="wrap")
    def _drop_absent(self, handler: Any) -> dict[str, Any]:
        return {k: v for k, v in handler(self).items() if v is not None}

    @property
    def known(self) -> bool:
        return self.deal is not None or self.deal_rest is not None

    def native(self) -> tuple:
        """(tiles, turn, supply, level, known, rest, turns_left) as the C++ core takes them."""
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
    color: int = Field(ge=0, lt=MAX_COLORS)
    tile: tuple[Coord, Coord]
    count: int = Field(ge=1, le=3)


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


class Stats(BaseModel):
    """How a search went. ``stopped_by`` is null when it finished."""

    nodes: int
    seconds: float
    nodes_per_second: float
    stopped_by: Literal["nodes", "time", "memory", "stopped"] | None
    pruned: int
    max_depth: int
    table_hits: int
    table_stores: int
    table_used: int
    table_capacity: int
    table_bytes: int


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
    moves: list[Move] = Field(description="Every legal move of the next turn (known order only)")
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


PositionLike = Position | dict | str | bytes


def load_position(position: PositionLike) -> Position:
    """A validated Position from a model, dict or JSON text."""
    return load_model(Position, position)


def check(position: PositionLike) -> CheckResult:
    """Validate the rules (errors name the tile or cell); status, hottest cells and legal moves."""
    return CheckResult.model_validate(_native.check(load_position(position).native()))


def solve(position: PositionLike, limit: Limit | None = None, *, control: Control | None = None,
          use_table: bool = True, use_pruning: bool = True) -> SolveResult:
    """Known order: win with a certificate line, proved loss, or unknown at a limit.

    ``use_table`` and ``use_pruning`` exist for benchmarks and tests; leave them on."""
    p = load_position(position)
    if not p.known:
        raise InvalidPositionError("solve: needs a known-order position ('deal' or 'deal_rest')")
    raw = _native.solve(p.native(), *(limit or Limit()).native(), control, use_table, use_pruning)
    return SolveResult.model_validate(raw)


def replay(position: PositionLike, line: Sequence[Move | dict]) -> ReplayResult:
    """Play ``line`` through the engine step by step. ``status`` is "win" only
    if every move is legal and the game ends won."""
    p = load_position(position)
    moves = load_models(Move, line, "line")
    return ReplayResult.model_validate(_native.replay(p.native(), [m.native() for m in moves]))
