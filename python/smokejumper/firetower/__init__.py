"""Fire Tower: Rising Flames, solo (Levels 1-7): the rules engine, sampled
hints, whole games by a policy, and win rates per level. Rules: the
project's spec (../shared/spec/firetower.md), readings in
docs/rules/firetower.md.

A game is a **record**, ``{"start": position, "events": [...]}``: the
spec's position at its start, then every move and chance event (a move
inside a card, such as a hawk's destination, has no position of its own).
Every call takes a record or a bare position.

>>> from smokejumper import firetower
>>> game = firetower.new(level=1, seed=7)
>>> game.decision, game.move_count
('setup_hawk', 54)
>>> game = firetower.apply(game.record, game.moves[0], seed=7)
>>> game.decision
'inferno_place'
"""

from __future__ import annotations

import json
import time
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Callable, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, model_validator

from smokejumper import _batch, _core, _text
from smokejumper._core import Control, InvalidPositionError
from smokejumper._inputs import load_model
from smokejumper.games import Game, Operation, operations, request
from smokejumper.limits import Limit, LimitRequest
from smokejumper.stats import wilson_interval
from smokejumper.values import Estimate, SearchCounts, StoppedBy

_native = _core.firetower
DATA_FILE = Path(__file__).with_name("data.json")
LEVELS = range(1, _native.MAX_LEVEL + 1)
MAX_EVENTS = 20_000  # a record of 100 turns has about 2,000
DEFAULT_MAX_MOVES = 2_000  # moves an answer lists; the rest are counted

Phase = Literal["setup_hawk", "inferno", "inferno_place", "wind", "action", "end"]
Status = Literal["ongoing", "win", "loss", "timeout"]
Policy = Literal["mcts", "greedy", "random"]
Objective = Literal["win", "score"]
Dir = Literal["N", "E", "S", "W"]
Coordinate = Annotated[StrictInt, Field(ge=0, le=15)]
Square = tuple[Coordinate, Coordinate]
CardCount = Annotated[StrictInt, Field(ge=0, le=60)]
BoardRow = Annotated[str, Field(min_length=16, max_length=16, pattern=r"^[.FE#H]{16}$")]


@cache
def data() -> Any:
    """The cards, Inferno, die, hawks and levels (spec sections 2-3), loaded once."""
    return _native.Data(DATA_FILE.read_text())


@cache
def assumptions() -> tuple[str, ...]:
    """What the data assumes where the rulebook is silent (spec section 14, A)."""
    return tuple(json.loads(DATA_FILE.read_text())["assumptions"])


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Inferno(_Strict):
    deck: dict[str, CardCount] | list[str] = Field(description="The Inferno deck: a map id -> count, or a list, "
                                                               "top first, when its order is known")
    discard: list[str] = Field(max_length=8, description="Discarded Inferno cards, in order")
    revealed: str | None = Field(description="The card being placed (phase inferno_place)")
    penalty: StrictBool = Field(description="The revealed card was drawn for a penalty: no placement loses")
    round_ends: StrictBool = Field(False, description="A penalty reshuffled the Inferno: this round ends with this turn")


class Burned(_Strict):
    NE: StrictBool
    SW: StrictBool
    SE: StrictBool


class Buckets(_Strict):
    NW: Literal["unused", "used", "none"]
    NE: Literal["unused", "used"]
    SW: Literal["unused", "used"]
    SE: Literal["unused", "used"]


class Specialty(_Strict):
    heavy_winds: Literal["front", "back"] = Field(description="front: Heavy Winds; back: Light Breeze")
    lookout: Literal["front", "back"] = Field(description="front: Lookout; back: Patrol")


class Options(_Strict):
    challenges: Literal["off"] = "off"
    order_known: StrictBool = False
    turn_limit: StrictInt = Field(100, ge=1, le=10_000)
    deck: Literal["default"] | dict[str, CardCount] = "default"


