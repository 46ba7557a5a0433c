// On the Run! (Ablaze! box), co-op / solitaire with the deal known: the
// rules engine (flashpoints, edge areas, the four actions, evacuation with
// same-number groups acting as one tile, the product score) and a
// branch-and-bound search for the best final score. Rules:
// ../shared/spec/onrun.md; readings chosen where it is silent:
// docs/rules/onrun.md.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/inline_vector.hpp"
#include "core/limits.hpp"
#include "core/table.hpp"
#include "search/exact_expectimax.hpp"
#include "search/proof.hpp"

namespace sj::onrun {

inline constexpr int kColors = 4;
inline constexpr int kMaxTiles = 64;           // on the table plus still to come
inline constexpr int kMaxPawnsPerColor = 24;   // supply + tiles + edge, per colour
inline constexpr int kMaxEdge = kColors * kMaxPawnsPerColor;
inline constexpr int kMaxCoordinate = 60;      // of an input cell
// An evacuation's outcomes are enumerated; past this many steps the engine
// refuses the position rather than spend unbounded time on one turn.
inline constexpr uint64_t kMaxEvacuationWork = 2'000'000;
// A check or a hint lists every move of the turn; past this many the answer
// (megabytes of JSON, seconds to read) is refused. A real game's turn lists
// a few thousand at most; crowded made-up positions list 10^5.
inline constexpr size_t kMaxListedMoves = 20'000;
// A search node lists every move of its turn: microseconds on a small
// board, up to a second on a full deal's crowded turn. So the searches read
// the clock and the stop flag at every node (a clock read is tens of
// nanoseconds): every 16 nodes let a 3 s solve of a full deal run 3.3 s.
inline constexpr uint64_t kPollEvery = 1;

struct Cell {
  int16_t q = 0;
  int16_t r = 0;
  friend bool operator==(Cell, Cell) = default;
  friend bool operator<(Cell a, Cell b) { return a.q != b.q ? a.q < b.q : a.r < b.r; }
};

// ------------------------------------------------------------ input and output

struct TileSpec {
  int q = 0, r = 0, n = 1, spaces = 1;
  std::array<int, kColors> pawns{};
};
struct EdgeSpec {
  int q = 0, r = 0, color = 0;
};
struct NewTile {
  int n = 1, spaces = 1;
};
struct PositionSpec {
  std::vector<TileSpec> tiles;
  std::vector<EdgeSpec> edge;
  std::array<int, kColors> supply{12, 12, 12, 12};
  int next = 0;
  std::vector<NewTile> deal_rest;
  // deal_rest stands for tiles not yet known (the order hidden): the bound
  // must not read their numbers.
  bool rest_unknown = false;
};

// ------------------------------------------------------------ state and moves

struct Tile {
  Cell cell;
  uint8_t n = 1, spaces = 1;
  std::array<uint8_t, kColors> pawns{};
  int room() const { return spaces - pawns[0] - pawns[1] - pawns[2] - pawns[3]; }
};
struct EdgePawn {
  Cell cell;
  uint8_t color = 0;
};

struct PawnCounts;  // what the bound reads of a position (onrun.cpp)

// Plain data, copied by value. Tiles stay in placement order; edge pawns
// are kept sorted by cell, so equal positions are equal bytes.
struct State {
  std::array<Tile, kMaxTiles> tiles{};
  std::array<EdgePawn, kMaxEdge> edge{};
  std::array<uint8_t, kColors> supply{};
  uint8_t ntiles = 0;
  uint8_t nedge = 0;
  uint8_t next = 0;   // the colour of the next turn
  uint8_t drawn = 0;  // tiles of deal_rest already placed
  bool operator==(const State& o) const;
};

enum class ActionKind : uint8_t { kPass = 0, kTile = 1, kEdge = 2, kEvacuate = 3 };

struct Move {
  Cell place;
  ActionKind kind = ActionKind::kPass;
  Cell cell;          // tile or edge
  uint8_t count = 0;  // tile
  uint8_t number = 0; // evacuate
  InlineVector<Cell, kMaxPawnsPerColor> to;  // evacuate, sorted: at most the colour's pawns
};
bool canonical_less(const Move& a, const Move& b);

// What a turn did besides the move itself, for replays.
struct TurnReport {
  int tile_n = 0;
  int covered_color = -1;  // the edge pawn the new tile sent back, if any
  int returned = 0;        // pawns an evacuation sent back to the supply
};

struct Child {
  Move move;
  std::vector<Move> equivalent;  // other moves giving the same state
};

class Game {
 public:
  explicit Game(const PositionSpec& spec);  // throws InvalidInput naming the field

