"""Type stubs for the C++ extension module (smokejumper._core).

CMakeLists.txt writes this file from cpp/bindings/module.pyi (what all games
share) and each game's cpp/games/<game>/binding.pyi (its submodule). The
bindings return plain dicts: the TypedDicts exist for the type checker only.
"""

from typing import Literal, TypedDict, type_check_only

from typing_extensions import NotRequired

__version__: str
games: tuple[str, ...]

class InvalidPositionError(ValueError): ...

class Control:
    """Shared with a running search: stop it, or read its node count and its answer's interval so far."""
    def __init__(self) -> None: ...
    def stop(self) -> None: ...
    @property
    def stopped(self) -> bool: ...
    @property
    def nodes(self) -> int: ...
    @property
    def interval(self) -> tuple[float, float] | None: ...

# What every search reports (cpp/bindings/common.hpp).
@type_check_only
class SearchCounts(TypedDict):
    nodes: int
    seconds: float
    nodes_per_second: float
    stopped_by: Literal["nodes", "time", "memory", "stopped"] | None

@type_check_only
class TableStats(TypedDict):
    table_hits: int
    table_stores: int
    table_capacity: int
    table_bytes: int

@type_check_only
class SearchStats(SearchCounts, TableStats):
    pruned: int
    max_depth: int
    table_used: int

@type_check_only
class ExpectimaxStats(SearchCounts, TableStats):
    states_stored: int
    cutoffs: int
    bound_prunes: int
    dominance_prunes: int
    max_depth: int