class Position(_Strict):
    """The spec's position (section 11.2): the board as 16 rows of
    ``. F E # H``, the cards, the Inferno, towers, Buckets and specialty
    cards, and the phase of the turn."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": []})
    game: Literal["firetower-solo"] = "firetower-solo"
    version: Literal[1] = 1
    level: StrictInt = Field(ge=1, le=7)
    board: list[BoardRow] = Field(min_length=16, max_length=16)
    wind: Dir | None
    hand: list[str] = Field(max_length=60)
    draw_pile: dict[str, CardCount] | list[str] = Field(description="A map id -> count, or a list, top first, when "
                                                                    "its order is known")
    discard: dict[str, CardCount]
    inferno: Inferno
    burned: Burned
    buckets: Buckets
    bucket_taken: StrictBool = False
    specialty: Specialty
    turn: StrictInt = Field(ge=1, le=10_000)
    round: StrictInt = Field(ge=1, le=10_000)
    phase: Phase
    options: Options = Field(default_factory=Options)
    hand_size: StrictInt | None = Field(None, description="Derived: the level's hand + burned towers (checked if given)")
    hawk_supply: StrictInt | None = Field(None, description="Derived: hawks not on the board (checked if given)")


class Record(_Strict):
    """A game: its start and every event since, moves and chance events
    (``{"chance": "draw", "card": id}``, ``{"chance": "inferno", ...}``,
    ``{"chance": "die", "dir": "E"}``)."""

    start: Position
    # Any JSON value: the engine judges the events in order, so that replay
    # names the first bad one even when it is not an object.
    events: list[Any] = Field(default_factory=list, max_length=MAX_EVENTS)

    @model_validator(mode="before")
    @classmethod
    def _bare_position(cls, data: Any) -> Any:
        """A position alone is the record of a game that starts there; an
        answer holding a record (`play --json`, `check --json`) is read as
        its record."""
        if isinstance(data, dict) and "start" not in data:
            if "board" in data:
                return {"start": data, "events": []}
            if isinstance(data.get("record"), dict):
                return data["record"]
        return data


class Move(BaseModel):
    """A move (spec section 11.3): its ``type`` and the fields that type
    takes. Only the fields given are sent on; the engine checks them."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, json_schema_extra={"examples": [
        {"type": "setup_hawk", "square": [4, 4]}, {"type": "play", "card": "flare_up", "squares": [[6, 5], [6, 6]]}]})
    type: Literal["setup_hawk", "inferno", "penalty", "wind_gem", "play", "discard", "reckless", "specialty",
                  "heavy_wind", "pick", "light_breeze", "bucket", "end", "hawk", "enemy_bucket", "reroll", "keep",
                  "storm_discard"]
    card: str | None = None
    square: Square | None = None
    squares: list[Square] | None = Field(None, max_length=8)
    center: Square | None = None
    from_: Square | None = Field(None, alias="from")
    to: Square | None = None
    pair: list[Square] | None = Field(None, max_length=2)
    dir: Dir | None = None
    option: Literal["set", "roll", "gem", "add", "remove"] | None = None
    wind: Dir | None = None
    double: StrictBool | None = None
    hawks: list[Square] | None = Field(None, max_length=18)
    take: list[Square] | None = Field(None, max_length=3)
    cards: list[str] | None = Field(None, max_length=12)
    discard: list[str] | str | None = Field(None, description="Reckless: three cards; Patrol and a reroll: one")
    storm: Dir | None = None
    tower: Literal["NE", "SW", "SE"] | None = None
    keep: str | None = None

    def as_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)


class ChanceEvent(_Strict):
    chance: Literal["inferno", "draw", "die"]
    card: str | None = None
    dir: Dir | None = None


# ------------------------------------------------------------ a game's state


class Chance(BaseModel):
    event: dict[str, Any]
    probability: float


class RulesReported(BaseModel):
    """What every answer reports of the rules it was computed under (spec
    section 3: challenges off; section 14: the data's assumptions)."""

    challenges: Literal["off"] = "off"
    assumptions: list[str] = Field(default_factory=lambda: list(assumptions()),
                                   description="What the rules data assumes (spec section 14)")


class Unlisted(BaseModel):
    """A hawk card whose plays are too many to list, and what it takes to
    write one (spec 6.10): ``move`` with ``hawks``, the final set of
    own-hawk squares (``own + placed + len(take)`` of ``squares``), and
    ``take``, at most ``max_take`` of ``takeable``."""

    card: str = Field(description="A hawk card whose plays are too many to list")
    moves: int
    move: dict[str, Any] = Field(description="The play without its squares (type, card, keep where picked)")
    squares: list[Square] = Field(description="Where own hawks may end: the own hawks' squares and the free ones")
    takeable: list[Square] = Field(description="Enemy hawks that may be taken (the supply is short)")
    own: int = Field(description="Own hawks on the board now")
    placed: int = Field(description="Hawks the card adds from the supply")
    max_take: int = Field(description="Enemy hawks that may be taken at most")


class GameState(RulesReported):
    """Where a game stands: its record, the decision or chance it waits
    for, the legal moves (canonical order, spec section 12) or the chance
    outcomes, and the position's fields as the player sees them (the board
    shows a hawk activated inside a step as ``X``)."""

    record: Record
    status: Status
    score: int | None = Field(description="Won games: unburned squares of the own tower area, 1-9")
    decision: str | None = Field(description="The decision waited for (spec 5.1, 11.3); null at a chance point "
                                             "or the end")
    chance: Literal["inferno", "draw", "die"] | None = Field(description="The chance event waited for")
    phase: str | None = Field(description="The position's phase, or the sub-decision inside a step")
    moves: list[dict[str, Any]] = Field(description="Legal moves in canonical order (the first `max_moves`)")
    move_count: int = Field(description="Every distinct legal move, listed or not")
    unlisted: list[Unlisted] = Field(description="Hawk cards whose arrangements are counted, not listed")
    chances: list[Chance] = Field(description="At a chance point: each outcome and its probability")
    position: Position | None = Field(description="The spec's position, where one exists (not inside a step)")
    turn: int
    round: int
    board: list[str]
    wind: str | None
    hand: list[str]
    hand_size: int
    hawk_supply: int
    draw_pile: dict[str, int] | list[str]
    discard: dict[str, int]
    inferno: Inferno
    burned: Burned
    buckets: Buckets
    bucket_taken: bool
    specialty: Specialty


