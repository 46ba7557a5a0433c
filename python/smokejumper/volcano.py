"""Volcano! solitaire: verdicts with certificates, valued hints, generated
layouts and replays. Rules: the project's spec, readings in
docs/rules/volcano.md.

>>> from smokejumper import volcano, Limit
>>> result = volcano.solve(volcano.generate(seed=3).position, Limit(seconds=10))
>>> result.verdict
'win'
"""

from __future__ import annotations

import time
from typing import Annotated, Any, Callable, Literal, Sequence

from pydantic import BaseModel, ConfigDict, Field, StrictInt, computed_field

from smokejumper import _batch, _core, _text
from smokejumper._core import Control
from smokejumper._inputs import load_model, load_models
from smokejumper.games import (Game, Operation, operations,
                               position_call, position_request, position_search, request, search_request)
from smokejumper.limits import Limit, LimitRequest
from smokejumper.values import BatchCounts, SearchStats, StoppedBy, Verdict

_native = _core.volcano
MAX_COORDINATE: int = _native.MAX_COORDINATE
MAX_FOREST_TILES: int = _native.MAX_CELLS - 1
MAX_COLORS: int = _native.MAX_COLORS
MAX_SUPPLY_PER_COLOR: int = _native.MAX_SUPPLY_PER_COLOR

# The spec's table; an assumption about the box, not a fact from it.
DEFAULT_SPACES = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}
DIRECTIONS = ("E", "NE", "NW", "W", "SW", "SE")

Coord = Annotated[StrictInt, Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)]
Status = Literal["win", "loss", "ongoing"]


class Tile(BaseModel):
    """A forest tile: number ``n``, pawn ``spaces`` (default by number) and
    the ``pawns`` on it."""

    model_config = ConfigDict(extra="forbid")
    q: Coord
    r: Coord
    n: StrictInt = Field(ge=1, le=6)
    spaces: StrictInt | None = Field(default=None, ge=1, le=3)
    pawns: StrictInt = Field(default=0, ge=0, le=3)


class Cell(BaseModel):
    model_config = ConfigDict(extra="forbid")
    q: Coord
    r: Coord


class Position(BaseModel):
    """The spec's position JSON. ``setup: "standard"`` also checks the
    standard set-up rules (35 tiles, the number mix, an enclosed volcano)."""

    tiles: list[Tile] = Field(max_length=MAX_FOREST_TILES)
    volcano: Cell
    supply: list[Annotated[StrictInt, Field(ge=0, le=MAX_SUPPLY_PER_COLOR)]] = Field(
        default_factory=lambda: [12, 12, 12, 12], min_length=1, max_length=MAX_COLORS
    )
    setup: Literal["free", "standard"] = "free"

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "tiles": [
                        {"q": 1, "r": 0, "n": 3, "spaces": 2, "pawns": 0},
                        {"q": 2, "r": 0, "n": 1, "spaces": 1, "pawns": 0},
                    ],
                    "volcano": {"q": 0, "r": 0},
                    "supply": [12, 12, 12, 12],
                }
            ]
        }
    )

    def native(self) -> tuple[list[tuple[int, int, int, int, int]], tuple[int, int], list[int], bool]:
        """(tiles, volcano, supply, standard) as the C++ core takes them."""
        tiles = [(t.q, t.r, t.n, t.spaces or DEFAULT_SPACES[t.n], t.pawns) for t in self.tiles]
        return tiles, (self.volcano.q, self.volcano.r), list(self.supply), self.setup == "standard"


class Flight(BaseModel):
    """Fly colour ``color`` into ``tile`` in direction ``dir`` (0..5: E, NE,
    NW, W, SW, SE); the plane starts on the empty cell ``tile - dir``."""

    model_config = ConfigDict(extra="forbid")
    color: StrictInt = Field(ge=0, lt=MAX_COLORS)
    tile: tuple[Coord, Coord]
    dir: StrictInt = Field(ge=0, le=5)

    def native(self) -> tuple[int, int, int, int]:
        return self.color, self.tile[0], self.tile[1], self.dir


class Stats(SearchStats):
    """How a search went. ``stopped_by`` is null when it finished."""


class SolveResult(BaseModel):
    verdict: Verdict
    line: list[Flight] | None = Field(description="A winning line when the verdict is win")
    stats: Stats


class FlightChoice(BaseModel):
    flight: Flight
    equivalent: list[Flight] = Field(description="Other flights that give the same state")


