// Monte Carlo tree search for one player against chance, written once
// against a small game interface (SampledGame), in the manner of
// OpenSpiel's MCTS: UCT at decisions, explicit chance nodes whose children
// are keyed by the sampled outcome, one expansion per iteration, and a
// pluggable evaluator for new leaves (a random rollout by default, a
// game's own rollout policy, or a value of the leaf itself: LeafValue).
//
// Why closed-loop chance nodes rather than determinisation or open loop:
// in a solo game with a hidden draw pile, everything the player does not
// see is a future draw, and the game draws it uniformly from what is left.
// So the information set is the position itself, and sampling each chance
// outcome when it happens is exactly the game's own distribution: no
// determinised deal is needed, and no strategy fusion comes in (each tree
// node is one state, its moves fixed). Chance points have few outcomes
// (a card kind, a die face), so keying children by outcome keeps the tree
// small, and a decision node's statistics are those of one state, not an
// average over the states an open-loop node would mix.
//
// A game may steer the tree by a value of its own and still report its
// true outcome: when wins are rare, a shaped value (how near a lost game
// came) separates moves that a win share of zero cannot. A state with
// `search_value()` gives both at its end, an evaluator may return a
// Playout; otherwise the value is the outcome.
//
// Limits, determinism, memory:
// - A node of the Budget is one iteration: one simulated game from the root
//   through the tree and a rollout to the end.
// - Root parallelism with a fixed number of trees (not the thread count):
//   each tree has its own Rng seeded from (seed, tree), its share of the
//   iterations and of the memory, and the root statistics are summed in tree
//   order. Under a node limit the answer is the same on any thread count;
//   under a time limit or a stop it depends on how far each tree got.
// - Each tree's nodes live in an arena sized from its memory share, reserved
//   once; when it is full the tree stops growing and its leaves are valued
//   by rollouts alone (`arena_full`). The root's children are always kept
//   (a few dozen bytes a move), so even a tiny share answers per move. Nothing is allocated per iteration
//   once the move buffers have grown to the largest decision.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <thread>
#include <tuple>
#include <vector>

#include "core/bits.hpp"
#include "core/interval.hpp"
#include "core/limits.hpp"
#include "core/rng.hpp"

