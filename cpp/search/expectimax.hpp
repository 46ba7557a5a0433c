// Generic exact expectimax for one-player games with chance and no cycles,
// where a value is a win probability in [0, 1].
//
// Every call returns proved bounds [lo, hi] on a node's value (lo == hi when
// exact), so one recursion serves three purposes:
// - pruning (Ballard's Star1): a decision child is searched only for whether
//   it can beat the best sibling so far, and a chance node stops as soon as
//   its weighted bounds settle the parent's question;
// - memoisation: the table keeps bounds, which later visits narrow;
// - limits: when the budget runs out, unexpanded nodes return their a-priori
//   bounds, so the root still gets a proved interval (lo is the value of a
//   policy the search found, hi an admissible bound).
// Games plug in through the ExpectimaxGame interface only.
#pragma once
#include <algorithm>
#include <concepts>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/limits.hpp"
#include "core/table.hpp"

namespace sj {

enum class NodeKind : uint8_t { kWin, kLoss, kChance, kDecision };

struct Bounds {
  double lo = 0, hi = 1;
  bool exact() const { return hi - lo <= kExactTolerance; }
  static constexpr double kExactTolerance = 1e-12;
};

// What a game gives the search. chance_children() lists the outcomes with
// probabilities summing to 1, the likeliest to be lost first (a search that
// only asks whether a node is won for certain stops at the first outcome
// that is not); decision_children() the distinct successor states (moves
// reaching the same state merged), best first. upper_bound()
// must never be below the true value (1 is always safe). Keys are exact: two
// states share a key only when they have the same value.
template <class G>
concept ExpectimaxGame = requires(const G& game, const typename G::State& state,
                                  std::vector<typename G::Child>& out) {
  typename G::Key;
  requires std::same_as<decltype(out[0].state), typename G::State>;
  requires std::same_as<decltype(out[0].probability), double>;
  { game.kind(state) } -> std::same_as<NodeKind>;
  { game.key(state) } -> std::same_as<typename G::Key>;
  { game.upper_bound(state) } -> std::same_as<double>;
  game.chance_children(state, out);
  game.decision_children(state, out);
};

// Optional: states known to be no better (weaker_keys) and no worse
// (stronger_keys) than a state, e.g. the same state with fewer hits on an
// alien. What the table proved for them bounds the state before it is
// expanded.
template <class G>
concept DominanceGame = requires(const G& game, const typename G::State& state, std::vector<typename G::Key>& out) {
  game.weaker_keys(state, out);
  game.stronger_keys(state, out);
};

// A child's key: the game's, when its children carry one (it may need
// them for merging anyway), else computed here.
template <ExpectimaxGame G>
typename G::Key child_key(const G& game, const typename G::Child& c) {
  if constexpr (requires { { c.key } -> std::convertible_to<typename G::Key>; }) return c.key;
  else return game.key(c.state);
}

struct ExpectimaxStats {
  uint64_t nodes = 0;
  double seconds = 0;
  StopReason stopped_by = StopReason::kNone;
  uint64_t cutoffs = 0;         // nodes left early because their bounds sufficed
  uint64_t bound_prunes = 0;    // nodes settled by the game's upper bound alone
  uint64_t dominance_prunes = 0;  // nodes settled by weaker or stronger states
  TableStats table;  // table.used: states stored
  int max_depth = 0;
};

// A search's own counters completed with its budget's and table's.
inline ExpectimaxStats with_totals(ExpectimaxStats s, const Budget& budget, const TableStats& table) {
  s.nodes = budget.nodes();
  s.seconds = budget.seconds();
  s.stopped_by = budget.reason();
  s.table = table;
  return s;
}

// Switches that exist for measuring: benchmarks turn pruning and dominance
// off to show what they are worth (the table is what makes the search polynomial in the
// number of states, so it always stays on).
struct ExpectimaxOptions {
  bool use_pruning = true;
  bool use_dominance = true;  // for games that offer it
};

template <ExpectimaxGame G>
class Expectimax {
 public:
  using State = typename G::State;
  using Key = typename G::Key;
  using Child = typename G::Child;

