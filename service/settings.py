"""Service settings: the server's caps, read from SMOKEJUMPER_* environment
variables. The caps override whatever limit a request asks for."""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Mapping, TypeVar

from smokejumper import Limit
from smokejumper.cache import DEFAULT_MAX_MB
from smokejumper.limits import MAX_MEMORY_MB

T = TypeVar("T")
_PREFIX = "SMOKEJUMPER_"


def _env(environ: Mapping[str, str], name: str, parse: Callable[[str], T], default: T) -> T:
    raw = environ.get(_PREFIX + name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return parse(raw.strip())
    except ValueError:
        raise ValueError(f"{_PREFIX}{name}={raw!r} is not a valid {parse.__name__}") from None


@dataclass(frozen=True)
class Settings:
    """The server's caps on one search or quick call, and the size of the worker pool."""

    max_seconds: float = 10.0
    max_nodes: int = 50_000_000
    max_memory_mb: int = 512
    # Samples per sampling search (a hint on hidden information); more are
    # held to this, and the answer says so.
    max_hint_samples: int = 1000
    workers: int = 2
    max_body_bytes: int = 1_000_000
    # Calls waiting for a worker of their lane beyond this many get 503;
    # None means 4 per worker of the lane.
    max_queue: int | None = None
    # Quick calls (check, apply, replay, ...) have workers of their own, so
    # that a page stays playable while every search worker is busy.
    quick_workers: int = 2
    # How long past its time cap a search may run before the server stops it.
    grace_seconds: float = 0.5
    # Time cap of a quick call into the core (check, apply, replay, ...).
    quick_seconds: float = 2.0
    # A request must arrive whole (headers and body) this soon after its
    # connection opens or the previous answer ends; and at most this many
    # connections are open (service/server.py).
    request_timeout: float = 15.0
    max_connections: int = 1000
    # Jobs: their own workers, how many may wait, and their caps on one
    # search. Nodes and memory unset (None): 60 times a request's nodes (as
    # the default time cap is 60 times a request's), and four times its
    # memory (jobs are few at once), up to the most a search may have.
    job_workers: int = 1
    max_jobs_queued: int = 16
    job_max_seconds: float = 600.0
    job_max_nodes: int | None = None
    job_max_memory_mb: int | None = None
    # Keys for jobs and cache administration (empty: open), and searches and
    # jobs a minute per client (0: no limit).
    api_keys: tuple[str, ...] = ()
    rate_limit: float = 0.0
    # Origins whose pages may call the API from the browser (CORS); empty: none.
    cors_origins: tuple[str, ...] = ()
    # The result cache's SQLite file (None: no cache) and its size cap.
    cache: str | None = None
    cache_max_mb: float = DEFAULT_MAX_MB

    def __post_init__(self) -> None:
        if not (math.isfinite(self.max_seconds) and self.max_seconds > 0):
            raise ValueError(f"max_seconds must be a finite number > 0, got {self.max_seconds}")
        if self.max_nodes < 1:
            raise ValueError(f"max_nodes must be >= 1, got {self.max_nodes}")
        if not 1 <= self.max_memory_mb <= MAX_MEMORY_MB:
            raise ValueError(f"max_memory_mb must be 1..{MAX_MEMORY_MB}, got {self.max_memory_mb}")
        if self.max_hint_samples < 1:
            raise ValueError(f"max_hint_samples must be >= 1, got {self.max_hint_samples}")
        if not 1 <= self.workers <= 256:
            raise ValueError(f"workers must be 1..256, got {self.workers}")
        if not 1 <= self.quick_workers <= 256:
            raise ValueError(f"quick_workers must be 1..256, got {self.quick_workers}")
        if self.max_body_bytes < 1:
            raise ValueError(f"max_body_bytes must be >= 1, got {self.max_body_bytes}")
        if self.max_queue is not None and self.max_queue < 0:
            raise ValueError(f"max_queue must be >= 0, got {self.max_queue}")
        if not (math.isfinite(self.grace_seconds) and self.grace_seconds >= 0):
            raise ValueError(f"grace_seconds must be a finite number >= 0, got {self.grace_seconds}")
        if not (math.isfinite(self.quick_seconds) and self.quick_seconds > 0):
            raise ValueError(f"quick_seconds must be a finite number > 0, got {self.quick_seconds}")
        if not (math.isfinite(self.request_timeout) and self.request_timeout > 0):
            raise ValueError(f"request_timeout must be a finite number > 0, got {self.request_timeout}")
        if self.max_connections < 1:
            raise ValueError(f"max_connections must be >= 1, got {self.max_connections}")
        if not 1 <= self.job_workers <= 64:
            raise ValueError(f"job_workers must be 1..64, got {self.job_workers}")
        if self.max_jobs_queued < 0:
            raise ValueError(f"max_jobs_queued must be >= 0, got {self.max_jobs_queued}")
        if not (math.isfinite(self.job_max_seconds) and self.job_max_seconds > 0):
            raise ValueError(f"job_max_seconds must be a finite number > 0, got {self.job_max_seconds}")
        if self.job_max_nodes is not None and self.job_max_nodes < 1:
            raise ValueError(f"job_max_nodes must be >= 1, got {self.job_max_nodes}")
        if self.job_max_memory_mb is not None and not 1 <= self.job_max_memory_mb <= MAX_MEMORY_MB:
            raise ValueError(f"job_max_memory_mb must be 1..{MAX_MEMORY_MB}, got {self.job_max_memory_mb}")
        if not (math.isfinite(self.rate_limit) and self.rate_limit >= 0):
            raise ValueError(f"rate_limit must be a finite number >= 0, got {self.rate_limit}")
        for origin in self.cors_origins:
            if origin != "*" and not re.fullmatch(r"https?://[^/\s]+", origin):
                raise ValueError(f"cors origin {origin!r} is not * or scheme://host[:port] (no path)")
        if not (math.isfinite(self.cache_max_mb) and self.cache_max_mb > 0):
            raise ValueError(f"cache_max_mb must be a finite number > 0, got {self.cache_max_mb}")

    @property
    def queue_limit(self) -> int:
        return self._lane_queue(self.workers)

    @property
    def quick_queue_limit(self) -> int:
        return self._lane_queue(self.quick_workers)

    def _lane_queue(self, workers: int) -> int:
        return 4 * workers if self.max_queue is None else self.max_queue

    @property
    def cap(self) -> Limit:
        """The server's caps as a Limit: ``Limit(...).capped(settings.cap)``."""
        return Limit(nodes=self.max_nodes, seconds=self.max_seconds, memory_mb=self.max_memory_mb)

    def for_jobs(self) -> Settings:
        """These settings with a job's caps as the search caps."""
        nodes = 60 * self.max_nodes if self.job_max_nodes is None else self.job_max_nodes
        memory = min(MAX_MEMORY_MB, 4 * self.max_memory_mb) if self.job_max_memory_mb is None else self.job_max_memory_mb
        return replace(self, max_seconds=self.job_max_seconds, max_nodes=nodes, max_memory_mb=memory)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Settings from SMOKEJUMPER_MAX_SECONDS, _MAX_NODES, _MAX_MEMORY_MB,
        _MAX_HINT_SAMPLES, _WORKERS, _MAX_BODY_BYTES, _MAX_QUEUE,
        _QUICK_WORKERS, _QUICK_SECONDS, _REQUEST_TIMEOUT, _MAX_CONNECTIONS, _JOB_WORKERS,
        _MAX_JOBS_QUEUED, _JOB_MAX_SECONDS, _JOB_MAX_NODES, _JOB_MAX_MEMORY_MB,
        _API_KEYS and _CORS_ORIGINS
        (comma-separated), _RATE_LIMIT, _CACHE (a file;
        ``off`` for none; unset: the user's cache directory) and
        _CACHE_MAX_MB; unset ones take the defaults."""
        env = os.environ if environ is None else environ
        d = cls()
        return cls(
            max_seconds=_env(env, "MAX_SECONDS", float, d.max_seconds),
            max_nodes=_env(env, "MAX_NODES", _integer, d.max_nodes),
            max_memory_mb=_env(env, "MAX_MEMORY_MB", _integer, d.max_memory_mb),
            max_hint_samples=_env(env, "MAX_HINT_SAMPLES", _integer, d.max_hint_samples),
            workers=_env(env, "WORKERS", _integer, d.workers),
            max_body_bytes=_env(env, "MAX_BODY_BYTES", _integer, d.max_body_bytes),
            max_queue=_env(env, "MAX_QUEUE", _integer, d.max_queue),
            quick_workers=_env(env, "QUICK_WORKERS", _integer, d.quick_workers),
            quick_seconds=_env(env, "QUICK_SECONDS", float, d.quick_seconds),
            request_timeout=_env(env, "REQUEST_TIMEOUT", float, d.request_timeout),
            max_connections=_env(env, "MAX_CONNECTIONS", _integer, d.max_connections),
            job_workers=_env(env, "JOB_WORKERS", _integer, d.job_workers),
            max_jobs_queued=_env(env, "MAX_JOBS_QUEUED", _integer, d.max_jobs_queued),
            job_max_seconds=_env(env, "JOB_MAX_SECONDS", float, d.job_max_seconds),
            job_max_nodes=_env(env, "JOB_MAX_NODES", _integer, None),
            job_max_memory_mb=_env(env, "JOB_MAX_MEMORY_MB", _integer, None),
            api_keys=_listed(env, "API_KEYS"),
            rate_limit=_env(env, "RATE_LIMIT", float, d.rate_limit),
            cors_origins=_listed(env, "CORS_ORIGINS"),
            cache=_cache_file(env.get(_PREFIX + "CACHE", "").strip(), env),
            cache_max_mb=_env(env, "CACHE_MAX_MB", float, d.cache_max_mb),
        )


def _listed(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    """A comma-separated setting's items."""
    return tuple(item.strip() for item in env.get(_PREFIX + name, "").split(",") if item.strip())


def _cache_file(value: str, env: Mapping[str, str]) -> str | None:
    """SMOKEJUMPER_CACHE: a file, ``off``, or unset for the user's cache
    directory (``$XDG_CACHE_HOME``, else ``~/.cache``)."""
    if value.lower() == "off":
        return None
    if value:
        return value
    base = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return str(Path(base) / "smokejumper" / "results.sqlite3")


def _integer(text: str) -> int:
    """An int, also written with underscores (50_000_000) or as 5e7."""
    try:
        return int(text.replace("_", ""))
    except ValueError:
        value = float(text)
        if not value.is_integer():
            raise
        return int(value)


_integer.__name__ = "integer"
