#include "games/wildfire/analysis.hpp"

#include "core/error.hpp"

namespace sj::wildfire {

namespace {
// Pawn-plan nodes per layout in the first round (4x per round): a layout
// that admits a plan usually shows it in a few dozen nodes, so a small cap
// sweeps many layouts before any one gets more (100 beat 30 and 2000 on
// the hardest full deals of seeds 1-1000).
constexpr uint64_t kPawnNodesPerLayout = 2000;
// The layouts search decides nearly every game, small or full, and its
// nodes are cheap (about a microsecond); the move-by-move search keeps a
// tenth for what it alone proves.
constexpr double kLayoutsShare = 0.9;
}  // namespace

SolveResult solve(const Game& game, const State& root, const Limits& limits, Control* control,
                  ProofOptions options, bool layouts_first) {
  if (!game.known())
    throw InvalidInput("solve: needs a known-order position ('deal' or 'deal_rest')");
  SolveResult result;
  Limits rest = limits;
  if (layouts_first) {
    Limits first = limits;
    first.max_seconds = limits.max_seconds * kLayoutsShare;
    first.max_nodes = static_cast<uint64_t>(static_cast<double>(limits.max_nodes) * kLayoutsShare);
    Budget budget(first, control);
    result.verdict = plan_search(game, root, budget, kPawnNodesPerLayout, &result.line, &result.layouts);
    result.stats.nodes = budget.nodes();
    result.stats.seconds = budget.seconds();
    result.by_layouts = result.verdict != Verdict::kUnknown;
    if (result.by_layouts || budget.reason() == StopReason::kStopped) {
      result.stats.stopped_by = result.verdict == Verdict::kUnknown ? budget.reason() : StopReason::kNone;
      return result;
    }
    rest.max_nodes = limits.max_nodes - budget.nodes();
    rest.max_seconds = limits.max_seconds - budget.seconds();
  }
  ProofSearch<Game> search(game, rest, control, options);
  result.verdict = search.solve(root, &result.line);
  const SearchStats first = result.stats;
  result.stats = search.stats();
  result.stats.nodes += first.nodes;
  result.stats.seconds += first.seconds;
  return result;
}

}  // namespace sj::wildfire
