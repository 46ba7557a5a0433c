"""Search limits, in the manner of python-chess's ``engine.Limit``."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator

# Used when a limit gives no memory: enough for hard standard layouts, small
# enough for a laptop. The transposition table never grows past it.
DEFAULT_MEMORY_MB = 256
MAX_MEMORY_MB = 16384
_UNLIMITED_NODES = 2**63 - 1


@dataclass(frozen=True)
class Limit:
    """How much one search may spend. ``None`` means no limit of that kind
    (memory then defaults to :data:`DEFAULT_MEMORY_MB`)."""

    nodes: int | None = None
    seconds: float | None = None
    memory_mb: int | None = None

    def __post_init__(self) -> None:
        if self.nodes is not None and self.nodes < 0:
            raise ValueError(f"limit nodes must be >= 0, got {self.nodes}")
        if self.seconds is not None and not (self.seconds >= 0 and math.isfinite(self.seconds)):
            raise ValueError(f"limit seconds must be a finite number >= 0, got {self.seconds}")
        if self.memory_mb is not None and not 1 <= self.memory_mb <= MAX_MEMORY_MB:
            raise ValueError(f"limit memory_mb must be 1..{MAX_MEMORY_MB}, got {self.memory_mb}")

    def capped(self, cap: Limit) -> Limit:
        """The tighter of this limit and ``cap`` in every kind."""

        def tighter(mine, theirs):
            if mine is None:
                return theirs
            if theirs is None:
                return mine
            return min(mine, theirs)

        return Limit(
            nodes=tighter(self.nodes, cap.nodes),
            seconds=tighter(self.seconds, cap.seconds),
            memory_mb=tighter(self.memory_mb, cap.memory_mb),
        )

    def native(self) -> tuple[int, float, int]:
        """(max_nodes, max_seconds, max_memory_mb) as the C++ core takes them."""
        return (
            _UNLIMITED_NODES if self.nodes is None else int(self.nodes),
            math.inf if self.seconds is None else float(self.seconds),
            DEFAULT_MEMORY_MB if self.memory_mb is None else int(self.memory_mb),
        )


def _whole(value: object) -> object:
    """``1e9`` nodes is a count as people write it (and as JSON encoders
    write big numbers); ``1.5`` nodes, ``"5"`` or ``true`` is not one."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


WholeNumber = Annotated[int, BeforeValidator(_whole)]


class LimitRequest(BaseModel):
    """A :class:`Limit` as a request writes it (the service's bodies, a
    game's request models); a server's caps apply on top, and a kind left
    out gets the cap."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra={"examples": [{"seconds": 5}]})
    nodes: WholeNumber | None = Field(default=None, ge=0, le=_UNLIMITED_NODES, description="Search nodes")
    seconds: float | None = Field(default=None, ge=0, description="Wall-clock seconds")
    memory_mb: WholeNumber | None = Field(default=None, ge=1, le=MAX_MEMORY_MB, description="Transposition table memory")

    @field_validator("seconds")
    @classmethod
    def _finite(cls, v: float | None) -> float | None:
        if v is not None and not math.isfinite(v):
            raise ValueError("must be a finite number")
        return v

    def limit(self) -> Limit:
        return Limit(nodes=self.nodes, seconds=self.seconds, memory_mb=self.memory_mb)


# The spec's names for a search's limits (its README, "limits"), which a
# request may send beside its body instead of ``limit``: a client written
# from the spec is served as one written from this API.
# Read into ``limit``, they are never written out (``exclude``).
SPEC_LIMIT_FIELDS: dict[str, Any] = {
    "max_nodes": (WholeNumber | None, Field(None, ge=0, le=_UNLIMITED_NODES, exclude=True,
                                            description="The spec's name for limit.nodes")),
    "max_seconds": (float | None, Field(None, ge=0, allow_inf_nan=False, exclude=True,
                                        description="The spec's name for limit.seconds")),
    "max_memory_mb": (WholeNumber | None, Field(None, ge=1, le=MAX_MEMORY_MB, exclude=True,
                                                description="The spec's name for limit.memory_mb")),
}


@model_validator(mode="after")
def limit_from_spec_names(model: Any) -> Any:
    """A request model's validator: the spec's names read as its ``limit``."""
    given = {name[len("max_"):]: getattr(model, name) for name in SPEC_LIMIT_FIELDS
             if getattr(model, name) is not None}
    if given:
        if model.limit is not None:
            raise ValueError("give either limit or max_nodes / max_seconds / max_memory_mb, not both")
        model.limit = LimitRequest(**given)
    return model
