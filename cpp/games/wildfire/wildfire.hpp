// Wild Fire! solitaire: the position, the turn (hottest-cell placement, one
// pawn action), the goal, and the interface the generic proof search needs.
// Rules: ../shared/spec/wildfire.md; the readings we chose where it is
// silent: docs/rules/wildfire.md.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/hex.hpp"
#include "search/proof.hpp"

namespace sj::wildfire {

// Input bounds: every tile of a game (on the table and to come) fits one
// 64-bit mask, so no input can make a state large or a turn slow.
inline constexpr int kMaxTiles = 64;
inline constexpr int kMaxColors = 4;
inline constexpr int kMaxSupplyPerColor = 100;
inline constexpr int kMaxCoordinate = 10000;
inline constexpr int kMaxPerTurn = 3;
inline constexpr int kDefaultSpaces[7] = {0, 1, 1, 2, 2, 3, 3};

// A tile off the table: number and spaces (spaces <= 0: the default).
struct Kind {
  int n = 1;
  int spaces = 0;
};
// A tile on the table, pawns per colour.
struct TileSpec {
  int q = 0, r = 0, n = 1, spaces = 0;
  std::vector<int> pawns;  // one count per colour; empty means all 0
};
// Every position form of the spec, already parsed. A game from its start is
// the mid-game form with one tile at (0, 0) and turn 0. Known order: `rest`
// is the deal still to come, in order. Hidden order: `rest` is the pool (a
// multiset) and `turns_left` the draws still to make; `drawn`, if given,
// is the tile just drawn for this turn (still counted in the pool), which
// makes this one turn playable.
struct PositionSpec {
  std::vector<TileSpec> tiles;
  int turn = 0;
  std::vector<int> supply{12, 12, 12, 12};
  int level = 1;
  bool known = true;
  std::vector<Kind> rest;
  int turns_left = 0;  // hidden order only; known order uses rest.size()
  std::optional<Kind> drawn;  // hidden order only
};

// One turn: the cell for the drawn tile, then at most one pawn action
// (color < 0: none). Cells are relative to the game's origin (its first
// table tile); Game::absolute() turns them into the input's cells.
struct Move {
  int8_t pq = 0, pr = 0;
  int8_t color = -1;
  int8_t tq = 0, tr = 0;
  uint8_t count = 0;
  friend bool operator==(const Move&, const Move&) = default;
};

// The table in a few fixed arrays: tile i of the game (the table's tiles in
// input order, then the deal in order) sits at (q[i], r[i]) once placed.
// Pawn counts (0..3) per colour are two bit planes; `occ` is the six-bit
// mask of a tile's occupied directions, `adj` its neighbouring tiles.
struct State {
  uint64_t layout = 0;                        // Zobrist of (cell, n, spaces)
  std::array<uint64_t, kMaxColors> hash{};    // Zobrist of (cell, count) per colour
  std::array<uint64_t, kMaxColors> lo{}, hi{};
  std::array<uint64_t, kMaxTiles> adj{};
  std::array<int8_t, kMaxTiles> q{}, r{};
  std::array<uint8_t, kMaxTiles> occ{};
  std::array<uint8_t, kMaxTiles> pawns{};     // all colours
  std::array<uint8_t, kMaxColors> supply{};
  uint8_t count = 0;                          // tiles on the table
  // The search's normal form: the last turn placed no pawns although it
  // could have (see Game::children).
  bool passed = false;
};

// The tiles of `within` reachable from `from` through neighbouring tiles.
uint64_t flood(const State& s, uint64_t from, uint64_t within);

struct Footprint {
  Move move;
};

struct Child {
  Move move;
  State state;
  Footprint footprint;
  int32_t order = 0;  // higher is tried first
};

class Game {
 public:
  using State = wildfire::State;
  using Move = wildfire::Move;
  using Child = wildfire::Child;
  using Footprint = wildfire::Footprint;

  // Validates the position; throws InvalidInput naming the field, tile or
  // cell and the rule.
  explicit Game(const PositionSpec& spec);