# What every call takes: a record, a position, their JSON, or a GameState
# as new, check and apply answer.
StateLike = Record | Position | GameState | dict | str


def _record_of(state: StateLike) -> dict[str, Any]:
    if isinstance(state, GameState):  # what new, check and apply answer, passed straight back
        state = state.record
    if isinstance(state, (Record, Position)):
        state = state.model_dump(mode="json", by_alias=True)
    elif isinstance(state, (str, bytes)):
        state = json.loads(state)
    return load_model(Record, state).model_dump(mode="json", by_alias=True)


def _load(record: dict[str, Any]) -> Any:
    """The session after every event; a bad event is an error naming it."""
    session, bad, reason, _ = _native.replay(data(), json.dumps(record))
    if bad >= 0:
        raise InvalidPositionError(reason if reason.startswith("events[") else f"events[{bad}]: {reason}")
    return session


def _answer(session: Any, record: dict[str, Any], max_moves: int = DEFAULT_MAX_MOVES) -> GameState:
    view = json.loads(session.view())
    count, moves, unlisted = session.moves(max_moves) if session.decision else (0, [], [])
    total = sum(w for _, w in session.outcomes()) if session.chance else 0
    position = session.position()
    return GameState(
        record=record, status=session.status, score=session.score, decision=session.decision, chance=session.chance,
        phase=view["phase"], moves=[json.loads(m) for m in moves], move_count=count,
        unlisted=[Unlisted(card=c, moves=n, move=json.loads(base), squares=cells, takeable=enemies, own=own,
                           placed=placed, max_take=max_take)
                  for c, n, base, cells, enemies, own, placed, max_take in unlisted],
        chances=[Chance(event=json.loads(e), probability=w / total) for e, w in session.outcomes()],
        position=json.loads(position) if position else None, turn=view["turn"], round=view["round"],
        board=view["board"], wind=view["wind"], hand=view["hand"], hand_size=view["hand_size"],
        hawk_supply=view["hawk_supply"], draw_pile=view["draw_pile"], discard=view["discard"],
        inferno=view["inferno"], burned=view["burned"], buckets=view["buckets"], bucket_taken=view["bucket_taken"],
        specialty=view["specialty"])


def new(level: int = 1, seed: int = 0, *, order_known: bool = False, turn_limit: int = 100) -> GameState:
    """A level's set-up (spec section 3): the deck shuffled by ``seed``, the
    hand dealt; the game waits for the set-up hawk."""
    if level not in LEVELS:
        raise ValueError(f"level must be 1..7, got {level}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be 0..2**64-1, got {seed}")
    start = json.loads(_native.new_game(data(), level, seed, order_known, turn_limit))
    record = {"start": start, "events": []}
    return _answer(_load(record), record)


def check(state: StateLike, max_moves: int = DEFAULT_MAX_MOVES) -> GameState:
    """The game after its record's events: status, the decision and its
    legal moves, or the chance point and its outcomes."""
    record = _record_of(state)
    return _answer(_load(record), record, max_moves)


def apply(state: StateLike, move: Move | ChanceEvent | dict, seed: int = 0,
          max_moves: int = DEFAULT_MAX_MOVES) -> GameState:
    """Play ``move`` (or a chance event), then draw the chance events that
    follow with ``seed`` until the next decision; all go into the record."""
    record = _record_of(state)
    session = _load(record)
    if isinstance(move, BaseModel):
        move = move.model_dump(mode="json", by_alias=True, exclude_unset=True)
    applied = session.apply(json.dumps(move), "move")
    events = [json.loads(applied)] + [json.loads(e) for e in session.sample(seed)]
    record = {**record, "events": record["events"] + events}
    return _answer(session, record, max_moves)


def board_array(state: StateLike) -> Any:
    """The board as a 16x16 numpy array of uint8, row 0 north: 0 empty, 1 gem,
    2 Eternal Flame, 3 firebreak, 4 hawk, 5 hawk activated with its gem.
    Read from the engine's bitboards, not through the position's JSON."""
    import numpy as np

    return np.frombuffer(_load(_record_of(state)).board(), dtype=np.uint8).reshape(16, 16)


class ReplayError(BaseModel):
    index: int = Field(description="The first bad event, from 0")
    event: Any
    reason: str


class ReplayStep(BaseModel):
    event: dict[str, Any]
    status: Status


class ReplayResult(RulesReported):
    ok: bool = Field(description="Every event replays")
    status: Status = Field(description="After the last good event")
    score: int | None
    error: ReplayError | None
    steps: list[ReplayStep] = Field(description="The good events, each with the status after it")
    position: Record = Field(description="The record up to its last good event")
    turn: int


