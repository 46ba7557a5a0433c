"""What every route shares: holding a request to the server's caps (and
saying which it applied), and running every call into the core in one of
the server's two runners (each with its workers and its queue, 503 when
full): a search in the search runner under the request's limit within the
caps, a quick call in the quick runner under the quick cap."""

from __future__ import annotations

from typing import Any, Callable, TypeVar

from pydantic import BaseModel, Field

from smokejumper import Control, Limit
from smokejumper.games import CapKind, Operation

from .runner import Disconnectable, Runner
from .settings import Settings

T = TypeVar("T")
Amount = int | float | None
_LIMIT_KINDS = ("nodes", "seconds", "memory_mb")


class ServedLimits(BaseModel):
    """What a search was asked to spend and what the server let it spend."""

    asked: dict[str, Amount] = Field(description="The request's limit and capped fields (null: not given)")
    applied: dict[str, Amount] = Field(description="What the search ran under: the tighter of asked and cap")
    capped: list[str] = Field(description="What the server's caps cut below what was asked (empty: nothing)")


def hold(settings: Settings, op: Operation, body: BaseModel) -> tuple[BaseModel, Limit, ServedLimits]:
    """``body`` held to the server's caps: the body to run, the limit to run
    it under, and the account of both."""
    asked_limit = getattr(body, "limit", None)
    asked: dict[str, Amount] = {k: getattr(asked_limit, k, None) for k in _LIMIT_KINDS}
    limit = (asked_limit.limit() if asked_limit else Limit()).capped(settings.cap)
    applied: dict[str, Amount] = {k: getattr(limit, k) for k in _LIMIT_KINDS}
    held: dict[str, Any] = {}
    for name, kind in op.capped.items():
        value, cap = getattr(body, name), _cap(settings, kind)
        held[name] = cap if value is None else min(value, cap)
        asked[name], applied[name] = value, held[name]
    capped = [k for k in asked if asked[k] is not None and applied[k] != asked[k]]
    return body.model_copy(update=held), limit, ServedLimits(asked=asked, applied=applied, capped=capped)


def _cap(settings: Settings, kind: CapKind) -> int:
    if kind == "samples":
        return settings.max_hint_samples
    if kind == "nodes":
        return settings.max_nodes
    return 1  # threads: the runner's pool is what bounds the threads searching


class Searches:
    """A router's calls into the core, run in the server's runners: no route
    calls the core outside them, so no request bypasses the caps."""

    def __init__(self, settings: Settings, runner: Runner, quick_runner: Runner) -> None:
        self._settings = settings
        self._runner = runner
        self._quick_runner = quick_runner

    async def run(self, request: Disconnectable, limit: Limit, search: Callable[[Limit, Control], T],
                  watch: str | None = None) -> T:
        """``search(limit, control)``, stopped through its control once the
        limit's seconds (plus the runner's grace) have passed or the client
        has gone; with ``watch``, its counters are readable by that name."""
        return await self._runner.run(lambda control: search(limit, control), limit.seconds, request, watch)

    async def quick(self, request: Disconnectable, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)``, a quick call into the core (check, apply, replay,
        a strategy's move), in the quick runner: it waits its turn for a
        quick worker, never behind a search, and a full queue answers 503.

        These calls take no Control, so the runner's stop at
        ``quick_seconds`` cannot reach one; they stay under that cap by
        construction instead. Each does work bounded by the request's
        validated sizes (tiles, deal, line and step lengths), and one that
        searches (a removal plan in a check) has a node cap of its own: a
        63-tile check takes about 0.1-0.3 s."""
        return await self._quick_runner.run(lambda _control: call(*args), self._settings.quick_seconds, request)
