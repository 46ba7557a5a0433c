// cpp/search/mcts.hpp on a toy game whose exact value an exhaustive
// expectimax below computes: MCTS must agree with it within its intervals,
// pick the optimal move where the gap is clear, obey its limits, and give
// the same answer on any thread count. Built and run by tests/test_mcts.py.
//
// The game, "dice race": from a total of 0, each turn either stand (the
// game ends) or roll 1, 2 or 3 dice and add them; after `turns` turns the
// game ends too. Won when the total ends within 12..15; past 15 is lost at
// once. Rolling more dice looks better while far from 12 and is a trap near
// it, so the best move changes along the game.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <thread>
#include <vector>

#include "search/mcts.hpp"

namespace {

struct Race {
  struct Move {
    int dice = 0;  // 0: stand
    bool operator==(const Move&) const = default;
  };
  int total = 0;
  int turns = 4;
  int rolling = 0;  // dice thrown and not yet counted: a chance point
  bool stood = false;

  bool terminal() const { return rolling == 0 && (stood || turns == 0 || total > 15); }
  double value() const { return total >= 12 && total <= 15 ? 1.0 : 0.0; }
  bool chance() const { return rolling > 0; }
  uint64_t sample_chance(sj::Rng& rng) {
    int sum = 0;
    for (int d = 0; d < rolling; ++d) sum += static_cast<int>(rng.below(6)) + 1;
    total += sum;
    rolling = 0;
    return static_cast<uint64_t>(sum);
  }
  void legal_moves(std::vector<Move>& moves) const {
    for (int d = 0; d <= 3; ++d) moves.push_back({d});
  }
  void apply(const Move& m) {
    if (m.dice == 0) {
      stood = true;
      return;
    }
    rolling = m.dice;
    --turns;
  }
};
static_assert(sj::SampledGame<Race>);

// A game's own rollout policy, the evaluator plug-in's use: stand once in
// range, else roll fewer dice the nearer 12 is (a fair player, not the best).
struct Sensible {
  double operator()(Race r, sj::Rng& rng, std::vector<Race::Move>&) const {
    while (!r.terminal()) {
      if (r.chance()) {
        r.sample_chance(rng);
        continue;
      }
      r.apply({r.total >= 12 ? 0 : r.total >= 8 ? 1 : r.total >= 4 ? 2 : 3});
    }
    return r.value();
  }
};

// The probability of each sum of `dice` dice.
std::map<int, double> sums(int dice) {
  std::map<int, double> p{{0, 1.0}};
  for (int d = 0; d < dice; ++d) {
    std::map<int, double> next;
    for (auto [s, q] : p)
      for (int f = 1; f <= 6; ++f) next[s + f] += q / 6;
    p = next;
  }
  return p;
}

double exact(const Race& r);

double exact_after(Race r, int dice) {
  r.apply({dice});
  if (dice == 0) return exact(r);
  double v = 0;
  for (auto [s, q] : sums(dice)) {
    Race next = r;
    next.total += s;
    next.rolling = 0;
    v += q * exact(next);
  }
  return v;
}

double exact(const Race& r) {
  if (r.terminal()) return r.value();
  if (r.chance()) {
    double v = 0;
    for (auto [s, q] : sums(r.rolling)) {
      Race next = r;
      next.total += s;
      next.rolling = 0;
      v += q * exact(next);
    }
    return v;
  }
  double best = 0;
  for (int d = 0; d <= 3; ++d) best = std::max(best, exact_after(r, d));
  return best;
}

int failures = 0;

void check(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++failures;
  }
}

sj::Limits nodes(uint64_t n, uint64_t mb = 64) {
  sj::Limits l;
  l.max_nodes = n;
  l.max_memory_mb = mb;
  return l;
}

sj::MctsOptions opts(uint32_t threads, uint64_t seed = 7) {
  sj::MctsOptions o;
  o.threads = threads;
  o.seed = seed;
  o.exploration = 0.7;
  return o;
}

Race at(int total, int turns) {
  Race r;
  r.total = total;
  r.turns = turns;
  return r;
}