  const State& initial() const { return initial_; }
  bool known() const { return known_; }
  int colors() const { return colors_; }
  int level() const { return level_; }
  int total() const { return total_; }  // tiles at the end of the game
  int turn(const State& s) const { return s.count - 1; }
  int turns_left(const State& s) const { return total_ - s.count; }
  Axial absolute(int q, int r) const { return {origin_.q + q, origin_.r + r}; }
  Axial cell(const State& s, int i) const { return absolute(s.q[i], s.r[i]); }
  int number(int i) const { return n_[i]; }
  int spaces(int i) const { return spaces_[i]; }
  static int count_of(const State& s, int c, int i) {
    return static_cast<int>(((s.lo[c] >> i) & 1) | (((s.hi[c] >> i) & 1) << 1));
  }
  static int free_edges(const State& s, int i);
  int tile_at(const State& s, Axial absolute_cell) const;  // -1 if empty

  // Rules. The hottest cells (relative, sorted by (q, r)); every legal move
  // in the input's colours (cells by (q, r), the pawnless move first, then
  // colour, tile, count); legal() explains a refusal in `why`. Moves need
  // the next tile: known order, or hidden order with the drawn one given
  // (for that one turn).
  bool next_tile_known(const State& s) const { return s.count < static_cast<int>(n_.size()); }
  std::vector<Axial> hottest(const State& s) const;
  std::vector<Move> legal_moves(const State& s) const;
  bool legal(const State& s, const Move& m, std::string* why = nullptr) const;
  State apply(const State& s, const Move& m) const;
  bool won(const State& s) const;  // the goal, at any time (supplies 0, regions)
  int pawn_turns_left(const State& s) const;

  // The ProofGame interface (known order only).
  Outcome outcome(const State& s) const;
  uint64_t key(const State& s) const;
  bool hopeless(const State& s) const;
  static constexpr int kPolicies = 2;
  void children(const State& s, std::vector<Child>& out, int policy) const;
  Footprint footprint(const State&, const Move& m) const { return {m}; }
  // Moves of different turns never commute (each places its own tile), and
  // a move is never repeated: sleep sets stay empty, the table does the work.
  bool independent(const State&, const Footprint&, const Footprint&) const { return false; }
  bool same_move(const State&, const Footprint&, const Footprint&) const { return false; }

  // The state back in the spec's mid-game form (absolute cells).
  PositionSpec to_spec(const State& s) const;

 private:
  struct Frontier;
  void frontier(const State& s, Frontier& f) const;
  void place(State& s, int8_t q, int8_t r, uint64_t neighbours) const;
  void add_pawns(State& s, int c, int tile, int k) const;
  int room(const State& s, int i) const;
  uint64_t color_mask(const State& s, int c) const { return s.lo[c] | s.hi[c]; }
  bool representative(const State& s, int c) const;

  int colors_ = 0;
  int level_ = 1;
  int total_ = 0;
  bool known_ = true;
  Axial origin_;
  std::vector<int> n_, spaces_;       // per tile of the game
  std::vector<int> ones_from_;        // 1-tiles among tiles i.. of the game
  std::vector<int> one_spaces_from_;  // their spaces
  std::vector<int> spaces_from_;      // spaces of tiles i..
  uint64_t ones_ = 0;                 // the 1-tiles, as a mask of game tiles
  std::vector<Kind> pool_;            // hidden order: the unseen tiles
  int drawn_ = -1;                    // hidden order: the drawn tile's index in pool_, if given
  State initial_;
};

// Scoring for 2-4 players (the spec's "Scoring" section; readings in
// docs/rules/wildfire.md), on the current free edges, so a hint or a page
// can show it at any time. A wooded region is a maximal connected group of
// tiles holding at least one pawn of one colour.
struct ScoredRegion {
  int player = 0;
  int color = 0;
  uint64_t tiles = 0;  // game tile indices
  // floor(sum of its numbers / the smallest number among its tiles with a
  // free edge); 0 when none has one.
  int value = 0;
};
struct ScoreSheet {
  std::vector<std::vector<int>> colors;  // per player, the colours they score
  std::vector<int> scores;               // per player, the sum of their regions
  std::vector<int> tie_breaks;           // per player, their most valuable region (0 if none)
  std::vector<ScoredRegion> regions;     // by colour, then by the region's first cell in (q, r) order
};

// The colours each of `players` players scores: the colours split evenly in
// index order (two players with four colours: {0, 1} and {2, 3}). Three
// players with four colours score one colour each; the fourth is the
// neutral auxiliary colour, whose pawns are removed before scoring. Throws
// InvalidInput for any other count.
std::vector<std::vector<int>> player_colors(int colors, int players);
ScoreSheet score_sheet(const Game& game, const State& s, int players);

}  // namespace sj::wildfire