namespace sj {

// What one simulated game gives back: the value the tree steers by and
// the outcome it reports.
struct Playout {
  double value;
  double outcome;
};

inline Playout as_playout(double v) { return {v, v}; }
inline Playout as_playout(Playout p) { return p; }

template <class S>
Playout terminal_playout(const S& s) {
  if constexpr (requires { s.search_value(); }) {
    return {s.search_value(), s.value()};
  } else {
    return as_playout(s.value());
  }
}

template <class S>
concept SampledGame = std::copyable<S> && requires(S s, const S cs, Rng& rng, std::vector<typename S::Move>& moves,
                                                    const typename S::Move& move) {
  { cs.terminal() } -> std::convertible_to<bool>;
  { cs.value() } -> std::convertible_to<double>;  // at a terminal: in [0, 1], or a score
  { cs.chance() } -> std::convertible_to<bool>;   // the next event is chance
  { s.sample_chance(rng) } -> std::convertible_to<uint64_t>;  // applies one outcome; its key
  cs.legal_moves(moves);                          // at a decision: distinct, in a fixed order
  s.apply(move);
};

// The default evaluator: uniform random moves to the end, chance sampled.
struct RandomRollout {
  template <SampledGame S>
  Playout operator()(S s, Rng& rng, std::vector<typename S::Move>& moves) const {
    while (!s.terminal()) {
      if (s.chance()) {
        s.sample_chance(rng);
        continue;
      }
      moves.clear();
      s.legal_moves(moves);
      s.apply(moves[rng.below(moves.size())]);
    }
    return terminal_playout(s);
  }
};

// The third kind of evaluator: a leaf valued where it stands by a
// function of its state (a game's hand-made value, or a learned one in
// AlphaZero's manner), with no rollout. `value(s)` returns a double or a
// Playout; the tree hands it only states still in play.
template <class F>
struct LeafValue {
  F value;
  template <SampledGame S>
  Playout operator()(const S& s, Rng&, std::vector<typename S::Move>&) const {
    return as_playout(value(s));
  }
};
template <class F>
LeafValue(F) -> LeafValue<F>;

struct MctsOptions {
  // UCT's constant, in units of the value (for a score, scale it by the
  // score's range).
  double exploration = 1.4;
  // Iterations between two looks at the clock and the stop flag: fewer for
  // a game whose iterations are costly.
  uint64_t poll_interval = Budget::kPollInterval;
  // Common random numbers: the k-th visit of every root move draws its
  // chance outcomes and rollout from the same stream, so that the moves are
  // compared on the same futures (a game whose luck outweighs one move's
  // effect needs far fewer iterations to tell its moves apart).
  bool common_random_numbers = false;
  uint32_t trees = 8;
  uint32_t threads = 1;
  uint64_t seed = 0;
  // The 95% interval: Wilson (values in [0, 1]) or normal (scores).
  bool proportion = true;
};

struct Estimate95 {
  uint64_t n = 0;
  double mean = 0;
  double lo = 0;
  double hi = 0;
};

struct MctsStats {
  uint64_t iterations = 0;  // = nodes: a node of the budget is an iteration
  double seconds = 0;
  uint64_t tree_nodes = 0;  // over every tree
  bool arena_full = false;  // some tree stopped growing for memory
  StopReason stopped_by = StopReason::kNone;
};

template <class Move>
struct MctsResult {
  std::vector<Move> moves;         // the root's legal moves, in the game's order (empty at a chance root)
  std::vector<Estimate95> values;    // per move: the value the tree steered by
  std::vector<Estimate95> outcomes;  // per move: the outcome (= values unless the game shapes its search value)
  int best = -1;                   // most visits, then higher mean, then first in order
  Estimate95 root;                 // the root's value: its best move's, or at a chance root its mean
  Estimate95 root_outcome;
  MctsStats stats;
};

namespace mcts_detail {

struct Node {
  uint64_t key = 0;           // a chance child's outcome key
  uint32_t first_child = 0;   // 0: none (the root is never a child)
  uint32_t next_sibling = 0;  // among a chance node's children
  uint32_t child_count = 0;   // a decision's children: one block, one per legal move
  bool expanded = false;
  uint64_t n = 0;
  double sum = 0;
  double sum_sq = 0;
  double outcome_sum = 0;
  double outcome_sq = 0;
};

// A 95% interval for the mean of `n` values summing to `sum` (squares `sq`).
inline Estimate95 estimate(uint64_t n, double sum, double sq, bool proportion) {
  Estimate95 e;
  e.n = n;
  if (n == 0) {
    e.hi = proportion ? 1.0 : 0.0;
    return e;
  }
  const double k = static_cast<double>(n);
  e.mean = sum / k;
  if (proportion) {
    std::tie(e.lo, e.hi) = wilson95(e.mean, n);
  } else {
    const double var = n > 1 ? std::max(0.0, (sq - sum * sum / k) / (k - 1)) : 0.0;
    const double half = kZ95 * std::sqrt(var / k);
    e.lo = e.mean - half;
    e.hi = e.mean + half;
  }
  return e;
}

// The root's per-move sums of one tree, merged in tree order.
struct RootSums {
  std::vector<uint64_t> n;
  std::vector<double> sum, sq, outcome_sum, outcome_sq;
  uint64_t root_n = 0;
  double root_sum = 0, root_sq = 0, root_outcome_sum = 0, root_outcome_sq = 0;
  uint64_t iterations = 0, tree_nodes = 0;
  bool arena_full = false;
  StopReason stopped_by = StopReason::kNone;

