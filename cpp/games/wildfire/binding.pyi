# The submodule _core.wildfire (binding.cpp); CMakeLists.txt appends it to cpp/bindings/module.pyi.
class wildfire:  # a submodule
    MAX_TILES: int
    MAX_COLORS: int
    MAX_SUPPLY_PER_COLOR: int
    MAX_COORDINATE: int
    MAX_HINT_SAMPLES: int
    # tiles (q, r, n, spaces (0: default), pawns per colour), turn, supply, level, known,
    # rest ((n, spaces) each: the deal still to come, or the pool), turns_left,
    # drawn ((n, spaces); n 0: not given)
    PositionTuple = tuple[list[tuple[int, int, int, int, list[int]]], int, list[int], int, bool,
                          list[tuple[int, int]], int, tuple[int, int]]
    MoveTuple = tuple[int, int, int, int, int, int]  # place q, r, color (-1: no pawns), tile q, r, count
    Status = Literal["win", "loss", "ongoing"]

    @type_check_only
    class Tile(TypedDict):
        q: int
        r: int
        n: int
        spaces: int
        pawns: list[int]  # per colour

    @type_check_only
    class Kind(TypedDict):
        n: int
        spaces: int

    @type_check_only
    class Table(TypedDict):  # what both orders' positions hold
        tiles: list[wildfire.Tile]
        turn: int
        supply: list[int]
        level: int

    @type_check_only
    class KnownPosition(Table):
        deal_rest: list[wildfire.Kind]

    @type_check_only
    class HiddenPosition(Table):
        pool: list[wildfire.Kind]
        turns_left: int
        drawn: NotRequired[wildfire.Kind]

    @type_check_only
    class Pawns(TypedDict):
        color: int
        tile: list[int]  # [q, r]
        count: int

    @type_check_only
    class Move(TypedDict):
        place: list[int]  # [q, r]
        pawns: wildfire.Pawns | None

    @type_check_only
    class CheckResult(TypedDict):
        status: wildfire.Status
        turn: int
        turns_left: int
        hottest: list[list[int]]  # [q, r] each
        pawns_allowed: bool
        moves: list[wildfire.Move]
        position: wildfire.KnownPosition | wildfire.HiddenPosition

    @type_check_only
    class DeadEnds(TypedDict):
        hopeless: bool
        colours_cannot_join: bool
        too_few_open_ones: bool

    @type_check_only
    class SolveStats(SearchStats):
        layouts: int
        layouts_refuted: int
        pawn_plan_nodes: int
        decided_by: Literal["layouts", "moves"] | None  # None: unknown

    @type_check_only
    class SolveResult(TypedDict):
        verdict: Literal["win", "loss", "unknown"]
        line: list[wildfire.Move] | None  # when a win
        stats: wildfire.SolveStats

    @type_check_only
    class HintChoice(TypedDict):
        move: wildfire.Move
        wins: int
        losses: int
        unknown: int

    @type_check_only
    class HintStats(SearchCounts):
        solves: int
        workers: int

    @type_check_only
    class HintResult(TypedDict):
        exact: bool
        drawn: wildfire.Kind
        samples: int
        samples_requested: int
        seed: int
        moves: list[wildfire.HintChoice]
        stats: wildfire.HintStats

    @type_check_only
    class ReplayStep(TypedDict):
        move: wildfire.Move
        status: wildfire.Status
        position: wildfire.KnownPosition | wildfire.HiddenPosition

    @type_check_only
    class ReplayResult(TypedDict):
        status: wildfire.Status
        steps: list[wildfire.ReplayStep]
        position: wildfire.KnownPosition | wildfire.HiddenPosition
        error: str | None

    @type_check_only
    class ScoredRegion(TypedDict):
        player: int
        color: int
        tiles: list[list[int]]  # [q, r] each
        value: int

    @type_check_only
    class ScoreResult(TypedDict):
        colors: list[list[int]]  # per player
        scores: list[int]
        tie_breaks: list[int]
        regions: list[wildfire.ScoredRegion]

    @staticmethod
    def check(position: PositionTuple) -> CheckResult: ...
    @staticmethod
    def dead_ends(position: PositionTuple) -> DeadEnds: ...
    @staticmethod
    def solve(position: PositionTuple, max_nodes: int, max_seconds: float, max_memory_mb: int,
              control: Control | None = None, use_table: bool = True,
              use_pruning: bool = True, use_layouts: bool = True) -> SolveResult: ...
    @staticmethod
    def hint(position: PositionTuple, samples: int, seed: int, sample_nodes: int, workers: int,
             max_nodes: int, max_seconds: float, max_memory_mb: int,
             control: Control | None = None) -> HintResult: ...
    @staticmethod
    def sample_deals(position: PositionTuple, samples: int, seed: int) -> list[list[Kind]]: ...
    @staticmethod
    def replay(position: PositionTuple, line: list[MoveTuple]) -> ReplayResult: ...
    @staticmethod
    def score(position: PositionTuple, players: int) -> ScoreResult: ...
