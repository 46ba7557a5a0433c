# The submodule _core.firetower (binding.cpp); CMakeLists.txt appends it to cpp/bindings/module.pyi.
# Positions, records, moves and events cross as the spec's JSON text.
class firetower:  # a submodule
    MAX_LEVEL: int
    HINT_CANDIDATES: int

    class Data:
        """The cards, Inferno, die, hawks and levels (spec sections 2-3), from their JSON."""
        def __init__(self, text: str) -> None: ...

    class Session:
        """A game replayed from a record or a position, stopped at its next decision or chance."""
        @property
        def status(self) -> Literal["ongoing", "win", "loss", "timeout"]: ...
        @property
        def score(self) -> int | None: ...
        @property
        def decision(self) -> str | None: ...
        @property
        def chance(self) -> Literal["inferno", "draw", "die"] | None: ...
        @property
        def turn(self) -> int: ...
        @property
        def round(self) -> int: ...
        # (every legal move, the first `limit` in canonical order, hawk cards too many to list:
        # (card, moves, the move without squares, own-hawk squares, takeable enemy hawks, own, placed, max_take))
        def moves(self, limit: int) -> tuple[int, list[str], list[tuple[str, int, str, list[tuple[int, int]],
                                                                     list[tuple[int, int]], int, int, int]]]: ...
        def outcomes(self) -> list[tuple[str, int]]: ...  # (event, weight)
        def apply(self, event: str, where: str = "move") -> str: ...  # the canonical JSON applied
        def sample(self, seed: int) -> list[str]: ...  # chance events drawn up to the next decision
        def position(self) -> str | None: ...
        def view(self) -> str: ...
        def board(self) -> bytes: ...  # 256 codes, row by row
        def copy(self) -> firetower.Session: ...

    @type_check_only
    class HintMove(TypedDict):
        move: str
        value: float
        ci95: tuple[float, float]
        n: int
        equivalent: list[str]

    @type_check_only
    class HintStats(SearchCounts):
        iterations: int
        tree_nodes: int
        arena_full: bool
        candidates: int
        threads: int

    @type_check_only
    class Hint(TypedDict):
        moves: list[firetower.HintMove]
        moves_total: int
        value: float
        ci95: tuple[float, float]
        n: int
        stats: firetower.HintStats

    @type_check_only
    class Played(TypedDict):
        start: str
        events: list[str]
        status: Literal["ongoing", "win", "loss", "timeout"]
        score: int | None
        turns: int
        decisions: int
        nodes: int
        seconds: float
        stopped: bool

    @type_check_only
    class Playouts(TypedDict):
        games: int
        wins: int
        losses: int
        timeouts: int
        score_sum: int
        decisions: int
        seconds: float

    @staticmethod
    def replay(data: firetower.Data, text: str) -> tuple[firetower.Session, int, str, int]: ...
    @staticmethod
    def new_game(data: firetower.Data, level: int, seed: int, order_known: bool = False,
                 turn_limit: int = 100) -> str: ...
    @staticmethod
    def hint(session: firetower.Session, max_nodes: int, max_seconds: float, max_memory_mb: int,
             control: Control | None, seed: int, score: bool, threads: int, candidates: int,
             listed: int) -> firetower.Hint: ...
    @staticmethod
    def action_count(session: firetower.Session) -> int: ...
    @staticmethod
    def card_play_draws(session: firetower.Session) -> dict[str, tuple[list[str], list[str]]]: ...
    @staticmethod
    def baseline_move(session: firetower.Session, policy: str, seed: int = 0) -> str: ...
    @staticmethod
    def fire_distances(session: firetower.Session) -> dict[str, int]: ...
    @staticmethod
    def search_h_both_ways(session: firetower.Session) -> tuple[int, list[tuple[str, float, float]]]: ...
    @staticmethod
    def play(data: firetower.Data, level: int, seed: int, policy: str, max_nodes: int, max_seconds: float,
             max_memory_mb: int, control: Control | None, turn_limit: int, threads: int) -> firetower.Played: ...
    @staticmethod
    def playouts(data: firetower.Data, level: int, seed: int, games: int, policy: str) -> firetower.Playouts: ...