  const State& initial() const { return initial_; }
  int turns_left(const State& s) const { return static_cast<int>(deal_.size()) - s.drawn; }
  bool final(const State& s) const { return turns_left(s) == 0; }
  bool won(const State& s) const;
  int score(const State& s) const;  // of a final position
  // 2 * score + won: the search's objective (a won 0 beats a lost 0).
  int objective(const State& s) const { return 2 * score(s) + (won(s) ? 1 : 0); }
  // An admissible bound on the objective of any final position reached.
  int upper_objective(const State& s) const;
  int upper_score(const State& s) const { return upper_objective(s) / 2; }
  // The objective with every pawn of every colour in play at the edge: a
  // bound true of any position of the game, and nothing more.
  int every_pawn_saved(const State& s) const;
  // What the search orders a node's moves by, per move without making its
  // state (a turn may have 10^5 evacuations): the child's upper_objective,
  // its supply total and its edge pawns.
  struct MoveKey {
    int bound, supply, edge;
    // The search's order of moves (and the hidden-order policy's choice):
    // the highest bound, then the emptiest supply, then the most pawns at
    // the edge.
    bool before(const MoveKey& o) const {
      if (bound != o.bound) return bound > o.bound;
      if (supply != o.supply) return supply < o.supply;
      return edge > o.edge;
    }
  };
  void move_keys(const State& s, const std::vector<Move>& moves, std::vector<MoveKey>& out) const;

  // The branch-and-bound search's listing of a turn: the moves in canonical
  // order, except that each number's evacuation outcomes come as classes,
  // one per count of pawns moved and sent to the edge. A class's outcomes
  // move the same pawns, so they share the search's order key and bound; a
  // crowded turn has 10^6 of them, and the search, which cuts most nodes
  // after a child or two, lists a class (class_outcomes) only when it
  // reaches it. Taken in canonical order within each class,
  // the classes sorted by key give the moves in the order the whole
  // listing sorted by key would.
  struct MoveClass {
    Move move;            // the move; a class: its place and number
    int8_t to_edge = -1;  // a class: the pawns its outcomes send to the edge; -1: `move` alone
    uint8_t moved = 0;    // a class: the pawns its outcomes move
  };
  void move_classes(const State& s, std::vector<MoveClass>& out, bool* truncated) const;
  void move_keys(const State& s, const std::vector<MoveClass>& moves, std::vector<MoveKey>& out) const;
  // The outcomes of class `c` of the turn of `s`, in canonical order, each
  // given to `visit` until it returns false. False when several groups'
  // outcomes took more than kMaxEvacuationWork steps to list (then only
  // those found are given).
  bool class_outcomes(const State& s, const MoveClass& c, const std::function<bool(const Move&)>& visit) const;
  bool in_play(int color) const { return in_play_[color]; }
  // The same game with a bound that does not read the tiles to come: for
  // a policy that must not see them.
  Game blind_to_rest() const {
    Game g = *this;
    g.rest_unknown_ = true;
    return g;
  }

  std::vector<Cell> flashpoints(const State& s) const;
  std::vector<Cell> edge_areas(const State& s) const;
  const NewTile& next_tile(const State& s) const { return deal_[s.drawn]; }

  // Every legal move in canonical order, not merged. An evacuation whose
  // outcomes take more than kMaxEvacuationWork steps to list is cut short:
  // `truncated` is set, or InvalidInput thrown when it is null.
  void moves(const State& s, std::vector<Move>& out, bool* truncated) const;
  // The same with `tile` as the tile drawn, whatever the deal says (the
  // order hidden: the searches draw it from the pool).
  void moves_with(const State& s, const NewTile& tile, std::vector<Move>& out, bool* truncated) const;
  // Distinct legal moves in canonical order (each with the others giving
  // its state); throws InvalidInput past kMaxEvacuationWork or past
  // kMaxListedMoves moves.
  std::vector<Child> children(const State& s) const;
  // Legal? If not, `why` says which rule it breaks.
  bool legal(const State& s, const Move& m, std::string* why) const;
  State apply(const State& s, const Move& m, TurnReport* report = nullptr) const;
  State apply_with(const State& s, const NewTile& tile, const Move& m, TurnReport* report = nullptr) const;

