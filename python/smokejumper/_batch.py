"""The batch behind every game's ``analyse``: solve the positions of a range
of seeds on an engine (threads here, the C++ core releasing the GIL; or a
Dask cluster in chunks of seeds), keep the results in seed order, and count
the verdicts. The seeds are independent, so the results are the same on
any engine, thread count and chunking."""

from __future__ import annotations

import dataclasses
import os
import statistics
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence, TypeVar

from pydantic import BaseModel

from smokejumper._core import Control
from smokejumper.cache import ResultCache
from smokejumper.limits import Limit
from smokejumper.stats import wilson_interval

MAX_COUNT = 1_000_000
MAX_WORKERS = 256
MAX_CHUNK = 100_000
# A chunk is about this much work: scheduling one costs milliseconds, so
# the cluster's share of the time stays small; and a stopped run loses little.
CHUNK_SECONDS = 2.0
# How soon a chunk running on a cluster hears that its run was stopped.
STOP_GRACE_SECONDS = 1.0
EXTRA = "pip install 'smokejumper[batch]'"


class Verdict(Protocol):
    verdict: str
    nodes: int
    seconds: float


T = TypeVar("T")


def seeds(count: int, seed: int, what: str) -> range:
    """Seeds ``seed .. seed+count-1``, checked (``what`` names the count)."""
    if not 1 <= count <= MAX_COUNT:
        raise ValueError(f"{what} must be 1..{MAX_COUNT}, got {count}")
    if seed < 0 or seed + count > 2**64:
        raise ValueError(f"seeds {seed}..{seed + count - 1} are outside 0..2**64-1")
    return range(seed, seed + count)


def thread_count(workers: int | None, client: Any = None) -> int:
    """``workers``, checked; None means every core. On a Dask cluster
    (``client``, as :func:`run` takes it), the cluster's threads."""
    engine = Engine.of(client)
    if engine.client is not None:
        return engine.threads()
    workers = (os.cpu_count() or 1) if workers is None else workers
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be 1..{MAX_WORKERS}, got {workers}")
    return workers


