"""Fire! battery sequencing: win probabilities under optimal play, valued
hints, replays, and a fixed strategy to compare with. Solo and team mode.
Rules: the project's spec, readings in docs/rules/fire.md.

>>> from smokejumper import fire, Limit
>>> level = fire.levels.default_level1()   # an assumed deck: see level.assumptions
>>> result = fire.solve(level.position(aliens=1), Limit(seconds=10))
>>> result.exact
True
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Sequence

from pydantic import (AliasChoices, BaseModel, ConfigDict, Discriminator, Field, SerializerFunctionWrapHandler,
                      StrictBool, StrictInt, Tag, computed_field, model_serializer,
                      model_validator)

from smokejumper import _core, _text
from smokejumper._core import Control, InvalidPositionError
from smokejumper._inputs import load_model
from smokejumper.games import (Game, Operation, operations, position_call,
                               position_search, position_request, request, search_request)
from smokejumper.limits import Limit, LimitRequest
from smokejumper.stats import wilson_interval
from smokejumper.values import ProvedProbability, SearchCounts, StoppedBy, TableCounts

_native = _core.fire
MAX_ALIENS: int = _native.MAX_ALIENS
MAX_WEAPONS: int = _native.MAX_WEAPONS
MAX_BATTERIES: int = _native.MAX_BATTERIES
MAX_CROSSHAIRS: int = _native.MAX_CROSSHAIRS
MAX_STRENGTH: int = _native.MAX_STRENGTH

Status = Literal["win", "loss", "reveal", "decision"]
Pile = Annotated[list["Battery"], Field(max_length=MAX_BATTERIES)]


def default_crosshairs(energy: int) -> int:
    """The spec's assumed Level 1 crosshairs: 2 on energy-1 batteries, else 1."""
    return 2 if energy == 1 else 1


class Battery(BaseModel):
    """A battery card. ``crosshairs`` left out takes the Level 1 default."""

    model_config = ConfigDict(extra="forbid")
    energy: StrictInt = Field(ge=1, le=5)
    crosshairs: StrictInt | None = Field(default=None, ge=0, le=MAX_CROSSHAIRS)

    @model_validator(mode="after")
    def _fill_crosshairs(self) -> Battery:
        if self.crosshairs is None:
            self.crosshairs = default_crosshairs(self.energy)
        return self

    def native(self) -> tuple[int, int]:
        return self.energy, int(self.crosshairs or 0)


class Alien(BaseModel):
    """Four strength values, highest first, and the hits taken (4 = destroyed)."""

    model_config = ConfigDict(extra="forbid")
    strengths: tuple[StrictInt, StrictInt, StrictInt, StrictInt] = Field(
        description="Values 1..1000, the next hit's first")
    hits: StrictInt = Field(default=0, ge=0, le=4)

    @model_validator(mode="after")
    def _check_strengths(self) -> Alien:
        for v in self.strengths:
            if not 1 <= v <= MAX_STRENGTH:
                raise ValueError(f"strengths must be 1..{MAX_STRENGTH}, got {v}")
        return self


class Player(BaseModel):
    """One team-mode player's weapons and piles. ``order_known`` left out
    takes the position's."""

    model_config = ConfigDict(extra="forbid")
    weapons: list[Pile] = Field(min_length=1, max_length=MAX_WEAPONS)
    draw: Pile = Field(default_factory=list)
    discard: Pile = Field(default_factory=list)
    destroyed: Pile = Field(default_factory=list)
    exchanges: StrictInt = Field(default=2, ge=0, le=2, description="Energy exchanges left this level")
    order_known: StrictBool | None = None


