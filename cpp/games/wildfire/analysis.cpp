#include "games/wildfire/analysis.hpp"

#include "core/error.hpp"

namespace sj::wildfire {

SolveResult solve(const Game& game, const State& root, const Limits& limits, Control* control,
                  ProofOptions options) {
  if (!game.known())
    throw InvalidInput("solve: needs a known-order position ('deal' or 'deal_rest')");
  ProofSearch<Game> search(game, limits, control, options);
  SolveResult result;
  result.verdict = search.solve(root, &result.line);
  result.stats = search.stats();
  return result;
}

}  // namespace sj::wildfire
