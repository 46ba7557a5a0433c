"""What every game's routes share: the limit a request asks for, and running
every call into the core in the server's runner (its workers, its queue,
503 when full), a search under the request's limit within the caps, a quick
call under the quick cap."""

from __future__ import annotations

import math
from typing import Any, Callable, TypeVar

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
    """A router's calls into the core, run in the server's runner: no route
    calls the core outside it, so no request bypasses the caps."""

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

    async def quick(self, request: Disconnectable, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)``, a quick call into the core (check, apply, replay,
        a strategy's move), admitted like a search: it waits its turn for a
        worker, and a full queue answers 503.

        These calls take no Control, so the runner's stop at
        ``quick_seconds`` cannot reach one; they stay under that cap by
        construction instead. Each does work bounded by the request's
        validated sizes (tiles, deal, line and step lengths), and the one
        that searches, Volcano!'s removal plan in check, has a node cap of
        its own: a 63-tile check takes about 0.1-0.3 s."""
        return await self._runner.run(lambda _control: call(*args), self._settings.quick_seconds, request)
