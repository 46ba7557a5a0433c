"""Jobs: searches too long for a request (issue 19).

``POST /v1/jobs`` names a game, an operation and the operation's request
(with its limit), held to the job caps, longer than a request's; it answers
202 with the job at once. ``GET /v1/jobs/<id>`` gives its state, live
counters and, once done, its answer; ``DELETE`` cancels it, stopping its
search at once; ``GET /v1/jobs/<id>/events`` streams its progress as
Server-Sent Events. Jobs run on a pool of their own (``job_workers``), so a
long job never holds a worker a request is waiting for.

Jobs are kept in the result cache's SQLite file (its ``jobs`` table) when
there is one, so a restart loses no finished result: jobs that were queued
or running when the process ended read ``interrupted``. Without a cache file
they live in memory. A finished answer goes into the result cache too, and
a job whose answer the cache holds already (as a route would serve it) is
answered from there without a search (its result says ``"cached": true``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import threading
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Annotated, Any, AsyncIterator, Callable, Literal

from fastapi import APIRouter, Depends, HTTPException, Path as PathParam, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from smokejumper import Control, Limit
from smokejumper.cache import ResultCache, connect
from smokejumper.games import Operation, registered

from .guard import Guard
from .limits import hold
from .problems import Overloaded, problem_responses
from .settings import Settings

log = logging.getLogger("smokejumper.service")

State = Literal["queued", "running", "done", "failed", "cancelled", "interrupted"]
ENDED = ("done", "failed", "cancelled", "interrupted")
# Finished jobs kept (the oldest go first); a job's answer stays in the
# result cache beyond that.
KEEP_ENDED = 10_000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    operation TEXT NOT NULL,
    request TEXT NOT NULL,
    state TEXT NOT NULL,
    created REAL NOT NULL,
    started REAL,
    finished REAL,
    nodes INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL DEFAULT 0,
    result TEXT,
    error TEXT
);
CREATE INDEX IF NOT EXISTS jobs_finished ON jobs (finished);
"""


def _example() -> dict[str, Any]:
    """The first game's first search, on its own documented example."""
    game = registered()[0]
    op = next(op for op in game.operations.values() if op.kind == "search")
    request = op.request.model_json_schema()["examples"][0]
    return {"game": game.name, "operation": op.name, "request": {**request, "limit": {"seconds": 120}}}


