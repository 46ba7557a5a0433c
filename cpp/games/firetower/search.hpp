// Choosing moves: the spec's two baselines (section 14: random, greedy),
// the sampling-search hint (cpp/search/mcts.hpp on this game), whole games
// played by a policy, and batches of them.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "core/limits.hpp"
#include "core/rng.hpp"
#include "games/firetower/game.hpp"
#include "search/mcts.hpp"

namespace sj::firetower {

enum class Policy : uint8_t { kRandom, kGreedy, kMcts };
Policy policy_named(const std::string& name);  // InvalidInput when unknown

// Section 14's h of a position (won +10^6, lost -10^6).
double greedy_value(const State& s);

// The least cost of a path of gems from the fire to each back corner (NW,
// NE, SW, SE): a square costs 1, a hawk 3 (a gem that lands on it is sent
// elsewhere) and a firebreak 4 (only a few cards pass one). Section 14's
// Manhattan distances see neither, and Levels 2-7 wall the enemy corners
// with both.
std::array<int, 4> fire_distances(const State& s);

// What the search plays and steers by: section 14's h with fire_distances
// in place of its distances, and 2 more for each unburned enemy whose
// Bucket is still unused (its first gem in the area will be washed out).
double search_h(const State& s);

// Each move the search may try at a decision (hawk families by a few of
// their moves) with search_h after it as the search computes it (from each
// corner's flood of this board where a move leaves hawks and firebreaks
// alone) and flooded anew: the tests hold the two equal.
struct SearchHCheck {
  Move move;
  double incremental;
  double flooded;
};
std::vector<SearchHCheck> search_h_both_ways(const Engine& engine, const State& s);

// Every distinct legal move, hawk families included (the families' moves
// are unranked only where asked): size and the i-th move.
struct MoveList {
  std::vector<Move> moves;
  std::vector<HawkFamily> families;
  uint64_t size() const;
  Move at(uint64_t i) const;
  void load(const Engine& engine, const State& s) { engine.legal_moves(s, moves, &families); }
};

Move random_move(const Engine& engine, const State& s, Rng& rng, MoveList& scratch);
Move greedy_move(const Engine& engine, const State& s, MoveList& scratch);

struct HintOptions {
  uint64_t seed = 0;
  bool score = false;        // expected score (0 unless won) instead of the win probability
  uint32_t threads = 1;
  uint32_t trees = 8;        // independent of threads: the same answer on any thread count
  uint32_t root_candidates = 8;  // moves the search values at the root, by search_h first
  bool values = true;  // each move's outcome played out to the end; false: the order alone
};

struct HintMove {
  Move move;
  std::vector<Move> equivalent;  // other moves to the same next position
  Estimate95 value;              // the outcome: win probability, or score
  double search_value = 0;       // the mean of what the tree steered by
};

struct HintResult {
  std::vector<HintMove> moves;  // best first: searched moves by value, then the rest unsearched
  uint64_t moves_total = 0;     // every distinct legal move (hawk families counted)
  uint64_t candidates = 0;      // moves the search valued
  Estimate95 root;  // the position's outcome: its best move's, or a chance point's mean
  MctsStats stats;
  uint32_t threads = 1;
};

// The hint of spec section 12 at a decision, or the value of a chance point.
HintResult hint(const Engine& engine, const State& s, const Limits& limits, const HintOptions& o, Control* control);

struct PlayResult {
  std::string start;                 // the set-up position
  std::vector<std::string> events;   // the record's events
  Status status = Status::kOngoing;
  int score = 0;
  int turns = 0;
  uint64_t decisions = 0;
  uint64_t nodes = 0;                // search iterations (mcts)
  double seconds = 0;
  bool stopped = false;              // the control stopped the game before its end
};

// A whole seeded game from a level's set-up; `limits` bound each MCTS decision.
PlayResult play_game(const Rules& rules, int level, uint64_t seed, Policy policy, const Limits& limits,
                     int turn_limit, uint32_t threads, Control* control, bool record);

struct PlayoutStats {
  uint64_t games = 0, wins = 0, losses = 0, timeouts = 0, score_sum = 0, decisions = 0;
  double seconds = 0;
};
// Many whole games by a baseline on one thread, no record kept (benchmarks).
PlayoutStats playouts(const Rules& rules, int level, uint64_t seed, uint64_t games, Policy policy);

}  // namespace sj::firetower