  // Zero sums for a root with `moves` moves.
  explicit RootSums(size_t moves = 0)
      : n(moves, 0), sum(moves, 0), sq(moves, 0), outcome_sum(moves, 0), outcome_sq(moves, 0) {}

  // Adds the root statistics of another tree of the same root.
  void add(const RootSums& o) {
    for (size_t i = 0; i < o.n.size(); ++i) {
      n[i] += o.n[i];
      sum[i] += o.sum[i];
      sq[i] += o.sq[i];
      outcome_sum[i] += o.outcome_sum[i];
      outcome_sq[i] += o.outcome_sq[i];
    }
    root_n += o.root_n;
    root_sum += o.root_sum;
    root_sq += o.root_sq;
    root_outcome_sum += o.root_outcome_sum;
    root_outcome_sq += o.root_outcome_sq;
  }
};

template <SampledGame S, class Evaluator>
class Tree {
 public:
  using Move = typename S::Move;

  Tree(const S& root, const MctsOptions& options, const Evaluator& evaluate, std::vector<Node>& arena,
       size_t capacity, uint64_t seed)
      : root_(root), options_(options), evaluate_(evaluate), arena_(arena), capacity_(capacity), seed_(seed),
        rng_(seed), common_(seed) {
    arena_.clear();
    arena_.emplace_back();
  }

  // `watched`: the sums of this thread's trees before this one, to note
  // with this tree's as the answer so far for whoever watches the search
  // (null: another thread's tree, which notes nothing).
  RootSums run(Budget& budget, size_t root_moves, const RootSums* watched = nullptr) {
    while (budget.spend()) {
      iterate();
      if (watched && budget.nodes() % kNoteEvery == 0) note_answer(budget, *watched);
    }
    RootSums out(root_moves);
    const Node& root = arena_[0];
    for (uint32_t i = 0; root.expanded && i < root.child_count; ++i) {
      const Node& c = arena_[root.first_child + i];
      out.n[i] = c.n;
      out.sum[i] = c.sum;
      out.sq[i] = c.sum_sq;
      out.outcome_sum[i] = c.outcome_sum;
      out.outcome_sq[i] = c.outcome_sq;
    }
    out.root_n = root.n;
    out.root_sum = root.sum;
    out.root_sq = root.sum_sq;
    out.root_outcome_sum = root.outcome_sum;
    out.root_outcome_sq = root.outcome_sq;
    out.iterations = budget.nodes();
    out.tree_nodes = arena_.size();
    out.arena_full = full_;
    out.stopped_by = budget.reason();
    return out;
  }

 private:
  // An iteration is a whole simulated game (Fire Tower's reach 10 ms):
  // noting the answer costs a pass over the root's children, nothing beside
  // that, and a watcher should see it within a fraction of a second.
  static constexpr uint64_t kNoteEvery = 8;

  // The move most visited so far (as the answer picks it; at a chance
  // root, the root itself): its outcome's 95% interval.
  void note_answer(Budget& budget, const RootSums& before) const {
    const Node& root = arena_[0];
    uint64_t n = before.root_n + root.n;
    double sum = before.root_outcome_sum + root.outcome_sum, sq = before.root_outcome_sq + root.outcome_sq;
    for (uint32_t i = 0; root.expanded && i < root.child_count; ++i) {
      const Node& c = arena_[root.first_child + i];
      if (i > 0 && before.n[i] + c.n <= n) continue;
      n = before.n[i] + c.n;
      sum = before.outcome_sum[i] + c.outcome_sum;
      sq = before.outcome_sq[i] + c.outcome_sq;
    }
    const Estimate95 e = estimate(n, sum, sq, options_.proportion);
    budget.note_interval(e.lo, e.hi);
  }

