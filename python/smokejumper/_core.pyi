"""Type stubs for the C++ extension module (smokejumper._core)."""

from typing import Any

__version__: str

class InvalidPositionError(ValueError): ...

class Control:
    """Shared with a running search: stop it, or read its node count."""
    def __init__(self) -> None: ...
    def stop(self) -> None: ...
    @property
    def stopped(self) -> bool: ...
    @property
    def nodes(self) -> int: ...

class volcano:  # a submodule
    MAX_CELLS: int
    MAX_COLORS: int
    MAX_SUPPLY_PER_COLOR: int
    MAX_COORDINATE: int
    Tiles = list[tuple[int, int, int, int, int]]
    @staticmethod
    def check(tiles: Tiles, volcano: tuple[int, int], supply: list[int], standard: bool) -> dict[str, Any]: ...
    @staticmethod
    def solve(tiles: Tiles, volcano: tuple[int, int], supply: list[int], standard: bool, max_nodes: int,
              max_seconds: float, max_memory_mb: int, control: Control | None = None,
              use_table: bool = True, use_pruning: bool = True,
              use_sleep_sets: bool = True) -> dict[str, Any]: ...
    @staticmethod
    def hint(tiles: Tiles, volcano: tuple[int, int], supply: list[int], standard: bool, max_nodes: int,
             max_seconds: float, max_memory_mb: int, control: Control | None = None) -> dict[str, Any]: ...
    @staticmethod
    def replay(tiles: Tiles, volcano: tuple[int, int], supply: list[int], standard: bool,
               line: list[tuple[int, int, int, int]]) -> dict[str, Any]: ...
    @staticmethod
    def generate(seed: int, solvable: bool, rate: bool, max_attempts: int, max_nodes: int,
                 max_seconds: float, max_memory_mb: int, control: Control | None = None) -> dict[str, Any]: ...
