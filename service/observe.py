"""What operators see of the service (issue 19): Prometheus metrics at
``GET /metrics``, a request id on every answer (``X-Request-Id``, the
caller's own when it sends a sane one), and one structured JSON log line per
request carrying that id.

Metrics are per app (their own registry), so that every app a process
builds (the tests build many) counts only its own requests."""

from __future__ import annotations

import contextvars
import itertools
import json
import logging
import re
import secrets
import time
from typing import Any, Iterator

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from smokejumper.cache import ResultCache

from .jobs import Jobs
from .runner import Runner

REQUEST_ID_HEADER = "X-Request-Id"
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
# From a cached answer (milliseconds) to a search at the default cap (10 s).
_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
access_log = logging.getLogger("smokejumper.access")
# A request's id: this process's random 64 bits and a count. uuid4 read
# the OS's randomness on the event loop for every request (4% of its time
# under load, docs/benchmarks.md).
_ID_PREFIX = secrets.token_hex(8)
_id_count = itertools.count()


def new_request_id() -> str:
    """32 hex digits, unique across this process and, by its random half, across restarts."""
    return f"{_ID_PREFIX}{next(_id_count):016x}"


class Metrics:
    """The service's counters, histograms and live gauges."""

    def __init__(self, runner: Runner, quick_runner: Runner, cache: ResultCache | None, jobs: Jobs) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter("smokejumper_requests", "Requests answered, by route and status",
                                ["method", "route", "status"], registry=self.registry)
        self.latency = Histogram("smokejumper_request_seconds", "Time to answer a request, by route",
                                 ["method", "route"], buckets=_LATENCY_BUCKETS, registry=self.registry)
        self.searches = Counter("smokejumper_searches", "Search answers, by game, operation and source "
                                "(searched, or cache)", ["game", "operation", "source"], registry=self.registry)
        self.nodes = Counter("smokejumper_search_nodes", "Nodes searched, by game and operation",
                             ["game", "operation"], registry=self.registry)
        self.registry.register(_Live(runner, quick_runner, cache, jobs))

    def answered(self, method: str, route: str, status: int, seconds: float) -> None:
        """Count a request's answer, by its route template."""
        self.requests.labels(method, route, str(status)).inc()
        self.latency.labels(method, route).observe(seconds)

    def searched(self, game: str, operation: str, answer: Any, cached: bool) -> None:
        """Count a search's answer: where it came from, and the nodes a fresh one searched."""
        self.searches.labels(game, operation, "cache" if cached else "searched").inc()
        stats = getattr(answer, "stats", None)
        if not cached and stats is not None:
            self.nodes.labels(game, operation).inc(getattr(stats, "nodes", 0))


class _Live(Collector):
    """Gauges read when scraped: the runners' queues, the jobs, the cache's counts."""

    def __init__(self, runner: Runner, quick_runner: Runner, cache: ResultCache | None, jobs: Jobs) -> None:
        self._runner = runner
        self._quick_runner = quick_runner
        self._cache = cache
        self._jobs = jobs

    def collect(self) -> Iterator[GaugeMetricFamily]:
        yield GaugeMetricFamily("smokejumper_searches_running", "Searches running now",
                                value=self._runner.running)
        yield GaugeMetricFamily("smokejumper_queue_depth", "Searches waiting for a worker", value=self._runner.waiting)
        yield GaugeMetricFamily("smokejumper_workers", "Search worker threads", value=self._runner.workers)
        yield GaugeMetricFamily("smokejumper_quick_running", "Quick calls into the core running now",
                                value=self._quick_runner.running)
        yield GaugeMetricFamily("smokejumper_quick_queue_depth", "Quick calls waiting for a quick worker",
                                value=self._quick_runner.waiting)
        yield GaugeMetricFamily("smokejumper_quick_workers", "Quick worker threads",
                                value=self._quick_runner.workers)
        yield GaugeMetricFamily("smokejumper_jobs_running", "Jobs running now", value=self._jobs.running)
        yield GaugeMetricFamily("smokejumper_jobs_queued", "Jobs waiting for a job worker", value=self._jobs.queued)
        if self._cache is not None:
            counts = self._cache.counts()
            for name in ("hits", "misses", "write_errors"):
                yield GaugeMetricFamily(f"smokejumper_cache_{name}", f"Result cache {name.replace('_', ' ')} "
                                        "since this process started", value=counts[name])
            yield GaugeMetricFamily("smokejumper_cache_entries", "Answers in the result cache",
                                    value=counts["entries"])
            yield GaugeMetricFamily("smokejumper_cache_bytes", "Bytes of answers in the result cache",
                                    value=counts["bytes"])


class ObserveMiddleware:
    """Outermost: every request gets its id, its log line and its counts,
    errors and 404s included. The route is the path template
    (``/v1/<game>/solve``), never the raw path, so unknown paths cannot
    grow the metrics without bound."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope["headers"]).get(REQUEST_ID_HEADER.lower().encode(), b"").decode("latin-1")
        rid = given if SANE_REQUEST_ID.fullmatch(given) else new_request_id()
        token = request_id.set(rid)
        status = 500  # if the app fails before it starts an answer
        start = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", []), (b"x-request-id", rid.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            seconds = time.perf_counter() - start
            route = getattr(scope.get("route"), "path", None) or "unmatched"
            self.metrics.answered(scope["method"], route, status, seconds)
            log_request(rid, scope["method"], scope["path"], route, status, seconds, (scope.get("client") or ("-",))[0])
            request_id.reset(token)


def log_request(rid: str, method: str, path: str, route: str, status: int, seconds: float, client: str,
                **more: Any) -> None:
    """A request's one access-log line."""
    access_log.info("request", extra={"fields": {
        "request_id": rid, "method": method, "path": path, "route": route, "status": status,
        "seconds": round(seconds, 6), "client": client, **more}})


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the request
    id where there is one, and a record's own ``fields``."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(), "logger": record.name, "message": record.getMessage(),
            "request_id": request_id.get()}
        line.update(getattr(record, "fields", {}))
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, separators=(",", ":"))


def log_config(level: str = "info") -> dict[str, Any]:
    """uvicorn's log_config: every logger as JSON lines on stderr; uvicorn's
    own access log is off (the access logger here replaces it, with ids)."""
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    return {
        "version": 1, "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {"stderr": handler},
        "loggers": {name: {"handlers": ["stderr"], "level": level.upper(), "propagate": False}
                    for name in ("smokejumper", "uvicorn", "uvicorn.error")},
    }