class JobRequest(BaseModel):
    """A search to run as a job."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=lambda schema: schema.update(
        examples=[_example()]))
    game: str = Field(description="A game's name, as GET /v1/games lists it")
    operation: str = Field(description="One of its search operations (solve, hint, ...)")
    request: dict[str, Any] = Field(description="The operation's request body, as its own route takes it; its "
                                                "limit is held to the job caps")


class Progress(BaseModel):
    nodes: int = Field(description="Nodes searched so far (the search reports them about every thousand)")
    seconds: float = Field(description="Since the search started (after any wait for a worker)")
    interval: tuple[float, float] | None = Field(
        default=None, description="The interval the search has narrowed its answer to so far: proved bounds "
                                  "(a win probability) or the best move's 95% interval (a sampling "
                                  "search); null until it has one, and always for a proof search (a verdict)")


class JobProgress(Progress):
    nodes: int = Field(description="Nodes this job searched so far (all of them, once ended; 0 for an answer "
                                   "from the cache)")
    seconds: float = Field(description="Since the job started running")


class Job(BaseModel):
    id: str
    game: str
    operation: str
    state: State = Field(description="queued, running, then done, failed, cancelled or interrupted (the server "
                                     "stopped while it was queued or running)")
    created: float = Field(description="Unix time")
    started: float | None = None
    finished: float | None = None
    progress: JobProgress
    result: dict[str, Any] | None = Field(default=None, description="The operation's answer, once done, with "
                                          "`cached`: whether it came from the result cache (no search run)")
    error: str | None = Field(default=None, description="Why it failed, once failed")
    saved: bool = Field(True, description="False when the server could not write the job to its file (the disk "
                                          "full): it is kept in memory, and lost when the server stops")


class _Store:
    """Jobs in the SQLite file (one connection per thread), or in memory.
    A job the file could not take (the disk full) is kept in memory too,
    newer than the file's row, until a later write of it succeeds (an ended
    job's last write is its last: it stays in memory, the newest
    KEEP_ENDED of them, until the server stops)."""

    def __init__(self, path: str | None) -> None:
        self._path = path
        self._local = threading.local()
        self._memory: dict[str, dict[str, Any]] = {}
        self._unsaved: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            db = self._db()
            db.executescript(_SCHEMA)
            db.execute("UPDATE jobs SET state = 'interrupted', finished = ? WHERE state IN ('queued', 'running')",
                       (time.time(),))

    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            assert self._path is not None
            db = connect(self._path)
            db.row_factory = sqlite3.Row
            self._local.db = db
        return db

    def put(self, row: dict[str, Any]) -> None:
        if self._path is None:
            with self._lock:
                self._memory[row["id"]] = dict(row)
                self._trim(self._memory)
            return
        try:
            db = self._db()
            db.execute(f"INSERT OR REPLACE INTO jobs ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                       tuple(row.values()))
            if row["state"] in ENDED:
                db.execute("DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE finished IS NOT NULL "
                           "ORDER BY finished DESC LIMIT -1 OFFSET ?)", (KEEP_ENDED,))
        except sqlite3.Error as e:  # the disk full: the job goes on, kept in memory, and says so
            log.warning("job %s not written to %s: %s", row["id"], self._path, e)
            with self._lock:
                self._unsaved[row["id"]] = dict(row)
                self._trim(self._unsaved)
            return
        with self._lock:
            self._unsaved.pop(row["id"], None)

    @staticmethod
    def _trim(rows: dict[str, dict[str, Any]]) -> None:
        """With the lock held: the ended rows past KEEP_ENDED, oldest first, go."""
        ended = sorted((r for r in rows.values() if r["state"] in ENDED), key=lambda r: r["finished"])
        for r in ended[:max(0, len(ended) - KEEP_ENDED)]:
            del rows[r["id"]]

    def get(self, job_id: str) -> tuple[dict[str, Any], bool] | None:
        """The job's row and whether the file holds it as it is."""
        with self._lock:
            row = (self._memory if self._path is None else self._unsaved).get(job_id)
            if row is not None:
                return dict(row), self._path is None
        if self._path is None:
            return None
        found = self._db().execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return None if found is None else (dict(found), True)

    def saved(self, job_id: str) -> bool:
        with self._lock:
            return job_id not in self._unsaved


