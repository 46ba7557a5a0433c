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

class fire:  # a submodule
    MAX_ALIENS: int
    MAX_WEAPONS: int
    MAX_BATTERIES: int
    MAX_CROSSHAIRS: int
    MAX_STRENGTH: int
    Pile = list[tuple[int, int]]  # (energy, crosshairs) each
    Player = tuple[list[Pile], Pile, Pile, Pile, int, bool]  # weapons, draw, discard, destroyed, exchanges, order_known
    Position = tuple[bool, list[tuple[tuple[int, int, int, int], int]], list[Player], int, tuple[int, int] | None]
    Move = tuple[bool, int, int, tuple[int, int] | None]  # give, weapon, target, destroy
    @staticmethod
    def check(position: Position) -> dict[str, Any]: ...
    @staticmethod
    def key(position: Position) -> tuple[int, int]: ...
    @staticmethod
    def solve(position: Position, max_nodes: int, max_seconds: float, max_memory_mb: int,
              control: Control | None = None, use_pruning: bool = True,
              use_dominance: bool = True, use_certain: bool = True,
              use_focus: bool = True, use_split: bool = True) -> dict[str, Any]: ...
    @staticmethod
    def split(position: Position, max_nodes: int, max_seconds: float, max_memory_mb: int,
              control: Control | None = None) -> dict[str, Any]: ...
    @staticmethod
    def hint(position: Position, max_nodes: int, max_seconds: float, max_memory_mb: int,
             control: Control | None = None) -> dict[str, Any]: ...
    @staticmethod
    def apply(position: Position, move: Move) -> dict[str, Any]: ...
    @staticmethod
    def reveal(position: Position, battery: tuple[int, int]) -> dict[str, Any]: ...
    @staticmethod
    def strategy_move(position: Position) -> dict[str, Any]: ...
    @staticmethod
    def strategy(position: Position, games: int, seed: int, max_nodes: int, max_seconds: float,
                 max_memory_mb: int, control: Control | None = None) -> dict[str, Any]: ...

class wildfire:  # a submodule
    MAX_TILES: int
    MAX_COLORS: int
    MAX_SUPPLY_PER_COLOR: int
    MAX_COORDINATE: int
    MAX_HINT_SAMPLES: int
    # tiles (q, r, n, spaces (0: default), pawns per colour), turn, supply, level, known,
    # rest ((n, spaces) each: the deal still to come, or the pool), turns_left,
    # drawn ((n, spaces); n 0: not given)
    Position = tuple[list[tuple[int, int, int, int, list[int]]], int, list[int], int, bool,
                     list[tuple[int, int]], int, tuple[int, int]]
    Move = tuple[int, int, int, int, int, int]  # place q, r, color (-1: no pawns), tile q, r, count
    @staticmethod
    def check(position: Position) -> dict[str, Any]: ...
    @staticmethod
    def solve(position: Position, max_nodes: int, max_seconds: float, max_memory_mb: int,
              control: Control | None = None, use_table: bool = True,
              use_pruning: bool = True, use_layouts: bool = True) -> dict[str, Any]: ...
    @staticmethod
    def hint(position: Position, samples: int, seed: int, sample_nodes: int, workers: int,
             max_nodes: int, max_seconds: float, max_memory_mb: int,
             control: Control | None = None) -> dict[str, Any]: ...
    @staticmethod
    def sample_deals(position: Position, samples: int, seed: int) -> list[list[dict[str, int]]]: ...
    @staticmethod
    def replay(position: Position, line: list[Move]) -> dict[str, Any]: ...
    @staticmethod
    def score(position: Position, players: int) -> dict[str, Any]: ...
