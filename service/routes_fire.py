"""/v1/fire/...: solve, hint, split, check, apply, replay, the fixed strategy's
move, and the Level 1 definitions for Fire!

Bodies and answers reuse the models of :mod:`smokejumper.fire`; every call
into the core runs in the server's bounded :class:`~.runner.Runner` under its
caps, like Volcano's."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request
from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag

from smokejumper import InvalidPositionError, fire
from smokejumper.fire import (CheckResult, HintResult, Move, Position, ReplayResult, Reveal, SolveResult,
                              SplitResult)
from smokejumper.fire.levels import Level

from .limits import LimitRequest, Searches
from .problems import problem_responses
from .runner import Runner
from .settings import Settings

# The longest game: every shot but the winning one destroys a battery (at
# most MAX_BATTERIES of them); between two shots each placement adds energy
# to weapons that stay below 10 (at most 9 per weapon, two players' weapons
# in team mode); a placement is a reveal and a move. Four gives on top.
_PLAYERS = 2
MAX_STEPS = 2 * (fire.MAX_BATTERIES + 1) * (_PLAYERS * fire.MAX_WEAPONS * 9 + 1) + 2 * _PLAYERS

_LEVELS = (("solo-1", fire.levels.default_level1), ("team-1", fire.levels.team_level1))
_LEVEL_ALIENS = min(len(make().aliens) for _, make in _LEVELS)

# One 12-9-6-3 alien, a weapon at 4 energy and five batteries to draw: small
# enough to solve exactly at once.
_EXAMPLE_POSITION: dict[str, Any] = {
    "aliens": [{"strengths": [12, 9, 6, 3], "hits": 0}],
    "weapons": [[{"energy": 4, "crosshairs": 1}], [], []],
    "draw": [{"energy": 5}, {"energy": 5}, {"energy": 3}, {"energy": 1}, {"energy": 2}],
    "discard": [],
    "destroyed": [],
    "revealed": None,
    "order_known": False,
}
# A 5 revealed: on weapon 1 (4 + 5 energy, 2 crosshairs) it makes 14 energy
# and 3 crosshairs, so it fires for (14 - 10) * 3 = 12 damage: one hit.
_EXAMPLE_DECISION: dict[str, Any] = {
    **_EXAMPLE_POSITION,
    "weapons": [[{"energy": 4, "crosshairs": 1}], [{"energy": 4, "crosshairs": 1}, {"energy": 5, "crosshairs": 1}], []],
    "draw": [{"energy": 3}, {"energy": 1}, {"energy": 2}],
    "revealed": {"energy": 5, "crosshairs": 1},
}
_EXAMPLE_FIRING_MOVE: dict[str, Any] = {"weapon": 1, "target": 0, "destroy": {"energy": 5, "crosshairs": 1}}


def _step_kind(step: Any) -> str:
    return "reveal" if isinstance(step, Reveal) or (isinstance(step, dict) and "reveal" in step) else "move"


# A step is a reveal when it has a "reveal" key, else a move: errors then
# name the field of the one it is (body.steps.3.move.weapon).
Step = Annotated[Annotated[Move, Tag("move")] | Annotated[Reveal, Tag("reveal")], Discriminator(_step_kind)]


class FireSearchRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"position": _EXAMPLE_POSITION, "limit": {"seconds": 5}}]},
    )
    position: Position
    limit: LimitRequest | None = None


# Team mode, two aliens with two hits each and two players of four batteries:
# split answers at once.
_EXAMPLE_TEAM: dict[str, Any] = {
    "mode": "team",
    "aliens": [{"strengths": [6, 4, 2, 1], "hits": 2}, {"strengths": [6, 4, 2, 1], "hits": 2}],
    "players": [
        {"weapons": [[{"energy": 4}], []], "draw": [{"energy": 5}, {"energy": 3}, {"energy": 2}, {"energy": 4}],
         "discard": [], "destroyed": []},
        {"weapons": [[{"energy": 5}], []], "draw": [{"energy": 4}, {"energy": 3}, {"energy": 1}, {"energy": 5}],
         "discard": [], "destroyed": []},
    ],
    "turn": 0,
    "revealed": None,
    "order_known": False,
}


class FireSplitRequest(FireSearchRequest):
    """A solve's body; split takes team positions only, hence its own example."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"position": _EXAMPLE_TEAM, "limit": {"seconds": 5}}]},
    )


class FireCheckRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"position": _EXAMPLE_POSITION}]})
    position: Position


class FireDecisionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"position": _EXAMPLE_DECISION}]})
    position: Position = Field(description="At a decision: a battery is revealed (or a known order reveals one)")


class FireApplyRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"position": _EXAMPLE_DECISION, "move": _EXAMPLE_FIRING_MOVE}]},
    )
    position: Position
    move: Move


class FireReplayRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"position": _EXAMPLE_POSITION,
                          "steps": [{"reveal": {"energy": 5, "crosshairs": 1}}, {"weapon": 1},
                                    {"reveal": {"energy": 1, "crosshairs": 2}}, {"weapon": 0}]}]
        },
    )
    position: Position
    steps: list[Step] = Field(
        max_length=MAX_STEPS,
        description='Moves and reveals (`{"reveal": battery}`) in order; a known order reveals by itself')


class LevelStart(BaseModel):
    id: str = Field(description="solo-1 or team-1")
    level: Level
    position: Position = Field(description="The level's start (with the aliens and order asked for)")


class Levels(BaseModel):
    levels: list[LevelStart]


def _apply(position: Position, move: Move) -> CheckResult:
    """``fire.apply``, except at a winning shot. The won position keeps the
    fired weapon's 10+ energy (nothing is destroyed at a win), and
    ``fire.apply`` re-checks it, which the engine refuses ("holds 14 energy; a
    weapon with 10 or more has already fired"). One replay step gives the same
    position without the re-check; a game that is over has no moves."""
    played = fire.replay(position, [move])
    if played.error is not None:
        fire.apply(position, move)  # raises InvalidPositionError with the engine's own message
        raise InvalidPositionError(played.error)
    if played.status in ("win", "loss"):
        return CheckResult(status=played.status, position=played.position, moves=[])
    return fire.check(played.position)


def router(settings: Settings, runner: Runner) -> APIRouter:
    r = APIRouter(prefix="/v1/fire", tags=["fire"])
    searches = Searches(settings, runner)
    errors = problem_responses(413, 415, 422, 503)

    @r.post("/solve", response_model=SolveResult, responses=errors,
            summary="Win probability under optimal play: exact, or a proved interval at a limit")
    async def solve(request: Request, body: Annotated[FireSearchRequest, Body()]) -> SolveResult:
        return await searches.run(request, body.limit,
                                  lambda limit, control: fire.solve(body.position, limit, control=control))

    @r.post("/hint", response_model=HintResult, responses=errors,
            summary="Every distinct choice with its win probability, best first; "
                    "before a hidden reveal, per battery that may come up")
    async def hint(request: Request, body: Annotated[FireSearchRequest, Body()]) -> HintResult:
        return await searches.run(request, body.limit,
                                  lambda limit, control: fire.hint(body.position, limit, control=control))

    @r.post("/split", response_model=SplitResult, responses=errors,
            summary="Team mode: the best split of the aliens, each player destroying its share alone, "
                    "and its win probability (a proved lower bound on the team's)")
    async def split(request: Request, body: Annotated[FireSplitRequest, Body()]) -> SplitResult:
        return await searches.run(request, body.limit,
                                  lambda limit, control: fire.split(body.position, limit, control=control))

    @r.post("/check", response_model=CheckResult, responses=errors,
            summary="Validate a position, do what is automatic, and list every legal move")
    async def check(request: Request, body: Annotated[FireCheckRequest, Body()]) -> CheckResult:
        return await searches.quick(request, fire.check, body.position)

    @r.post("/apply", response_model=CheckResult, responses=errors,
            summary="Play one move; the position after it and whatever is automatic, with its legal moves")
    async def apply(request: Request, body: Annotated[FireApplyRequest, Body()]) -> CheckResult:
        return await searches.quick(request, _apply, body.position, body.move)

    @r.post("/replay", response_model=ReplayResult, responses=errors,
            summary="Play moves and reveals in order; stops at the first illegal step and says why")
    async def replay(request: Request, body: Annotated[FireReplayRequest, Body()]) -> ReplayResult:
        return await searches.quick(request, fire.replay, body.position, body.steps)

    @r.post("/strategy-move", response_model=Move, responses=errors,
            summary="The fixed strategy's move at a decision")
    async def strategy_move(request: Request, body: Annotated[FireDecisionRequest, Body()]) -> Move:
        return await searches.quick(request, fire.strategy_move, body.position)

    # Not through the runner: the levels are data, and building a start is
    # plain Python that never calls the core.
    @r.get("/levels", response_model=Levels, responses=problem_responses(422),
           summary="Solo and team Level 1: the definitions, what is assumed, and their start positions")
    def levels(
        aliens: Annotated[int | None, Query(ge=1, le=_LEVEL_ALIENS,
                                            description="Keep only the first few aliens (smaller games)")] = None,
        seed: Annotated[int | None, Query(ge=0, lt=2**64,
                                          description="Deal a known order shuffled with this seed; "
                                                      "left out, the order is hidden")] = None,
    ) -> Levels:
        out = []
        for key, make in _LEVELS:
            level = make()
            out.append(LevelStart(id=key, level=level, position=level.position(aliens=aliens, seed=seed)))
        return Levels(levels=out)

    return r