class Jobs:
    """The jobs of one app: their pool, their store, their controls."""

    def __init__(self, workers: int, max_queued: int, cache: ResultCache | None) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="smokejumper-job")
        self._max_queued = max_queued
        self._store = _Store(None if cache is None else str(cache.path))
        self._cache = cache
        self._lock = threading.Lock()
        self._live: dict[str, tuple[Control, Future[None], dict[str, Any]]] = {}
        self._closed = False
        # Told of each answer a job gave (game, operation, answer, from the cache?): the metrics.
        self.on_answer: Callable[[str, str, BaseModel, bool], None] | None = None

    @property
    def queued(self) -> int:
        with self._lock:
            return self._in_state("queued")

    @property
    def running(self) -> int:
        with self._lock:
            return self._in_state("running")

    def _in_state(self, state: State) -> int:
        """With the lock held: the live jobs in ``state``."""
        return sum(1 for _c, _f, row in self._live.values() if row["state"] == state)

    def submit(self, game: str, op: Operation, body: BaseModel, limit: Limit) -> Job:
        """Queue ``op`` on ``body`` under ``limit`` (already held to the job caps)."""
        with self._lock:
            if self._closed:
                raise Overloaded("the server is shutting down")
            queued = self._in_state("queued")
            if queued >= self._max_queued:
                raise Overloaded(f"{queued} jobs are waiting for a job worker; try again later")
            row = {"id": uuid.uuid4().hex, "game": game, "operation": op.name,
                   "request": body.model_dump_json(), "state": "queued", "created": time.time(), "started": None,
                   "finished": None, "nodes": 0, "seconds": 0.0, "result": None, "error": None}
            control = Control()
            self._store.put(row)
            future = self._pool.submit(self._run, row, op, body, limit, control)
            self._live[row["id"]] = (control, future, row)
        return self._job(row, control)

    def _run(self, row: dict[str, Any], op: Operation, body: BaseModel, limit: Limit, control: Control) -> None:
        with self._lock:
            if row["state"] != "queued":  # cancelled while queued
                return
            row.update(state="running", started=time.time())
        self._store.put(row)
        key = op.cache_form(body)
        try:
            # A job is asked what a route may have answered already (a batch
            # run through --cache, an earlier job): served as the route serves it.
            entry = self._cache.lookup(row["game"], row["operation"], key, limit) if self._cache else None
            cached = entry is not None
            answer = entry.read(op.response) if entry is not None else op.call(body, limit, control)
        except Exception as e:  # noqa: BLE001 - the job says why; the pool goes on
            self._end(row, "failed", error=" ".join(str(e).split()) or type(e).__name__, nodes=control.nodes)
            return
        stats = getattr(answer, "stats", None)
        state: State = "done"
        if control.stopped and getattr(stats, "stopped_by", None) == "stopped" and not cached:
            state = "interrupted" if self._closed else "cancelled"
        # Counted and cached before the job reads done, so that whoever sees
        # it done sees them too.
        if self.on_answer is not None:
            self.on_answer(row["game"], row["operation"], answer, cached)
        if self._cache is not None and state == "done" and not cached:  # it keeps what it should: finished or not
            self._cache.store(row["game"], row["operation"], key, answer)
        result = json.dumps({**json.loads(answer.model_dump_json()), "cached": cached}, separators=(",", ":"))
        self._end(row, state, result=result, nodes=0 if cached else getattr(stats, "nodes", control.nodes))

    def _end(self, row: dict[str, Any], state: State, *, result: str | None = None, error: str | None = None,
             nodes: int = 0) -> None:
        now = time.time()
        with self._lock:
            row.update(state=state, finished=now, result=result, error=error, nodes=nodes,
                       seconds=now - row["started"] if row["started"] else 0.0)
            self._live.pop(row["id"], None)
        self._store.put(row)

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            live = self._live.get(job_id)
            if live is not None:
                control, _future, row = live
                return self._job(dict(row), control, self._store.saved(job_id))
        found = self._store.get(job_id)
        return None if found is None else self._job(found[0], None, found[1])

    def cancel(self, job_id: str) -> Job | None:
        """Stop the job (a queued one never starts); an ended job is left as it is."""
        with self._lock:
            live = self._live.get(job_id)
        if live is None:
            return self.get(job_id)
        control, future, row = live
        control.stop()
        if future.cancel():  # still queued: it never runs
            self._end(row, "cancelled")
        else:
            try:
                future.result(timeout=10)  # a search stops within milliseconds of its stop flag
            except Exception:  # noqa: BLE001 - _run records its own failures
                pass
        return self.get(job_id)

    @staticmethod
    def _job(row: dict[str, Any], control: Control | None, saved: bool = True) -> Job:
        running = row["state"] == "running" and control is not None
        progress = JobProgress(nodes=control.nodes if running else row["nodes"],
                               seconds=time.time() - row["started"] if running else row["seconds"],
                               interval=control.interval if running else None)
        return Job(id=row["id"], game=row["game"], operation=row["operation"], state=row["state"],
                   created=row["created"], started=row["started"], finished=row["finished"], progress=progress,
                   result=json.loads(row["result"]) if row["result"] else None, error=row["error"], saved=saved)

    def close(self) -> None:
        """Stop every job; queued and running ones read ``interrupted`` next time."""
        with self._lock:
            self._closed = True
            controls = [c for c, _f, _r in self._live.values()]
        for control in controls:
            control.stop()
        self._pool.shutdown(wait=True, cancel_futures=True)