def needs(module: str, what: str) -> Any:
    """``module`` imported, or a clear error naming the extra that brings it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(f"{what} needs {module}, which is not installed: {EXTRA}") from None


@dataclass
class Engine:
    """Where a batch runs and what it keeps.

    - ``client``: a ``distributed.Client`` (the seeds run on its cluster, in
      chunks), or None (threads on this machine).
    - ``chunk``: seeds per chunk; None sizes chunks to about
      ``CHUNK_SECONDS`` of work from the chunks done so far.
    - ``done``: results already known by seed (a resumed run); only the
      other seeds run.
    - ``keep``: called with each chunk's results once they are final (never
      with results a stop may have cut short), so a stopped run can resume.
    - ``cache``: the result cache each seed's search reads and fills (see
      :func:`searched`), or None.
    """

    client: Any = None
    chunk: int | None = None
    done: Mapping[int, Any] = field(default_factory=dict)
    keep: Callable[[list[Any]], None] | None = None
    cache: ResultCache | None = None
    chunks_run: int = 0  # chunks this engine ran (kept, locally)

    def __post_init__(self) -> None:
        if self.chunk is not None and not 1 <= self.chunk <= MAX_CHUNK:
            raise ValueError(f"chunk must be 1..{MAX_CHUNK} seeds, got {self.chunk}")

    @classmethod
    def of(cls, client: Any) -> Engine:
        """An Engine from what ``analyse(client=...)`` takes: None, a
        ``distributed.Client`` or an Engine."""
        return client if isinstance(client, Engine) else cls(client=client)

    def threads(self) -> int:
        return max(1, sum(self.client.nthreads().values()))


def searched(cache: ResultCache | None, game: str, operation: str, limit: Limit | None, control: Control,
             **fields: Any) -> BaseModel:
    """What ``game``'s search ``operation`` answers to the request of
    ``fields``, keyed as the service keys it: from ``cache`` when it holds
    an answer as good as ``limit`` would give, else searched and kept there,
    so that a batch run fills what the service serves. A seed's search goes
    through here; the request is made from its fields where it runs (a
    cluster's worker too), where the registry is at hand."""
    from smokejumper.games import load_game  # the registry imports every game, and they import this module

    op = load_game(game).operation(operation)
    request = op.request(**fields)
    limit = limit or Limit()
    entry = cache.lookup(game, operation, op.cache_form(request), limit) if cache is not None else None
    if entry is not None:
        return entry.read(op.response)
    answer = op.call(request, limit, control)
    if cache is not None:
        cache.store(game, operation, op.cache_form(request), answer)  # a failed write is logged; the answer stands
    return answer


def run(one: Callable[[int, Control], T], seed_range: range, workers: int,
        progress: Callable[[int, int], None] | None = None, control: Control | None = None,
        client: Any = None) -> list[T]:
    """``one(seed, control)`` for every seed, in seed order: on ``workers``
    threads here, or on a Dask cluster when ``client`` is a
    ``distributed.Client`` (or an :class:`Engine` with one). ``control``
    (default: a new one) is every local solve's. If anything interrupts the
    batch (Ctrl-C, a progress callback that raises, a stop), the running
    solves are stopped (locally) or cancelled (on a cluster) and the queued
    ones dropped, so the error surfaces at once."""
    engine = Engine.of(client)
    control = control or Control()
    results = {s: engine.done[s] for s in seed_range if s in engine.done}
    todo = [s for s in seed_range if s not in results]
    total = len(seed_range)
    if progress and results:
        progress(len(results), total)
    if todo:
        run_on = _run_dask if engine.client is not None else _run_local
        run_on(one, todo, workers, engine, control, results, lambda: progress and progress(len(results), total))
    return [results[s] for s in seed_range]


def _run_local(one: Callable[[int, Control], T], todo: list[int], workers: int, engine: Engine, control: Control,
               results: dict[int, T], done_one: Callable[[], Any]) -> None:
    pending: list[T] = []
    last_kept = time.monotonic()

    def keep() -> None:
        nonlocal pending, last_kept
        # A result taken after a stop may be cut short by it: never kept.
        if engine.keep and pending and not control.stopped:
            engine.keep(pending)
            engine.chunks_run += 1
        pending, last_kept = [], time.monotonic()

    with ThreadPoolExecutor(max_workers=workers) as pool:
        try:
            for seed, result in zip(todo, pool.map(lambda s: one(s, control), todo)):
                results[seed] = result
                pending.append(result)
                if len(pending) == engine.chunk or (engine.chunk is None
                                                    and time.monotonic() - last_kept >= CHUNK_SECONDS):
                    keep()
                done_one()
            keep()
        except BaseException:
            keep()
            control.stop()
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def _chunk(one: Callable[[int, Control], T], chunk_seeds: list[int], stop: str) -> tuple[list[T], float]:
    """One chunk on a Dask worker, on one of its threads: its results and its
    wall time. Cancelling a future never interrupts a running task, so a
    watcher stops the chunk's searches when the run's ``stop`` Event is set
    (else a cancelled run could hold a worker for a whole long limit)."""
    import distributed

    start = time.perf_counter()
    control = Control()
    stopped, finished = distributed.Event(stop), threading.Event()

    def watch() -> None:
        # Most chunks end within their ~2 s and never ask the scheduler.
        if finished.wait(STOP_GRACE_SECONDS):
            return
        try:
            while not finished.is_set():
                if stopped.wait(timeout=STOP_GRACE_SECONDS):  # a long poll at the scheduler, not a busy one
                    control.stop()
                    return
        except Exception:  # the scheduler gone: there is no stop left to hear
            return

    watcher = threading.Thread(target=watch, name="smokejumper-chunk-stop", daemon=True)
    watcher.start()
    try:
        return [one(s, control) for s in chunk_seeds], time.perf_counter() - start
    finally:
        finished.set()


def _run_dask(one: Callable[[int, Control], T], todo: list[int], _workers: int, engine: Engine, control: Control,
              results: dict[int, T], done_one: Callable[[], Any]) -> None:
    distributed = needs("distributed", "the dask engine")
    client = engine.client
    threads = engine.threads()
    # Twice the threads in flight: none idles while a result travels back,
    # and later chunks are sized from the earlier ones' times.
    in_flight = 2 * threads
    futures: dict[Any, list[int]] = {}
    next_seed, seeds_done, seconds_done = 0, 0, 0.0
    stop = f"smokejumper-stop-{uuid.uuid4().hex}"  # this run's, heard by its running chunks

    def size() -> int:
        if engine.chunk is not None:
            return engine.chunk
        if seeds_done == 0:
            return 1  # the first wave measures a seed's cost
        per_seed = max(seconds_done / seeds_done, 1e-6)
        spread = -(-(len(todo) - next_seed) // threads)  # the last chunks still share the threads
        return max(1, min(round(CHUNK_SECONDS / per_seed), spread, MAX_CHUNK))

    def submit() -> None:
        nonlocal next_seed
        while len(futures) < in_flight and next_seed < len(todo):
            chunk_seeds = todo[next_seed:next_seed + size()]
            next_seed += len(chunk_seeds)
            future = client.submit(_chunk, one, chunk_seeds, stop, pure=False)
            futures[future] = chunk_seeds

    try:
        submit()
        while futures:
            if control.stopped:
                raise InterruptedError(f"the batch was stopped with {len(results)} seeds done")
            try:
                # Wakes as soon as a chunk is done; the timeout only so that a stop is seen.
                finished = distributed.wait(list(futures), timeout=0.1, return_when="FIRST_COMPLETED").done
            except TimeoutError:
                continue
            for future in sorted(finished, key=lambda f: futures[f][0]):
                chunk_seeds = futures.pop(future)
                chunk_results, seconds = future.result()
                seeds_done += len(chunk_seeds)
                seconds_done += seconds
                results.update(zip(chunk_seeds, chunk_results))
                if engine.keep:
                    engine.keep(chunk_results)
                engine.chunks_run += 1
                done_one()
            submit()
    except BaseException:
        if futures:
            distributed.Event(stop, client=client).set()
            client.cancel(list(futures))
        raise


@dataclass(frozen=True)
class Tally:
    """Verdicts counted, with the 95% Wilson interval for the winnable share
    (unknown counted as losses for its lower end and as wins for its upper
    end), and the cost per position."""

    wins: int
    losses: int
    unknown: int
    win_share: float
    interval95: tuple[float, float]
    median_nodes: float
    max_nodes: int
    median_seconds: float
    max_seconds: float
    nodes_per_second: float  # per thread: all nodes over all search time

    @classmethod
    def of(cls, results: Sequence[Verdict]) -> Tally:
        n = len(results)
        wins = sum(r.verdict == "win" for r in results)
        losses = sum(r.verdict == "loss" for r in results)
        unknown = n - wins - losses
        nodes = [r.nodes for r in results]
        seconds = [r.seconds for r in results]
        return cls(
            wins=wins, losses=losses, unknown=unknown, win_share=wins / n,
            interval95=(wilson_interval(wins, n)[0], wilson_interval(wins + unknown, n)[1]),
            median_nodes=statistics.median(nodes), max_nodes=max(nodes),
            median_seconds=statistics.median(seconds), max_seconds=max(seconds),
            nodes_per_second=sum(nodes) / sum(seconds) if sum(seconds) > 0 else 0.0,
        )

    def counts(self, wall_seconds: float, workers: int) -> dict[str, Any]:
        """The fields of a :class:`~smokejumper.values.BatchCounts`."""
        return {**dataclasses.asdict(self), "wall_seconds": wall_seconds, "workers": workers}