  PositionSpec to_spec(const State& s) const;
  uint64_t key(const State& s) const;

 private:
  friend class Contest;  // the competitive game plays its turns with these
  State place_tile(const State& s, const NewTile& tile, Cell at, TurnReport* report) const;
  // The moves go to `out`, or with `folded` there instead (`out` null), one
  // source's outcomes as classes (MoveClass).
  void list_moves(const State& s, const NewTile& tile, std::vector<Move>* out, std::vector<MoveClass>* folded,
                  bool* truncated) const;
  void evacuations(const State& placed, int color, std::vector<Move>* out, Cell place, bool* truncated,
                   std::vector<MoveClass>* folded = nullptr) const;
  template <class Entry>
  void keys_of(const State& s, const std::vector<Entry>& moves, std::vector<MoveKey>& out) const;
  State act(const State& placed, const Move& m, TurnReport* report) const;
  // upper_objective from the pawn counts of a position (onrun.cpp), with
  // `turns` turns left starting with colour `next`.
  int upper_from(const PawnCounts& p, int turns, int next) const;
  // The most edge pawns colour k can end with (-1: its supply cannot
  // empty), and the bound those caps give with `room` edge areas at most.
  int colour_cap(const PawnCounts& p, int k, int turns, int next) const;
  int shared_out(const std::array<int, kColors>& cap, int room) const;

  std::vector<NewTile> deal_;
  bool rest_unknown_ = false;
  std::vector<std::array<uint8_t, 7>> numbers_before_;  // [i][v]: the v-tiles among deal_[0, i)
  std::array<bool, kColors> in_play_{};
  State initial_;
};

// ------------------------------------------------------------ search

struct Line {
  std::vector<Move> moves;
};

struct SolveResult {
  int lower = -1;          // best objective found (-1: none found)
  int upper = 0;           // proved bound on the objective
  bool exact = false;
  std::vector<Move> line;  // reaches `lower`
  SearchStats stats;
};

// For measuring what each is worth: `use_bound` off, nodes are cut only by
// the objective of every pawn saved, not by upper_objective; `spread` off,
// the search is depth-first from the start, without the dive, the beams, the
// walks and the shares that first find a line under every first move;
// `beams` off, without the beams only; `walks` off, without the walks only.
SolveResult solve(const Game& game, const State& s, const Limits& limits, Control* control, bool use_bound = true,
                  bool spread = true, bool beams = true, bool walks = true);
// The moves of `s` in the order solve's depth-first search tries them, with
// the bound it orders each by (for tests: the folded listing expanded).
std::vector<std::pair<Move, int>> search_order(const Game& game, const State& s);

struct HintMove {
  Child child;
  int lower = -1, upper = 0;
  bool exact = false;
  std::vector<Move> line;  // after this move
};
struct HintResult {
  std::vector<HintMove> moves;  // best first, ties canonical
  SearchStats stats;
};
// Each move's value as solve finds it, without the spread (the hint's own
// shares are one); `beams` off, without the dive and the beams (for measuring).
HintResult hint(const Game& game, const State& s, const Limits& limits, Control* control, bool beams = true);

// A deal from the 43-tile box, shuffled by `seed`, its first `count` tiles.
std::vector<NewTile> deal(uint64_t seed, int count);

// ------------------------------------------------------------ competitive (competitive.cpp)

// 2-4 players, deal known: the co-op board and turn, with owned colours, seat
// order, the phase after the last tile and per-seat scores.
inline constexpr int kNeutral = 3;        // with 3 players, green belongs to no one
inline constexpr int kMaxSeats = 4;
struct ContestSpec {
  PositionSpec board;  // board.next is the seat to move
  int players = 4;
  int passes = 0;                      // after the last tile: passes in a row
  std::array<int, 3> neutral{4, 4, 4};  // 3 players: each seat's neutral pawns in its supply
};
struct ContestState {
  State board;  // board.supply[kNeutral] is the seats' neutral pawns together with 3 players
  uint8_t seat = 0;
  uint8_t passes = 0;
  std::array<uint8_t, 3> neutral{};
  bool operator==(const ContestState& o) const {
    return board == o.board && seat == o.seat && passes == o.passes && neutral == o.neutral;
  }
};
// A turn: with a tile left, `move.place` is where it goes; after the last
// tile `move.place` is unused and the action is an evacuation or a pass.
struct ContestMove {
  Move move;
  uint8_t color = 0;  // the colour that acts
};
bool contest_less(const ContestMove& a, const ContestMove& b);
struct ContestChild {
  ContestMove move;
  std::vector<ContestMove> equivalent;  // other moves giving the same state
};
struct SeatResult {
  int score = 0, damage = 0;
  bool winner = false;
};

class Contest {
 public:
  explicit Contest(const ContestSpec& spec);  // throws InvalidInput naming the field

