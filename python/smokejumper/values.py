"""One definition, for every game, of what a search reports and of the
three kinds of value an answer gives (issue 17):

- a **verdict** (:data:`Verdict`), exact when it is "win" or "loss";
- a **proved interval** (:class:`ProvedProbability`): bounds that hold, and
  a headline number only once they meet;
- a **sampled estimate** (:class:`Estimate`): a mean over samples with its
  95% interval and the number of samples.

A game's result models derive from these and add their own fields; the
stats of every search start with :class:`SearchCounts`."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

Verdict = Literal["win", "loss", "unknown"]
StoppedBy = Literal["nodes", "time", "memory", "stopped"]


class SearchCounts(BaseModel):
    """How a search went: its size, its time and which limit stopped it
    (``stopped_by`` null: it finished)."""

    nodes: int
    seconds: float
    nodes_per_second: float
    stopped_by: StoppedBy | None


class TableCounts(BaseModel):
    """The bounded transposition table's use (cpp/core/table.hpp)."""

    table_hits: int
    table_stores: int
    table_capacity: int
    table_bytes: int


class SearchStats(TableCounts, SearchCounts):
    """What every proof search reports (the C++ ``stats_dict`` of a ``SearchStats``)."""

    pruned: int
    max_depth: int
    table_used: int


class ProvedProbability(BaseModel):
    """A win probability known to lie in ``interval``; ``win_probability``
    is given only when the bounds meet (the search was exact)."""

    win_probability: float | None = Field(
        description="The exact win probability; null when a limit stopped the search before it was exact "
                    "(then `interval` is what is known)")
    exact: bool
    interval: tuple[float, float] = Field(description="Proved bounds [lower, upper] on the win probability")

    @model_validator(mode="after")
    def _no_headline_unless_exact(self) -> ProvedProbability:
        # The core reports the interval's lower end; alone, it would read as
        # the answer (1.8e-07 for a level stopped early).
        if not self.exact:
            self.win_probability = None
        return self


class Estimate(BaseModel):
    """A value measured on samples: their mean, a 95% interval and their number."""

    value: float = Field(description="The mean over the samples (a share of wins, or a mean score)")
    ci95: tuple[float, float] = Field(description="A 95% interval for the value")
    n: int = Field(description="The samples behind the value")


class BatchCounts(BaseModel):
    """What a batch of seeded searches counts (every game's ``analyse``):
    the verdicts, the winnable share's interval, and the cost per seed."""

    wins: int
    losses: int
    unknown: int = Field(description="Seeds whose search a limit stopped before its verdict")
    win_share: float = Field(description="wins / seeds")
    interval95: tuple[float, float] = Field(
        description="95% Wilson interval for the winnable share; unknown seeds count as "
                    "losses for the lower end and as wins for the upper end")
    median_seconds: float
    max_seconds: float
    median_nodes: float
    max_nodes: int
    nodes_per_second: float = Field(description="Per thread: all nodes over all search time")
    wall_seconds: float = Field(description="The whole batch, on `workers` threads")
    workers: int

