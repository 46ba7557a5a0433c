// Generic budget search: can a goal be reached from a state with moves whose
// costs add up to at most a budget? Depth-first with an admissible lower bound
// on the cost still to pay, and a bounded table that remembers, per state, the
// best lower bound proved for it. A failed search from a state proves that
// reaching the goal costs more than the budget it had, so the bound it leaves
// in the table serves every later visit with that budget or less: unlike a
// table of losses keyed by (state, budget), one entry covers every budget.
//
// That holds only if every stored number is a lower bound on the true cost,
// whatever the budget: a child the game left out because its move alone
// costs more than the budget still bounds the state's cost by its move's
// cost, not by "unreachable". (Reading a budget-cut child as a dead end once
// stored "no plan" for winnable layouts of one game; a seeded test against the
// reference solvers guards it.)
#pragma once
#include <algorithm>
#include <climits>
#include <concepts>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "core/limits.hpp"
#include "core/table.hpp"
#include "search/proof.hpp"

namespace sj {

// What a game gives the budget search. children() lists the distinct
// successors, each with the cost of its move and the child's own lower bound
// (`bound`, INT_MAX for a dead end), cheapest first if it likes. It may leave
// out children whose move alone costs more than `budget`, and then returns
// the least cost among those it left out (INT_MAX when it left none out).
// lower_bound() never exceeds the true least cost to the goal (INT_MAX: the
// goal cannot be reached). won()/lost() end the game.
template <class G>
concept BudgetGame = requires(const G& game, const typename G::State& state,
                              std::vector<typename G::Child>& out) {
  typename G::Move;
  requires std::same_as<decltype(out[0].move), typename G::Move>;
  requires std::same_as<decltype(out[0].state), typename G::State>;
  { out[0].cost } -> std::convertible_to<int>;
  { out[0].bound } -> std::convertible_to<int>;
  { game.won(state) } -> std::same_as<bool>;
  { game.lost(state) } -> std::same_as<bool>;
  { game.key(state) } -> std::convertible_to<uint64_t>;
  { game.lower_bound(state) } -> std::convertible_to<int>;
  { game.children(state, 0, out) } -> std::convertible_to<int>;
};

template <BudgetGame G>
class BudgetSearch {
 public:
  using State = typename G::State;
  using Move = typename G::Move;
  using Child = typename G::Child;
  static constexpr int kUnreachable = INT_MAX;

  // A search with its own limits; the table takes three quarters of the
  // memory limit.
  BudgetSearch(const G& game, const Limits& limits, Control* control)
      : game_(game),
        own_budget_(std::in_place, limits, control),
        budget_(*own_budget_),
        table_(limits.max_memory_mb * (1ull << 20) * 3 / 4) {}
  // A search that spends another search's budget (its nodes, time and stop
  // control), with a table of at most `table_bytes`.
  BudgetSearch(const G& game, Budget& budget, uint64_t table_bytes)
      : game_(game), budget_(budget), table_(table_bytes) {}

  // Win: a line to the goal costing at most `budget` (in `line`). Loss: none
  // exists. Unknown: a limit stopped the search. `proved` receives the lower
  // bound on the least cost that the search established (> budget on a loss).
  Verdict solve(const State& root, int budget, std::vector<Move>* line, int* proved = nullptr) {
    std::vector<Move> reversed;
    int bound = 0;
    const Verdict v = search(root, budget, 0, &reversed, &bound);
    if (line) line->assign(reversed.rbegin(), reversed.rend());
    if (proved) *proved = v == Verdict::kLoss ? bound : 0;
    return v;
  }

  // The least cost proved for `s` so far (0 when nothing is known).
  int known_bound(const State& s) {
    const int* b = table_.find(game_.key(s));
    return b ? *b : 0;
  }

  SearchStats stats() const {
    SearchStats s;
    s.nodes = budget_.nodes();
    s.seconds = budget_.seconds();
    s.stopped_by = budget_.reason();
    s.pruned = pruned_;
    s.table = table_.stats();
    s.max_depth = max_depth_;
    return s;
  }
  Budget& budget() { return budget_; }

 private:
  // On a loss, *bound receives a proved lower bound on the cost from s, which
  // exceeds `budget`.
  Verdict search(const State& s, int budget, int depth, std::vector<Move>* reversed, int* bound) {
    if (game_.won(s)) return Verdict::kWin;
    if (game_.lost(s)) {
      *bound = kUnreachable;
      return Verdict::kLoss;
    }
    if (!budget_.spend()) return Verdict::kUnknown;
    max_depth_ = std::max(max_depth_, depth);
    const int estimate = game_.lower_bound(s);
    if (estimate > budget) {
      ++pruned_;
      *bound = estimate;
      return Verdict::kLoss;
    }
    const uint64_t key = game_.key(s);
    if (const int* known = table_.find(key); known && *known > budget) {
      *bound = *known;
      return Verdict::kLoss;
    }

    const uint64_t nodes_before = budget_.nodes();
    // A child left out costs at least its move: that, not "unreachable",
    // is what it proves about s.
    int best = game_.children(s, budget, level(depth));
    level(depth + 1);  // deeper levels exist before references are taken
    std::vector<Child>& here = levels_[depth];
    bool unknown = false;
    for (const Child& c : here) {
      const int after = budget - c.cost;
      if (c.bound != kUnreachable && c.bound <= after) {
        int child_bound = 0;
        const Verdict v = search(c.state, after, depth + 1, reversed, &child_bound);
        if (v == Verdict::kWin) {
          reversed->push_back(c.move);
          return Verdict::kWin;
        }
        if (v == Verdict::kUnknown) {
          unknown = true;
          if (budget_.stopped()) break;
          continue;
        }
        if (child_bound != kUnreachable) best = std::min(best, c.cost + child_bound);
      } else if (c.bound != kUnreachable) {
        best = std::min(best, c.cost + c.bound);
      }
    }
    if (unknown) return Verdict::kUnknown;
    best = std::max(best, budget + 1);
    table_.store(key, best, budget_.nodes() - nodes_before);
    *bound = best;
    return Verdict::kLoss;
  }

  std::vector<Child>& level(int depth) {
    while (levels_.size() <= static_cast<size_t>(depth)) levels_.emplace_back();
    return levels_[depth];
  }

  const G& game_;
  std::optional<Budget> own_budget_;
  Budget& budget_;
  BoundedTable<int> table_;
  std::deque<std::vector<Child>> levels_;
  uint64_t pruned_ = 0;
  int max_depth_ = 0;
};

}  // namespace sj