  const ContestState& initial() const { return initial_; }
  int tiles_left(const ContestState& s) const { return game_.turns_left(s.board); }
  bool final(const ContestState& s) const;
  // The colours a seat may act with, its own first.
  std::vector<int> colors_of(int seat) const;
  std::vector<Cell> flashpoints(const ContestState& s) const;
  std::vector<Cell> edge_areas(const ContestState& s) const { return game_.edge_areas(s.board); }
  // Distinct legal moves, by place, then colour, then the co-op order.
  std::vector<ContestChild> children(const ContestState& s) const;
  bool legal(const ContestState& s, const ContestMove& m, std::string* why) const;
  ContestState apply(const ContestState& s, const ContestMove& m, TurnReport* report = nullptr) const;
  // Per seat, of a final position: score, damage and whether it wins.
  std::vector<SeatResult> results(const ContestState& s) const;
  ContestSpec to_spec(const ContestState& s) const;

 private:
  // The board as colour `color` of the seat to move sees it: board.next is
  // the colour, and with 3 players the neutral supply is the seat's own.
  State acting(const ContestState& s, int color) const;
  ContestState settle(const ContestState& s, const State& after, bool passed) const;
  void moves(const ContestState& s, std::vector<ContestMove>& out) const;
  bool can_reach_edge(const State& board) const;

  Game game_;
  int players_;
  ContestState initial_;
};

// ------------------------------------------------------------ hidden order

// A tile kind: (n, spaces), 6 x 3 of them; the pool counts each.
inline constexpr int kTileKinds = 18;
inline int kind_of(const NewTile& t) { return (t.n - 1) * 3 + (t.spaces - 1); }
inline NewTile tile_of_kind(int kind) { return {kind / 3 + 1, kind % 3 + 1}; }
using Pool = std::array<uint8_t, kTileKinds>;

struct HiddenSpec {
  std::vector<NewTile> pool;
  int turns_left = -1;  // -1: the default, len(pool) (+1 with drawn)
  bool has_drawn = false;
  NewTile drawn;
};

// The order hidden, as an ExactExpectimaxGame: a chance node draws a tile
// from the pool (weighted by its count), a decision node has it drawn and
// picks the move. Value: the final score.
class HiddenGame {
 public:
  struct Node {
    State state;
    Pool pool{};
    int8_t drawn = -1;  // the kind drawn for this turn; -1 at a chance node
  };
  using State = Node;
  struct Weighted {
    Node state;
    uint64_t weight = 0;
  };

  // Throws InvalidInput naming the field.
  HiddenGame(const PositionSpec& table, const HiddenSpec& hidden);

  // The engine, its deal standing for the turns left (placeholder tiles,
  // the drawn one first): turns, flashpoints, bounds and, with a tile
  // drawn, the root's moves are the known-order engine's.
  const Game& engine() const { return engine_; }
  const Node& root() const { return root_; }
  int pool_size(const Node& n) const;

  bool is_final(const Node& n) const { return engine_.final(n.state); }
  bool is_chance(const Node& n) const { return n.drawn < 0; }
  uint64_t leaf_value(const Node& n) const { return static_cast<uint64_t>(engine_.score(n.state)); }
  uint64_t upper_value(const Node& n) const { return static_cast<uint64_t>(engine_.upper_score(n.state)); }
  uint64_t key(const Node& n) const;
  void chance_children(const Node& n, std::vector<Weighted>& out) const;
  void decision_children(const Node& n, std::vector<Node>& out) const;
  // The node after `move` with the drawn tile.
  Node after(const Node& n, const Move& move) const;
  // A known-order game of this position with `deal` as the tiles to come.
  Game known(const std::vector<NewTile>& deal) const;
  // The game from `n` on, a node of this one (a hint samples each move's).
  HiddenGame rooted_at(const Node& n) const;