def replay(state: StateLike) -> ReplayResult:
    """Replay a record's events through the engine: every one, or up to the
    first that is not legal (named, with why)."""
    record = _record_of(state)
    events = record["events"]
    statuses = []
    good = {"start": record["start"], "events": []}
    session, bad, reason, _ = _native.replay(data(), json.dumps(good))
    for i, event in enumerate(events):
        try:
            session.apply(json.dumps(event), f"events[{i}]")
        except InvalidPositionError as e:
            bad, reason = i, str(e)
            break
        statuses.append(session.status)
    else:
        bad = -1
    n = len(statuses)
    error = ReplayError(index=bad, event=events[bad], reason=reason) if bad >= 0 else None
    return ReplayResult(ok=error is None, status=session.status, score=session.score, error=error,
                        steps=[ReplayStep(event=e, status=s) for e, s in zip(events[:n], statuses)],
                        position={"start": record["start"], "events": events[:n]}, turn=session.turn)


# ------------------------------------------------------------ searching


class HintMove(Estimate):
    """A move's estimated value (win probability, or expected score with
    objective "score") over the search's samples, with its 95% interval;
    n 0: the search did not value it (it lists every move all the same)."""

    move: dict[str, Any]
    equivalent: list[dict[str, Any]] = Field(description="Other moves to the same next position (merged into this one)")
    search_value: float = Field(description="What the search steered by, its mean: 1 for a win (objective score: "
                                            "0.5 + score/18), 0 for a loss, and for a game in play the search's h "
                                            "(section 14's with fire_distances) at the player's next-turn action, "
                                            "mapped onto [0, 1) in its order (a burned tower adds 0.25). Separates "
                                            "moves when wins are rare")


class HintStats(SearchCounts):
    iterations: int = Field(description="Simulated games (= nodes)")
    tree_nodes: int
    arena_full: bool = Field(description="A tree filled its memory share and went on by rollouts alone")
    candidates: int = Field(description="Moves the search valued at the root (greedy's best first; the request's "
                                        "candidates, or every distinct move)")
    threads: int


class HintResult(RulesReported):
    decision: str | None = Field(description="The decision the moves are for; null at a chance point")
    objective: Objective
    moves: list[HintMove] = Field(description="Every distinct legal move (hawk cards: a few arrangements each), "
                                              "best first: the searched ones by the mean of what the search "
                                              "steered by (ties in greedy's order), then the rest with n 0 (the "
                                              "request's candidates, 0 for every move, says how many are searched)")
    moves_total: int = Field(description="Every distinct legal move, all hawk arrangements counted")
    best: dict[str, Any] | None = Field(description="The recommended move")
    value: float = Field(description="The position's value: its best move's, or at a chance point the mean")
    ci95: tuple[float, float]
    n: int
    chances: list[Chance] = Field(description="At a chance point: the outcomes the value is over")
    stopped_by: StoppedBy | None
    seed: int
    stats: HintStats


# The moves a hint values at the root by default, greedy's best first: what
# beat greedy (docs/benchmarks.md); more share the same iterations.
HINT_CANDIDATES: int = _native.HINT_CANDIDATES
MAX_CANDIDATES = 100_000

# A sampling search has no end of its own: without a time or node limit
# these bound it (in nodes, so that the answer stays the seed's alone). 64
# iterations a decision is what beat greedy (docs/benchmarks.md), about
# 0.03 s, since play needs no values; a hint gets 4 times that, each
# iteration playing its game out for the values: 1-1.3 s on two threads
# early in a game, and its best move settled by then.
HINT_LIMIT = Limit(nodes=256)
DECISION_LIMIT = Limit(nodes=64)


def _bounded(limit: Limit | None, default: Limit) -> Limit:
    """``limit``, or ``default``'s nodes (with ``limit``'s memory) where it sets neither time nor nodes."""
    if limit is not None and (limit.nodes is not None or limit.seconds is not None):
        return limit
    return Limit(nodes=default.nodes, memory_mb=limit.memory_mb if limit else None)