  // The table takes `memory_share` of 3/4 of the memory limit (searches
  // that run side by side split it).
  Expectimax(const G& game, Budget& budget, ExpectimaxOptions options = {}, double memory_share = 1.0)
      : game_(game),
        budget_(budget),
        options_(options),
        table_(static_cast<uint64_t>(static_cast<double>(budget.limits().max_memory_mb * 1024 * 1024 * 3 / 4) *
                                     memory_share)) {}

  // The value of `state` within proved bounds (exact unless a limit hit).
  // Given a proved lower bound (a known policy's value), the search only
  // asks whether anything beats it, which cuts far more.
  Bounds solve(const State& state, double known_lower = -1.0) {
    root_floor_ = known_lower;
    Bounds b = search(state, game_.key(state), known_lower, 2.0, 0);
    if (known_lower >= 0) {
      b.lo = std::max(b.lo, known_lower);
      b.hi = std::max(b.hi, b.lo);
    }
    return b;
  }

  // Hands the root's proved bounds to the Budget as they narrow, for whoever
  // watches the search: only a search whose root value is the answer's (a
  // policy's search, or a hint's choice, would show a value that is not).
  void watch_root() { watched_root_ = true; }

  // The value of each state (a hint's choices), each searched exactly and
  // given a fair share of what is left of the budget; `known` holds proved
  // bounds per state, the lower end a known policy's value. A state whose
  // bounds are already exact (proved won, or valued by the caller) takes
  // no share.
  std::vector<Bounds> value_each(const std::vector<State>& states, const std::vector<Bounds>& known) {
    size_t open = 0;
    for (const Bounds& b : known) open += !b.exact();
    std::vector<Bounds> values;
    const bool watched = std::exchange(watched_root_, false);  // each choice's root is not the answer's
    for (size_t i = 0; i < states.size(); ++i) {
      if (known[i].exact()) {
        values.push_back(known[i]);
        continue;
      }
      const auto outer = budget_.begin_slice(1.0 / static_cast<double>(open--), UINT64_MAX);
      values.push_back(solve(states[i], known[i].lo));
      const StopReason why = budget_.end_slice(outer);
      // The next state's slice starts afresh; the answer is cut short all the same.
      if (!values.back().exact() && cut_short_ == StopReason::kNone) cut_short_ = why;
    }
    watched_root_ = watched;
    return values;
  }

  // Stopped by: the budget's reason, or else why a state of value_each was
  // left with bounds (its slice ran out while the whole budget did not).
  ExpectimaxStats stats() const {
    ExpectimaxStats s = with_totals(stats_, budget_, table_.stats());
    if (s.stopped_by == StopReason::kNone) s.stopped_by = cut_short_;
    return s;
  }

 private:
  struct Scratch {
    std::vector<Child> children;
    std::vector<Key> keys;
    std::vector<Bounds> bounds;
    std::vector<uint32_t> order;
    Bounds prior;           // the node's own bounds before its children
    bool chance = false;
    uint32_t searching = 0;  // the child being searched now
  };

  // Stable insertion sort of a few indices: unlike std::stable_sort it never
  // allocates, and children lists are short.
  template <class Before>
  static void sort_order(std::vector<uint32_t>& order, Before before) {
    for (size_t i = 1; i < order.size(); ++i)
      for (size_t j = i; j > 0 && before(order[j], order[j - 1]); --j) std::swap(order[j], order[j - 1]);
  }

  // A-priori bounds of a state: what the table knows.
  Bounds prior(const State& state, const Key& key) {
    switch (game_.kind(state)) {
      case NodeKind::kWin: return {1, 1};
      case NodeKind::kLoss: return {0, 0};
      default: break;
    }
    if (const Bounds* known = table_.find(key)) return *known;
    return {0, 1};
  }

  // Narrows `bounds` by what the table knows of weaker and stronger states;
  // true when that settles the node.
  bool bound_by_dominance(const State& state, Bounds& bounds, double alpha, double beta) {
    dominance_keys_.clear();
    game_.weaker_keys(state, dominance_keys_);
    const size_t weaker = dominance_keys_.size();
    game_.stronger_keys(state, dominance_keys_);
    for (const Key& k : dominance_keys_) table_.prefetch(k);
    for (size_t i = 0; i < dominance_keys_.size(); ++i)
      if (const Bounds* b = table_.find(dominance_keys_[i])) {
        if (i < weaker) bounds.lo = std::max(bounds.lo, b->lo);
        else bounds.hi = std::min(bounds.hi, b->hi);
      }
    if (bounds.lo > bounds.hi) bounds.lo = bounds.hi;  // rounding only
    return bounds.exact() || bounds.hi <= alpha || bounds.lo >= beta;
  }

