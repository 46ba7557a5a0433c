"""/v1/wildfire/...: solve, hint, check and replay for Wild Fire! solitaire.

Bodies and answers reuse the models of :mod:`smokejumper.wildfire`; every
call into the core runs in the server's bounded :class:`~.runner.Runner`
under its caps, like the other games'. A hint's sample count is capped too
(``Settings.max_hint_samples``), and its solves per deal by the node cap."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from pydantic import BaseModel, ConfigDict, Field

from smokejumper import wildfire
from smokejumper.wildfire import CheckResult, HintResult, Move, Position, ReplayResult, SolveResult

from .limits import LimitRequest, Searches
from .problems import problem_responses
from .runner import Runner
from .settings import Settings

# Two colours of two pawns on a five-tile deal: won (the 1-tiles take one
# colour each), solved at once.
_EXAMPLE_DEAL: dict[str, Any] = {
    "deal": [{"n": 1}, {"n": 5}, {"n": 3}, {"n": 1}, {"n": 2}],
    "level": 1,
    "supply": [2, 2],
}
_EXAMPLE_MOVE: dict[str, Any] = {"place": [1, 0], "pawns": {"color": 0, "tile": [0, 0], "count": 1}}
# Hidden order, a 5 just drawn: the second colour needs the pool's 1-tile to
# come up in the next two draws, so some moves win about half the deals.
_EXAMPLE_HIDDEN: dict[str, Any] = {
    "start": {"n": 1},
    "pool": [{"n": 5}, {"n": 3}, {"n": 1}, {"n": 2}, {"n": 6}],
    "turns": 3,
    "supply": [2, 1],
    "drawn": {"n": 5},
}


class WildfireSearchRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"position": _EXAMPLE_DEAL, "limit": {"seconds": 5}}]},
    )
    position: Position = Field(description="Known order: 'deal', or 'tiles' with 'deal_rest'")
    limit: LimitRequest | None = None


class WildfireHintRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"position": _EXAMPLE_HIDDEN, "samples": 50, "seed": 1,
                                         "limit": {"seconds": 5}}]},
    )
    position: Position = Field(description="Known order, or hidden order with the 'drawn' tile")
    samples: int = Field(200, ge=1, description="Hidden order: deals to sample; more than the server's cap "
                                                "are clamped to it (the answer's samples_requested)")
    seed: int = Field(0, ge=0, lt=2**64, description="Same position, samples and seed: same answer")
    sample_nodes: int = Field(wildfire.DEFAULT_SAMPLE_NODES, ge=1, lt=2**63,
                              description="Nodes for each solve (a move on a deal) before it counts as "
                                          "unknown; at most the server's node cap")
    limit: LimitRequest | None = Field(None, description="For the whole hint, every sample together")


class WildfireCheckRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"position": _EXAMPLE_DEAL}]})
    position: Position


class WildfireReplayRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"position": _EXAMPLE_DEAL, "line": [_EXAMPLE_MOVE]}]},
    )
    position: Position
    line: list[Move] = Field(max_length=wildfire.MAX_TILES, description="Moves to play in order, one per turn")


def router(settings: Settings, runner: Runner) -> APIRouter:
    r = APIRouter(prefix="/v1/wildfire", tags=["wildfire"])
    searches = Searches(settings, runner)
    errors = problem_responses(413, 415, 422, 503)

    @r.post("/solve", response_model=SolveResult, responses=errors,
            summary="Known order: win with every turn's move, proved loss, or unknown at a limit")
    async def solve(request: Request, body: Annotated[WildfireSearchRequest, Body()]) -> SolveResult:
        return await searches.run(request, body.limit,
                                  lambda limit, control: wildfire.solve(body.position, limit, control=control))

    @r.post("/hint", response_model=HintResult, responses=errors,
            summary="Every legal move of this turn, best first, with its win share over sampled deals "
                    "(hidden order) or its verdict (known order)")
    async def hint(request: Request, body: Annotated[WildfireHintRequest, Body()]) -> HintResult:
        samples = min(body.samples, settings.max_hint_samples)
        sample_nodes = min(body.sample_nodes, settings.max_nodes)
        # One thread: the runner's pool is what bounds the threads searching.
        return await searches.run(
            request, body.limit,
            lambda limit, control: wildfire.hint(body.position, limit, samples=samples, seed=body.seed,
                                                 sample_nodes=sample_nodes, workers=1, control=control))

    @r.post("/check", response_model=CheckResult, responses=errors,
            summary="Validate a position; its status, hottest cells and every legal move")
    async def check(request: Request, body: Annotated[WildfireCheckRequest, Body()]) -> CheckResult:
        return await searches.quick(request, wildfire.check, body.position)

    @r.post("/replay", response_model=ReplayResult, responses=errors,
            summary="Play moves in order; status is win only if every move is legal and the game ends won")
    async def replay(request: Request, body: Annotated[WildfireReplayRequest, Body()]) -> ReplayResult:
        return await searches.quick(request, wildfire.replay, body.position, body.line)

    return r
