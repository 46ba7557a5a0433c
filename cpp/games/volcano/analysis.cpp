#include "games/volcano/analysis.hpp"

#include <algorithm>

#include "core/bits.hpp"

namespace sj::volcano {
namespace {

int verdict_rank(Verdict v) {
  switch (v) {
    case Verdict::kWin: return 0;
    case Verdict::kUnknown: return 1;
    case Verdict::kLoss: return 2;
  }
  return 1;
}

void accumulate(SearchStats& total, const SearchStats& part) {
  total.nodes += part.nodes;
  total.seconds += part.seconds;
  total.pruned += part.pruned;
  total.table.hits += part.table.hits;
  total.table.stores += part.table.stores;
  total.table.used = std::max(total.table.used, part.table.used);
  total.table.capacity = std::max(total.table.capacity, part.table.capacity);
  total.table.bytes = std::max(total.table.bytes, part.table.bytes);
  total.max_depth = std::max(total.max_depth, part.max_depth);
  if (part.stopped_by != StopReason::kNone) total.stopped_by = part.stopped_by;
}

// Limits left after `used`, for the next step of a multi-search answer.
Limits remaining(const Limits& limits, const SearchStats& used) {
  Limits left = limits;
  left.max_nodes = used.nodes >= limits.max_nodes ? 0 : limits.max_nodes - used.nodes;
  left.max_seconds = std::max(0.0, limits.max_seconds - used.seconds);
  return left;
}

}  // namespace

SolveResult solve(const Game& game, const State& root, const Limits& limits, Control* control,
                  ProofOptions options) {
  ProofSearch<Game> search(game, limits, control, options);
  SolveResult result;
  result.verdict = search.solve(root, &result.line);
  result.stats = search.stats();
  return result;
}

HintResult hint(const Game& game, const State& root, const Limits& limits, Control* control) {
  ProofSearch<Game> search(game, limits, control);
  std::vector<Game::Merged> merged = game.merged_children(root);
  std::vector<State> states;
  for (const Game::Merged& m : merged) states.push_back(m.child.state);
  StopReason cut = StopReason::kNone;
  // A position lost as a whole loses by every flight: one test, not one per flight.
  using Valued = ProofSearch<Game>::Valued;
  std::vector<Valued> valued(states.size(), Valued{Verdict::kLoss, {}});
  if (states.empty() || !search.deep_hopeless(root)) valued = search.value_each(states, &cut);
  HintResult result;
  for (size_t i = 0; i < merged.size(); ++i)
    result.moves.push_back({merged[i].child.move, std::move(merged[i].equivalent),
                            valued[i].verdict, std::move(valued[i].line)});
  std::stable_sort(result.moves.begin(), result.moves.end(),
                   [](const HintMove& a, const HintMove& b) {
                     return verdict_rank(a.verdict) < verdict_rank(b.verdict);
                   });
  result.stats = search.stats();
  if (result.stats.stopped_by == StopReason::kNone) result.stats.stopped_by = cut;
  return result;
}

namespace {

Difficulty rate_line(const Game& game, const State& root, const std::vector<Flight>& line,
                     const Limits& limits, Control* control, SearchStats& stats) {
  Difficulty d;
  double share_sum = 0;
  State s = root;
  for (const Flight& f : line) {
    std::vector<Child> kids;
    game.children(s, kids, 0);
    std::vector<State> states;
    for (const Child& c : kids) states.push_back(c.state);
    ProofSearch<Game> search(game, remaining(limits, stats), control);
    StopReason cut;
    const auto valued = search.value_each(states, &cut);
    accumulate(stats, search.stats());
    if (cut != StopReason::kNone) stats.stopped_by = cut;
    if (stats.stopped_by != StopReason::kNone) return d;
    const auto wins = std::count_if(valued.begin(), valued.end(),
                                    [](const auto& v) { return v.verdict == Verdict::kWin; });
    share_sum += static_cast<double>(wins) / static_cast<double>(kids.size());
    d.forced_steps += wins == 1;
    ++d.steps;
    s = game.apply(s, f);
  }
  d.winning_share = d.steps ? share_sum / d.steps : 1.0;
  d.complete = true;
  return d;
}

}  // namespace

Generated generate(uint64_t seed, bool solvable, bool rate, int max_attempts,
                   const Limits& limits, Control* control) {
  Generated g;
  for (int attempt = 0; attempt < std::max(1, max_attempts); ++attempt) {
    // Attempt 0 is the seed itself, so `generate(seed)` without filtering is
    // reproducible on its own; later attempts use well-mixed derived seeds.
    g.layout_seed = attempt == 0 ? seed : mix64(seed ^ static_cast<uint64_t>(attempt));
    g.attempts = attempt + 1;
    g.position = random_standard_layout(g.layout_seed);
    if (!solvable && !rate) return g;
    const Game game(g.position);
    const SolveResult solved = solve(game, game.initial(), remaining(limits, g.stats), control);
    accumulate(g.stats, solved.stats);
    g.verdict = solved.verdict;
    g.line = solved.line;
    g.difficulty.solve_nodes = solved.stats.nodes;
    if (g.verdict == Verdict::kWin || !solvable) {
      if (rate && g.verdict == Verdict::kWin) {
        const uint64_t nodes = g.difficulty.solve_nodes;
        g.difficulty = rate_line(game, game.initial(), g.line, limits, control, g.stats);
        g.difficulty.solve_nodes = nodes;
      }
      return g;
    }
    if (g.stats.stopped_by != StopReason::kNone) return g;  // limits are shared
  }
  return g;
}

}  // namespace sj::volcano
