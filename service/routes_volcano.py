"""/v1/volcano/...: solve, hint, generate, check and replay for Volcano!

Bodies and answers reuse the models of :mod:`smokejumper.volcano`."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from pydantic import BaseModel, ConfigDict, Field

from smokejumper import volcano
from smokejumper.volcano import (
    CheckResult,
    Flight,
    GenerateResult,
    HintResult,
    Position,
    ReplayResult,
    SolveResult,
)

from .limits import LimitRequest, Searches
from .problems import problem_responses
from .runner import Runner
from .settings import Settings

MAX_LINE = volcano.MAX_COLORS * volcano.MAX_SUPPLY_PER_COLOR  # every flight drops a pawn

_EXAMPLE_POSITION: dict[str, Any] = {
    "tiles": [
        {"q": 1, "r": 0, "n": 3, "spaces": 2, "pawns": 0},
        {"q": 2, "r": 0, "n": 1, "spaces": 1, "pawns": 0},
        {"q": 0, "r": 1, "n": 5, "pawns": 1},
    ],
    "volcano": {"q": 0, "r": 0},
    "supply": [12, 12, 12, 12],
}


class SearchRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"position": _EXAMPLE_POSITION, "limit": {"seconds": 5}}]},
    )
    position: Position
    limit: LimitRequest | None = None


class GenerateRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"seed": 3, "solvable": False, "rate": False}]},
    )
    seed: int = Field(ge=0, lt=2**64, description="Same seed, same layout")
    solvable: bool = Field(False, description="Keep trying derived seeds until a layout is proved winnable")
    rate: bool = Field(False, description="Also measure the layout's difficulty")
    limit: LimitRequest | None = None


class CheckRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"position": _EXAMPLE_POSITION}]})
    position: Position


class ReplayRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"position": _EXAMPLE_POSITION, "line": [{"color": 0, "tile": [2, 0], "dir": 1}]}]
        },
    )
    position: Position
    line: list[Flight] = Field(max_length=MAX_LINE, description="Flights to play in order")


def router(settings: Settings, runner: Runner) -> APIRouter:
    r = APIRouter(prefix="/v1/volcano", tags=["volcano"])
    searches = Searches(settings, runner)
    errors = problem_responses(413, 415, 422, 503)

    @r.post("/solve", response_model=SolveResult, responses=errors,
            summary="Win with a winning line, proved loss, or unknown at a limit")
    async def solve(request: Request, body: Annotated[SearchRequest, Body()]) -> SolveResult:
        return await searches.run(request, body.limit,
                                  lambda limit, control: volcano.solve(body.position, limit, control=control))

    @r.post("/hint", response_model=HintResult, responses=errors,
            summary="Every distinct legal flight with its value, wins first")
    async def hint(request: Request, body: Annotated[SearchRequest, Body()]) -> HintResult:
        return await searches.run(request, body.limit,
                                  lambda limit, control: volcano.hint(body.position, limit, control=control))

    @r.post("/generate", response_model=GenerateResult, responses=errors,
            summary="A random standard layout from a seed, optionally proved solvable and rated")
    async def generate(request: Request, body: Annotated[GenerateRequest, Body()]) -> GenerateResult:
        return await searches.run(
            request, body.limit,
            lambda limit, control: volcano.generate(body.seed, solvable=body.solvable, rate=body.rate,
                                                    limit=limit, control=control))

    @r.post("/check", response_model=CheckResult, responses=errors,
            summary="Validate a position and list its distinct legal flights")
    async def check(request: Request, body: Annotated[CheckRequest, Body()]) -> CheckResult:
        return await searches.quick(request, volcano.check, body.position)

    @r.post("/replay", response_model=ReplayResult, responses=errors,
            summary="Play flights in order; status is win only if every flight is legal and the last wins")
    async def replay(request: Request, body: Annotated[ReplayRequest, Body()]) -> ReplayResult:
        return await searches.quick(request, volcano.replay, body.position, body.line)

    return r