def hint(state: StateLike, limit: Limit | None = None, *, seed: int = 0, objective: Objective = "win",
         workers: int | None = None, control: Control | None = None,
         max_moves: int = DEFAULT_MAX_MOVES, candidates: int = HINT_CANDIDATES) -> HintResult:
    """Every distinct legal move at the current decision with its value
    estimated by Monte Carlo tree search (cpp/search/mcts.hpp: hidden cards
    and dice sampled as they come), best first. The root's ``candidates``
    are the moves the search's own h ranks highest (section 14's h with
    :func:`fire_distances`; 0: every distinct move, each then valued, on
    fewer samples apiece); rollouts play greedy by that h to the game's
    end, so a value is that of the move followed by that greedy: a lower
    bound on what the search's own play reaches.
    ``workers`` threads give the same answer as one under a node limit.
    Without a time or node limit, :data:`HINT_LIMIT`."""
    if objective not in ("win", "score"):
        raise ValueError(f"objective must be 'win' or 'score', got {objective!r}")
    if not 0 <= candidates <= MAX_CANDIDATES:
        raise ValueError(f"candidates must be 0 (every move) .. {MAX_CANDIDATES}, got {candidates}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be 0..2**64-1, got {seed}")
    threads = _batch.thread_count(workers)
    record = _record_of(state)
    session = _load(record)
    if session.status != "ongoing":
        raise InvalidPositionError(f"hint: the game is over ({session.status})")
    raw = _native.hint(session, *_bounded(limit, HINT_LIMIT).native(), control, seed, objective == "score", threads,
                       candidates, max_moves)
    moves = [{"move": json.loads(m["move"]), "value": m["value"], "ci95": m["ci95"], "n": m["n"],
              "search_value": m["search_value"], "equivalent": [json.loads(e) for e in m["equivalent"]]}
             for m in raw["moves"]]
    outcomes = session.outcomes() if session.chance else []
    total = sum(w for _, w in outcomes)
    return HintResult(decision=session.decision, objective=objective, moves=moves, moves_total=raw["moves_total"],
                      best=moves[0]["move"] if moves else None, value=raw["value"], ci95=raw["ci95"], n=raw["n"],
                      chances=[Chance(event=json.loads(e), probability=w / total) for e, w in outcomes],
                      stopped_by=raw["stats"]["stopped_by"], seed=seed, stats=raw["stats"])


def baseline_move(state: StateLike, policy: Literal["greedy", "random"] = "greedy", seed: int = 0) -> dict[str, Any]:
    """The move a baseline of spec section 14 plays here: greedy (the best
    h after the move's deterministic effect, ties to the first in canonical
    order) or random (uniform over the distinct legal moves, by ``seed``)."""
    session = _load(_record_of(state))
    return json.loads(_native.baseline_move(session, policy, seed))


def fire_distances(state: StateLike) -> dict[str, int]:
    """How far the fire is from each back corner (NW, NE, SW, SE) as the
    search reckons it: the least cost of a path of gems from any fire, a
    square costing 1, a hawk 3 and a firebreak 4 in the way. Section 14's
    greedy counts squares only."""
    return dict(_native.fire_distances(_load(_record_of(state))))


class PlayResult(RulesReported):
    level: int
    seed: int
    policy: Policy
    record: Record = Field(description="The whole game: replays through `replay`")
    status: Status
    score: int | None
    turns: int
    decisions: int
    nodes: int = Field(description="Search iterations over the game (mcts)")
    seconds: float
    stopped: bool = Field(description="Stopped (Ctrl-C, a cancelled request) before its end")


def play(level: int = 1, seed: int = 0, *, policy: Policy = "mcts", limit: Limit | None = None,
         workers: int | None = None, turn_limit: int = 100, control: Control | None = None) -> PlayResult:
    """A whole seeded game from the level's set-up, every decision taken by
    ``policy`` (mcts: a hint under ``limit`` per decision, without a time
    or node limit :data:`DECISION_LIMIT`). The deal, draws and dice follow
    from ``seed`` alone, the same for every policy."""
    if level not in LEVELS:
        raise ValueError(f"level must be 1..7, got {level}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be 0..2**64-1, got {seed}")
    threads = _batch.thread_count(workers)
    raw = _native.play(data(), level, seed, policy, *_bounded(limit, DECISION_LIMIT).native(), control, turn_limit,
                       threads)
    record = {"start": json.loads(raw["start"]), "events": [json.loads(e) for e in raw["events"]]}
    return PlayResult(level=level, seed=seed, policy=policy, record=record, status=raw["status"], score=raw["score"],
                      turns=raw["turns"], decisions=raw["decisions"], nodes=raw["nodes"], seconds=raw["seconds"],
                      stopped=raw["stopped"])


class GameOutcome(BaseModel):
    seed: int
    status: Status
    score: int | None
    turns: int
    decisions: int
    nodes: int
    seconds: float
    stopped_by: StoppedBy | None = Field(None, description="\"stopped\" when a stop cut the game short")


class Analysis(RulesReported):
    """A policy's results over seeded games of one level."""

    level: int
    policy: Policy
    games: int
    seed: int = Field(description="The first game's seed; games are seed .. seed+games-1")
    wins: int
    losses: int
    timeouts: int = Field(description="Games not decided within the turn limit")
    stopped: int = Field(description="Games a stop cut short (not counted in the rate)")
    win_rate: float
    ci95: tuple[float, float] = Field(description="95% Wilson interval of the win rate")
    mean_score: float | None = Field(description="Mean score of the won games")
    mean_turns: float
    seconds: float = Field(description="Wall time of the whole analysis")
    workers: int
    results: list[GameOutcome] = Field(description="Per game, in seed order")