void agrees_with_expectimax() {
  const Race states[] = {at(0, 4), at(3, 3), at(6, 2), at(9, 2), at(10, 1), at(11, 3), at(8, 1)};
  for (const Race& r : states) {
    const auto res = sj::mcts(r, nodes(400'000), opts(2), nullptr, Sensible{});
    std::vector<double> truth;
    for (int d = 0; d <= 3; ++d) truth.push_back(exact_after(r, d));
    std::vector<double> sorted = truth;
    std::sort(sorted.rbegin(), sorted.rend());
    const auto& best = res.values[static_cast<size_t>(res.best)];
    const double want = truth[static_cast<size_t>(res.best)];
    std::printf("total %2d, %d turns: exact %.4f %.4f %.4f %.4f; chose %d dice, %.4f [%.4f, %.4f] n=%llu\n",
                r.total, r.turns, truth[0], truth[1], truth[2], truth[3], res.best, best.mean, best.lo, best.hi,
                static_cast<unsigned long long>(best.n));
    // The most-visited move's mean estimates its value, low by the early,
    // exploring iterations below it (its interval is the samples' alone):
    // near the exact value, and not above its interval.
    check(std::abs(best.mean - want) < 0.05 && want >= best.lo - 0.05, "the best move's value is near the exact");
    if (sorted[0] - sorted[1] > 0.05)
      check(want == sorted[0], "where the gap is clear, the chosen move is the optimal one");
    check(std::abs(res.root.mean - exact(r)) < 0.05, "the root's value is near the exact value");
  }
}

void obeys_its_limits() {
  const Race start = at(0, 4);
  const auto counted = sj::mcts(start, nodes(10'000), opts(1));
  check(counted.stats.iterations == 10'000, "a node limit of N runs N iterations");
  check(counted.stats.stopped_by == sj::StopReason::kNodes, "the node limit says it stopped the search");

  sj::Limits timed;
  timed.max_seconds = 0.2;
  const auto t = sj::mcts(start, timed, opts(2));
  check(t.stats.stopped_by == sj::StopReason::kTime, "a time limit says it stopped the search");
  check(t.stats.seconds < 1.0, "a time limit holds");

  sj::Control control;
  control.request_stop();
  const auto s = sj::mcts(start, sj::Limits{}, opts(2), &control);
  check(s.stats.stopped_by == sj::StopReason::kStopped, "the stop flag stops it");
  check(s.stats.iterations <= 8 * sj::Budget::kPollInterval, "within a poll interval per tree");

  const auto tiny = sj::mcts(at(10, 1), nodes(40'000, 0), opts(1));
  check(tiny.stats.arena_full, "a tiny memory share fills the arena");
  check(tiny.stats.tree_nodes <= 8 * 5, "and the trees keep only the root's children");
  const double roll1 = exact_after(at(10, 1), 1);
  check(tiny.best == 1 && std::abs(tiny.values[1].mean - roll1) < 0.03, "and it still answers, flat");
}

// A rollout that takes 20 ms, like a game's whole simulated game on a
// loaded machine.
struct Slow {
  double operator()(Race r, sj::Rng& rng, std::vector<Race::Move>& moves) const {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return Sensible{}(r, rng, moves);
  }
};

// One thread's eight trees take their time in turn, each polling every
// eight iterations (up to 160 ms): each tree's time must end on the
// search's clock, so that one overrun is taken from the trees after it.
// Were each tree's time its own (25 ms from its start), the eight overruns
// would add up to over half a second.
void slow_iterations_keep_the_time_limit() {
  sj::Limits timed;
  timed.max_seconds = 0.2;
  sj::MctsOptions o = opts(1);
  o.trees = 8;
  o.poll_interval = 8;
  const auto r = sj::mcts(at(0, 4), timed, o, nullptr, Slow{});
  check(r.stats.stopped_by == sj::StopReason::kTime, "a time limit stops slow iterations");
  check(r.stats.seconds < 0.2 + 0.2, "and holds within one poll, not one per tree");
}

void same_answer_on_any_thread_count() {
  const auto one = sj::mcts(at(0, 4), nodes(50'000), opts(1, 3));
  for (uint32_t threads : {2u, 4u, 8u}) {
    const auto other = sj::mcts(at(0, 4), nodes(50'000), opts(threads, 3));
    bool same = other.best == one.best && other.stats.iterations == one.stats.iterations &&
                other.stats.tree_nodes == one.stats.tree_nodes;
    for (size_t i = 0; i < one.values.size(); ++i)
      same = same && other.values[i].n == one.values[i].n && other.values[i].mean == one.values[i].mean;
    check(same, "the same seed and node limit give the same answer on 1, 2, 4 and 8 threads");
  }
  const auto reseeded = sj::mcts(at(0, 4), nodes(50'000), opts(1, 4));
  check(reseeded.values[1].n != one.values[1].n || reseeded.values[1].mean != one.values[1].mean,
        "another seed samples otherwise");
}

void terminal_and_chance_roots() {
  Race won = at(13, 2);
  won.stood = true;
  const auto t = sj::mcts(won, nodes(100), opts(1));
  check(t.moves.empty() && t.best == -1 && t.root.mean == 1.0, "a terminal root has no moves and its value");

  Race rolling = at(6, 2);
  rolling.apply({2});
  const auto c = sj::mcts(rolling, nodes(100'000), opts(2));
  check(c.moves.empty() && c.best == -1, "a chance root has no moves");
  check(std::abs(c.root.mean - exact(rolling)) < 0.03, "a chance root's value is near the exact one");
}

// The steering value and the reported outcome kept apart: the plain game
// reports its value as both; a game that steers by a shaped value still
// reports its true outcome.
struct ShapedRace : Race {
  double search_value() const { return value() > 0 ? 1.0 : std::min(total, 15) / 30.0; }
};

struct ShapedSensible {
  sj::Playout operator()(ShapedRace r, sj::Rng& rng, std::vector<Race::Move>&) const {
    while (!r.terminal()) {  // Sensible's walk, ending with both values
      if (r.chance()) {
        r.sample_chance(rng);
        continue;
      }
      r.apply({r.total >= 12 ? 0 : r.total >= 8 ? 1 : r.total >= 4 ? 2 : 3});
    }
    return sj::terminal_playout(r);
  }
};

void steering_value_and_outcome() {
  const auto plain = sj::mcts(at(6, 2), nodes(20'000), opts(1));
  bool same = true;
  for (size_t i = 0; i < plain.values.size(); ++i)
    same = same && plain.outcomes[i].mean == plain.values[i].mean && plain.outcomes[i].n == plain.values[i].n;
  check(same, "without a steering value the outcome is the value");
  ShapedRace shaped;
  shaped.total = 6;
  shaped.turns = 2;
  const auto s = sj::mcts(shaped, nodes(100'000), opts(2), nullptr, ShapedSensible{});
  const auto& best = s.outcomes[static_cast<size_t>(s.best)];
  check(std::abs(best.mean - exact_after(at(6, 2), s.best)) < 0.05, "a shaped search still reports the win share");
  check(s.values[static_cast<size_t>(s.best)].mean > best.mean, "and steered by the shaped value, which is higher");
}

// Common random numbers: every root move's k-th visit sees the same dice.
void common_random_numbers() {
  sj::MctsOptions o = opts(2, 5);
  o.common_random_numbers = true;
  const Race r = at(9, 2);
  const auto res = sj::mcts(r, nodes(200'000), o, nullptr, Sensible{});
  std::vector<double> truth;
  for (int d = 0; d <= 3; ++d) truth.push_back(exact_after(r, d));
  check(std::abs(res.values[static_cast<size_t>(res.best)].mean - truth[static_cast<size_t>(res.best)]) < 0.05,
        "with common random numbers the best move's value is near the exact");
  check(truth[static_cast<size_t>(res.best)] == *std::max_element(truth.begin(), truth.end()),
        "and the move chosen is the optimal one");
  o.threads = 1;
  const auto one = sj::mcts(r, nodes(200'000), o, nullptr, Sensible{});
  check(one.values[1].mean == res.values[1].mean && one.best == res.best, "on any thread count alike");
}

// A value of the leaf in place of a rollout (LeafValue): with the exact
// value as the heuristic, few iterations find the optimal move; the
// heuristic is asked only of states still in play. A heuristic that knows nothing (a constant)
// leaves the tree to learn from the game's ends alone, and it still
// answers within its limits.
void heuristic_value() {
  int asked_of_ended = 0;
  const auto exact_value = [&](const Race& s) {
    asked_of_ended += s.terminal();
    return exact(s);
  };
  for (const Race& r : {at(9, 2), at(6, 2), at(11, 3)}) {
    const auto res = sj::mcts(r, nodes(4'000), opts(1), nullptr, sj::LeafValue{exact_value});
    std::vector<double> truth;
    for (int d = 0; d <= 3; ++d) truth.push_back(exact_after(r, d));
    const double best = *std::max_element(truth.begin(), truth.end());
    // The mean is of exact values after the tree's own play below the
    // move, exploring included: near the optimum and, up to the draws'
    // noise, not above it.
    const double found = res.values[static_cast<size_t>(res.best)].mean;
    check(truth[static_cast<size_t>(res.best)] == best, "an exact leaf value finds the optimal move in 4,000 iterations");
    check(found <= best + 0.02 && found > best - 0.15, "and values it near the optimum, never above it");
  }
  check(asked_of_ended == 0, "a leaf value is asked only of states in play");
  const auto flat = sj::mcts(at(9, 2), nodes(4'000), opts(1), nullptr, sj::LeafValue{[](const Race&) { return 0.5; }});
  check(flat.stats.iterations == 4'000 && flat.best >= 0, "a constant leaf value still answers within its limit");
}

void speed() {
  for (uint32_t threads : {1u, 2u}) {
    const auto r = sj::mcts(at(0, 4), nodes(400'000), opts(threads));
    std::printf("speed: %u thread(s): %.0f iterations/s\n", threads,
                static_cast<double>(r.stats.iterations) / r.stats.seconds);
  }
}

}  // namespace

int main() {
  agrees_with_expectimax();
  obeys_its_limits();
  slow_iterations_keep_the_time_limit();
  same_answer_on_any_thread_count();
  terminal_and_chance_roots();
  steering_value_and_outcome();
  common_random_numbers();
  heuristic_value();
  speed();
  std::printf(failures ? "%d FAILED\n" : "all passed\n", failures);
  return failures ? 1 : 0;
}
