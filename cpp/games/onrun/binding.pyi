# The submodule _core.onrun (binding.cpp); CMakeLists.txt appends it to cpp/bindings/module.pyi.
class onrun:  # a submodule
    MAX_TILES: int
    HINT_CANDIDATES: int
    MAX_PAWNS_PER_COLOR: int
    MAX_COORDINATE: int
    TileTuple = tuple[int, int, int, int, list[int]]  # q, r, n, spaces, pawns per colour
    EdgeTuple = tuple[int, int, int]  # q, r, color
    NewTuple = tuple[int, int]  # n, spaces
    # place q, r; kind (0 pass, 1 tile, 2 edge, 3 evacuate); cell q, r; count; number; to
    MoveTuple = tuple[int, int, int, int, int, int, int, list[tuple[int, int]]]

    @staticmethod
    def deal(seed: int, count: int) -> list[tuple[int, int]]: ...
    @staticmethod
    def check(tiles: list[onrun.TileTuple], edge: list[onrun.EdgeTuple], supply: list[int], next: int,
              deal_rest: list[onrun.NewTuple]) -> dict: ...
    @staticmethod
    def bounds(tiles: list[onrun.TileTuple], edge: list[onrun.EdgeTuple], supply: list[int], next: int,
               deal_rest: list[onrun.NewTuple]) -> dict: ...
    @staticmethod
    def search_order(tiles: list[onrun.TileTuple], edge: list[onrun.EdgeTuple], supply: list[int], next: int,
                     deal_rest: list[onrun.NewTuple]) -> list[tuple[dict, int]]: ...
    @staticmethod
    def solve(tiles: list[onrun.TileTuple], edge: list[onrun.EdgeTuple], supply: list[int], next: int,
              deal_rest: list[onrun.NewTuple], max_nodes: int, max_seconds: float, max_memory_mb: int,
              control: Control | None = None, use_bound: bool = True, spread: bool = True,
              beams: bool = True) -> dict: ...
    @staticmethod
    def hint(tiles: list[onrun.TileTuple], edge: list[onrun.EdgeTuple], supply: list[int], next: int,
             deal_rest: list[onrun.NewTuple], max_nodes: int, max_seconds: float, max_memory_mb: int,
             control: Control | None = None, beams: bool = True) -> dict: ...
    @staticmethod
    def policy(tiles: list[onrun.TileTuple], edge: list[onrun.EdgeTuple], supply: list[int], next: int,
               deal_rest: list[onrun.NewTuple], max_nodes: int, max_seconds: float, max_memory_mb: int,
               control: Control | None = None, lookahead: bool = False, seed: int = 0) -> dict: ...
    @staticmethod
    def replay(tiles: list[onrun.TileTuple], edge: list[onrun.EdgeTuple], supply: list[int], next: int,
               deal_rest: list[onrun.NewTuple], line: list[onrun.MoveTuple]) -> dict: ...
    # competitive_binding.cpp: the MoveTuple with the acting colour last
    ContestMoveTuple = tuple[int, int, int, int, int, int, int, list[tuple[int, int]], int]

    @staticmethod
    def contest_check(tiles: list[onrun.TileTuple], edge: list[onrun.EdgeTuple], supply: list[int], next: int,
                      deal_rest: list[onrun.NewTuple], players: int, passes: int, neutral: list[int]) -> dict: ...
    @staticmethod
    def contest_replay(tiles: list[onrun.TileTuple], edge: list[onrun.EdgeTuple], supply: list[int], next: int,
                       deal_rest: list[onrun.NewTuple], players: int, passes: int, neutral: list[int],
                       line: list[onrun.ContestMoveTuple]) -> dict: ...
    @staticmethod
    def hidden_check(tiles: list[onrun.TileTuple], edge: list[onrun.EdgeTuple], supply: list[int], next: int,
                     pool: list[onrun.NewTuple], turns_left: int, drawn: onrun.NewTuple | None) -> dict: ...
    @staticmethod
    def hidden_solve(tiles: list[onrun.TileTuple], edge: list[onrun.EdgeTuple], supply: list[int], next: int,
                     pool: list[onrun.NewTuple], turns_left: int, drawn: onrun.NewTuple | None, max_nodes: int,
                     max_seconds: float, max_memory_mb: int, control: Control | None = None, seed: int = 0,
                     samples: int = 64, sample_only: bool = False, lookahead: bool = False) -> dict: ...
    @staticmethod
    def hidden_hint(tiles: list[onrun.TileTuple], edge: list[onrun.EdgeTuple], supply: list[int], next: int,
                    pool: list[onrun.NewTuple], turns_left: int, drawn: onrun.NewTuple | None, max_nodes: int,
                    max_seconds: float, max_memory_mb: int, control: Control | None = None, seed: int = 0,
                    samples: int = 64, candidates: int = 8, lookahead: bool = False) -> dict: ...
