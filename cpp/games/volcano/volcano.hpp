// Volcano! solitaire: layout, state, flights, removals, and the interface the
// generic proof search needs. Rules: ../shared/spec/volcano.md; the readings
// we chose where it is silent: docs/rules/volcano.md.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/hex.hpp"
#include "search/budget.hpp"
#include "search/proof.hpp"

namespace sj::volcano {

inline constexpr int kMaxCells = 64;  // forest tiles plus the volcano
inline constexpr int kMaxColors = 8;
inline constexpr int kMaxSupplyPerColor = 1000;
inline constexpr int kMaxCoordinate = 10000;
inline constexpr int kDefaultSpaces[7] = {0, 1, 1, 2, 2, 3, 3};
// How many levels out from the volcano's ring the pawn bound digs.
inline constexpr int kDigDepth = 2;
// Nodes the removal-plan test may spend on one position (about a second;
// the hardest standard layouts seen need a few thousand).
inline constexpr uint64_t kPlanNodes = uint64_t{1} << 20;

// The position as given (the spec's JSON, already parsed). spaces <= 0 means
// "use the default for n".
struct TileSpec {
  int q = 0, r = 0, n = 1, spaces = 0, pawns = 0;
};
struct PositionSpec {
  std::vector<TileSpec> tiles;
  Axial volcano;
  std::vector<int> supply{12, 12, 12, 12};
  bool standard = false;  // also check the standard set-up rules
};

// A flight in the input's own terms: colour index, entry cell index, direction.
struct Flight {
  uint8_t color = 0;
  uint8_t tile = 0;
  uint8_t dir = 0;
  friend bool operator==(const Flight&, const Flight&) = default;
};

// Pawn counts (0..3) are kept as two bit planes so that "which tiles are
// full" is a handful of word operations.
struct State {
  uint64_t present = 0;  // forest tiles still on the table
  uint64_t pawn_lo = 0;
  uint64_t pawn_hi = 0;
  uint64_t board_key = 0;  // Zobrist key of tiles and pawns
  std::array<uint16_t, kMaxColors> supply{};
  bool lost = false;  // a pawnless tile was isolated
  int16_t need = -1;  // pawns_needed(), cached by children(); -1 when not known
};

// What a flight does at one state, for the search to tell when two commute.
struct Footprint {
  Flight move;
  uint64_t path = 0;      // every tile on the path
  uint64_t open = 0;      // the tiles on the path with space (it drops there)
  uint64_t removed = 0;   // the tiles its removals took
  bool isolates = false;  // it isolated something
};

struct Child {
  Flight move;
  State state;
  Footprint footprint;
  uint64_t key = 0;
  int32_t order = 0;  // higher is tried first
  uint32_t seq = 0;   // generation order, for deterministic ties
};

// What one flight did, for replays, the web page and tests.
struct FlightReport {
  int dropped = 0;
  std::vector<int> extinguished;  // cell indices, in removal order
  std::vector<int> isolated;
};

class Game {
 public:
  using State = volcano::State;
  using Move = Flight;
  using Child = volcano::Child;
  using Footprint = volcano::Footprint;

  // Validates the position; throws InvalidInput naming the cell and the rule.
  explicit Game(const PositionSpec& spec);

  const State& initial() const { return initial_; }
  int cell_count() const { return static_cast<int>(cells_.size()); }
  int color_count() const { return color_count_; }
  int volcano_cell() const { return volcano_; }
  Axial cell(int i) const { return cells_[i]; }
  int number(int i) const { return number_[i]; }
  int spaces(int i) const { return spaces_[i]; }
  int neighbor(int i, int d) const { return neighbor_[i][d]; }
  int cell_index(Axial a) const;  // -1 when the cell is not in the layout
  static int pawns(const State& s, int i) {
    return static_cast<int>(((s.pawn_lo >> i) & 1) | (((s.pawn_hi >> i) & 1) << 1));
  }

  // Rules. legal() explains a refusal in `why` when given.
  bool legal(const State& s, Flight f, std::string* why = nullptr) const;
  State apply(const State& s, Flight f, FlightReport* report = nullptr,
              bool* isolated = nullptr) const;
  bool has_flight(const State& s) const;
  Outcome outcome_with_moves(const State& s) const;  // loss also when stuck
  // Pawns still needed to clear the board, by an admissible count.
  int pawns_needed(const State& s) const;
  int pawns_needed(const State& s, int dig_depth) const;
  int supply_total(const State& s) const;
  bool same_canonical(const State& a, const State& b) const;

