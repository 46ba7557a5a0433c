"""The batch behind every game's ``analyse``: solve the positions of a range
of seeds on threads (the C++ core releases the GIL), keep the results in
seed order, and count the verdicts."""

from __future__ import annotations

import os
import statistics
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable, Protocol, Sequence, TypeVar

from smokejumper._core import Control
from smokejumper.stats import wilson_interval

MAX_COUNT = 1_000_000
MAX_WORKERS = 256


class Verdict(Protocol):
    verdict: str
    nodes: int
    seconds: float


T = TypeVar("T", bound=Verdict)


def seeds(count: int, seed: int, what: str) -> range:
    """Seeds ``seed .. seed+count-1``, checked (``what`` names the count)."""
    if not 1 <= count <= MAX_COUNT:
        raise ValueError(f"{what} must be 1..{MAX_COUNT}, got {count}")
    if seed < 0 or seed + count > 2**64:
        raise ValueError(f"seeds {seed}..{seed + count - 1} are outside 0..2**64-1")
    return range(seed, seed + count)


def thread_count(workers: int | None) -> int:
    """``workers``, checked; None means every core."""
    workers = (os.cpu_count() or 1) if workers is None else workers
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be 1..{MAX_WORKERS}, got {workers}")
    return workers


def run(one: Callable[[int, Control], T], seed_range: range, workers: int,
        progress: Callable[[int, int], None] | None = None, control: Control | None = None) -> list[T]:
    """``one(seed, control)`` for every seed on ``workers`` threads, in seed
    order; ``control`` (default: a new one) is every solve's. If anything
    interrupts the batch (Ctrl-C, a progress callback that raises), the
    running solves are stopped through it and the queued ones dropped, so
    the error surfaces at once."""
    control = control or Control()
    results: list[T] = []
    with ThreadPoolExecutor(max_workers=workers) as pool:
        try:
            for result in pool.map(lambda s: one(s, control), seed_range):
                results.append(result)
                if progress:
                    progress(len(results), len(seed_range))
        except BaseException:
            control.stop()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return results


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
