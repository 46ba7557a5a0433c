"""The routes of every game, written once: ``/v1/<game>/<operation>`` for
each registered game's served operations, and ``GET /v1/games`` listing them.

A search or quick operation is a POST of its request model, run in the
server's runner; a search is held to the server's caps and its answer says
which it applied (``limits``). A data operation is a GET with the request's
fields as query parameters, answered in plain Python. Bodies and answers
are the games' own models. With a result cache, a search's answer kept
there is given without searching (``"cached": true``), and a new one is
kept (an answer the cache failed to keep says so in ``X-Cache-Write:
failed``). A search sent with an ``X-Search-Id`` header
shows its live counters at ``GET /v1/searches/<id>`` while it runs."""

# No `from __future__ import annotations`: FastAPI reads the endpoints'
# annotations, which name each operation's models through the closure.

import asyncio
import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Header, HTTPException, Path, Query, Request, Response
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field, create_model

from smokejumper import Control, Limit
from smokejumper.cache import ResultCache
from smokejumper.games import Game, Kind, Operation, query_model, registered, search_operation_names

from .guard import Guard
from .jobs import Progress, event_stream
from .limits import Searches, ServedLimits, hold
from .observe import Metrics
from .problems import problem_responses
from .runner import Runner
from .settings import Settings

_POST_ERRORS = problem_responses(409, 413, 415, 422, 503)
# On a search's answer whose writing to the result cache failed (the disk
# full): the answer is whole, but it was not kept.
CACHE_WRITE_HEADER = "X-Cache-Write"
_SEARCH_ID = r"^[A-Za-z0-9_-]{1,64}$"
SearchId = Annotated[str | None, Header(
    alias="X-Search-Id", pattern=_SEARCH_ID,
    description="A name of the caller's choosing (1-64 letters, digits, - or _): while this search runs, "
                "GET /v1/searches/<name> gives its counters")]


class SearchProgress(Progress):
    search_id: str


class OperationInfo(BaseModel):
    name: str
    method: Literal["GET", "POST"]
    path: str
    kind: Literal["search", "quick", "data"] = Field(
        description="search: takes a limit, may run long, stops when the client leaves; quick: answers at once; "
                    "data: a GET that never searches")
    summary: str


class GameInfo(BaseModel):
    name: str = Field(description="The game's path segment")
    title: str
    summary: str
    operations: list[OperationInfo]


class GameList(BaseModel):
    games: list[GameInfo] = Field(description="In the order to show them")


class CachedKind(BaseModel):
    game: str
    operation: str
    entries: int
    bytes: int
    finished: int = Field(description="Entries whose search finished (the rest are kept with their effort)")
    oldest_stored: float = Field(description="When the oldest entry was kept (Unix time)")
    last_used: float = Field(description="When an entry was last kept or served (Unix time)")


class CacheCounts(BaseModel):
    entries: int
    bytes: int = Field(description="Of answers kept")
    max_bytes: int = Field(description="The size cap; the least recently used entries go past it")
    by_operation: list[CachedKind] = Field(description="Entries per game and operation")
    hits: int = Field(description="Since this process started")
    misses: int
    write_errors: int = Field(description="Answers that could not be kept (the disk full, say)")


class CacheCleared(CacheCounts):
    removed: int = Field(description="Entries this request removed")


def _the(cache: ResultCache | None) -> ResultCache:
    if cache is None:
        raise HTTPException(404, "this server keeps no result cache (SMOKEJUMPER_CACHE=off)")
    return cache


def served(game: Game) -> list[Operation]:
    """The operations the service offers (a batch would outlast any cap)."""
    return [op for op in game.operations.values() if op.kind != "batch"]


def core_paths(kind: Kind) -> list[str]:
    """The POST routes of operations of ``kind`` (search or quick): those
    whose calls go through that kind's runner."""
    return [f"/v1/{g.name}/{op.name}" for g in registered() for op in served(g) if op.kind == kind]


def game_list() -> GameList:
    return GameList(games=[
        GameInfo(name=g.name, title=g.title, summary=g.summary, operations=[
            OperationInfo(name=op.name, method="GET" if op.kind == "data" else "POST", path=f"/v1/{g.name}/{op.name}",
                          kind=op.kind, summary=op.summary)  # type: ignore[arg-type]
            for op in served(g)])
        for g in registered()])


