"""A result cache: every search answer worth keeping, in one SQLite file,
shared by the service and the CLI (issue 19).

An entry is keyed by the game, the operation and the request as the search
ran it (its position as the game's model reads it, and every parameter the
answer depends on: seed, samples) without its limit. A finished answer
(``stats.stopped_by`` null: a proved verdict, an exact value, a hint over
all its samples) serves every later request for the same key. An answer a
limit stopped is kept with the effort behind it (nodes, seconds): it serves
a request that would spend no more, and is replaced only by a finished
answer or one that searched more nodes, never by a worse one.

The file is in WAL mode with ``synchronous=NORMAL``: a committed entry
survives the process being killed at any point, and a reader never waits
for a writer. Each thread has its own connection. The file is held to a
size cap: past it, the entries used least recently go first. A write that
fails (the disk full, the file locked too long) loses only that entry: the
answer still goes to its caller, and the cache says so in the log.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from smokejumper.limits import Limit

log = logging.getLogger("smokejumper.cache")
M = TypeVar("M", bound=BaseModel)

DEFAULT_MAX_MB = 512
# Fields that never change an answer: the limit (kept as the entry's
# effort instead) and the thread count, named threads or workers (the same
# answer on any).
_NOT_IN_KEY = {"limit", "threads", "workers"}

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    key TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    operation TEXT NOT NULL,
    answer TEXT NOT NULL,
    finished INTEGER NOT NULL,
    nodes INTEGER NOT NULL,
    seconds REAL NOT NULL,
    bytes INTEGER NOT NULL,
    stored REAL NOT NULL,
    used REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS results_used ON results (used);
"""


@dataclass(frozen=True)
class Entry:
    """A cached answer (the operation's response model as JSON) and the
    search behind it."""

    answer: str
    finished: bool
    nodes: int
    seconds: float
    stored: float

    def serves(self, limit: Limit) -> bool:
        """Whether this answer is as good as a search under ``limit`` would
        give: a finished one always; a stopped one when ``limit`` would
        stop no later, by nodes or by time."""
        if self.finished:
            return True
        return ((limit.nodes is not None and limit.nodes <= self.nodes)
                or (limit.seconds is not None and limit.seconds <= self.seconds))

    def read(self, response: type[M]) -> M:
        """The answer as the operation's response model."""
        return response.model_validate_json(self.answer)


