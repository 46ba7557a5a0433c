// Generic proof search for one-player games of perfect information with no
// cycles: depth-first, proven losses remembered in a bounded table, children
// tried in the order the game gives them (best first), and a certificate line
// returned for a win. Games plug in through the ProofGame interface only.
#pragma once
#include <algorithm>
#include <concepts>
#include <deque>
#include <cstdint>
#include <vector>

#include "core/limits.hpp"
#include "core/table.hpp"

namespace sj {

enum class Outcome : uint8_t { kOngoing, kWin, kLoss };
enum class Verdict : uint8_t { kUnknown, kWin, kLoss };

inline const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kWin: return "win";
    case Verdict::kLoss: return "loss";
    case Verdict::kUnknown: return "unknown";
  }
  return "unknown";
}

// What a game gives the search. children() lists the distinct successor
// states (moves that lead to the same state already merged), best first by
// one of the game's kPolicies move orders;
// hopeless() is an admissible dead-end test: true only when no win exists.
// A child's footprint says what its move does at that state, enough for the
// search to tell when two moves commute there (independent(): either order
// reaches the same state) and when a later move is the same move again
// (same_move()); footprint() recomputes one at another state.
template <class G>
concept ProofGame = requires(const G& game, const typename G::State& state,
                             std::vector<typename G::Child>& out,
                             const typename G::Footprint& footprint) {
  typename G::Move;
  requires std::same_as<decltype(out[0].move), typename G::Move>;
  requires std::same_as<decltype(out[0].state), typename G::State>;
  requires std::same_as<decltype(out[0].footprint), typename G::Footprint>;
  { game.outcome(state) } -> std::same_as<Outcome>;
  { game.key(state) } -> std::convertible_to<uint64_t>;
  { game.hopeless(state) } -> std::same_as<bool>;
  { game.independent(state, footprint, footprint) } -> std::same_as<bool>;
  { game.same_move(state, footprint, footprint) } -> std::same_as<bool>;
  { game.footprint(state, out[0].move) } -> std::same_as<typename G::Footprint>;
  { G::kPolicies } -> std::convertible_to<int>;
  game.children(state, out, 0);
};

// Optional: a costlier dead-end test for whole positions, which spends
// nodes from the search's budget and returns true only when no win exists.
// The search runs it on the root once its first round has failed (quick wins
// never pay for it); hints run it on the position they value.
template <class G>
concept DeepDeadEndTest = requires(const G& game, const typename G::State& state, Budget& budget) {
  { game.deep_hopeless(state, budget) } -> std::same_as<bool>;
};

struct SearchStats {
  uint64_t nodes = 0;
  double seconds = 0;
  StopReason stopped_by = StopReason::kNone;
  uint64_t pruned = 0;  // nodes cut by the game's dead-end test
  TableStats table;
  int max_depth = 0;
};

// Options that exist for measuring, not for users: benchmarks switch the
// table, the pruning and the sleep sets off to show what each is worth.
struct ProofOptions {
  bool use_table = true;
  bool use_pruning = true;
  bool use_sleep_sets = true;
};

template <ProofGame G>
class ProofSearch {
 public:
  using State = typename G::State;
  using Move = typename G::Move;
  using Child = typename G::Child;
  using Footprint = typename G::Footprint;

  // The table takes three quarters of the memory limit; search stacks and
  // child lists are small and bounded by the game's depth.
  ProofSearch(const G& game, const Limits& limits, Control* control, ProofOptions options = {})
      : game_(game),
        budget_(limits, control),
        options_(options),
        table_(options.use_table ? limits.max_memory_mb * (1ull << 20) * 3 / 4 : 0) {}

  // Verdict for `root`; on a win, `line` receives the moves that win. The
  // search uses `share` of the budget that is left; `cut` receives the limit
  // that ended it early, if one did.
  //
  // Restarts: a good move order finds a win quickly and a bad one may not
  // find it at all, and no one order is best on every position. So the
  // search alternates the game's orders with doubling node quotas. Proved
  // losses stay in the table, so a restart repeats little of a loss proof.
  Verdict solve(const State& root, std::vector<Move>* line, double share = 1.0,
                StopReason* cut = nullptr) {
    constexpr uint64_t kFirstQuota = 20000;
    const auto outer = budget_.begin_slice(share, UINT64_MAX);
    Verdict v = Verdict::kUnknown;
    for (int round = 0; !budget_.stopped(); ++round) {
      const uint64_t quota = kFirstQuota << std::min(round / G::kPolicies, 40);
      v = solve_round(root, line, round % G::kPolicies, quota);
      if (v != Verdict::kUnknown) break;
      if (round == 0 && deep_hopeless(root)) {
        v = Verdict::kLoss;
        break;
      }
    }
    const StopReason why = budget_.end_slice(outer);
    if (cut) *cut = why;
    return v;
  }

