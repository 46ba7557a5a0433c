"""Tails on Fire: open-hand hunt values, the 3-card choice, replays of
rounds with the Rogue, seeded deals and whole games by a policy. Rules: the
project's spec (../shared/spec/tails.md), readings in docs/rules/tails.md.

>>> from smokejumper import tails, Limit
>>> made = tails.generate(seed=3, players=2)
>>> answer = tails.solve(made.position, Limit(seconds=10))
>>> answer.stats.stopped_by is None
True
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Annotated, Any, Callable, Literal, Sequence

from pydantic import (BaseModel, ConfigDict, Field, StrictBool, StrictInt, model_serializer,
                      model_validator)

from smokejumper import _batch, _core, _text
from smokejumper._core import Control, InvalidPositionError
from smokejumper._inputs import load_model, load_models
from smokejumper.games import Game, Operation, operations, position_call, position_request, request
from smokejumper.limits import Limit, LimitRequest
from smokejumper.stats import wilson_interval
from smokejumper.values import Estimate, SearchCounts, TableCounts, Verdict

_native = _core.tails
TRICK: int = _native.TRICK  # the trickster "+1", inside the core
ROGUE: int = _native.ROGUE  # the Rogue as an owner, inside the core
MAX_PLAYERS: int = _native.MAX_PLAYERS
MAX_FLAMES = 10**6  # on the whole table: far past the box's 27, small enough for exact sums
MAX_FIRE_CARDS = 64
MAX_LINE = 200  # a round has at most 9 laps of 6 seats and 10 plays per seat before its end

Number = Annotated[StrictInt, Field(ge=1, le=9)]
# An opossum: 1..9 or the trickster "+1". A number outside 1..9 reaches the
# engine, which names the field.
Card = StrictInt | Literal["+1"]
Owner = StrictInt | Literal["rogue"]
Status = Literal["ongoing", "win", "loss", "decision"]


def _card_in(c: int | str) -> int:
    return TRICK if c == "+1" else int(c)


def _card_out(c: int) -> int | str:
    return "+1" if c == TRICK else c


def card_key(c: int | str) -> tuple[int, int]:
    """The spec's order of cards: numbers ascending, "+1" last."""
    return (1, 0) if c == "+1" else (0, int(c))


class FireCard(BaseModel):
    """A fire card: its starting number and its flames."""

    model_config = ConfigDict(extra="forbid")
    start: StrictInt = Field(ge=-10**9, le=10**9)
    flames: StrictInt = Field(ge=-10**9, le=10**9)


class Stack(BaseModel):
    """A won fire stack: the opossum on top over its fire cards."""

    model_config = ConfigDict(extra="forbid")
    top: Card
    fire: list[FireCard] = Field(max_length=MAX_FIRE_CARDS)


class Player(BaseModel):
    model_config = ConfigDict(extra="forbid")
    hand: list[Card] = Field(max_length=10)
    den: list[Card] = Field(default_factory=list, max_length=10)
    exhausted: list[Card] = Field(default_factory=list, max_length=10)
    bonfire: Card | None = None
    stacks: list[Stack] = Field(default_factory=list, max_length=10)


class PileCard(BaseModel):
    model_config = ConfigDict(extra="forbid")
    owner: Owner
    card: Card


class Rogue(BaseModel):
    """The Rogue's deck (top first), whether its order is known, and its
    face-up reserve (bottom to top)."""

    model_config = ConfigDict(extra="forbid")
    deck: list[Card] = Field(default_factory=lambda: list(range(1, 10)), max_length=9)
    order: Literal["known", "hidden"] = "hidden"
    reserve: list[Card] = Field(default_factory=list, max_length=9)


_HUNT_EXAMPLE: dict = {
    "players": [
        {"hand": [4, 6, "+1"], "den": [1, 2, 3, 5, 7, 9], "bonfire": 8},
        {"hand": [5, 7, 8], "den": [1, 2, 3, 4, 6, "+1"], "bonfire": 9},
    ],
    "first": 0, "turn": 0, "lap": 0,
    "iguana": [{"start": 4, "flames": 3}, {"start": 2, "flames": 2}],
}