  void iterate() {
    S s = root_;
    draw_ = &rng_;
    path_.clear();
    uint32_t node = 0;
    path_.push_back(node);
    Playout value;
    for (;;) {
      if (s.terminal()) {
        value = terminal_playout(s);
        break;
      }
      if (arena_[node].n == 0 && node != 0) {  // a new leaf: value it
        value = as_playout(evaluate_(s, *draw_, moves_));
        break;
      }
      if (s.chance()) {
        const uint64_t key = s.sample_chance(*draw_);
        const uint32_t child = chance_child(node, key);
        if (child == 0) {  // no room: value what the sample reached
          value = as_playout(evaluate_(s, *draw_, moves_));
          break;
        }
        node = child;
        path_.push_back(node);
        continue;
      }
      moves_.clear();
      s.legal_moves(moves_);
      if (!arena_[node].expanded && !expand(node, static_cast<uint32_t>(moves_.size()))) {
        value = as_playout(evaluate_(s, *draw_, moves_));
        break;
      }
      const uint32_t i = select(arena_[node]);
      if (node == 0 && options_.common_random_numbers) {
        common_ = Rng(mix64(seed_ ^ mix64(arena_[arena_[0].first_child + i].n + 1)));
        draw_ = &common_;
      }
      s.apply(moves_[i]);
      node = arena_[node].first_child + i;
      path_.push_back(node);
    }
    for (uint32_t n : path_) {
      Node& x = arena_[n];
      ++x.n;
      x.sum += value.value;
      x.sum_sq += value.value * value.value;
      x.outcome_sum += value.outcome;
      x.outcome_sq += value.outcome * value.outcome;
    }
  }

  bool room(size_t nodes) {
    if (arena_.size() + nodes <= capacity_) return true;
    full_ = true;
    return false;
  }

  bool expand(uint32_t node, uint32_t count) {
    if (!room(count)) return false;
    const auto first = static_cast<uint32_t>(arena_.size());
    arena_.resize(arena_.size() + count);
    Node& x = arena_[node];
    x.first_child = first;
    x.child_count = count;
    x.expanded = true;
    return true;
  }

  uint32_t chance_child(uint32_t node, uint64_t key) {
    for (uint32_t c = arena_[node].first_child; c != 0; c = arena_[c].next_sibling)
      if (arena_[c].key == key) return c;
    if (!room(1)) return 0;
    const auto c = static_cast<uint32_t>(arena_.size());
    arena_.emplace_back();
    arena_[c].key = key;
    arena_[c].next_sibling = arena_[node].first_child;
    arena_[node].first_child = c;
    arena_[node].expanded = true;
    return c;
  }

  // UCT: an unvisited move first (the first in order), else the highest
  // mean plus exploration; ties to the first.
  uint32_t select(const Node& x) const {
    const double log_n = std::log(static_cast<double>(std::max<uint64_t>(x.n, 1)));
    uint32_t best = 0;
    double best_score = -INFINITY;
    for (uint32_t i = 0; i < x.child_count; ++i) {
      const Node& c = arena_[x.first_child + i];
      if (c.n == 0) return i;
      const double k = static_cast<double>(c.n);
      const double score = c.sum / k + options_.exploration * std::sqrt(log_n / k);
      if (score > best_score) {
        best_score = score;
        best = i;
      }
    }
    return best;
  }