 private:
  PositionSpec table_;
  Game engine_;
  Node root_;
};

struct SampledValue {
  uint64_t seed = 0;
  int samples = 0;            // played (a time limit may cut them short)
  int samples_asked = 0;
  bool lookahead = false;  // the policy is the lookahead one, not the fixed one
  // A policy (below) on sampled deals: estimates a lower bound.
  double policy_mean = 0, policy_low = 0, policy_high = 0;
  // Known-order best scores on the same deals: an upper bound.
  double clairvoyant_mean = 0, clairvoyant_low = 0, clairvoyant_high = 0;
  int clairvoyant_bounded = 0;  // samples whose known-order solve stopped: its proved upper bound used
  uint64_t clairvoyant_nodes = 0;  // the node quota of each known-order solve
};

struct HiddenSolveResult {
  bool exact = false;
  ExactValue value;         // when exact
  const char* why_not = "";  // when not: "limit", "overflow", "large" or "asked"
  bool sampled = false;
  SampledValue sample;
  SearchStats stats;
};

// A hint's move or draw: its exact value, or else its sampled bounds
// (none when the limits ran out before it was reached).
struct HiddenChoice {
  Child child;
  bool exact = false;
  ExactValue value;
  SampledValue sample;  // when not exact and sample.samples > 0
};
struct HiddenDraw {
  NewTile tile;
  int count = 0;
  bool exact = false;
  ExactValue value;
  SampledValue sample;
};
struct HiddenHintResult {
  int pool_size = 0;
  // With a tile drawn; best first: exact values, then sampled ones by the
  // policy's mean (what a player can be sure of), then the rest; ties canonical.
  std::vector<HiddenChoice> moves;
  std::vector<HiddenDraw> draws;    // without: per kind, in kind order
  bool exact = false;
  ExactValue value;  // of the position
  SearchStats stats;
};

// The fixed policy the sampled answers play, on `game`'s deal: each turn
// the move the known-order search tries first (highest admissible bound
// after it, then the emptiest supply, then the most pawns at the edge, ties
// canonical). It reads only the board and the tile drawn, never the tiles
// to come, so on deals drawn at random its mean score is at most the value
// with the order hidden.
struct PolicyGame {
  int score = -1;          // -1: a limit or the control stopped it
  std::vector<Move> line;  // the moves played
  SearchStats stats;
};
// With `lookahead`, a stronger policy, blind to the order too: each turn it
// shuffles the tiles to come (the drawn one first) twice by `seed`, solves
// each order with it known under 5,000 nodes, and plays the first move of
// the lines found, a line counting its objective + 1 (the fixed policy's
// move when none is found). About 15 s a full game (up to 40 s) against
// milliseconds.
PolicyGame play_policy(const Game& game, const Limits& limits, Control* control, bool lookahead = false,
                       uint64_t seed = 0);

// The exact search is tried when at most this many turns are left; past it
// a full enumeration is hopeless (the pools of a full game have 10^30 orders
// and more), and the answer is sampled at once.
inline constexpr int kExactTurns = 12;
inline constexpr int kDefaultSamples = 64;
// A hint that cannot be exact samples this many moves (or draws) by
// default, the policy's favourites, side by side on the same deals; a full
// game's turn has thousands of moves, each sampled only as the limit allows.
inline constexpr size_t kHintCandidates = 8;
// The node quota of one known-order solve of a sampled deal (fixed, so the
// answer is the same on any machine); a smaller max_nodes shares itself out.
inline constexpr uint64_t kClairvoyantNodes = 2'000;

// `sample_only` (for tests and measuring) skips the exact search. With
// `lookahead` the sampled deals' lower side is the lookahead policy's
// (play_policy): a far tighter bound, at 10,000 nodes a turn of each deal.
HiddenSolveResult solve_hidden(const HiddenGame& game, const Limits& limits, Control* control, uint64_t seed,
                               int samples, bool sample_only = false, bool lookahead = false);
// Exact values when the position is small enough; else (or past a limit)
// sampled bounds for the first `candidates` moves or draws (0: all).
HiddenHintResult hint_hidden(const HiddenGame& game, const Limits& limits, Control* control, uint64_t seed = 0,
                             int samples = kDefaultSamples, size_t candidates = kHintCandidates,
                             bool lookahead = false);

}  // namespace sj::onrun