  // Hint mode: a verdict for each of `states` (the children of a position),
  // with the winning line where one wins. Each gets an equal part of what is
  // left of the budget, so one hard move cannot starve the others, and easy
  // ones pass their unused part on. `cut` receives the last limit that cut a
  // state short, if any did.
  struct Valued {
    Verdict verdict = Verdict::kUnknown;
    std::vector<Move> line;
  };
  std::vector<Valued> value_each(const std::vector<State>& states, StopReason* cut) {
    std::vector<Valued> out(states.size());
    *cut = StopReason::kNone;
    for (size_t i = 0; i < states.size(); ++i) {
      StopReason why;
      out[i].verdict = solve(states[i], &out[i].line,
                             1.0 / static_cast<double>(states.size() - i), &why);
      if (why != StopReason::kNone) *cut = why;
    }
    return out;
  }

  // The game's costlier dead-end test, when it has one and pruning is on.
  bool deep_hopeless(const State& s) {
    if constexpr (DeepDeadEndTest<G>) {
      if (options_.use_pruning && !budget_.stopped() && game_.deep_hopeless(s, budget_)) {
        ++pruned_;
        return true;
      }
    }
    return false;
  }

  SearchStats stats() const {
    SearchStats s;
    s.nodes = budget_.nodes();
    s.seconds = budget_.seconds();
    s.stopped_by = budget_.reason();
    s.pruned = pruned_;
    if (options_.use_table) s.table = table_.stats();
    s.max_depth = max_depth_;
    return s;
  }

 private:
  // One restart: at most `quota` nodes, moves ordered by `policy`.
  Verdict solve_round(const State& root, std::vector<Move>* line, int policy, uint64_t quota) {
    policy_ = policy;
    const auto outer = budget_.begin_slice(1.0, quota);
    std::vector<Move> reversed;
    level(0).asleep.clear();
    const Verdict v = search(root, 0, &reversed);
    if (line) line->assign(reversed.rbegin(), reversed.rend());
    budget_.end_slice(outer);
    return v;
  }

  Verdict search(const State& s, int depth, std::vector<Move>* reversed) {
    if (!budget_.spend()) return Verdict::kUnknown;
    max_depth_ = std::max(max_depth_, depth);
    switch (game_.outcome(s)) {
      case Outcome::kWin: return Verdict::kWin;
      case Outcome::kLoss: return Verdict::kLoss;
      case Outcome::kOngoing: break;
    }
    if (options_.use_pruning && game_.hopeless(s)) {
      ++pruned_;
      return Verdict::kLoss;
    }
    const uint64_t key = game_.key(s);
    if (options_.use_table && table_.find(key)) return Verdict::kLoss;

    const uint64_t nodes_before = budget_.nodes();
    // A sleeping move's effect can change as other moves are played (more
    // pawns, fewer tiles around it): take its footprint here afresh.
    for (Footprint& z : level(depth).asleep) z = game_.footprint(s, z.move);
    game_.children(s, level(depth).children, policy_);
    level(depth + 1);  // deeper levels exist before references are taken
    Level& here = levels_[depth];
    Level& below = levels_[depth + 1];
    here.explored.clear();
    bool unknown = false;
    for (const Child& c : here.children) {
      // Sleep sets: a move that commutes with every move since a sibling
      // explored it leads to a state inside that sibling's subtree, which is
      // a proved loss (a win would have ended the search). Skip it.
      if (is_asleep(s, here.asleep, c.footprint)) continue;
      below.asleep.clear();
      if (options_.use_sleep_sets) {
        for (const Footprint& z : here.asleep)
          if (game_.independent(s, z, c.footprint)) below.asleep.push_back(z);
        for (const Footprint& z : here.explored)
          if (game_.independent(s, z, c.footprint)) below.asleep.push_back(z);
      }
      const Verdict v = search(c.state, depth + 1, reversed);
      if (v == Verdict::kWin) {
        reversed->push_back(c.move);
        return Verdict::kWin;
      }
      if (v == Verdict::kUnknown) {
        unknown = true;
        if (budget_.stopped()) break;
        continue;  // unproved: it may not put later siblings' moves to sleep
      }
      here.explored.push_back(c.footprint);
    }
    if (unknown) return Verdict::kUnknown;
    if (options_.use_table) table_.store(key, Verdict::kLoss, budget_.nodes() - nodes_before);
    return Verdict::kLoss;
  }

  bool is_asleep(const State& s, const std::vector<Footprint>& asleep, const Footprint& f) const {
    for (const Footprint& z : asleep)
      if (game_.same_move(s, z, f)) return true;
    return false;
  }

  // Per-depth buffers, reused so that the hot loop does not allocate. A
  // deque keeps references to one level valid while deeper ones are added.
  struct Level {
    std::vector<Child> children;
    std::vector<Footprint> asleep;    // moves proved losing here by siblings above
    std::vector<Footprint> explored;  // this node's children searched so far
  };
  Level& level(int depth) {
    while (levels_.size() <= static_cast<size_t>(depth)) levels_.emplace_back();
    return levels_[depth];
  }

  const G& game_;
  Budget budget_;
  ProofOptions options_;
  BoundedTable<Verdict> table_;
  std::deque<Level> levels_;
  uint64_t pruned_ = 0;
  int max_depth_ = 0;
  int policy_ = 0;
};

}  // namespace sj
