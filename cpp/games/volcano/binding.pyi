# The submodule _core.volcano (binding.cpp); CMakeLists.txt appends it to cpp/bindings/module.pyi.
class volcano:  # a submodule
    MAX_CELLS: int
    MAX_COLORS: int
    MAX_SUPPLY_PER_COLOR: int
    MAX_COORDINATE: int
    TileTuple = tuple[int, int, int, int, int]  # q, r, n, spaces, pawns
    FlightTuple = tuple[int, int, int, int]  # color, q, r, dir
    Status = Literal["win", "loss", "ongoing"]
    Verdict = Literal["win", "loss", "unknown"]

    @type_check_only
    class Tile(TypedDict):
        q: int
        r: int
        n: int
        spaces: int
        pawns: int

    @type_check_only
    class Cell(TypedDict):
        q: int
        r: int

    @type_check_only
    class Position(TypedDict):
        tiles: list[volcano.Tile]
        volcano: volcano.Cell
        supply: list[int]
        setup: Literal["standard", "free"]

    @type_check_only
    class Flight(TypedDict):
        color: int
        tile: tuple[int, int]
        dir: int

    @type_check_only
    class FlightChoice(TypedDict):
        flight: volcano.Flight
        equivalent: list[volcano.Flight]  # other flights that give the same state

    @type_check_only
    class CheckResult(TypedDict):
        status: volcano.Status
        pawns_needed: int
        plan_pawns: int  # -1: no win can
        supply_total: int
        moves: list[volcano.FlightChoice]

    @type_check_only
    class Bounds(TypedDict):
        pawns_needed: int  # -1: no win can, and below
        pawns_needed_shallow: int
        plan_pawns: int
        hopeless: bool
        deep_hopeless: bool

    @type_check_only
    class SolveResult(TypedDict):
        verdict: volcano.Verdict
        line: list[volcano.Flight] | None  # when a win
        stats: SearchStats

    @type_check_only
    class HintMove(FlightChoice):
        value: volcano.Verdict
        line: list[volcano.Flight] | None  # when a win

    @type_check_only
    class HintResult(TypedDict):
        moves: list[volcano.HintMove]
        stats: SearchStats

    @type_check_only
    class ReplayStep(TypedDict):
        flight: volcano.Flight
        dropped: int
        extinguished: list[tuple[int, int]]
        isolated: list[tuple[int, int]]
        status: volcano.Status

    @type_check_only
    class ReplayResult(TypedDict):
        status: volcano.Status
        steps: list[volcano.ReplayStep]
        position: volcano.Position
        error: str | None

    @type_check_only
    class Difficulty(TypedDict):
        winning_share: float
        steps: int
        forced_steps: int
        solve_nodes: int
        complete: bool

    @type_check_only
    class GenerateResult(TypedDict):
        position: volcano.Position
        layout_seed: int
        attempts: int
        verdict: volcano.Verdict | None  # when solvable or rate
        line: list[volcano.Flight] | None  # when a win
        difficulty: volcano.Difficulty | None  # when rate and a win
        stats: SearchStats | None  # when solvable or rate

    @staticmethod
    def check(tiles: list[TileTuple], volcano: tuple[int, int], supply: list[int], standard: bool) -> CheckResult: ...
    @staticmethod
    def bounds(tiles: list[TileTuple], volcano: tuple[int, int], supply: list[int], standard: bool,
               max_nodes: int) -> Bounds: ...
    @staticmethod
    def solve(tiles: list[TileTuple], volcano: tuple[int, int], supply: list[int], standard: bool, max_nodes: int,
              max_seconds: float, max_memory_mb: int, control: Control | None = None,
              use_table: bool = True, use_pruning: bool = True,
              use_sleep_sets: bool = True) -> SolveResult: ...
    @staticmethod
    def hint(tiles: list[TileTuple], volcano: tuple[int, int], supply: list[int], standard: bool, max_nodes: int,
             max_seconds: float, max_memory_mb: int, control: Control | None = None) -> HintResult: ...
    @staticmethod
    def replay(tiles: list[TileTuple], volcano: tuple[int, int], supply: list[int], standard: bool,
               line: list[FlightTuple]) -> ReplayResult: ...
    @staticmethod
    def generate(seed: int, solvable: bool, rate: bool, max_attempts: int, max_nodes: int,
                 max_seconds: float, max_memory_mb: int, control: Control | None = None) -> GenerateResult: ...
