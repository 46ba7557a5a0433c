// Volcano! answers built on the generic proof search: verdicts with
// certificates, valued hints, and generated puzzles with a difficulty.
#pragma once
#include <cstdint>
#include <vector>

#include "core/limits.hpp"
#include "games/volcano/volcano.hpp"
#include "search/proof.hpp"

namespace sj::volcano {

struct SolveResult {
  Verdict verdict = Verdict::kUnknown;
  std::vector<Flight> line;
  SearchStats stats;
};
SolveResult solve(const Game& game, const State& root, const Limits& limits,
                  Control* control, ProofOptions options = {});

struct HintMove {
  Flight flight;
  std::vector<Flight> equivalent;  // other flights that give the same state
  Verdict verdict = Verdict::kUnknown;
  std::vector<Flight> line;  // a win after this flight, when it wins
};
struct HintResult {
  std::vector<HintMove> moves;  // wins first, then unknown, then losses
  SearchStats stats;
};
HintResult hint(const Game& game, const State& root, const Limits& limits, Control* control);

// How hard a won layout is: along the certificate, the mean share of distinct
// flights that keep the game winnable, and how often only one does.
struct Difficulty {
  double winning_share = 0;
  int steps = 0;
  int forced_steps = 0;
  uint64_t solve_nodes = 0;
  bool complete = false;  // false when the limit cut the line analysis short
};
struct Generated {
  PositionSpec position;
  uint64_t layout_seed = 0;  // the seed whose layout was kept
  int attempts = 0;
  Verdict verdict = Verdict::kUnknown;
  std::vector<Flight> line;
  Difficulty difficulty;
  SearchStats stats;
};
// A standard layout from `seed`. With `solvable`, layouts from derived seeds
// are tried until one is proved winnable (at most max_attempts); `limits`
// bound each attempt's solve and the difficulty analysis.
Generated generate(uint64_t seed, bool solvable, bool rate, int max_attempts,
                   const Limits& limits, Control* control);

}  // namespace sj::volcano