class HintMove(FlightChoice):
    value: Verdict
    line: list[Flight] | None = Field(description="How to win after this flight, when it wins")


class HintResult(BaseModel):
    moves: list[HintMove] = Field(description="Every distinct legal flight, wins first")
    stats: Stats


class CheckResult(BaseModel):
    status: Status
    pawns_needed: int = Field(description="A lower bound on the pawns still needed to win")
    plan_pawns: int = Field(description="A stronger lower bound: the least pawns of any removal plan, "
                            "as if pawns could land anywhere (-1: no plan clears the board); "
                            "exact unless its node cap cuts the plan search short")
    supply_total: int
    moves: list[FlightChoice] = Field(description="Every distinct legal flight, with the others that give "
                                                  "the same state")

    @computed_field(description="The earlier name of `moves`, still sent")
    @property
    def flights(self) -> list[FlightChoice]:
        return self.moves


class Difficulty(BaseModel):
    winning_share: float | None = Field(description="Mean share of distinct flights that keep the game winnable, "
                                                    "along the solution; null when the rating is unfinished")
    steps: int
    forced_steps: int = Field(description="Steps where exactly one distinct flight keeps it winnable")
    solve_nodes: int = Field(description="Nodes the solver needed for the verdict")
    complete: bool


class GenerateResult(BaseModel):
    position: Position
    layout_seed: int = Field(description="The seed of the kept layout (differs from the seed after rejected attempts)")
    attempts: int
    verdict: Verdict | None
    line: list[Flight] | None
    difficulty: Difficulty | None
    stats: Stats | None


class ReplayStep(BaseModel):
    flight: Flight
    dropped: int
    extinguished: list[tuple[int, int]]
    isolated: list[tuple[int, int]]
    status: Status


class ReplayResult(BaseModel):
    status: Status
    steps: list[ReplayStep]
    position: Position = Field(description="The position after the last legal flight")
    error: str | None = Field(description="Why the first illegal flight is illegal, if one is")


PositionLike = Position | dict | str | bytes


def load_position(position: PositionLike) -> Position:
    """A validated Position from a model, dict or JSON text."""
    return load_model(Position, position)


def check(position: PositionLike) -> CheckResult:
    """Validate the rules (errors name the cell) and list the distinct legal
    flights (none once the game is over, as replay refuses any then)."""
    return CheckResult.model_validate(_native.check(*load_position(position).native()))


def solve(position: PositionLike, limit: Limit | None = None, *, control: Control | None = None,
          use_table: bool = True, use_pruning: bool = True, use_sleep_sets: bool = True) -> SolveResult:
    """Win with a certificate line, proved loss, or unknown at a limit.

    ``use_table``, ``use_pruning`` and ``use_sleep_sets`` exist for
    benchmarks and tests; leave them on."""
    p = load_position(position)
    raw = _native.solve(*p.native(), *(limit or Limit()).native(), control, use_table, use_pruning,
                        use_sleep_sets)
    return SolveResult.model_validate(raw)


def hint(position: PositionLike, limit: Limit | None = None, *, control: Control | None = None) -> HintResult:
    """Every distinct legal flight with its value, wins first. The limit is
    shared by all the flights; those not reached stay unknown."""
    p = load_position(position)
    return HintResult.model_validate(_native.hint(*p.native(), *(limit or Limit()).native(), control))


def generate(seed: int, *, solvable: bool = False, rate: bool = False, limit: Limit | None = None,
             max_attempts: int = 200, control: Control | None = None) -> GenerateResult:
    """A random standard layout from ``seed``. ``solvable`` keeps trying
    derived seeds until a layout is proved winnable; ``rate`` adds its
    difficulty. The limit bounds all the solving together."""
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be 0..2**64-1, got {seed}")
    if not 1 <= max_attempts <= 100000:
        raise ValueError(f"max_attempts must be 1..100000, got {max_attempts}")
    raw = _native.generate(seed, solvable, rate, max_attempts, *(limit or Limit()).native(), control)
    difficulty = raw.get("difficulty")
    if difficulty is not None and not difficulty["complete"]:
        raw = {**raw, "difficulty": {**difficulty, "winning_share": None}}  # a share of the steps rated is no rating
    return GenerateResult.model_validate(raw)


def replay(position: PositionLike, line: Sequence[Flight | dict]) -> ReplayResult:
    """Play ``line`` through the engine step by step. ``status`` is "win"
    only if every flight is legal and the last one wins."""
    p = load_position(position)
    flights = load_models(Flight, line, "line")
    return ReplayResult.model_validate(_native.replay(*p.native(), [f.native() for f in flights]))