class Position(BaseModel):
    """The spec's position JSON, solo by default; ``"mode": "team"`` takes
    ``players`` instead of the solo piles. Always at a decision: before a
    reveal, or with a battery ``revealed``."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "aliens": [{"strengths": [12, 9, 6, 3], "hits": 0}],
                    "weapons": [[{"energy": 2, "crosshairs": 1}], [], []],
                    "draw": [{"energy": 1}, {"energy": 4}, {"energy": 5}, {"energy": 3}],
                    "discard": [],
                    "destroyed": [],
                    "revealed": None,
                    "order_known": False,
                }
            ]
        },
    )
    mode: Literal["solo", "team"] = "solo"
    aliens: list[Alien] = Field(min_length=1, max_length=MAX_ALIENS)
    weapons: list[Pile] | None = Field(default=None, min_length=1, max_length=MAX_WEAPONS)
    draw: Pile = Field(default_factory=list)
    discard: Pile = Field(default_factory=list)
    destroyed: Pile = Field(default_factory=list)
    players: list[Player] | None = Field(default=None, min_length=2, max_length=2)
    turn: StrictInt = Field(default=0, ge=0, le=1, description="Team mode: whose decision it is")
    revealed: Battery | None = None
    order_known: StrictBool = False

    @model_validator(mode="after")
    def _check_mode(self) -> Position:
        if self.mode == "solo":
            if self.weapons is None:
                raise ValueError("a solo position needs weapons")
            if self.players is not None:
                raise ValueError("players belong to team mode; add \"mode\": \"team\"")
            if self.turn != 0:
                raise ValueError("turn must be 0 in solo mode")
        else:
            if self.players is None:
                raise ValueError("a team position needs two players")
            if self.weapons is not None or self.draw or self.discard or self.destroyed:
                raise ValueError("in team mode, weapons and piles belong to each player")
        return self

    # Written in the spec's shape: a solo position without the team keys
    # (mode, players, turn), a team position without the solo ones. No
    # return annotation, so that the JSON schema stays the model's.
    @model_serializer(mode="wrap")
    def _spec_shape(self, handler: SerializerFunctionWrapHandler):
        data = handler(self)
        other_mode = ("weapons", "draw", "discard", "destroyed") if self.mode == "team" else ("mode", "players", "turn")
        for key in other_mode:
            data.pop(key, None)
        return data

    def native(self) -> tuple:
        """The position as the C++ core takes it."""

        def pile(batteries: list[Battery]) -> list[tuple[int, int]]:
            return [b.native() for b in batteries]

        aliens = [(tuple(a.strengths), a.hits) for a in self.aliens]
        if self.mode == "solo":
            assert self.weapons is not None
            players = [([pile(w) for w in self.weapons], pile(self.draw), pile(self.discard),
                        pile(self.destroyed), 0, self.order_known)]
        else:
            assert self.players is not None
            players = [([pile(w) for w in p.weapons], pile(p.draw), pile(p.discard), pile(p.destroyed),
                        p.exchanges, self.order_known if p.order_known is None else p.order_known)
                       for p in self.players]
        revealed = self.revealed.native() if self.revealed else None
        return self.mode == "team", aliens, players, self.turn, revealed


class Move(BaseModel):
    """Put the revealed battery on ``weapon`` (the player on turn's index);
    when it fires, shoot ``target`` and destroy a battery like ``destroy``
    (null when the shot wins at once). Team mode: ``{"give": true}`` hands
    it to the partner instead."""

    model_config = ConfigDict(extra="forbid")
    weapon: StrictInt | None = Field(default=None, ge=0, lt=MAX_WEAPONS)
    target: StrictInt | None = Field(default=None, ge=0, lt=MAX_ALIENS)
    destroy: Battery | None = None
    give: StrictBool = False

    @model_validator(mode="after")
    def _check_shape(self) -> Move:
        if self.give and (self.weapon is not None or self.target is not None or self.destroy is not None):
            raise ValueError("a give move has no weapon, target or destroy")
        if not self.give and self.weapon is None:
            raise ValueError("a move needs a weapon (or \"give\": true in team mode)")
        return self

    # The spec's move shape; a gift is just {"give": true}.
    @model_serializer(mode="wrap")
    def _spec_shape(self, handler: SerializerFunctionWrapHandler):
        data = handler(self)
        return {"give": True} if self.give else {k: v for k, v in data.items() if k != "give"}

    def native(self) -> tuple:
        return (self.give, -1 if self.weapon is None else self.weapon, -1 if self.target is None else self.target,
                self.destroy.native() if self.destroy else None)


class Reveal(BaseModel):
    """A replay step that reveals this battery from the draw pile."""

    model_config = ConfigDict(extra="forbid")
    reveal: Battery


class Stats(TableCounts, SearchCounts):
    """How a search went. ``stopped_by`` is null when it finished."""

    states_stored: int = Field(description="States in the table at the end")
    cutoffs: int = Field(description="Nodes left early because their bounds settled the question")
    bound_prunes: int = Field(description="Nodes settled by the dead-end bound alone")
    dominance_prunes: int = Field(description="Nodes settled by what is known of weaker or stronger states")
    max_depth: int


# Every value of a Fire! search is a proved interval on the win probability.
Value = ProvedProbability


class SolveStats(Stats):
    decided_by: Literal["split", "focused", "certain", "expectimax"] = Field(
        description="The search that gave the value: in team mode, the split plan (each player destroys "
                    "a share of the aliens alone) with its lookahead, when that reached 1 or looked to the end "
                    "of every line (then its value is exact); a won-for-certain proof with the focused choices "
                    "(weakest battery destroyed, most hits, no shot for nothing while a charge is possible) "
                    "or with every choice; or the expectimax")


class SolveResult(Value):
    won_for_certain: bool | None = Field(
        description="True: won whatever the reveals (the value is exactly 1); false: some reveals lose "
                    "against any play; null: not settled within the limits (or not asked)")
    stats: SolveStats


class Choice(Value):
    move: Move
    equivalent: list[Move] = Field(description="Other moves that reach the same state")


class RevealChoices(Value):
    battery: Battery
    probability: float
    moves: list[Choice] = Field(description="Best first")

    @computed_field(description="The earlier name of `moves`, still sent")
    @property
    def choices(self) -> list[Choice]:
        return self.moves


class HintResult(Value):
    status: Status
    position: Position = Field(description="The position after anything automatic (reshuffle, pass, known reveal)")
    moves: list[Choice] = Field(description="Every distinct choice at the decision, best first")
    reveals: list[RevealChoices] = Field(
        description="Before a hidden reveal: the choices after each battery that may come up")
    stats: Stats

    @computed_field(description="The earlier name of `moves`, still sent")
    @property
    def choices(self) -> list[Choice]:
        return self.moves


class SplitResult(Value):
    aliens: tuple[list[int], list[int]] = Field(
        description="The live aliens (input indices) each player destroys alone")
    stats: Stats


class CheckResult(BaseModel):
    status: Status
    position: Position
    moves: list[Move] = Field(description="Every legal move at the decision, unmerged")


class ReplayStep(BaseModel):
    step: Move | Reveal
    status: Status
    position: Position


class ReplayResult(BaseModel):
    status: Status = Field(description="After the last legal step")
    steps: list[ReplayStep]
    position: Position = Field(description="The position after the last legal step")
    error: str | None = Field(description="Why the first illegal step is illegal, if one is")


class StrategyResult(Value):
    """The fixed strategy (docs/rules/fire.md): exact value and simulation."""

    games: int = Field(description="Games simulated: those asked for, unless the limit or a stop came first")
    games_requested: int
    wins: int
    simulation_stopped_by: StoppedBy | None = Field(
        description="Why fewer games than asked for were simulated (the limit's time, or a stop); null when all were")
    stats: Stats


class Analysis(BaseModel):
    """A level's optimal win probability against the fixed strategy."""

    level: "levels.Level"
    aliens: int
    optimal: SolveResult
    strategy: StrategyResult
    strategy_simulated: float = Field(description="Simulated win share of the fixed strategy")
    strategy_interval95: tuple[float, float] = Field(description="95% Wilson interval of the simulated share")


PositionLike = Position | dict | str | bytes


def load_position(position: PositionLike) -> Position:
    """A validated Position from a model, dict or JSON text."""
    return load_model(Position, position)


def check(position: PositionLike) -> CheckResult:
    """Validate the rules and list every legal move."""
    return CheckResult.model_validate(_native.check(load_position(position).native()))


def solve(position: PositionLike, limit: Limit | None = None, *, control: Control | None = None,
          use_pruning: bool = True, use_dominance: bool = True, use_certain: bool = True,
          use_focus: bool = True, use_split: bool = True) -> SolveResult:
    """The win probability under optimal play: exact, or a proved interval
    when a limit stops the search. It first asks whether the position is
    won whatever the reveals (``won_for_certain``); in team mode, before
    that, how well the players do with the aliens split between them.
    ``use_pruning``, ``use_dominance``, ``use_certain`` (ask that first),
    ``use_focus`` (ask it first with the focused choices) and ``use_split``
    (value the split first) are for benchmarks and tests."""
    p = load_position(position)
    return SolveResult.model_validate(
        _native.solve(p.native(), *(limit or Limit()).native(), control, use_pruning, use_dominance, use_certain,
                      use_focus, use_split))


def hint(position: PositionLike, limit: Limit | None = None, *, control: Control | None = None) -> HintResult:
    """Every distinct choice with its win probability, best first (before a
    hidden reveal: per battery that may come up). The limit is shared."""
    p = load_position(position)
    return HintResult.model_validate(_native.hint(p.native(), *(limit or Limit()).native(), control))


def split(position: PositionLike, limit: Limit | None = None, *, control: Control | None = None) -> SplitResult:
    """Team mode: the best way to share the live aliens out, each player
    destroying its share alone and giving nothing more, with the chance that
    both succeed (their decks are separate, so it is the product of the two
    solo chances). A plan the players can follow, so its chance is a proved
    lower bound on the team's; ``interval`` is the plan's own."""
    p = load_position(position)
    return SplitResult.model_validate(_native.split(p.native(), *(limit or Limit()).native(), control))


def apply(position: PositionLike, move: Move | dict) -> CheckResult:
    """The position after ``move`` and whatever is automatic after it, with
    its legal moves (none once the game is over)."""
    p = load_position(position)
    m = load_model(Move, move)
    # A winning shot leaves the fired weapon at 10+ energy (nothing is
    # destroyed at a win), which a check of the won position refuses; a
    # replay step plays it without that check.
    played = replay(p, [m])
    if played.error is not None:
        _native.apply(p.native(), m.native())  # raises InvalidPositionError with the engine's own message
        raise InvalidPositionError(played.error)
    if played.status in ("win", "loss"):
        return CheckResult(status=played.status, position=played.position, moves=[])
    return check(played.position)


def replay(position: PositionLike, steps: Sequence[Move | Reveal | dict]) -> ReplayResult:
    """Play moves and reveals (``{"reveal": battery}``; a known order reveals
    by itself) step by step. ``status`` is "win" when the game is won."""
    p = load_position(position)
    current = _native.check(p.native())
    done: list[ReplayStep] = []
    error = None
    for i, raw in enumerate(steps):
        try:
            step: Move | Reveal = load_model(Reveal, raw) if _step_kind(raw) == "reveal" else load_model(Move, raw)
            now = load_position(current["position"]).native()
            if isinstance(step, Reveal):
                current = _native.reveal(now, step.reveal.native())
            else:
                current = _native.apply(now, step.native())
        except InvalidPositionError as e:
            error = f"steps[{i}]: {e}"
            break
        done.append(ReplayStep(step=step, status=current["status"], position=current["position"]))
    return ReplayResult(status=current["status"], steps=done, position=current["position"], error=error)


def strategy(position: PositionLike, *, games: int = 10000, seed: int = 1, limit: Limit | None = None,
             control: Control | None = None) -> StrategyResult:
    """The fixed strategy's exact win probability and its wins in ``games``
    seeded random games."""
    if not 0 <= games <= 10**8:
        raise ValueError(f"games must be 0..10**8, got {games}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be 0..2**64-1, got {seed}")
    p = load_position(position)
    return StrategyResult.model_validate(
        _native.strategy(p.native(), games, seed, *(limit or Limit()).native(), control))


def strategy_move(position: PositionLike) -> Move:
    """The fixed strategy's move at a decision."""
    return Move.model_validate(_native.strategy_move(load_position(position).native()))


from smokejumper.fire import levels  # noqa: E402  (levels builds Positions)

Analysis.model_rebuild()


def level(mode: Literal["solo", "team"]) -> levels.Level:
    """The Level 1 of ``mode``."""
    return levels.team_level1() if mode == "team" else levels.default_level1()


def _step_kind(step: Any) -> str:
    return "reveal" if isinstance(step, Reveal) or (isinstance(step, dict) and "reveal" in step) else "move"


# A step is a reveal when it has a "reveal" key, else a move: errors then
# name the field of the one it is (steps.3.move.weapon).
Step = Annotated[Annotated[Move, Tag("move")] | Annotated[Reveal, Tag("reveal")], Discriminator(_step_kind)]

# ------------------------------------------------------------ the game, as the house sees it

# The longest game: every shot but the winning one destroys a battery (at
# most MAX_BATTERIES of them); between two shots each placement adds energy
# to weapons that stay below 10 (at most 9 per weapon, two players' weapons
# in team mode); a placement is a reveal and a move. Four gives on top.
_PLAYERS = 2
MAX_STEPS = 2 * (MAX_BATTERIES + 1) * (_PLAYERS * MAX_WEAPONS * 9 + 1) + 2 * _PLAYERS
_LEVEL_ALIENS = min(len(level(m).aliens) for m in ("solo", "team"))

# One 12-9-6-3 alien, a weapon at 4 energy and five batteries to draw: small
# enough to solve exactly at once.
_EXAMPLE: dict[str, Any] = {
    "aliens": [{"strengths": [12, 9, 6, 3], "hits": 0}],
    "weapons": [[{"energy": 4, "crosshairs": 1}], [], []],
    "draw": [{"energy": 5}, {"energy": 5}, {"energy": 3}, {"energy": 1}, {"energy": 2}],
    "discard": [], "destroyed": [], "revealed": None, "order_known": False,
}
# A 5 revealed: on weapon 1 (4 + 5 energy, 2 crosshairs) it makes 14 energy
# and 3 crosshairs, so it fires for (14 - 10) * 3 = 12 damage: one hit.
_EXAMPLE_DECISION: dict[str, Any] = {
    **_EXAMPLE,
    "weapons": [[{"energy": 4, "crosshairs": 1}], [{"energy": 4, "crosshairs": 1}, {"energy": 5, "crosshairs": 1}], []],
    "draw": [{"energy": 3}, {"energy": 1}, {"energy": 2}],
    "revealed": {"energy": 5, "crosshairs": 1},
}
# Team mode, two aliens with two hits each and two players of four
# batteries: split answers at once.
_EXAMPLE_TEAM: dict[str, Any] = {
    "mode": "team",
    "aliens": [{"strengths": [6, 4, 2, 1], "hits": 2}, {"strengths": [6, 4, 2, 1], "hits": 2}],
    "players": [
        {"weapons": [[{"energy": 4}], []], "draw": [{"energy": 5}, {"energy": 3}, {"energy": 2}, {"energy": 4}],
         "discard": [], "destroyed": []},
        {"weapons": [[{"energy": 5}], []], "draw": [{"energy": 4}, {"energy": 3}, {"energy": 1}, {"energy": 5}],
         "discard": [], "destroyed": []},
    ],
    "turn": 0, "revealed": None, "order_known": False,
}
_MODE = (Literal["solo", "team"], Field("solo", description="which Level 1"))
_ALIENS = (int | None, Field(None, ge=1, le=_LEVEL_ALIENS, description="keep only the first N aliens (default: all)"))

def _sorted(pile: list[Battery]) -> list[Battery]:
    return sorted(pile, key=Battery.native)


def same_value_position(position: Position) -> Position:
    """The position with every order that cannot change its win probability
    sorted: the aliens, the weapons (each a multiset: its energy, crosshairs
    and the battery destroyed are the same in any order), the discard and
    destroyed piles, and the draw pile when its order is hidden; in team
    mode, the seats too. Symmetric positions then share one result cache
    entry for ``solve``."""

    def weapons(ws: list[list[Battery]]) -> list[list[Battery]]:
        return sorted((_sorted(w) for w in ws), key=lambda w: [b.native() for b in w])

    def piles(draw: list[Battery], discard: list[Battery], destroyed: list[Battery], order_known: bool) -> dict:
        return {"draw": draw if order_known else _sorted(draw), "discard": _sorted(discard),
                "destroyed": _sorted(destroyed)}

    aliens = sorted(position.aliens, key=lambda a: (a.strengths, a.hits))
    if position.mode == "solo":
        assert position.weapons is not None
        return position.model_copy(update={
            "aliens": aliens, "weapons": weapons(position.weapons),
            **piles(position.draw, position.discard, position.destroyed, position.order_known)})
    assert position.players is not None
    players = [p.model_copy(update={"weapons": weapons(p.weapons), **piles(
        p.draw, p.discard, p.destroyed, position.order_known if p.order_known is None else p.order_known)})
        for p in position.players]
    # The seats swapped, with the turn, is the same game told the other way.
    forms = [position.model_copy(update={"aliens": aliens, "players": seats, "turn": turn})
             for seats, turn in ((players, position.turn), (players[::-1], 1 - position.turn))]
    return min(forms, key=lambda f: f.model_dump_json())


SearchRequest = search_request("FireSearchRequest", Position, [{"position": _EXAMPLE, "limit": {"seconds": 5}}])
SplitRequest = search_request("FireSplitRequest", Position, [{"position": _EXAMPLE_TEAM, "limit": {"seconds": 5}}])
CheckRequest = position_request("FireCheckRequest", Position, [{"position": _EXAMPLE}])
DecisionRequest = position_request(
    "FireDecisionRequest", Position, [{"position": _EXAMPLE_DECISION}],
    "At a decision: a battery is revealed (or a known order reveals one)")
ApplyRequest = request(
    "FireApplyRequest", "A position at a decision and the move to play.",
    [{"position": _EXAMPLE_DECISION, "move": {"weapon": 1, "target": 0, "destroy": {"energy": 5, "crosshairs": 1}}}],
    position=(Position, ...), move=(Move, ...))
ReplayRequest = request(
    "FireReplayRequest", "A position and the steps to play from it.",
    [{"position": _EXAMPLE, "line": [{"reveal": {"energy": 5, "crosshairs": 1}}, {"weapon": 1},
                                     {"reveal": {"energy": 1, "crosshairs": 2}}, {"weapon": 0}]}],
    position=(Position, ...),
    # "line", as every game's replay names it; "steps", the name this route
    # took first, is still read.
    line=(list[Step], Field(max_length=MAX_STEPS, validation_alias=AliasChoices("line", "steps"),
                            description='Moves and reveals (`{"reveal": battery}`) in order; a known order '
                                        'reveals by itself (also read as "steps")')))
LevelsRequest = request(
    "FireLevelsRequest", "Which start of each level.", [{"aliens": 2}],
    aliens=_ALIENS,
    seed=(int | None, Field(None, ge=0, lt=2**64, description="deal a known order shuffled with this seed; "
                                                             "left out, the order is hidden")))
GenerateRequest = request(
    "FireGenerateRequest", "Which level start to make.", [{"mode": "solo", "aliens": 2, "seed": 7}],
    mode=_MODE, aliens=_ALIENS,
    seed=(int | None, Field(None, ge=0, lt=2**64, description="deal a known order shuffled with this seed "
                                                             "(default: the order is hidden)")))
AnalyseRequest = request(
    "FireAnalyseRequest", "Which level to analyse.", [{"mode": "solo", "aliens": 1, "games": 1000}],
    mode=_MODE, aliens=_ALIENS,
    games=(int, Field(100000, ge=0, le=10**8, description="simulated games of the fixed strategy")),
    seed=(int, Field(1, ge=0, lt=2**64, description="the simulation's seed")),
    limit=(LimitRequest | None, Field(None, description="For the optimal solve and for the strategy's value, each")))


class LevelStart(BaseModel):
    id: str = Field(description="solo-1 or team-1")
    level: levels.Level
    position: Position = Field(description="The level's start (with the aliens and order asked for)")


class Levels(BaseModel):
    levels: list[LevelStart]


class GenerateResult(BaseModel):
    level: levels.Level
    aliens: int
    seed: int | None
    position: Position


def value_text(v: Value) -> str:
    lo, hi = v.interval
    return f"{v.win_probability:.9f}" if v.exact else f"in [{lo:.9f}, {hi:.9f}] (not exact)"


def battery_text(b: Battery) -> str:
    """``battery (energy 1, 2 crosshairs)``: two numbers that cannot be read as a fraction."""
    n = b.crosshairs or 0
    return f"battery (energy {b.energy}, {n} crosshair{'' if n == 1 else 's'})"


def move_text(m: Move) -> str:
    if m.give:
        return "give it to the partner"
    text = f"weapon {m.weapon}"
    if m.target is not None:
        text += f", fire at alien {m.target}"
        if m.destroy is not None:
            text += f", destroy {battery_text(m.destroy)}"
    return text


def _choices_text(cs: list[Choice], indent: str) -> list[str]:
    return [f"{indent}{value_text(c)}  {move_text(c.move)}" + (f"  (+{len(c.equivalent)} equivalent)" if c.equivalent
                                                                else "") for c in cs]


def _solve_text(_request: object, r: SolveResult) -> str:
    certain = {True: "yes", False: "no", None: "not settled"}[r.won_for_certain]
    s = r.stats
    return (f"win probability: {value_text(r)}\nwon whatever the reveals: {certain}\n"
            f"nodes: {s.nodes}  states: {s.states_stored}  seconds: {s.seconds:.3f}  stopped by: {s.stopped_by or '-'}")


def _hint_text(_request: object, r: HintResult) -> str:
    lines = [f"{r.status}: win probability {value_text(r)}"] + _choices_text(r.moves, "  ")
    for rv in r.reveals:
        lines.append(f"  if {battery_text(rv.battery)} comes up (probability {rv.probability:.4f}): {value_text(rv)}")
        lines += _choices_text(rv.moves, "    ")
    return "\n".join(lines + [_text.stopped_text(r.stats)])


def _split_text(_request: object, r: SplitResult) -> str:
    return "\n".join([f"win probability of the split: {value_text(r)}"]
                     + [f"  player {i} destroys aliens {', '.join(map(str, a)) or '-'}" for i, a in enumerate(r.aliens)]
                     + [_text.stopped_text(r.stats)])


def _check_text(_request: object, r: CheckResult) -> str:
    return "\n".join([f"status: {r.status}"] + [f"  {move_text(m)}" for m in r.moves])


def _step_text(step: Move | Reveal) -> str:
    return f"reveal {battery_text(step.reveal)}" if isinstance(step, Reveal) else move_text(step)


def _replay_text(_request: object, r: ReplayResult) -> str:
    return _text.replay_text([_step_text(s.step) for s in r.steps], r)


def _levels(q: Any) -> Levels:
    return Levels(levels=[LevelStart(id=f"{mode}-1", level=level(mode), position=level(mode).position(
        aliens=q.aliens, seed=q.seed)) for mode in ("solo", "team")])


def _levels_text(_request: object, r: Levels) -> str:
    return "\n".join(f"{s.id}: {s.level.name}, {len(s.position.aliens)} aliens; assumed: "
                     f"{'; '.join(s.level.assumptions)}" for s in r.levels)


def _generate(q: Any) -> GenerateResult:
    chosen = level(q.mode)
    position = chosen.position(aliens=q.aliens, seed=q.seed)
    return GenerateResult(level=chosen, aliens=len(position.aliens), seed=q.seed, position=position)


def _generate_text(_request: object, r: GenerateResult) -> str:
    return _text.position_file(r.position.model_dump(mode="json"))


def _generate_note(_request: object, r: GenerateResult) -> str:
    order = "hidden" if r.seed is None else f"known (dealt with seed {r.seed})"
    return f"{r.level.name}, {r.aliens} aliens, order {order}; assumed: {'; '.join(r.level.assumptions)}"


def _analyse(q: Any, limit: Limit, control: Control, _progress: object) -> Analysis:
    chosen = level(q.mode)
    position = chosen.position(aliens=q.aliens)
    fixed = strategy(position, games=q.games, seed=q.seed, limit=limit, control=control)
    optimal = solve(position, limit, control=control)
    lo, hi = wilson_interval(fixed.wins, fixed.games) if fixed.games else (0.0, 1.0)
    return Analysis(level=chosen, aliens=len(position.aliens), optimal=optimal, strategy=fixed,
                    strategy_simulated=fixed.wins / fixed.games if fixed.games else 0.0, strategy_interval95=(lo, hi))


def _analyse_text(q: Any, r: Analysis) -> str:
    how = "proved won whatever the reveals" if r.optimal.won_for_certain else "expectimax"
    lo, hi = r.strategy_interval95
    o = r.optimal
    return "\n".join([
        f"{r.level.name}, {r.aliens} aliens (assumed: {'; '.join(r.level.assumptions)})",
        "| play | win probability | how |",
        "| --- | --- | --- |",
        f"| optimal | {value_text(o)} | {how}, {o.stats.nodes:,} nodes, {o.stats.seconds:.1f} s |",
        f"| fixed strategy | {value_text(r.strategy)} | exact policy value |",
        f"| fixed strategy | {r.strategy_simulated:.4f} [{lo:.4f}, {hi:.4f}] | {r.strategy.games:,} simulated games, "
        f"seed {q.seed} |",
    ])


GAME = Game(
    name="fire",
    title="Fire!",
    summary="Charge weapons with batteries to destroy the aliens: win probabilities under optimal play",
    rank=2,
    position=Position,
    move=Move,
    move_text=move_text,
    operations=operations(
        Operation("solve", "Win probability under optimal play: exact, or a proved interval at a limit", "search",
                  SearchRequest, SolveResult, position_search(solve),
                  _solve_text,
                  canonical=lambda q: q.model_copy(update={"position": same_value_position(q.position)})),
        Operation("hint", "Every distinct choice with its win probability, best first; before a hidden reveal, "
                  "per battery that may come up", "search", SearchRequest, HintResult,
                  position_search(hint), _hint_text),
        Operation("split", "Team mode: the best split of the aliens, each player destroying its share alone, and "
                  "its win probability (a proved lower bound on the team's)", "search", SplitRequest, SplitResult,
                  position_search(split), _split_text),
        Operation("check", "Validate a position, do what is automatic, and list every legal move", "quick",
                  CheckRequest, CheckResult, position_call(check), _check_text),
        Operation("apply", "Play one move; the position after it and whatever is automatic, with its legal moves",
                  "quick", ApplyRequest, CheckResult, lambda q: apply(q.position, q.move), _check_text),
        Operation("replay", "Play moves and reveals in order; stops at the first illegal step and says why",
                  "quick", ReplayRequest, ReplayResult, lambda q: replay(q.position, q.line), _replay_text,
                  outcome=_text.replay_outcome),
        Operation("strategy-move", "The fixed strategy's move at a decision", "quick", DecisionRequest, Move,
                  position_call(strategy_move), lambda _q, m: move_text(m)),
        Operation("levels", "Solo and team Level 1: the definitions, what is assumed, and their start positions",
                  "data", LevelsRequest, Levels, _levels, _levels_text),
        Operation("generate", "A Level 1 start: hidden order, or a known order dealt with a seed", "data",
                  GenerateRequest, GenerateResult, _generate, _generate_text, note=_generate_note),
        Operation("analyse", "A level's optimal win probability against the fixed strategy", "batch",
                  AnalyseRequest, Analysis, _analyse, _analyse_text),
    ),
)

__all__ = [
    "GAME", "Alien", "Analysis", "Battery", "CheckResult", "Choice", "HintResult", "Move", "Player", "Position",
    "Reveal", "ReplayResult", "SolveResult", "SplitResult", "StrategyResult", "apply", "check", "hint", "level",
    "levels", "replay", "same_value_position", "solve", "split", "strategy", "strategy_move",
]
