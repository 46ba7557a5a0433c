// Wild Fire! known-order verdicts with a certificate (the cell and pawn
// action of every turn).
#pragma once
#include <vector>

#include "core/limits.hpp"
#include "games/wildfire/plan.hpp"
#include "games/wildfire/wildfire.hpp"
#include "search/proof.hpp"

namespace sj::wildfire {

struct SolveResult {
  Verdict verdict = Verdict::kUnknown;
  std::vector<Move> line;
  SearchStats stats;  // both searches together
  PlanStats layouts;  // the layouts-first search's own counts
  bool by_layouts = false;  // the verdict came from the layouts-first search
};
// Known order only (throws InvalidInput for a hidden-order position). The
// layouts-first search (plan.hpp) gets 90% of the budget, the move-by-move
// proof search what is left; `layouts_first` off skips the first (for
// benchmarks and cross-checks).
SolveResult solve(const Game& game, const State& root, const Limits& limits, Control* control,
                  ProofOptions options = {}, bool layouts_first = true);

}  // namespace sj::wildfire