def analyse(level: int, games: int, *, policy: Policy = "greedy", seed: int = 1, limit: Limit | None = None,
            workers: int | None = None, turn_limit: int = 100, progress: Callable[[int, int], None] | None = None,
            control: Control | None = None, client: Any = None) -> Analysis:
    """``games`` seeded games of ``level`` by ``policy``, on ``workers``
    threads (one game each; the C++ releases the GIL) or on the Dask
    cluster of ``client`` (a ``distributed.Client``): wins, the win rate
    with its Wilson interval, the mean score of won games, timeouts."""
    seeds = _batch.seeds(games, seed, "games")
    threads = _batch.thread_count(workers, client)
    if level not in LEVELS:
        raise ValueError(f"level must be 1..7, got {level}")

    def one(game_seed: int, control: Control) -> GameOutcome:
        r = play(level, game_seed, policy=policy, limit=limit, workers=1, turn_limit=turn_limit, control=control)
        return GameOutcome(seed=game_seed, status="ongoing" if r.stopped else r.status, score=r.score,
                           turns=r.turns, decisions=r.decisions, nodes=r.nodes, seconds=r.seconds,
                           stopped_by="stopped" if r.stopped else None)

    start = time.perf_counter()
    results = _batch.run(one, seeds, threads, progress, control, client)
    counted = [r for r in results if r.status != "ongoing"]
    wins = [r for r in counted if r.status == "win"]
    n = len(counted)
    return Analysis(level=level, policy=policy, games=games, seed=seed, wins=len(wins),
                    losses=sum(r.status == "loss" for r in counted),
                    timeouts=sum(r.status == "timeout" for r in counted), stopped=len(results) - n,
                    win_rate=len(wins) / n if n else 0.0, ci95=wilson_interval(len(wins), n),
                    mean_score=sum(r.score or 0 for r in wins) / len(wins) if wins else None,
                    mean_turns=sum(r.turns for r in counted) / n if n else 0.0,
                    seconds=time.perf_counter() - start, workers=threads, results=results)


# ------------------------------------------------------------ the game, as the house sees it


def _square(s: Any) -> str:
    return f"[{s[0]},{s[1]}]"


def _squares(ss: Any) -> str:
    return " ".join(_square(s) for s in ss)


def move_text(m: Move | dict[str, Any]) -> str:
    """A move as a player reads it: ``Flare Up on [3,4] [3,5]``."""
    d = m.as_json() if isinstance(m, Move) else m
    card = (d.get("card") or "").replace("_", " ")
    t = d["type"]
    if t in ("play", "pick"):
        head = ("Pick " if t == "pick" else "") + (card or "nothing")
        parts = [head]
        if d.get("double"):
            parts.append("(pair)")
        for key, word in (("option", ""), ("wind", "to"), ("center", "at"), ("from", "from"), ("to", "to"),
                          ("pair", "pair"), ("dir", "toward"), ("square", "on"), ("squares", "on"),
                          ("hawks", "hawks on"), ("take", "taking"), ("keep", "keeping")):
            if key in d and d[key] is not None and d[key] != []:
                v = d[key]
                text = _squares(v) if key in ("squares", "pair", "hawks", "take") else (
                    _square(v) if key in ("center", "from", "to", "square") else str(v).replace("_", " "))
                parts.append(f"{word} {text}".strip())
        return " ".join(parts)
    if t == "setup_hawk":
        return f"Hawk on {_square(d['square'])}"
    if t == "inferno":
        return ("Inferno at " + _square(d["center"]) if "center" in d else
                "Inferno on " + _squares(d["squares"]) if "squares" in d else "Inferno storm")
    if t == "penalty":
        return f"Penalty storm {d['storm']}"
    if t == "wind_gem":
        return f"Wind gem on {_square(d['square'])}"
    if t in ("discard", "storm_discard"):
        cards = ", ".join(c.replace("_", " ") for c in d["cards"]) or "nothing"
        return ("Discard " if t == "discard" else "Storm: discard ") + cards
    if t == "reckless":
        return f"Reckless Abandon: discard {', '.join(d['discard'])}, gems on {_squares(d['squares'])}"
    if t == "specialty":
        return card.title() + (f", discarding {d['discard']}" if "discard" in d else "")
    if t in ("heavy_wind", "light_breeze"):
        name = "Heavy Winds" if t == "heavy_wind" else "Light Breeze"
        return f"{name}: {card} on {_square(d['square'])}" if d.get("card") else f"{name}: stop"
    if t == "bucket":
        return f"Bucket on {_squares(d['squares'])}"
    if t == "end":
        return "End the turn"
    if t == "hawk":
        return f"Hawk from {_square(d['from'])} to " + (_square(d["to"]) if d.get("to") else "nowhere (gem lost)")
    if t == "enemy_bucket":
        return f"{d['tower']} Bucket on {_squares(d['squares'])}"
    if t == "reroll":
        return f"Reroll, discarding {d['discard']}"
    return "Keep the roll"


