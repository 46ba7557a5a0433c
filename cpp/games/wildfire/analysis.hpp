// Wild Fire! answers built on the generic proof search: known-order
// verdicts with a certificate (the cell and pawn action of every turn).
#pragma once
#include <vector>

#include "core/limits.hpp"
#include "games/wildfire/wildfire.hpp"
#include "search/proof.hpp"

namespace sj::wildfire {

struct SolveResult {
  Verdict verdict = Verdict::kUnknown;
  std::vector<Move> line;
  SearchStats stats;
};
// Known order only (throws InvalidInput for a hidden-order position).
SolveResult solve(const Game& game, const State& root, const Limits& limits, Control* control,
                  ProofOptions options = {});

}  // namespace sj::wildfire