  Bounds search(const State& state, const Key& key, double alpha, double beta, int depth) {
    Bounds bounds = prior(state, key);
    if (bounds.exact() || bounds.hi <= alpha || bounds.lo >= beta) return bounds;
    if constexpr (DominanceGame<G>) {
      if (options_.use_dominance && bound_by_dominance(state, bounds, alpha, beta)) {
        ++stats_.dominance_prunes;
        return bounds;
      }
    }
    // The game's bound costs more than a table probe, so it is asked only
    // of nodes about to be expanded, not of every child on the list.
    bounds.hi = std::min(bounds.hi, game_.upper_bound(state));
    if (bounds.hi <= bounds.lo || bounds.hi <= alpha) {
      ++stats_.bound_prunes;
      table_.store(key, bounds, 1);
      return bounds;
    }
    if (!budget_.spend()) return bounds;
    if (watched_root_ && budget_.nodes() % kNoteEvery == 0) note_root(depth);
    const uint64_t nodes_before = budget_.nodes();
    stats_.max_depth = std::max(stats_.max_depth, depth);
    if (scratch_.size() <= static_cast<size_t>(depth)) scratch_.resize(static_cast<size_t>(depth) + 1);
    Scratch& s = scratch_[static_cast<size_t>(depth)];
    const bool chance = game_.kind(state) == NodeKind::kChance;
    s.prior = bounds;
    s.chance = chance;
    s.children.clear();
    if (chance) game_.chance_children(state, s.children);
    else game_.decision_children(state, s.children);
    s.bounds.clear();
    s.keys.clear();
    for (const Child& c : s.children) {
      s.keys.push_back(child_key(game_, c));
      table_.prefetch(s.keys.back());
    }
    for (size_t i = 0; i < s.children.size(); ++i) s.bounds.push_back(prior(s.children[i].state, s.keys[i]));
    // Bound the scratch by reference only until the next recursion might
    // grow scratch_; index it afresh after every call.
    const Bounds result = chance ? search_chance(alpha, beta, depth) : search_decision(alpha, beta, depth);
    bounds.lo = std::max(bounds.lo, result.lo);
    bounds.hi = std::min(bounds.hi, result.hi);
    if (bounds.lo > bounds.hi) bounds.lo = bounds.hi;  // rounding only
    table_.store(key, bounds, budget_.nodes() - nodes_before + 1);
    return bounds;
  }

  // Star1: the children's probability-weighted bounds, narrowed one child at
  // a time; a child is asked only the question that could still change the
  // parent's answer.
  Bounds search_chance(double alpha, double beta, int depth) {
    Scratch* s = &scratch_[static_cast<size_t>(depth)];
    const size_t n = s->children.size();
    double lo = 0, hi = 0;
    for (size_t i = 0; i < n; ++i) {
      lo += s->children[i].probability * s->bounds[i].lo;
      hi += s->children[i].probability * s->bounds[i].hi;
    }
    for (size_t i = 0; i < n; ++i) {
      if (hi <= alpha || lo >= beta || budget_.stopped()) break;
      s = &scratch_[static_cast<size_t>(depth)];
      const double p = s->children[i].probability;
      const Bounds before = s->bounds[i];
      if (before.exact()) continue;
      double a = -1.0, b = 2.0;
      if (options_.use_pruning) {
        a = (alpha - (hi - p * before.hi)) / p;
        b = (beta - (lo - p * before.lo)) / p;
      }
      const State child = s->children[i].state;
      const Key child_key = s->keys[i];
      s->searching = static_cast<uint32_t>(i);
      const Bounds got = search(child, child_key, a, b, depth + 1);
      s = &scratch_[static_cast<size_t>(depth)];
      s->bounds[i] = got;
      lo += p * (got.lo - before.lo);
      hi += p * (got.hi - before.hi);
    }
    if (hi <= alpha || lo >= beta) ++stats_.cutoffs;
    // The running sums above steer the cuts; the node's bounds are summed
    // afresh, so their rounding does not build up child by child.
    return weighted(*s, [s](size_t i) { return s->bounds[i]; });
  }

