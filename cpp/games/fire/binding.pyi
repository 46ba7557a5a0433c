# The submodule _core.fire (binding.cpp); CMakeLists.txt appends it to cpp/bindings/module.pyi.
class fire:  # a submodule
    MAX_ALIENS: int
    MAX_WEAPONS: int
    MAX_BATTERIES: int
    MAX_CROSSHAIRS: int
    MAX_STRENGTH: int
    Pile = list[tuple[int, int]]  # (energy, crosshairs) each
    Player = tuple[list[Pile], Pile, Pile, Pile, int, bool]  # weapons, draw, discard, destroyed, exchanges, order_known
    PositionTuple = tuple[bool, list[tuple[tuple[int, int, int, int], int]], list[Player], int, tuple[int, int] | None]
    MoveTuple = tuple[bool, int, int, tuple[int, int] | None]  # give, weapon, target, destroy
    Status = Literal["win", "loss", "reveal", "decision"]

    @type_check_only
    class Battery(TypedDict):
        energy: int
        crosshairs: int

    @type_check_only
    class Alien(TypedDict):
        strengths: list[int]
        hits: int

    @type_check_only
    class Piles(TypedDict):
        weapons: list[list[fire.Battery]]
        draw: list[fire.Battery]
        discard: list[fire.Battery]
        destroyed: list[fire.Battery]

    @type_check_only
    class TeamPlayer(Piles):
        exchanges: int
        order_known: bool

    @type_check_only
    class TeamPosition(TypedDict):
        mode: Literal["team"]
        aliens: list[fire.Alien]
        players: list[fire.TeamPlayer]
        turn: int
        revealed: fire.Battery | None
        order_known: bool  # every player's

    @type_check_only
    class SoloPosition(Piles):
        aliens: list[fire.Alien]
        revealed: fire.Battery | None
        order_known: bool

    @type_check_only
    class GiveMove(TypedDict):
        give: Literal[True]

    @type_check_only
    class WeaponMove(TypedDict):
        weapon: int
        target: int | None
        destroy: fire.Battery | None

    @type_check_only
    class Value(TypedDict):
        interval: tuple[float, float]
        exact: bool
        win_probability: float

    @type_check_only
    class State(TypedDict):
        status: fire.Status
        position: fire.TeamPosition | fire.SoloPosition

    @type_check_only
    class CheckResult(State):
        moves: list[fire.GiveMove | fire.WeaponMove]

    @type_check_only
    class Bounds(TypedDict):
        upper_bound: float
        cheap_upper_bound: float

    @type_check_only
    class SolveStats(ExpectimaxStats):
        decided_by: Literal["split", "focused", "certain", "expectimax"]

    @type_check_only
    class SolveResult(Value):
        won_for_certain: bool | None  # None: not known
        stats: fire.SolveStats

    @type_check_only
    class Choice(Value):
        move: fire.GiveMove | fire.WeaponMove
        equivalent: list[fire.GiveMove | fire.WeaponMove]  # other moves that reach the same state

    @type_check_only
    class RevealChoices(Value):
        battery: fire.Battery
        probability: float
        moves: list[fire.Choice]

    @type_check_only
    class HintResult(State, Value):
        moves: list[fire.Choice]
        reveals: list[fire.RevealChoices]
        stats: ExpectimaxStats

    @type_check_only
    class SplitResult(Value):
        aliens: tuple[list[int], list[int]]  # input indices, per player
        stats: ExpectimaxStats

    @type_check_only
    class StrategyResult(Value):
        games: int
        games_requested: int
        wins: int
        simulation_stopped_by: Literal["time", "memory", "stopped"] | None
        stats: ExpectimaxStats

    @staticmethod
    def check(position: PositionTuple) -> CheckResult: ...
    @staticmethod
    def key(position: PositionTuple) -> tuple[int, int]: ...
    @staticmethod
    def bounds(position: PositionTuple) -> Bounds: ...
    @staticmethod
    def solve(position: PositionTuple, max_nodes: int, max_seconds: float, max_memory_mb: int,
              control: Control | None = None, use_pruning: bool = True,
              use_dominance: bool = True, use_certain: bool = True,
              use_focus: bool = True, use_split: bool = True) -> SolveResult: ...
    @staticmethod
    def split(position: PositionTuple, max_nodes: int, max_seconds: float, max_memory_mb: int,
              control: Control | None = None) -> SplitResult: ...
    @staticmethod
    def hint(position: PositionTuple, max_nodes: int, max_seconds: float, max_memory_mb: int,
             control: Control | None = None) -> HintResult: ...
    @staticmethod
    def apply(position: PositionTuple, move: MoveTuple) -> CheckResult: ...
    @staticmethod
    def reveal(position: PositionTuple, battery: tuple[int, int]) -> State: ...
    @staticmethod
    def strategy_move(position: PositionTuple) -> GiveMove | WeaponMove: ...
    @staticmethod
    def strategy(position: PositionTuple, games: int, seed: int, max_nodes: int, max_seconds: float,
                 max_memory_mb: int, control: Control | None = None) -> StrategyResult: ...