class Position(BaseModel):
    """The spec's position: a hunt (``turn`` given; the discard pile, bottom
    to top, makes it phase 2) or, with ``"phase": "choose"``, the start of a
    round before choosing (``hero``: the seat asking)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [_HUNT_EXAMPLE]})
    players: list[Player] = Field(min_length=2, max_length=MAX_PLAYERS)
    first: StrictInt = Field(0, ge=0, lt=MAX_PLAYERS)
    turn: StrictInt | Literal["rogue"] | None = Field(None, description="The seat to move, or \"rogue\" (hunts)")
    lap: StrictInt | None = Field(None, description="Phase 1's lap 0..8 (default 0)")
    start_number: StrictInt | None = Field(None, description="Optional; must agree with the lap")
    discard: list[PileCard] = Field(default_factory=list, max_length=70)
    iguana: list[FireCard] = Field(max_length=MAX_FIRE_CARDS, description="Top first; the top is this round's")
    rogue: Rogue | None = None
    phase: Literal["choose"] | None = None
    hero: StrictInt | None = Field(None, description="Choose positions: the seat asking")

    @model_serializer(mode="wrap")
    def _write(self, handler: Any) -> dict[str, Any]:
        """As the spec writes positions: a field left unset (null) is left out,
        and a choose position has no discard pile (the spec's "the same
        fields without turn, lap, discard")."""
        out = {k: v for k, v in handler(self).items() if v is not None}
        if self.phase == "choose":
            out.pop("discard", None)
        return out

    def native(self) -> dict[str, Any]:
        """The position as the core reads it."""
        n = len(self.players)
        choose = self.phase == "choose"
        if not choose and self.turn is None:
            raise InvalidPositionError("position.turn: a hunt position names the seat to move")
        if choose and (self.turn is not None or self.lap is not None or self.discard):
            raise InvalidPositionError("position.phase: a choose position has no turn, lap or discard pile")
        if not choose and self.hero is not None:
            raise InvalidPositionError("position.hero: only a choose position has a hero")
        if self.first >= n:
            raise InvalidPositionError(f"position.first: no seat {self.first}")
        # Bounded here, before the core's 32-bit fields could read a huge number.
        if isinstance(self.turn, int) and not 0 <= self.turn < n:
            raise InvalidPositionError(f"position.turn: no seat {self.turn}")
        if self.hero is not None and not 0 <= self.hero < n:
            raise InvalidPositionError(f"position.hero: no seat {self.hero}")
        if self.lap is not None and not 0 <= self.lap <= 8:
            raise InvalidPositionError(f"position.lap: must be 0..8, got {self.lap}")
        if self.start_number is not None and not 1 <= self.start_number <= 9:
            raise InvalidPositionError(f"position.start_number: must be 1..9, got {self.start_number}")
        for i, s in enumerate(self.iguana):
            for name, v, lo, hi in (("start", s.start, 1, 9), ("flames", s.flames, 0, MAX_FLAMES)):
                if not lo <= v <= hi:
                    raise InvalidPositionError(f"position.iguana.{i}.{name}: must be {lo}..{hi}, got {v}")
        for i, p in enumerate(self.players):
            for k, st in enumerate(p.stacks):
                for j, f in enumerate(st.fire):
                    for name, v, lo, hi in (("start", f.start, 1, 9), ("flames", f.flames, 0, MAX_FLAMES)):
                        if not lo <= v <= hi:
                            raise InvalidPositionError(
                                f"position.players.{i}.stacks.{k}.fire.{j}.{name}: must be {lo}..{hi}, got {v}")
        total = sum(f.flames for f in self.iguana) + sum(f.flames for p in self.players for st in p.stacks
                                                          for f in st.fire)
        if total > MAX_FLAMES:
            raise InvalidPositionError(f"position: at most {MAX_FLAMES} flames on the table in all, got {total}")
        for i, c in enumerate(self.discard):
            if c.owner != "rogue" and not 0 <= c.owner < n:
                raise InvalidPositionError(f"position.discard.{i}.owner: no seat {c.owner}")

        def card(c: int | str, where: str) -> int:
            if c != "+1" and not 1 <= int(c) <= 9:
                raise InvalidPositionError(f'position.{where}: a card is 1..9 or "+1", got {c}')
            return _card_in(c)

        def cards(cs: list, where: str) -> list[int]:
            return [card(c, f"{where}.{k}") for k, c in enumerate(cs)]

        return {
            "choose": choose,
            "hero": self.hero or 0,
            "players": [{"hand": cards(p.hand, f"players.{i}.hand"), "den": cards(p.den, f"players.{i}.den"),
                         "exhausted": cards(p.exhausted, f"players.{i}.exhausted"),
                         "bonfire": 0 if p.bonfire is None else card(p.bonfire, f"players.{i}.bonfire"),
                         "stacks": [(card(s.top, f"players.{i}.stacks.{k}.top"), [(f.start, f.flames) for f in s.fire])
                                    for k, s in enumerate(p.stacks)]}
                        for i, p in enumerate(self.players)],
            "first": self.first,
            "turn": -1 if self.turn is None else (ROGUE if self.turn == "rogue" else self.turn),
            "lap": self.lap or 0,
            "lap_given": self.lap is not None,
            "start_number": self.start_number or 0,
            "discard": [(ROGUE if c.owner == "rogue" else c.owner, card(c.card, f"discard.{k}.card"))
                        for k, c in enumerate(self.discard)],
            "iguana": [(f.start, f.flames) for f in self.iguana],
            "rogue": None if self.rogue is None else {
                "deck": cards(self.rogue.deck, "rogue.deck"), "known": self.rogue.order == "known",
                "reserve": cards(self.rogue.reserve, "rogue.reserve")},
        }

    @classmethod
    def from_native(cls, d: dict[str, Any]) -> Position:
        choose = d["choose"]
        players = [Player(hand=[_card_out(c) for c in p["hand"]], den=[_card_out(c) for c in p["den"]],
                          exhausted=[_card_out(c) for c in p["exhausted"]],
                          bonfire=None if p["bonfire"] == 0 else p["bonfire"],
                          stacks=[Stack(top=_card_out(t), fire=[FireCard(start=s, flames=f) for s, f in fire])
                                  for t, fire in p["stacks"]])
                   for p in d["players"]]
        rogue = None if d["rogue"] is None else Rogue(
            deck=d["rogue"]["deck"], order="known" if d["rogue"]["known"] else "hidden",
            reserve=d["rogue"]["reserve"])
        return cls(players=players, first=d["first"],
                   turn=None if choose else ("rogue" if d["turn"] == ROGUE else d["turn"]),
                   lap=d["lap"] if (not choose and d["lap_given"]) else None,
                   discard=[PileCard(owner="rogue" if o == ROGUE else o, card=_card_out(c)) for o, c in d["discard"]],
                   iguana=[FireCard(start=s, flames=f) for s, f in d["iguana"]], rogue=rogue,
                   phase="choose" if choose else None, hero=d["hero"] if choose else None)


class Move(BaseModel):
    """``{"play": 4}``, ``{"play": "+1"}`` or ``{"pass": true}``."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True,
                              json_schema_extra={"examples": [{"play": 4}, {"pass": True}]})
    play: Card | None = None
    pass_: StrictBool | None = Field(None, alias="pass")

    @model_validator(mode="after")
    def _one(self) -> Move:
        if (self.play is None) == (self.pass_ is None) or self.pass_ is False:
            raise ValueError('a move is {"play": card} or {"pass": true}')
        # Else 0 would read as a pass and 10 as the trickster inside the core.
        if isinstance(self.play, int) and not 1 <= self.play <= 9:
            raise ValueError(f'play: a card is 1..9 or "+1", got {self.play}')
        return self

    @model_serializer
    def _write(self) -> dict[str, Any]:
        return {"pass": True} if self.pass_ else {"play": self.play}

    def native(self) -> int:
        return 0 if self.pass_ else _card_in(self.play)  # type: ignore[arg-type]

    @classmethod
    def of(cls, m: int) -> Move:
        return cls(pass_=True) if m == 0 else cls(play=_card_out(m))


def move_text(m: Move) -> str:
    return "pass" if m.pass_ else f"play {m.play}"


# ------------------------------------------------------------ answers


class Stats(TableCounts, SearchCounts):
    """How a search went. ``stopped_by`` is null when it finished."""

    table_used: int


class HuntMove(BaseModel):
    move: Move
    flames: list[str] | None = Field(description="Every seat's flames after the round, as \"p/q\"")
    winner: dict[str, str] | None = Field(description="The chance of each winner: seats, \"rogue\", \"none\"")


class SolveResult(BaseModel):
    """The open-hand hunt value (backward induction, ties to the canonical
    first move, the hidden Rogue deck averaged)."""

    turn: int | Literal["rogue"] | None = Field(description="The seat to move (after the Rogue's forced turns)")
    flames: list[str] | None = Field(description="Every seat's flames after the round, exact; null at a limit")
    winner: dict[str, str] | None
    verdict: Verdict = Field(description="Whether the seat to move wins the round: win or loss when certain")
    moves: list[HuntMove] = Field(description="Every legal move of the seat to move, canonical order")
    best: Move | None
    line: list[Move] | None = Field(description="The equilibrium line of human moves to the round's end, "
                                                "when no hidden draw is met")
    rogue_draws: list[int] | None
    stats: Stats


class CheckResult(BaseModel):
    status: Status = Field(description="ongoing; win: the round has a winner; loss: it ended with no winner; "
                                       "decision: a choose position")
    turn: int | Literal["rogue"] | None
    start_number: int | None
    rogue_draw: bool = Field(description="The Rogue draws next from a hidden deck: no move until then")
    flames: list[int]
    moves: list[Move] = Field(description="The legal moves of the seat to move, canonical order")
    position: Position = Field(description="After the Rogue's turns that need no hidden draw")


class RogueTurn(BaseModel):
    played: Card | None
    drawn: int | None


class ReplayStep(BaseModel):
    seat: int
    move: Move
    rogue: list[RogueTurn] = Field(description="The Rogue's turns run after this move")
    status: Status


class RoundResult(BaseModel):
    winner: int | Literal["rogue"] | None
    winning_card: Card | None
    flames: list[int] = Field(description="Every seat's flames after the round")
    game_over: bool
    winners: list[int] = Field(description="At the game's end: the seats sharing the win")
    next: Position | None = Field(description="The next round's choose position")


class ReplayResult(BaseModel):
    status: Status
    rogue_first: list[RogueTurn] = Field(description="The Rogue's turns run before the first move")
    steps: list[ReplayStep]
    position: Position = Field(description="The hunt position after the last legal move")
    error: str | None
    round: RoundResult | None = Field(description="How the round ended, and the next round")


class GenerateResult(BaseModel):
    position: Position
    chosen: list[list[Card]] = Field(description="Every seat's choice (uniformly random from the seed)")


class DealResult(BaseModel):
    position: Position


class HuntResult(BaseModel):
    position: Position = Field(description="The round's hunt, at the first player's turn")
    chosen: list[list[Card]] = Field(description="Every seat's choice: the hero's as given, the others' drawn "
                                                 "from the seed")


class ChoiceValue(BaseModel):
    cards: list[Card]
    expected_flames: str | None = Field(description="Exact expected flames \"p/q\" (exact answers)")
    estimate: Estimate | None = Field(description="Sampled: the mean over opponents' sampled choices, each hunt "
                                                   "exact, with a 95% Hoeffding interval")


class ChooseResult(BaseModel):
    exact: bool = Field(description="Every opponents' choice enumerated (else sampled)")
    sampled_by: Literal["max_profiles", "limit", "rogue_order"] | None = Field(
        description="Why the answer was sampled: more profiles than max_profiles, more hunts than the limit "
                    "could pay for (priced by the first), or the Rogue's order drawn per sample (the hint "
                    "policy's own choice); null when exact")
    profiles: int = Field(description="Opponents' choice profiles per choice of the hero (0: too many to count)")
    choices: list[ChoiceValue] = Field(description="Best first; those a limit left unvalued last")
    best: list[Card] | None
    stats: Stats


# ------------------------------------------------------------ functions

PositionLike = Position | dict | str | bytes


def load_position(position: PositionLike) -> Position:
    return load_model(Position, position)


def _turn_out(t: int) -> int | Literal["rogue"] | None:
    return None if t < 0 else ("rogue" if t == ROGUE else t)


def _status(over: int) -> Status:
    return ("ongoing", "win", "loss")[over]  # type: ignore[return-value]


def check(position: PositionLike) -> CheckResult:
    """Validate (errors name the field) and list the legal moves of the seat to move."""
    p = load_position(position)
    raw = _native.check(p.native())
    status: Status = "decision" if p.phase == "choose" else _status(raw["over"])
    moves = [] if raw["rogue_draw"] else raw["moves"]
    return CheckResult(status=status, turn=None if p.phase == "choose" else _turn_out(raw["turn"]),
                       start_number=raw["start_number"] or None, rogue_draw=raw["rogue_draw"],
                       flames=raw["flames"], moves=[Move.of(m) for m in moves],
                       position=Position.from_native(raw["position"]))


def _hunt_position(position: PositionLike) -> Position:
    return load_position(position)  # the core validates it, then asks for a hunt position


def solve(position: PositionLike, limit: Limit | None = None, *, control: Control | None = None) -> SolveResult:
    """The hunt value with open hands: every seat's flames after the round,
    each winner's chance, every legal move's value, the best move and the line."""
    p = _hunt_position(position)
    raw = _native.solve(p.native(), *(limit or Limit()).native(), control)
    turn = _turn_out(raw["turn"])
    verdict: Verdict = "unknown"
    if raw["winner"] is not None and isinstance(turn, int):
        share = Fraction(raw["winner"][str(turn)])
        verdict = "win" if share == 1 else "loss" if share == 0 else "unknown"
    return SolveResult(
        turn=turn, flames=raw["flames"], winner=raw["winner"], verdict=verdict,
        moves=[HuntMove(move=Move.of(m["move"]), flames=m["flames"], winner=m["winner"]) for m in raw["moves"]],
        best=None if raw["best"] is None else Move.of(raw["best"]),
        line=None if raw["line"] is None else [Move.of(m) for m in raw["line"]],
        rogue_draws=raw["rogue_draws"], stats=Stats.model_validate(raw["stats"]))


hint = solve


def _rogue_turn(played: int, drawn: int) -> RogueTurn:
    return RogueTurn(played=_card_out(played) if played else None, drawn=drawn or None)


def _round(raw: dict[str, Any] | None) -> RoundResult | None:
    if raw is None:
        return None
    w = raw["winner"]
    return RoundResult(winner=None if w == 7 else ("rogue" if w == ROGUE else w),
                       winning_card=_card_out(raw["winning_card"]) if raw["winning_card"] else None,
                       flames=raw["flames"], game_over=raw["game_over"], winners=raw["winners"],
                       next=None if raw["next"] is None else Position.from_native(raw["next"]))


def replay(position: PositionLike, line: Sequence[Move | dict], rogue_draws: Sequence[int] | str = ()) -> ReplayResult:
    """Play the human moves of ``line`` in order, the Rogue by its script
    between them (a hidden deck's draws from ``rogue_draws``, in order);
    stops at the first illegal move. At the round's end, ``round`` gives
    the winner, the flames and the next round's choose position."""
    p = load_position(position)
    moves = load_models(Move, line, "line")
    draws = [int(d) for d in rogue_draws.replace(",", " ").split()] if isinstance(rogue_draws, str) else rogue_draws
    if len(draws) > 9 or not all(isinstance(d, int) and 1 <= d <= 9 for d in draws):
        raise InvalidPositionError("rogue_draws: at most nine cards 1..9")
    raw = _native.replay(p.native(), [m.native() for m in moves], [int(d) for d in draws])
    first: list[RogueTurn] = []
    steps: list[ReplayStep] = []
    k = 0
    for owner, played, drawn in raw["steps"]:
        if owner == ROGUE:
            (steps[-1].rogue if steps else first).append(_rogue_turn(played, drawn))
        else:
            steps.append(ReplayStep(seat=owner, move=moves[k], rogue=[], status="ongoing"))
            k += 1
    if steps:
        steps[-1].status = _status(raw["over"])
    return ReplayResult(status=_status(raw["over"]), rogue_first=first, steps=steps,
                        position=Position.from_native(raw["position"]), error=raw["error"],
                        round=_round(raw["round"]))


def _rogue_default(players: int, rogue: bool | None) -> bool:
    return players <= 3 if rogue is None else rogue


def deal(seed: int, *, players: int = 3, rogue: bool | None = None, rogue_order: str = "hidden") -> DealResult:
    """A seeded set-up: the first round's choose position (hero 0)."""
    raw = _native.deal(seed, players, _rogue_default(players, rogue), rogue_order == "known")
    return DealResult(position=Position.from_native(raw))


def generate(seed: int, *, players: int = 3, rogue: bool | None = None, rogue_order: str = "known") -> GenerateResult:
    """A seeded deal with every seat's 3 cards chosen uniformly at random:
    the first round's hunt. The Rogue's shuffled deck is known by default
    (a deal fixes it), so that lines replay without draws."""
    choose = _native.deal(seed, players, _rogue_default(players, rogue), rogue_order == "known")
    rng = random.Random(seed)
    chosen = [rng.choice(_native.choices(p["hand"])) for p in choose["players"]]
    hunt = _native.hunt_from_choice(choose, chosen)
    return GenerateResult(position=Position.from_native(hunt), chosen=[[_card_out(c) for c in cs] for cs in chosen])


def _cards_in(cards: Sequence[int | str] | str) -> list[int]:
    """The hero's cards: a list, or text such as "4,6,+1" (the CLI's option)."""
    if isinstance(cards, str):
        words = cards.replace(",", " ").split()
        for k, w in enumerate(words):
            if w != "+1" and not w.isdigit():
                raise InvalidPositionError(f'cards.{k}: a card is 1..9 or "+1", got {w}')
        cards = [w if w == "+1" else int(w) for w in words]
    for k, c in enumerate(cards):
        if c != "+1" and not (isinstance(c, int) and 1 <= c <= 9):
            raise InvalidPositionError(f'cards.{k}: a card is 1..9 or "+1", got {c}')
    return [_card_in(c) for c in cards]


def hunt(position: PositionLike, cards: Sequence[int | str] | str, seed: int) -> HuntResult:
    """A round's hunt from its choose position: the hero takes ``cards``,
    every other seat 3 cards uniformly at random from ``seed``, drawn seat by
    seat as :func:`generate` draws them (the hero's draw is made and set
    aside), so that ``deal(s)`` with the hero's cards of ``generate(s)`` is
    generate's hunt. The engine's move to the hunt, for a page or a caller
    that plays a seeded game choice by choice."""
    p = load_position(position)
    if p.phase != "choose":
        raise InvalidPositionError("position.phase: a choose position is needed here")
    native = p.native()
    hero = p.hero or 0
    rng = random.Random(seed)
    chosen = [rng.choice(_native.choices(pl["hand"])) for pl in native["players"]]
    mine = sorted(_cards_in(cards))
    if mine not in [sorted(c) for c in _native.choices(native["players"][hero]["hand"])]:
        raise InvalidPositionError(f"cards: not 3 cards of seat {hero}'s hand (all of it when it has fewer)")
    chosen[hero] = mine
    raw = _native.hunt_from_choice(native, chosen)
    return HuntResult(position=Position.from_native(raw), chosen=[[_card_out(c) for c in cs] for cs in chosen])


def _fraction_text(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator}"


def choose(position: PositionLike, limit: Limit | None = None, *, control: Control | None = None,
           max_profiles: int = 20_000, samples: int = 200, seed: int = 1,
           draw_rogue_order: bool = False) -> ChooseResult:
    """The hero's every 3-card choice with its expected flames, opponents
    choosing uniformly at random, the hunt then played to its value; exact
    when the opponents' profiles are at most ``max_profiles`` and the limit
    can pay for every hunt (priced by the first), else sampled: up to
    ``samples`` seeded profiles, each valued against every choice, until the
    limit; each choice's mean comes with a 95% Hoeffding interval.
    ``draw_rogue_order`` (the hint policy's, not the service's): each sample
    also draws the Rogue deck's order and the hunts see it, a guide
    thousands of times cheaper than the hidden deck's expected flames."""
    p = load_position(position)  # the core validates it, then asks for a choose position
    raw = _native.choose(p.native(), max_profiles, samples, seed, *(limit or Limit()).native(), control,
                         draw_rogue_order)
    out = []
    for c in raw["choices"]:
        cards = [_card_out(x) for x in c["cards"]]
        if not c["done"]:
            out.append(ChoiceValue(cards=cards, expected_flames=None, estimate=None))
        elif raw["exact"]:
            out.append(ChoiceValue(cards=cards, expected_flames=f"{c['num']}/{c['den']}", estimate=None))
        else:
            out.append(ChoiceValue(cards=cards, expected_flames=None,
                                   estimate=Estimate(value=c["mean"], ci95=(c["lo"], c["hi"]), n=c["samples"])))
    done = [c for c, r in zip(out, raw["choices"]) if r["done"]]
    return ChooseResult(exact=raw["exact"], sampled_by=raw["sampled_by"], profiles=raw["profiles"], choices=out,
                        best=done[0].cards if done else None, stats=Stats.model_validate(raw["stats"]))


# ------------------------------------------------------------ whole games by a policy

Policy = Literal["hint", "tip", "random"]
# The hint policy's 3-card choice is `choose` from the seat's own view,
# under a budget a game can pay for each seat and round: CHOICE_SAMPLES
# sampled opponents' profiles, every choice valued on each, within
# CHOICE_NODES (about a second) and CHOICE_MEMORY_MB. With the Rogue each
# sample draws the deck's order too (its hidden deck's chance tree costs
# about 0.2 million nodes a hunt at 2 seats, and a sample is 84 hunts). A
# choice left unvalued (a sample past the budget: 6 seats cost 0.1-0.25
# million nodes a first-round sample) sends the policy back to the tip
# rather than to the best of a few.
CHOICE_SAMPLES = 8
CHOICE_NODES = 2_000_000
CHOICE_MEMORY_MB = 64


class RoundRecord(BaseModel):
    chosen: list[list[Card]]
    line: list[Move]
    rogue_draws: list[int]
    winner: int | Literal["rogue"] | None
    flames: list[int]


class PlayResult(BaseModel):
    start: Position = Field(description="The first round's choose position")
    policies: list[Policy]
    rounds: list[RoundRecord]
    flames: list[int]
    winners: list[int]
    complete: bool = Field(description="False when a limit stopped a search: the hint player fell back to passing")


def _hunt_move(policy: str, position: Position, rng: random.Random, limit: Limit | None,
               control: Control | None) -> tuple[Move, bool]:
    legal = check(position).moves
    if policy == "random" or len(legal) == 1:
        return rng.choice(legal), True
    answer = solve(position, limit, control=control)
    if answer.best is None:
        return legal[0], False
    return answer.best, True


def _choice(policy: str, position: Position, seat: int, rng: random.Random, control: Control | None) -> list[int]:
    """Seat ``seat``'s 3 cards (the core's numbers) for the round of the
    choose ``position``."""
    options = _native.choices([_card_in(c) for c in position.players[seat].hand])
    if policy == "random" or len(options) == 1:
        return rng.choice(options)
    if policy == "hint":
        best = _best_choice(position, seat, rng, control)
        if best is not None:
            return best
    start_no = position.iguana[0].start
    near = [o for o in options if start_no in o or start_no % 9 + 1 in o]
    return rng.choice(near or options)


def _best_choice(position: Position, seat: int, rng: random.Random, control: Control | None) -> list[int] | None:
    """The best 3 cards by :func:`choose` from the seat's view under the
    policy's budget; None when the budget left a choice unvalued."""
    view = position.model_copy(update={"hero": seat})
    answer = choose(view, Limit(nodes=CHOICE_NODES, memory_mb=CHOICE_MEMORY_MB), control=control, max_profiles=1,
                    samples=CHOICE_SAMPLES, seed=rng.getrandbits(63), draw_rogue_order=True)
    if answer.best is None or any(c.estimate is None for c in answer.choices):
        return None
    return sorted(_card_in(c) for c in answer.best)


def play(seed: int, policies: Sequence[str], *, rogue: bool | None = None, limit: Limit | None = None,
         control: Control | None = None) -> PlayResult:
    """A whole seeded game: seat i plays by ``policies[i]``. "hint": the
    open-hand hunt's best move, and the best 3 cards by :func:`choose` from
    the seat's view (CHOICE_SAMPLES sampled profiles, within CHOICE_NODES;
    the tip's cards when that budget cannot value every choice); "tip": the
    same moves, and 3 cards at random among the choices whose cards hold
    the starting number or its successor when any do (the rulebook's tip);
    "random": uniform. The Rogue's deck is shuffled from the seed, hidden."""
    players = len(policies)
    if not 2 <= players <= MAX_PLAYERS:
        raise InvalidPositionError(f"policies: 2 to {MAX_PLAYERS} seats, got {players}")
    rng = random.Random(seed)
    position = deal(seed, players=players, rogue=rogue, rogue_order="hidden").position
    start = position
    rounds: list[RoundRecord] = []
    complete = True
    flames = [0] * players
    winners: list[int] = []
    for _ in range(20):
        chosen = [_choice(policies[i], position, i, rng, control) for i in range(players)]
        hunt = Position.from_native(_native.hunt_from_choice(position.native(), chosen))
        line: list[Move] = []
        draws: list[int] = []
        state = hunt
        while True:
            c = check(state)
            if c.status != "ongoing":
                break
            if c.rogue_draw:
                deck = list(state.rogue.deck) if state.rogue else []
                draws.append(int(rng.choice(deck)))  # type: ignore[arg-type]
            else:
                move, ok = _hunt_move(policies[c.turn] if isinstance(c.turn, int) else "random", c.position, rng,
                                      limit, control)
                complete &= ok
                line.append(move)
            r = replay(hunt, line, draws)
            if r.error:
                raise RuntimeError(r.error)
            if r.round is not None:
                # Over. After nine laps with no play the position cannot say
                # so (a lap is 0..8), so the replay's round is what tells.
                break
            state = r.position
        r = replay(hunt, line, draws)
        assert r.round is not None
        rounds.append(RoundRecord(chosen=[[_card_out(x) for x in cs] for cs in chosen], line=line,
                                  rogue_draws=draws, winner=r.round.winner, flames=r.round.flames))
        flames = r.round.flames
        if r.round.game_over or r.round.next is None:
            winners = r.round.winners
            break
        position = r.round.next
    return PlayResult(start=start, policies=list(policies), rounds=rounds, flames=flames, winners=winners,
                      complete=complete)  # type: ignore[arg-type]


class PolicyShare(BaseModel):
    policy: Policy
    seats: int = Field(description="Seat-games played by this policy")
    wins: int = Field(description="Seat-games won (a shared win counts for each seat sharing it)")
    win_share: float
    interval95: tuple[float, float] = Field(description="95% Wilson interval")


class Analysis(BaseModel):
    games: int
    policies: list[Policy]
    shares: list[PolicyShare]
    mean_flames: list[float] = Field(description="Per seat")


def analyse(games: int, policies: Sequence[str], *, seed: int = 1, limit: Limit | None = None,
            workers: int | None = None, progress: Callable[[int, int], None] | None = None,
            control: Control | None = None) -> Analysis:
    """Policies against each other over ``games`` seeded games (seeds
    ``seed ..``): each policy's win share over the seats it played."""
    seed_range = _batch.seeds(games, seed, "games")
    threads = _batch.thread_count(workers)
    results = _batch.run(lambda s, c: play(s, policies, limit=limit, control=c), seed_range, threads, progress,
                         control)
    names = sorted(set(policies))
    shares = []
    for name in names:
        seats = [i for i, p in enumerate(policies) if p == name]
        wins = sum(1 for r in results for i in seats if i in r.winners)
        total = len(results) * len(seats)
        shares.append(PolicyShare(policy=name, seats=total, wins=wins, win_share=wins / total if total else 0.0,
                                  interval95=wilson_interval(wins, total)))  # type: ignore[arg-type]
    mean = [sum(r.flames[i] for r in results) / len(results) for i in range(len(policies))] if results else []
    return Analysis(games=len(results), policies=list(policies), shares=shares,
                    mean_flames=mean)  # type: ignore[arg-type]


# ------------------------------------------------------------ the game, as the house sees it

_SEARCH_EXAMPLE = {"position": _HUNT_EXAMPLE, "limit": {"seconds": 5}}
_CHOOSE_EXAMPLE: dict = {
    "players": [{"hand": [1, 2, 3, 4, 5], "bonfire": 8}, {"hand": [4, 5, 6, 7], "bonfire": 9}],
    "first": 0, "iguana": [{"start": 4, "flames": 3}], "phase": "choose", "hero": 0,
}

SearchRequest = request(
    "TailsSearchRequest", "A hunt position to value, under a limit.", [_SEARCH_EXAMPLE],
    position=(Position, ...), limit=(LimitRequest | None, Field(None, description="For the search")))
ChooseRequest = request(
    "TailsChooseRequest", "A choose position; the hero's choices are valued.",
    [{"position": _CHOOSE_EXAMPLE, "max_profiles": 20000, "samples": 200, "seed": 1, "limit": {"seconds": 5}}],
    position=(Position, ...),
    max_profiles=(int, Field(20_000, ge=1, le=10**7, description="Exact up to this many opponents' profiles")),
    samples=(int, Field(200, ge=1, le=100_000, description="Sampled profiles per choice, past max_profiles")),
    seed=(int, Field(1, ge=0, lt=2**64, description="For the samples")),
    limit=(LimitRequest | None, Field(None, description="For the search")))
CheckRequest = position_request("TailsCheckRequest", Position, [{"position": _HUNT_EXAMPLE}])
ReplayRequest = request(
    "TailsReplayRequest", "A hunt position and the human moves to play from it.",
    [{"position": _HUNT_EXAMPLE, "line": [{"play": 4}, {"pass": True}], "rogue_draws": []}],
    position=(Position, ...), line=(list[Move], Field(max_length=MAX_LINE, description="Human moves in order")),
    rogue_draws=(list[Number] | Annotated[str, Field(max_length=40, pattern=r"^[1-9 ,]*$")],
                 Field(default_factory=list, description="A hidden Rogue deck's draws in order: a list, "
                                                         "or text such as \"5,8,3\" (the CLI's option)")))
_DEAL_FIELDS: dict[str, Any] = dict(
    seed=(int, Field(ge=0, lt=2**64, description="Same seed, same deal")),
    players=(int, Field(3, ge=2, le=MAX_PLAYERS, description="Seats")),
    rogue=(bool | None, Field(None, description="With the Rogue (default: for 2-3 players)")))
GenerateRequest = request(
    "TailsGenerateRequest", "Which deal to make.", [{"seed": 3, "players": 3}], **_DEAL_FIELDS,
    rogue_order=(Literal["known", "hidden"], Field("known", description="The Rogue's deck order")))
DealRequest = request(
    "TailsDealRequest", "Which deal to make.", [{"seed": 3, "players": 3}], **_DEAL_FIELDS,
    rogue_order=(Literal["known", "hidden"], Field("hidden", description="The Rogue's deck order")))
HuntRequest = request(
    "TailsHuntRequest", "A choose position, the hero's 3 cards and the seed of the others' choices.",
    [{"position": _CHOOSE_EXAMPLE, "cards": [1, 2, 3], "seed": 1}],
    position=(Position, ...),
    cards=(Annotated[list[Card], Field(max_length=10)] | Annotated[str, Field(max_length=40, pattern=r"^[1-9+, ]*$")],
           Field(description="The hero's choice: a list, or text such as \"4,6,+1\" "
                                            "(the CLI's option)")),
    seed=(int, Field(ge=0, lt=2**64, description="The other seats' choices, drawn as generate draws them")))
_POLICIES = (list[Policy], Field(min_length=2, max_length=MAX_PLAYERS, description="One policy per seat"))
PlayRequest = request(
    "TailsPlayRequest", "A whole seeded game by policies.", [{"seed": 1, "policies": ["hint", "random"]}],
    seed=(int, Field(ge=0, lt=2**64, description="The deal, choices and draws")), policies=_POLICIES,
    rogue=(bool | None, Field(None, description="With the Rogue (default: for 2-3 players)")),
    limit=(LimitRequest | None, Field(None, description="For each hunt search")))
AnalyseRequest = request(
    "TailsAnalyseRequest", "Policies against each other.", [{"games": 20, "policies": ["hint", "random"]}],
    games=(int, Field(ge=1, le=_batch.MAX_COUNT, description="How many games")), policies=_POLICIES,
    seed=(int, Field(1, ge=0, lt=2**64, description="The first game's seed")),
    workers=(int | None, Field(None, ge=1, le=_batch.MAX_WORKERS, description="Threads (default: every core)")),
    limit=(LimitRequest | None, Field(None, description="For each hunt search")))


def _hunt_text(_req: object, r: SolveResult) -> str:
    lines = [f"seat to move: {r.turn}; flames after the round: {r.flames}; winner: {r.winner}"]
    for m in r.moves:
        mark = "*" if r.best is not None and m.move == r.best else " "
        lines.append(f" {mark} {move_text(m.move):8} flames {m.flames}")
    if r.line is not None:
        lines.append("line: " + ", ".join(move_text(m) for m in r.line))
    return "\n".join(lines + [_text.stopped_text(r.stats)])


def _check_text(_req: object, r: CheckResult) -> str:
    head = f"status: {r.status}; turn: {r.turn}; starting number: {r.start_number}; flames: {r.flames}"
    if r.rogue_draw:
        head += "; the Rogue draws next"
    return "\n".join([head] + [f"  {move_text(m)}" for m in r.moves])


def _replay_text(_req: object, r: ReplayResult) -> str:
    text = _text.replay_text([f"seat {s.seat} {move_text(s.move)}" for s in r.steps], r)
    if r.round is not None:
        text += f"\nround winner: {r.round.winner}; flames: {r.round.flames}"
    return text


def _position_text(_req: object, r: Any) -> str:
    return _text.position_file(r.position.model_dump(mode="json", exclude_none=True))


def _choose_text(_req: object, r: ChooseResult) -> str:
    why = {"max_profiles": "past max_profiles", "limit": "for the limit", "rogue_order": "the Rogue's order drawn"}
    how = "exact" if r.exact else f"sampled ({why.get(r.sampled_by or '', '')})"
    lines = [f"{how} over {r.profiles} opponents' profiles"]
    for c in r.choices:
        value = c.expected_flames if c.expected_flames else (
            f"{c.estimate.value:.3f} [{c.estimate.ci95[0]:.3f}, {c.estimate.ci95[1]:.3f}]" if c.estimate else "-")
        lines.append(f"  {c.cards}: {value}")
    return "\n".join(lines + [_text.stopped_text(r.stats)])


def _play_text(_req: object, r: PlayResult) -> str:
    lines = [f"round {i + 1}: winner {rr.winner}, flames {rr.flames}" for i, rr in enumerate(r.rounds)]
    return "\n".join(lines + [f"final flames {r.flames}; winners {r.winners}"])


def _analyse_text(_req: object, r: Analysis) -> str:
    lines = [f"{r.games} games, policies {r.policies}"]
    lines += [f"  {s.policy}: {s.wins}/{s.seats} = {s.win_share:.3f} [{s.interval95[0]:.3f}, {s.interval95[1]:.3f}]"
              for s in r.shares]
    return "\n".join(lines)


GAME = Game(
    name="tails",
    title="Tails on Fire",
    summary="Hunts for fire cards with opossums: open-hand round values, the 3-card choice, the Rogue",
    rank=6,
    position=Position,
    move=Move,
    move_text=move_text,
    operations=operations(
        Operation("solve", "The open-hand hunt value: every seat's flames, the best move and the line", "search",
                  SearchRequest, SolveResult, lambda q, limit, control: solve(q.position, limit, control=control),
                  _hunt_text),
        Operation("hint", "Every legal move with its value (open hands), the best marked", "search",
                  SearchRequest, SolveResult, lambda q, limit, control: hint(q.position, limit, control=control),
                  _hunt_text),
        Operation("choose", "Each 3-card choice's expected flames against random opponents' choices", "search",
                  ChooseRequest, ChooseResult,
                  lambda q, limit, control: choose(q.position, limit, control=control, max_profiles=q.max_profiles,
                                                   samples=q.samples, seed=q.seed),
                  _choose_text, capped={"samples": "samples"}),
        Operation("check", "Validate a position and list the legal moves", "quick",
                  CheckRequest, CheckResult, position_call(check), _check_text),
        Operation("replay", "Play human moves in order, the Rogue between them; the round's end and the next round",
                  "quick", ReplayRequest, ReplayResult, lambda q: replay(q.position, q.line, q.rogue_draws),
                  _replay_text, outcome=_text.replay_outcome),
        Operation("generate", "A seeded deal with random choices: the first round's hunt", "quick",
                  GenerateRequest, GenerateResult,
                  lambda q: generate(q.seed, players=q.players, rogue=q.rogue, rogue_order=q.rogue_order),
                  _position_text),
        Operation("deal", "A seeded set-up: the first round's choose position", "quick",
                  DealRequest, DealResult,
                  lambda q: deal(q.seed, players=q.players, rogue=q.rogue, rogue_order=q.rogue_order),
                  _position_text),
        Operation("hunt", "A round's hunt from its choose position: the hero's 3 cards, the others' from the seed",
                  "quick", HuntRequest, HuntResult, lambda q: hunt(q.position, q.cards, q.seed), _position_text),
        Operation("play", "A whole seeded game by a policy per seat, with its record", "batch",
                  PlayRequest, PlayResult,
                  lambda q, limit, control, progress: play(q.seed, q.policies, rogue=q.rogue, limit=limit,
                                                           control=control),
                  _play_text),
        Operation("analyse", "Policies against each other over seeded games: win shares with intervals", "batch",
                  AnalyseRequest, Analysis,
                  lambda q, limit, control, progress: analyse(q.games, q.policies, seed=q.seed, limit=limit,
                                                              workers=q.workers, progress=progress, control=control),
                  _analyse_text),
    ),
)