  // A chance node's bounds from its children's, weighted by their chances
  // and divided by the chances' own sum: rounding in that sum must not move
  // a node won (lost) after every outcome off exactly 1 (0), nor take a
  // proved upper bound below the value it bounds.
  template <class BoundsOf>
  static Bounds weighted(const Scratch& s, BoundsOf bounds_of) {
    double lo = 0, hi = 0, total = 0;
    for (size_t i = 0; i < s.children.size(); ++i) {
      const double p = s.children[i].probability;
      const Bounds& b = bounds_of(i);
      lo += p * b.lo;
      hi += p * b.hi;
      total += p;
    }
    if (total <= 0) return {0, 0};  // no outcome: nothing can be won
    return {std::clamp(lo / total, 0.0, 1.0), std::clamp(hi / total, 0.0, 1.0)};
  }

  // Max node: children best first (by what is already known about them,
  // then the game's order); each is searched only for whether it beats the
  // best proved so far.
  Bounds search_decision(double alpha, double beta, int depth) {
    Scratch* s = &scratch_[static_cast<size_t>(depth)];
    const size_t n = s->children.size();
    s->order.resize(n);
    for (uint32_t i = 0; i < n; ++i) s->order[i] = i;
    sort_order(s->order, [s](uint32_t a, uint32_t b) { return s->bounds[a].hi > s->bounds[b].hi; });
    double best = 0;
    for (size_t i = 0; i < n; ++i) best = std::max(best, s->bounds[i].lo);
    for (size_t k = 0; k < n; ++k) {
      if (best >= beta || budget_.stopped()) break;
      s = &scratch_[static_cast<size_t>(depth)];
      const uint32_t i = s->order[k];
      const double floor = options_.use_pruning ? std::max(alpha, best) : -1.0;
      if (s->bounds[i].exact() || s->bounds[i].hi <= floor) continue;
      const State child = s->children[i].state;
      const Key child_key = s->keys[i];
      s->searching = i;
      const Bounds got = search(child, child_key, floor, options_.use_pruning ? beta : 2.0, depth + 1);
      s = &scratch_[static_cast<size_t>(depth)];
      s->bounds[i] = got;
      best = std::max(best, got.lo);
    }
    double hi = 0;
    for (size_t i = 0; i < n; ++i) hi = std::max(hi, s->bounds[i].hi);
    if (best >= beta) ++stats_.cutoffs;
    return {best, std::max(best, hi)};
  }

  // The root's proved bounds so far, for whoever watches the search run
  // (the Budget hands them on at its next poll), from a node at `depth`:
  // up the path from it, each node's children's bounds combined as the
  // search combines them, the child on the path by what its own children
  // show so far, within what was known of the node before them. Every
  // term is a proved bound, so the result is one.
  void note_root(int depth) {
    Bounds on_path;
    for (int d = depth - 1; d >= 0; --d) {
      const Scratch& s = scratch_[static_cast<size_t>(d)];
      const auto bound_of = [&](size_t i) -> const Bounds& {
        return d < depth - 1 && i == s.searching ? on_path : s.bounds[i];
      };
      Bounds node{0, 0};
      if (s.chance) {
        node = weighted(s, bound_of);
      } else {
        for (size_t i = 0; i < s.children.size(); ++i) {
          node.lo = std::max(node.lo, bound_of(i).lo);
          node.hi = std::max(node.hi, bound_of(i).hi);
        }
      }
      on_path = {std::max(node.lo, s.prior.lo), std::min(node.hi, s.prior.hi)};
    }
    const double lo = std::clamp(std::max(on_path.lo, root_floor_), 0.0, 1.0);
    budget_.note_interval(lo, std::clamp(std::max(on_path.hi, lo), 0.0, 1.0));
  }

  const G& game_;
  Budget& budget_;
  ExpectimaxOptions options_;
  BoundedTable<Bounds, Key> table_;
  std::vector<Scratch> scratch_;
  std::vector<Key> dominance_keys_;
  ExpectimaxStats stats_;
  StopReason cut_short_ = StopReason::kNone;
  static constexpr uint64_t kNoteEvery = 4096;
  bool watched_root_ = false;
  double root_floor_ = -1.0;  // a known policy's value at the root
};

}  // namespace sj