# ------------------------------------------------------------------ routes

def router(settings: Settings, jobs: Jobs, guard: Guard) -> APIRouter:
    """``/v1/jobs``: submit, read, cancel, follow."""
    r = APIRouter(prefix="/v1/jobs", tags=["jobs"], dependencies=[Depends(guard.jobs)])
    job_caps = settings.for_jobs()
    errors = problem_responses(401, 404, 422, 429, 503)

    @r.post("", status_code=202, response_model=Job, responses=errors,
            summary="Run a search as a job, under the job caps; 202 with the job at once")
    async def submit(body: JobRequest, response: Response) -> Job:
        game = next((g for g in registered() if g.name == body.game), None)
        if game is None:
            raise _invalid(("game",), f"no game {body.game!r}; the games are "
                           f"{', '.join(g.name for g in registered())}")
        op = game.operations.get(body.operation)
        if op is None or op.kind != "search":
            names = [o.name for o in game.operations.values() if o.kind == "search"]
            raise _invalid(("operation",), f"{game.title} has no search {body.operation!r}; its searches are "
                           f"{', '.join(names)}")
        try:
            request = op.request.model_validate(body.request)
        except ValidationError as e:
            raise RequestValidationError([{**err, "loc": ("body", "request", *err["loc"])}
                                          for err in e.errors()]) from None
        held, limit, _limits = hold(job_caps, op, request)
        job = await asyncio.to_thread(jobs.submit, game.name, op, held, limit)
        response.headers["Location"] = f"/v1/jobs/{job.id}"
        return job

    def found(job: Job | None, job_id: str) -> Job:
        if job is None:
            raise HTTPException(404, f"no job {job_id!r} (never made, or long finished and forgotten)")
        return job

    @r.get("/{job_id}", response_model=Job, responses=errors, summary="A job's state, counters and answer")
    async def get(job_id: Annotated[str, PathParam(pattern=_JOB_ID)]) -> Job:
        return found(await asyncio.to_thread(jobs.get, job_id), job_id)

    @r.delete("/{job_id}", response_model=Job, responses=errors,
              summary="Cancel a job: its search stops at once (an ended job is left as it is)")
    async def cancel(job_id: Annotated[str, PathParam(pattern=_JOB_ID)]) -> Job:
        return found(await asyncio.to_thread(jobs.cancel, job_id), job_id)

    @r.get("/{job_id}/events", responses={**errors, 200: {"content": {"text/event-stream": {}},
                                                          "description": "progress events, then end"}},
           response_class=StreamingResponse,
           summary="A job's progress as Server-Sent Events: `progress` a few times a second, then `end`")
    async def events(request: Request, job_id: Annotated[str, PathParam(pattern=_JOB_ID)]) -> StreamingResponse:
        found(await asyncio.to_thread(jobs.get, job_id), job_id)

        def snapshot() -> tuple[dict[str, Any], bool] | None:
            job = jobs.get(job_id)
            return None if job is None else (job.model_dump(mode="json"), job.state in ENDED)

        return event_stream(request, snapshot)

    return r


_JOB_ID = r"^[0-9a-f]{32}$"


def _invalid(loc: tuple[str, ...], message: str) -> RequestValidationError:
    return RequestValidationError([{"loc": ("body", *loc), "msg": message, "type": "value_error"}])


def event_stream(request: Request, snapshot: Callable[[], tuple[dict[str, Any], bool] | None],
                 every: float = 0.25) -> StreamingResponse:
    """Server-Sent Events from ``snapshot()`` (its data, and whether it has
    ended): a ``progress`` event every ``every`` seconds while it runs, then
    one ``end`` event. Stops when the client leaves."""

    async def stream() -> AsyncIterator[str]:
        while not await request.is_disconnected():
            now = await asyncio.to_thread(snapshot)
            if now is None:
                yield "event: end\ndata: null\n\n"
                return
            data, ended = now
            yield f"event: {'end' if ended else 'progress'}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"
            if ended:
                return
            await asyncio.sleep(every)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