def request_key(game: str, operation: str, request: BaseModel) -> str:
    """The entry's key: the request as the search ran it, in canonical JSON
    (sorted keys), without the fields that never change its answer."""
    body = request.model_dump(mode="json", exclude=_NOT_IN_KEY & set(type(request).model_fields))
    text = json.dumps({"game": game, "operation": operation, "request": body}, sort_keys=True,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def search_effort(answer: BaseModel) -> tuple[bool, int, float] | None:
    """(finished, nodes, seconds) of a search's answer; None when the answer
    carries no search counts (nothing to keep)."""
    stats = getattr(answer, "stats", None)
    if stats is None or not hasattr(stats, "stopped_by"):
        return None
    return stats.stopped_by is None, int(stats.nodes), float(stats.seconds)


def connect(path: str | Path) -> sqlite3.Connection:
    """A connection to the cache's file as every user of it opens one (the
    jobs' table lives there too): autocommit, WAL, synchronous=NORMAL."""
    db = sqlite3.connect(path, timeout=5.0, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    return db


class ResultCache:
    """The cache in the SQLite file at ``path`` (made if missing), held to
    ``max_mb`` of answers."""

    def __init__(self, path: str | Path, max_mb: float = DEFAULT_MAX_MB) -> None:
        if not (math.isfinite(max_mb) and max_mb > 0):
            raise ValueError(f"cache size must be a number of MB > 0, got {max_mb}")
        self.path = Path(path)
        self.max_bytes = int(max_mb * 2**20)
        self._local = threading.local()
        self._count_lock = threading.Lock()
        self._counted = {"hits": 0, "misses": 0, "write_errors": 0}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._connection().executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as e:
            raise ValueError(f"result cache {self.path}: {e}") from None

    def __reduce__(self) -> tuple[type[ResultCache], tuple[Path, float]]:
        # Sent to a local cluster's worker process as its file: each process opens its own connections.
        return type(self), (self.path, self.max_bytes / 2**20)

    def _connection(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = connect(self.path)
        return db

    def lookup(self, game: str, operation: str, request: BaseModel, limit: Limit) -> Entry | None:
        """The entry for this request if it serves ``limit``, marked used;
        None otherwise (a miss). A cache that cannot be read is a miss; one
        that cannot be written (the disk full) still serves what it holds."""
        key = request_key(game, operation, request)
        try:
            db = self._connection()
            row = db.execute("SELECT answer, finished, nodes, seconds, stored FROM results WHERE key = ?",
                             (key,)).fetchone()
        except sqlite3.Error as e:
            log.warning("result cache %s: not read: %s", self.path, e)
            row = None
        entry = None if row is None else Entry(row[0], bool(row[1]), row[2], row[3], row[4])
        if entry is None or not entry.serves(limit):
            self._count("misses")
            return None
        try:  # only the eviction order depends on it
            db.execute("UPDATE results SET used = ? WHERE key = ?", (time.time(), key))
        except sqlite3.Error as e:
            log.warning("result cache %s: an entry's use not noted: %s", self.path, e)
        self._count("hits")
        return entry

    def store(self, game: str, operation: str, request: BaseModel, answer: BaseModel) -> bool | None:
        """Keep ``answer`` unless an entry at least as good is there: True
        when it was written, False when it was not to be (not a search's
        answer, or no better than the entry), None when the write failed
        (the disk full, say: logged and counted, never raised)."""
        effort = search_effort(answer)
        if effort is None:
            return False
        finished, nodes, seconds = effort
        key = request_key(game, operation, request)
        text = answer.model_dump_json()
        now = time.time()
        try:
            db = self._connection()
            db.execute("BEGIN IMMEDIATE")
            try:
                old = db.execute("SELECT finished, nodes FROM results WHERE key = ?", (key,)).fetchone()
                better = old is None or (finished and not old[0]) or (finished == bool(old[0]) and nodes > old[1])
                if better:
                    db.execute("INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                               (key, game, operation, text, int(finished), nodes, seconds, len(text), now, now))
                    self._evict(db)
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            return better
        except sqlite3.Error as e:
            self._count("write_errors")
            log.warning("result cache %s: answer not kept: %s", self.path, e)
            return None

    def _evict(self, db: sqlite3.Connection) -> None:
        """The least recently used entries out, down to nine tenths of the cap."""
        total = db.execute("SELECT COALESCE(SUM(bytes), 0) FROM results").fetchone()[0]
        if total <= self.max_bytes:
            return
        goal = self.max_bytes * 9 // 10
        for key, size in db.execute("SELECT key, bytes FROM results ORDER BY used").fetchall():
            if total <= goal:
                break
            db.execute("DELETE FROM results WHERE key = ?", (key,))
            total -= size

    def counts(self) -> dict[str, Any]:
        """Entries and bytes held (in all, and per game and operation), the
        size cap, and this process's hits, misses and failed writes."""
        rows = self._connection().execute(
            "SELECT game, operation, COUNT(*), SUM(bytes), SUM(finished), MIN(stored), MAX(used) FROM results "
            "GROUP BY game, operation ORDER BY game, operation").fetchall()
        kinds = [{"game": game, "operation": op, "entries": n, "bytes": size, "finished": done,
                  "oldest_stored": oldest, "last_used": used} for game, op, n, size, done, oldest, used in rows]
        with self._count_lock:
            counted = dict(self._counted)
        return {"entries": sum(k["entries"] for k in kinds), "bytes": sum(k["bytes"] for k in kinds),
                "max_bytes": self.max_bytes, "by_operation": kinds, **counted}

    def _count(self, what: str) -> None:
        with self._count_lock:
            self._counted[what] += 1

    def clear(self, game: str | None = None, operation: str | None = None,
              unused_seconds: float | None = None) -> int:
        """The entries of ``game`` and ``operation`` (each: any when None)
        not used for ``unused_seconds`` (any when None) out; how many."""
        if unused_seconds is not None and not (math.isfinite(unused_seconds) and unused_seconds >= 0):
            raise ValueError(f"unused time must be a number of seconds >= 0, got {unused_seconds}")
        before = None if unused_seconds is None else time.time() - unused_seconds
        return self._connection().execute(
            "DELETE FROM results WHERE (?1 IS NULL OR game = ?1) AND (?2 IS NULL OR operation = ?2) "
            "AND (?3 IS NULL OR used < ?3)", (game, operation, before)).rowcount

    def close(self) -> None:
        """This thread's connection closed (others close with their threads)."""
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None