def _state_text(_request: object, r: GameState) -> str:
    head = f"status: {r.status}" + (f" (score {r.score})" if r.score is not None else "")
    head += f"; turn {r.turn}, round {r.round}, phase {r.phase}"
    lines = [head]
    if r.decision:
        more = f" (+{sum(u.moves for u in r.unlisted):,} hawk arrangements)" if r.unlisted else ""
        lines.append(f"decision {r.decision}: {r.move_count:,} legal moves{more}")
        lines += [f"  {move_text(m)}" for m in r.moves[:50]]
        if len(r.moves) > 50:
            lines.append(f"  ... {len(r.moves) - 50:,} more (--json lists them)")
    elif r.chance:
        lines.append(f"chance {r.chance}: " + ", ".join(f"{json.dumps(c.event)} {c.probability:.3f}" for c in r.chances))
    return "\n".join(lines)


def _record_file(_request: object, r: GameState) -> str:
    return _text.position_file(r.record.model_dump(mode="json", by_alias=True))


def _hint_text(_request: object, r: HintResult) -> str:
    if r.decision is None:
        lines = [f"chance point: value {r.value:.3f} [{r.ci95[0]:.3f}, {r.ci95[1]:.3f}] over {r.n} samples"]
    else:
        lines = [f"decision {r.decision}: {r.moves_total:,} legal moves, {r.stats.candidates} searched "
                 f"({r.objective}, seed {r.seed})", "| move | value | 95% interval | n |", "| --- | ---: | --- | ---: |"]
        lines += [f"| {move_text(m.move)} | {m.value:.3f} | [{m.ci95[0]:.3f}, {m.ci95[1]:.3f}] | {m.n} |"
                  for m in r.moves if m.n]
    lines.append(_text.stopped_text(r.stats))
    return "\n".join(lines)


def _replay_text(_request: object, r: ReplayResult) -> str:
    lines = [f"{len(r.steps)} events replayed; status {r.status}" + (f", score {r.score}" if r.score else "")]
    if r.error:
        lines.append(f"event {r.error.index}: {r.error.reason}")
    return "\n".join(lines)


def _replay_outcome(_request: object, r: ReplayResult) -> tuple[int, str | None]:
    return (0, None) if r.ok else (1, None)


def _play_text(_request: object, r: PlayResult) -> str:
    return _text.position_file(r.record.model_dump(mode="json", by_alias=True))


def _play_note(_request: object, r: PlayResult) -> str:
    score = f", score {r.score}" if r.score is not None else ""
    return f"level {r.level} seed {r.seed} by {r.policy}: {r.status}{score} after {r.turns} turns ({r.seconds:.1f} s)"


def _analyse_text(_request: object, r: Analysis) -> str:
    score = f"{r.mean_score:.2f}" if r.mean_score is not None else "-"
    return "\n".join([
        f"Fire Tower level {r.level}, {r.policy}, games of {_text.seeds_text(r.seed, r.games)}",
        "| games | wins | losses | timeouts | win rate | 95% interval | mean score (won) | mean turns |",
        "| ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |",
        f"| {r.games} | {r.wins} | {r.losses} | {r.timeouts} | {r.win_rate:.3f} | [{r.ci95[0]:.3f}, {r.ci95[1]:.3f}] "
        f"| {score} | {r.mean_turns:.1f} |",
        f"wall time {r.seconds:.1f} s on {r.workers} threads"])


_LEVEL = (int, Field(1, ge=1, le=7, description="the level, 1-7"))
_SEED = (int, Field(0, ge=0, lt=2**64, description="the seed: the deal, draws and dice"))
_WORKERS = (int | None, Field(None, ge=1, le=_batch.MAX_WORKERS,
                              description="threads of each search (default: every core; the same answer under a "
                                          "node limit)"))


def _example_record() -> dict[str, Any]:
    """Level 1 at its first Inferno card, as a record's start: a position
    with no null in it (the OpenAPI document drops nulls from examples)."""
    game = new(1, 7)
    position = apply(game.record, game.moves[0], seed=7).position
    assert position is not None
    return {"start": position.model_dump(mode="json"), "events": []}


_EXAMPLE = _example_record()
_STATE = (Record, Field(description="A record {start, events}, or a position"))

NewRequest = request("FiretowerNewRequest", "Which game to set up.", [{"level": 1, "seed": 7}],
                     level=_LEVEL, seed=_SEED,
                     order_known=(bool, Field(False, description="piles in a known order (tests)")),
                     turn_limit=(int, Field(100, ge=1, le=10_000, description="turns before a timeout")))
CheckRequest = request("FiretowerCheckRequest", "A game to look at.", [{"position": _EXAMPLE}], position=_STATE,
                       max_moves=(int, Field(DEFAULT_MAX_MOVES, ge=0, le=1_000_000,
                                             description="moves to list (all are counted)")))