class LayoutVerdict(BaseModel):
    seed: int
    verdict: Verdict
    nodes: int
    seconds: float
    stopped_by: StoppedBy | None = Field(None, description="What stopped the solve (null when it finished)")


class Analysis(BatchCounts):
    """How many random standard layouts can be won."""

    layouts: int
    results: list[LayoutVerdict]


def analyse(layouts: int, *, seed: int = 1, limit: Limit | None = None, workers: int | None = None,
            progress: Callable[[int, int], None] | None = None, control: Control | None = None,
            client: Any = None) -> Analysis:
    """Solve the standard layouts of seeds ``seed .. seed+layouts-1``, each
    under ``limit``, on ``workers`` threads (default: every core; the C++
    releases the GIL), or on the Dask cluster of ``client`` (a
    ``distributed.Client``). Results are in seed order whatever the engine;
    ``control`` stops every solve."""
    seed_range = _batch.seeds(layouts, seed, "layouts")
    threads = _batch.thread_count(workers, client)

    cache = _batch.Engine.of(client).cache

    def one(layout_seed: int, control: Control) -> LayoutVerdict:
        r = _batch.searched(cache, "volcano", "solve", limit, control, position=generate(layout_seed).position)
        return LayoutVerdict(seed=layout_seed, verdict=r.verdict, nodes=r.stats.nodes,
                             seconds=r.stats.seconds, stopped_by=r.stats.stopped_by)

    start = time.perf_counter()
    results = _batch.run(one, seed_range, threads, progress, control, client)
    counts = _batch.Tally.of(results).counts(time.perf_counter() - start, threads)
    return Analysis(layouts=layouts, **counts, results=results)


# ------------------------------------------------------------ the game, as the house sees it

MAX_LINE = MAX_COLORS * MAX_SUPPLY_PER_COLOR  # every flight drops a pawn

_EXAMPLE: dict = {
    "tiles": [
        {"q": 1, "r": 0, "n": 3, "spaces": 2, "pawns": 0},
        {"q": 2, "r": 0, "n": 1, "spaces": 1, "pawns": 0},
        {"q": 0, "r": 1, "n": 5, "pawns": 1},
    ],
    "volcano": {"q": 0, "r": 0},
    "supply": [12, 12, 12, 12],
}

SearchRequest = search_request("VolcanoSearchRequest", Position, [{"position": _EXAMPLE, "limit": {"seconds": 5}}])
CheckRequest = position_request("VolcanoCheckRequest", Position, [{"position": _EXAMPLE}])
ReplayRequest = request(
    "VolcanoReplayRequest", "A position and the flights to play from it.",
    [{"position": _EXAMPLE, "line": [{"color": 0, "tile": [2, 0], "dir": 1}]}],
    position=(Position, ...), line=(list[Flight], Field(max_length=MAX_LINE, description="Flights to play in order")))
GenerateRequest = request(
    "VolcanoGenerateRequest", "Which layout to make.", [{"seed": 3, "solvable": False, "rate": False}],
    seed=(int, Field(ge=0, lt=2**64, description="the layout's seed: same seed, same layout")),
    solvable=(bool, Field(False, description="keep trying derived seeds until a layout is proved winnable")),
    rate=(bool, Field(False, description="also measure its difficulty")),
    limit=(LimitRequest | None, Field(None, description="For all the solving of solvable and rate together")))
AnalyseRequest = request(
    "VolcanoAnalyseRequest", "Which standard layouts to solve.", [{"layouts": 20, "seed": 1}],
    layouts=(int, Field(ge=1, le=_batch.MAX_COUNT, description="how many layouts")),
    seed=(int, Field(1, ge=0, lt=2**64, description="the first layout's seed")),
    workers=(int | None, Field(None, ge=1, le=_batch.MAX_WORKERS, description="threads (default: every core)")),
    limit=(LimitRequest | None, Field(None, description="For each layout, not for the whole run")))


def flight_text(f: Flight) -> str:
    return f"colour {f.color} into ({f.tile[0]}, {f.tile[1]}) flying {DIRECTIONS[f.dir]}"


def _choice_text(c: FlightChoice) -> str:
    return flight_text(c.flight) + (f"  (+{len(c.equivalent)} equivalent)" if c.equivalent else "")