def router(settings: Settings, runner: Runner, quick_runner: Runner, cache: ResultCache | None, metrics: Metrics,
           guard: Guard) -> APIRouter:
    r = APIRouter(prefix="/v1")
    searches = Searches(settings, runner, quick_runner)

    listing = game_list().model_dump_json()  # fixed once the app is built

    @r.get("/games", response_model=GameList, tags=["service"], summary="The games and the operations each offers")
    async def games() -> Response:  # on the loop: made once, no thread to wait for under load
        return Response(listing, media_type="application/json")

    @r.get("/searches/{search_id}", response_model=SearchProgress, tags=["service"],
           responses=problem_responses(404, 422), summary="The live counters of a search sent with this X-Search-Id")
    def progress(search_id: Annotated[str, Path(pattern=_SEARCH_ID)]) -> SearchProgress:
        found = runner.progress(search_id)
        if found is None:
            raise HTTPException(404, f"no search {search_id!r} is running (not admitted yet, or finished)")
        nodes, seconds, interval = found
        return SearchProgress(search_id=search_id, nodes=nodes, seconds=seconds, interval=interval)

    @r.get("/searches/{search_id}/events", tags=["service"], response_class=StreamingResponse,
           responses={**problem_responses(404, 422), 200: {"content": {"text/event-stream": {}},
                                                           "description": "progress events, then end"}},
           summary="The live counters of a search sent with this X-Search-Id, as Server-Sent Events")
    async def progress_events(request: Request, search_id: Annotated[str, Path(pattern=_SEARCH_ID)]) -> Any:
        progress(search_id)  # 404 unless it runs

        def snapshot() -> tuple[dict[str, Any], bool]:
            try:
                return progress(search_id).model_dump(), False
            except HTTPException:  # answered (or stopped): its answer went to its own request
                return {"search_id": search_id}, True

        return event_stream(request, snapshot)

    @r.get("/cache", tags=["service"], response_model=CacheCounts, responses=problem_responses(401, 404),
           dependencies=[Depends(guard.admin)], summary="The result cache's entries, bytes and hit counts")
    def cache_counts() -> CacheCounts:
        return CacheCounts(**_the(cache).counts())

    cached_games = Literal[tuple(g.name for g in registered())]  # type: ignore[valid-type]
    cached_operations = Literal[tuple(search_operation_names())]  # type: ignore[valid-type]

    @r.delete("/cache", tags=["service"], response_model=CacheCleared, responses=problem_responses(401, 404, 422),
              dependencies=[Depends(guard.admin)],
              summary="Empty the result cache, or the entries of a game, an operation, or not used for a while")
    def cache_clear(game: Annotated[cached_games | None, Query(description="Only this game's entries")] = None,
                    operation: Annotated[cached_operations | None, Query(description="Only this operation's")] = None,
                    unused_days: Annotated[float | None, Query(ge=0, le=36500, allow_inf_nan=False,
                                                               description="Only entries not used for this "
                                                                           "many days")] = None) -> CacheCleared:
        kept = _the(cache)
        removed = kept.clear(game, operation, None if unused_days is None else unused_days * 86400)
        return CacheCleared(**kept.counts(), removed=removed)

    for game in registered():
        for op in served(game):
            _add(r, game, op, settings, searches, runner, cache, metrics, guard)
    return r


def _json(model: type[BaseModel], value: Any) -> Response:
    """An answer as ``model`` writes it, built by the caller's thread: a
    worker's, so that a large answer (a Fire Tower hint lists hundreds of
    moves) is validated and serialised off the event loop."""
    return Response(model.model_validate(value).model_dump_json(by_alias=True), media_type="application/json")


def _add(r: APIRouter, game: Game, op: Operation, settings: Settings, searches: Searches, runner: Runner,
         cache: ResultCache | None, metrics: Metrics, guard: Guard) -> None:
    model = op.request
    route = dict(path=f"/{game.name}/{op.name}", tags=[game.name], summary=op.summary,
                 operation_id=f"{game.name}_{op.name}".replace("-", "_"))
    if op.kind == "data":
        def data(query: Annotated[query_model(model), Query()]) -> Any:  # type: ignore[valid-type]
            return op.call(query)

        r.get(**route, response_model=op.response, responses=problem_responses(422))(data)
    elif op.kind == "quick":
        async def quick(request: Request, body: Annotated[model, Body()]) -> Any:  # type: ignore[valid-type]
            return await searches.quick(request, lambda b: _json(op.response, op.call(b)), body)

        r.post(**route, response_model=op.response, responses=_POST_ERRORS)(quick)
    else:
        answer = create_model(f"{game.name.capitalize()}{op.response.__name__}", __base__=op.response,
                              limits=(ServedLimits, Field(description="What was asked, and what the server's caps "
                                                                      "let this search spend")),
                              cached=(bool, Field(description="Whether the answer came from the result cache: a "
                                                              "search of this request that finished, or that spent "
                                                              "at least this limit")))

        async def search(request: Request, body: Annotated[model, Body()],  # type: ignore[valid-type]
                         watch: SearchId = None) -> Any:
            if watch is not None and runner.watching(watch):
                raise HTTPException(409, f"X-Search-Id: {watch!r} names a search still running; choose another")
            held, limit, limits = hold(settings, op, body)

            def answered(result: BaseModel, cached: bool) -> tuple[BaseModel, Response]:
                return result, _json(answer, {**dict(result), "limits": limits, "cached": cached})

            def from_cache() -> tuple[BaseModel, Response] | None:
                entry = cache.lookup(game.name, op.name, op.cache_form(held), limit) if cache else None
                return None if entry is None else answered(entry.read(op.response), True)

            found = await asyncio.to_thread(from_cache) if cache else None
            if found is not None:
                metrics.searched(game.name, op.name, found[0], cached=True)
                return found[1]
            asked, began = time.monotonic(), []

            def searched(lim: Limit, control: Control) -> tuple[BaseModel, Response]:
                began.append(time.monotonic())
                return answered(op.call(held, lim, control), False)

            result, response = await searches.run(request, limit, searched, watch)
            # The wait for a worker, apart: the time cap bounds the search, not the queue.
            response.headers["Server-Timing"] = f"queue;dur={1000 * (began[0] - asked):.1f}"
            metrics.searched(game.name, op.name, result, cached=False)
            if cache and await asyncio.to_thread(cache.store, game.name, op.name, op.cache_form(held), result) is None:
                response.headers[CACHE_WRITE_HEADER] = "failed"  # the answer stands; the next ask searches again
            return response

        r.post(**route, response_model=answer, responses={**_POST_ERRORS, **problem_responses(429)},
               dependencies=[Depends(guard.searches)])(search)