  // The ProofGame interface.
  Outcome outcome(const State& s) const;
  uint64_t key(const State& s) const;
  bool hopeless(const State& s) const;
  // The costlier test the search runs on whole positions: no removal plan
  // (see RemovalPlan) fits in the supply. At most kPlanNodes of `budget`.
  bool deep_hopeless(const State& s, Budget& budget) const;
  // The least pawns of any removal plan: a lower bound on the pawns still
  // needed, exact unless `budget` runs out first (then what was proved).
  int plan_pawns(const State& s, Budget& budget) const;
  static constexpr int kPolicies = 2;  // move orders, see order_score()
  void children(const State& s, std::vector<Child>& out, int policy) const;
  Footprint footprint(const State& s, Flight f) const;
  bool independent(const State& s, const Footprint& a, const Footprint& b) const;
  bool same_move(const State& s, const Footprint& earlier, const Footprint& now) const;

  // Every distinct child with all the flights that lead to it (for hints).
  struct Merged {
    Child child;
    std::vector<Flight> equivalent;  // the other flights giving the same state
  };
  std::vector<Merged> merged_children(const State& s) const;

  // The state back in the input's terms (for the API and JSON output).
  PositionSpec to_spec(const State& s) const;

 private:
  friend class RemovalPlan;
  bool settle(State& s, FlightReport* report) const;  // true if it isolated tiles
  void remove_tile(State& s, int i) const;
  void set_pawns(State& s, int i, int p) const;
  uint64_t full_mask(const State& s) const;
  bool two_adjacent_free(uint64_t occupied, int i) const;
  void generate(const State& s, std::vector<Child>& out, bool keep_duplicates, int policy) const;
  void order_and_merge(std::vector<Child>& out) const;
  template <class F>
  void for_each_flight(const State& s, F&& f) const;
  int32_t order_score(State& s, int policy) const;  // also caches s.need
  int clearing_cost(const State& s, int x, uint64_t standing, bool ring_stands, int depth) const;
  int ring_cover_cost(const State& s) const;

  std::vector<Axial> cells_;
  std::vector<int> number_, spaces_;
  std::vector<std::array<int, 6>> neighbor_;  // cell index or -1
  std::vector<uint64_t> neighbor_mask_;
  std::vector<std::array<uint64_t, 4>> zobrist_;
  uint64_t spaces_lo_ = 0, spaces_hi_ = 0;
  uint64_t ring_ = 0;  // cells next to the volcano
  // Around the volcano V, by direction i: ring cell V+D[i], the "edge" cell
  // V+D[i]+D[i+1] shared by ring cells i and i+1, and the "corner" V+2D[i].
  // Cell indices, or -1 where the layout has no cell.
  std::array<int, 6> ring_cell_{}, edge_cell_{}, corner_cell_{};
  int volcano_ = 0;
  int color_count_ = 0;
  State initial_;
};

// The removal-plan relaxation: pawns may land anywhere. Every tile leaves
// extinguished (full) or isolated (holding a pawn), so a win drops at least
// one pawn on every pawnless tile plus, on every tile it extinguishes, the
// rest of its spaces. Which tiles can be the extinguished ones is decided by
// the layout alone: a tile can go when it has two adjacent free edges, and
// whatever that cuts off from the volcano goes with it for free. The least
// such cost is a lower bound on the pawns any real line needs (a real line's
// removals, replayed one at a time, are a plan: isolating earlier only
// removes more, and removing more only frees more edges).
struct PlanState {
  uint64_t present = 0;
};

class RemovalPlan {
 public:
  using State = PlanState;
  using Move = uint8_t;  // the tile extinguished
  struct Child {
    Move move = 0;
    PlanState state;
    int cost = 0;   // pawns beyond the first on that tile
    int bound = 0;  // lower bound on the cost still to pay after it
  };

  // The plan for `s`: costs use its pawns (and never change in the plan).
  RemovalPlan(const Game& game, const volcano::State& s);
  PlanState root() const { return {root_}; }
  // Pawns every plan pays whatever it extinguishes: one on each pawnless tile.
  int base() const { return base_; }

  bool won(const PlanState& s) const { return s.present == 0; }
  bool lost(const PlanState&) const { return false; }
  uint64_t key(const PlanState& s) const;
  // The ring can never be isolated: all of it must be extinguished.
  int lower_bound(const PlanState& s) const;
  // Leaves out tiles dearer than `budget`; returns the least cost of those.
  int children(const PlanState& s, int budget, std::vector<Child>& out) const;

 private:
  uint64_t close(uint64_t present) const;  // after every free removal

  const Game& game_;
  uint64_t root_ = 0;
  uint64_t free_ = 0;  // tiles whose removal costs nothing more
  int base_ = 0;
  std::array<int, kMaxCells> extra_{};  // cost to extinguish, beyond base
};

// A random standard layout (36 tiles each next to two others, the volcano on
// an enclosed cell), deterministic in the seed.
PositionSpec random_standard_layout(uint64_t seed);

}  // namespace sj::volcano