ApplyRequest = request(
    "FiretowerApplyRequest", "A game, a move or chance event to play, and the seed of the chance events after it.",
    [{"position": _EXAMPLE, "move": {"type": "inferno", "squares": [[5, 6], [5, 7], [6, 6], [6, 7]]}, "seed": 1}],
    position=_STATE, move=(Move | ChanceEvent, Field(description="A move, or a chance event at a chance point")),
    seed=_SEED, max_moves=(int, Field(DEFAULT_MAX_MOVES, ge=0, le=1_000_000, description="moves to list")))
ReplayRequest = request("FiretowerReplayRequest", "A record to replay.", [{"position": _EXAMPLE}], position=_STATE)
HintRequest = request(
    "FiretowerHintRequest", "A game at a decision (or chance point) to search, under a limit.",
    [{"position": _EXAMPLE, "seed": 1, "limit": {"seconds": 2}}], position=_STATE, seed=_SEED,
    objective=(Objective, Field("win", description="win: the win probability; score: the expected score (0 unless won)")),
    workers=_WORKERS,
    candidates=(int, Field(HINT_CANDIDATES, ge=0, le=MAX_CANDIDATES,
                           description="moves the search values, greedy's best first; 0: every distinct move "
                                       "(the same iterations shared among more)")),
    limit=(LimitRequest | None, Field(None, description="For the search")))
PlayRequest = request(
    "FiretowerPlayRequest", "A whole game to play.", [{"level": 1, "seed": 7, "policy": "greedy"}],
    level=_LEVEL, seed=_SEED, policy=(Policy, Field("mcts", description="who decides: mcts, greedy or random")),
    workers=_WORKERS, turn_limit=(int, Field(100, ge=1, le=10_000, description="turns before a timeout")),
    limit=(LimitRequest | None, Field(None, description="For each decision's search (mcts)")))
AnalyseRequest = request(
    "FiretowerAnalyseRequest", "Which games to play.", [{"level": 1, "games": 20, "policy": "greedy", "seed": 1}],
    level=_LEVEL, games=(int, Field(ge=1, le=_batch.MAX_COUNT, description="how many games")),
    policy=(Policy, Field("greedy", description="mcts, greedy or random")),
    seed=(int, Field(1, ge=0, lt=2**64, description="the first game's seed")),
    workers=(int | None, Field(None, ge=1, le=_batch.MAX_WORKERS, description="games at once (default: every core)")),
    turn_limit=(int, Field(100, ge=1, le=10_000, description="turns before a timeout")),
    limit=(LimitRequest | None, Field(None, description="For each decision's search (mcts), not the whole run")))


GAME = Game(
    name="firetower",
    title="Fire Tower: Rising Flames",
    summary="Solo Levels 1-7: burn the three enemy towers before the Inferno reaches yours; sampled hints, "
            "baselines, win rates",
    rank=4,
    position=Record,
    move=Move,
    move_text=move_text,
    maker="new",
    operations=operations(
        Operation("new", "A level's set-up from a seed: the game's record, waiting for the set-up hawk", "quick",
                  NewRequest, GameState,
                  lambda q: new(q.level, q.seed, order_known=q.order_known, turn_limit=q.turn_limit), _record_file),
        Operation("check", "A game's status, its decision and legal moves (or its chance outcomes), and its position",
                  "quick", CheckRequest, GameState, lambda q: check(q.position, q.max_moves), _state_text),
        Operation("apply", "Play a move (or a chance event), then the chance events after it by seed", "quick",
                  ApplyRequest, GameState, lambda q: apply(q.position, q.move, q.seed, q.max_moves), _state_text),
        Operation("replay", "Replay a record: ok, or the first event that is not legal and why", "quick",
                  ReplayRequest, ReplayResult, lambda q: replay(q.position), _replay_text, outcome=_replay_outcome),
        Operation("hint", "Every legal move with its estimated win probability (or score), 95% interval and "
                  "samples, best first", "search", HintRequest, HintResult,
                  lambda q, limit, control: hint(q.position, limit, seed=q.seed, objective=q.objective,
                                                 workers=q.workers, control=control, candidates=q.candidates),
                  _hint_text, capped={"workers": "threads"}, default_limit=HINT_LIMIT),
        Operation("play", "A whole seeded game by a policy; its record", "batch", PlayRequest, PlayResult,
                  lambda q, limit, control, progress: play(q.level, q.seed, policy=q.policy, limit=limit,
                                                           workers=q.workers, turn_limit=q.turn_limit,
                                                           control=control),
                  _play_text, note=_play_note, default_limit=DECISION_LIMIT),
        Operation("analyse", "Seeded games of a level by a policy: wins, win rate with its 95% interval, mean score",
                  "batch", AnalyseRequest, Analysis,
                  lambda q, limit, control, progress, client=None: analyse(
                      q.level, q.games, policy=q.policy, seed=q.seed, limit=limit, workers=q.workers,
                      turn_limit=q.turn_limit, progress=progress, control=control, client=client),
                  _analyse_text, chunked=True, default_limit=DECISION_LIMIT),
    ),
)
