"""What every proof search reports (the C++ ``stats_dict`` of a
``SearchStats``), shared by the games' result models."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel


class SearchStats(BaseModel):
    """How a search went. ``stopped_by`` is null when it finished."""

    nodes: int
    seconds: float
    nodes_per_second: float
    stopped_by: Literal["nodes", "time", "memory", "stopped"] | None
    pruned: int
    max_depth: int
    table_hits: int
    table_stores: int
    table_used: int
    table_capacity: int
    table_bytes: int