def _solve_text(_request: object, r: SolveResult) -> str:
    lines = [f"verdict: {r.verdict}"]
    lines += [f"  {i:2}. {flight_text(f)}" for i, f in enumerate(r.line or [], 1)]
    return "\n".join(lines + [_text.stopped_text(r.stats)])


def _hint_text(_request: object, r: HintResult) -> str:
    return "\n".join([f"{m.value:7} {_choice_text(m)}" for m in r.moves] + [_text.stopped_text(r.stats)])


def _check_text(_request: object, r: CheckResult) -> str:
    return "\n".join([f"status: {r.status}; at least {r.pawns_needed} pawns needed "
                      f"(removal plan: {r.plan_pawns}) of {r.supply_total}"]
                     + [f"  {_choice_text(c)}" for c in r.moves])


def _replay_text(_request: object, r: ReplayResult) -> str:
    return _text.replay_text([f"{flight_text(s.flight)}: dropped {s.dropped}, extinguished {len(s.extinguished)}, "
                              f"isolated {len(s.isolated)}" for s in r.steps], r)


def _generate_text(_request: object, r: GenerateResult) -> str:
    return _text.position_file(r.position.model_dump(mode="json", exclude={"setup"}))


def _generate_note(req: Any, r: GenerateResult) -> str | None:
    """What --solvable or --rate found, for people (stderr: stdout stays a position file)."""
    if not (req.solvable or req.rate):
        return None
    attempts = f"{r.attempts} attempt{'s' if r.attempts > 1 else ''}"
    found = f"layout seed {r.layout_seed} ({attempts}): {r.verdict}"
    if r.verdict == "win":
        found += f", won in {len(r.line or [])} flights"
    lines = [found]
    if req.rate:
        d = r.difficulty
        if d is None:
            lines.append(f"rating: none (only a layout proved won is rated; this one is {r.verdict})")
        elif d.winning_share is None:
            lines.append(f"rating: unfinished, the limit stopped it after {d.steps} of {len(r.line or [])} "
                         "steps (winning share unknown; raise --max-seconds or --max-nodes)")
        else:
            lines.append(f"rating: winning share {d.winning_share:.3f} (the mean share of flights that keep it "
                         f"winnable, along the line; lower is harder), {d.forced_steps} of {d.steps} steps "
                         f"forced, solved in {d.solve_nodes:,} nodes")
    return "\n".join(lines)


def _generate_outcome(req: Any, r: GenerateResult) -> tuple[int, str | None]:
    if req.solvable and r.verdict != "win":
        return 2, f"no layout proved solvable within the limits ({r.attempts} attempts)"
    return 0, None


def _analyse_text(req: Any, r: Analysis) -> str:
    return _text.share_table(f"standard layouts, {_text.seeds_text(req.seed, r.layouts)}", "layouts", r,
                             {"median nodes": f"{r.median_nodes:,.0f}", "median seconds": f"{r.median_seconds:.3f}"})


GAME = Game(
    name="volcano",
    title="Volcano!",
    summary="Clear the forest around the volcano, flying pawns in: verdicts with winning lines",
    rank=1,
    position=Position,
    move=Flight,
    move_text=flight_text,
    operations=operations(
        Operation("solve", "Win with a winning line, proved loss, or unknown at a limit", "search",
                  SearchRequest, SolveResult, position_search(solve),
                  _solve_text),
        Operation("hint", "Every distinct legal flight with its value, wins first", "search",
                  SearchRequest, HintResult, position_search(hint),
                  _hint_text),
        Operation("check", "Validate a position and list its distinct legal flights", "quick",
                  CheckRequest, CheckResult, position_call(check), _check_text),
        Operation("replay", "Play flights in order; status is win only if every flight is legal and the last wins",
                  "quick", ReplayRequest, ReplayResult, lambda q: replay(q.position, q.line), _replay_text,
                  outcome=_text.replay_outcome),
        Operation("generate", "A random standard layout from a seed, optionally proved solvable and rated",
                  "search", GenerateRequest, GenerateResult,
                  lambda q, limit, control: generate(q.seed, solvable=q.solvable, rate=q.rate, limit=limit,
                                                     control=control),
                  _generate_text, note=_generate_note, outcome=_generate_outcome),
        Operation("analyse", "The share of random standard layouts that can be won", "batch",
                  AnalyseRequest, Analysis,
                  lambda q, limit, control, progress, client=None: analyse(
                      q.layouts, seed=q.seed, limit=limit, workers=q.workers, progress=progress, control=control,
                      client=client),
                  _analyse_text, chunked=True, seed_search="solve"),
    ),
)
