"""What every game's search routes share: the limit a request asks for, and
running a search in the server's runner under it, within the server's caps."""

from __future__ import annotations

import math
from typing import Callable, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

from smokejumper import Control, Limit
from smokejumper.limits import MAX_MEMORY_MB

from .runner import Disconnectable, Runner
from .settings import Settings

T = TypeVar("T")
_NODES_MAX = 2**63 - 1


class LimitRequest(BaseModel):
    """What a request asks to spend; the server's caps apply on top, and a
    kind left out gets the cap."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"seconds": 5}]})
    nodes: int | None = Field(default=None, ge=0, le=_NODES_MAX, description="Search nodes")
    seconds: float | None = Field(default=None, ge=0, description="Wall-clock seconds")
    memory_mb: int | None = Field(default=None, ge=1, le=MAX_MEMORY_MB, description="Transposition table memory")

    @field_validator("seconds")
    @classmethod
    def _finite(cls, v: float | None) -> float | None:
        if v is not None and not math.isfinite(v):
            raise ValueError("must be a finite number")
        return v

    def capped(self, cap: Limit) -> Limit:
        return Limit(nodes=self.nodes, seconds=self.seconds, memory_mb=self.memory_mb).capped(cap)


class Searches:
    """A router's searches, run in the server's runner."""

    def __init__(self, settings: Settings, runner: Runner) -> None:
        self._settings = settings
        self._runner = runner

    async def run(self, request: Disconnectable, asked: LimitRequest | None,
                  search: Callable[[Limit, Control], T]) -> T:
        """``search(limit, control)`` under what the request asked, within the
        caps; stopped through its control once the limit's seconds (plus the
        runner's grace) have passed or the client has gone."""
        limit = (asked or LimitRequest()).capped(self._settings.cap)
        return await self._runner.run(lambda control: search(limit, control), limit.seconds, request)