  const S& root_;
  const MctsOptions& options_;
  const Evaluator& evaluate_;
  std::vector<Node>& arena_;
  size_t capacity_;
  uint64_t seed_;
  Rng rng_;
  Rng common_;  // the stream of one root move's k-th visit (common random numbers)
  Rng* draw_ = &rng_;  // what this iteration's chance and rollout draw from
  bool full_ = false;
  std::vector<uint32_t> path_;
  std::vector<Move> moves_;
};

}  // namespace mcts_detail

template <SampledGame S, class Evaluator = RandomRollout>
MctsResult<typename S::Move> mcts(const S& root, const Limits& limits, const MctsOptions& options,
                                  Control* control = nullptr, const Evaluator& evaluate = {}) {
  using namespace mcts_detail;
  MctsResult<typename S::Move> result;
  const auto started = std::chrono::steady_clock::now();
  const uint32_t trees = std::max<uint32_t>(1, options.trees);
  const uint32_t threads = std::clamp<uint32_t>(options.threads, 1, trees);
  if (!root.terminal() && !root.chance()) root.legal_moves(result.moves);
  const size_t per_tree_bytes = static_cast<size_t>(limits.max_memory_mb) * (size_t{1} << 20) / trees;
  const size_t capacity = std::max(per_tree_bytes / sizeof(Node), result.moves.size() + 1);

  std::vector<RootSums> sums(trees);
  auto work = [&](uint32_t thread) {
    std::vector<Node> arena;
    arena.reserve(capacity);
    // This thread's trees share its time in turn, each ending at its slot's
    // end on the search's clock, so one tree's overrun is taken from the
    // next and never adds up past the limit; each has its share of the
    // iterations whatever the thread count.
    const uint32_t mine = (trees - thread + threads - 1) / threads;
    RootSums watched(result.moves.size());  // the first thread's trees so far: what a watcher sees
    uint32_t slot = 0;
    for (uint32_t t = thread; t < trees; t += threads) {
      Limits share = limits;
      share.max_nodes = limits.max_nodes / trees + (t < limits.max_nodes % trees ? 1 : 0);
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      share.max_seconds = limits.max_seconds / mine * ++slot - elapsed;
      Budget budget(share, control, options.poll_interval);
      Tree<S, Evaluator> tree(root, options, evaluate, arena, capacity, mix64(options.seed ^ mix64(t + 1)));
      sums[t] = tree.run(budget, result.moves.size(), thread == 0 && control ? &watched : nullptr);
      if (thread == 0) watched.add(sums[t]);
    }
  };
  if (threads == 1) {
    work(0);
  } else {
    std::vector<std::thread> pool;
    for (uint32_t k = 0; k < threads; ++k) pool.emplace_back(work, k);
    for (auto& th : pool) th.join();
  }

  RootSums all(result.moves.size());
  for (const RootSums& s : sums) {  // in tree order: the same sums on any thread count
    all.add(s);
    result.stats.iterations += s.iterations;
    result.stats.tree_nodes += s.tree_nodes;
    result.stats.arena_full |= s.arena_full;
    // A tree's node share ending is the search's node limit; any other
    // reason (time, stop) is the search's.
    if (s.stopped_by != StopReason::kNone && result.stats.stopped_by != StopReason::kStopped &&
        (result.stats.stopped_by == StopReason::kNone || result.stats.stopped_by == StopReason::kNodes))
      result.stats.stopped_by = s.stopped_by;
  }
  for (size_t i = 0; i < result.moves.size(); ++i) {
    result.outcomes.push_back(estimate(all.n[i], all.outcome_sum[i], all.outcome_sq[i], options.proportion));
    result.values.push_back(estimate(all.n[i], all.sum[i], all.sq[i], options.proportion));
    const Estimate95& e = result.values.back();
    if (result.best < 0 || e.n > result.values[static_cast<size_t>(result.best)].n ||
        (e.n == result.values[static_cast<size_t>(result.best)].n &&
         e.mean > result.values[static_cast<size_t>(result.best)].mean))
      result.best = static_cast<int>(i);
  }
  // A decision is worth its best move (the root's own mean would mix in
  // the exploring visits of the others); a chance or terminal root, its mean.
  result.root = result.best >= 0 ? result.values[static_cast<size_t>(result.best)]
                                 : estimate(all.root_n, all.root_sum, all.root_sq, options.proportion);
  result.root_outcome = result.best >= 0 ? result.outcomes[static_cast<size_t>(result.best)]
                                         : estimate(all.root_n, all.root_outcome_sum, all.root_outcome_sq,
                                                    options.proportion);
  result.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace sj
