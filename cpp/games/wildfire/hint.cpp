#include "games/wildfire/hint.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "core/error.hpp"
#include "core/interval.hpp"
#include "core/rng.hpp"
#include "games/wildfire/analysis.hpp"

namespace sj::wildfire {
namespace {

using Clock = std::chrono::steady_clock;
constexpr uint64_t kSampleDomain = 0x5749'4C44'0101ull;

// The memory of each solve: room for a table entry per node of its cap
// (about 48 bytes a node with the table's slack), whatever the thread count,
// since a table's size decides which proofs it keeps and so what a capped
// solve finds. The memory limit bounds the thread count instead.
uint64_t solve_memory_mb(uint64_t sample_nodes, uint64_t memory_mb) {
  const uint64_t wanted = sample_nodes >= (1ull << 40) ? memory_mb : sample_nodes * 48 / (1u << 20) + 1;
  return std::max<uint64_t>(1, std::min(wanted, memory_mb));
}

Kind written_out(Kind k) { return {k.n, k.spaces > 0 ? k.spaces : kDefaultSpaces[k.n]}; }

// What every sample shares: the position as a known order whose deal is
// this turn's tile followed by the sampled draws.
struct Setup {
  PositionSpec known;
  Kind drawn;
  std::vector<Kind> unseen;  // the pool less the drawn tile
  int draws = 0;             // tiles to sample after the drawn one
  bool exact = false;
};

// `game` is the position's own, so the position and its drawn tile are valid.
Setup make_setup(const PositionSpec& spec, const Game& game) {
  if (game.turns_left(game.initial()) == 0)
    throw InvalidInput("hint: the game is over, there is no turn to play");
  Setup s;
  s.known = spec;
  if (spec.known) {
    s.drawn = written_out(spec.rest.front());
    s.exact = true;
    return s;
  }
  if (!spec.drawn)
    throw InvalidInput("hint: a hidden-order position needs 'drawn', the tile drawn for this turn");
  s.drawn = written_out(*spec.drawn);
  bool removed = false;
  for (const Kind& k : spec.rest) {
    const Kind w = written_out(k);
    if (!removed && w.n == s.drawn.n && w.spaces == s.drawn.spaces) removed = true;
    else s.unseen.push_back(w);
  }
  s.draws = spec.turns_left - 1;
  // One possible deal: nothing left to draw, or every unseen tile alike.
  s.exact = s.draws == 0 || std::all_of(s.unseen.begin(), s.unseen.end(), [&](const Kind& k) {
              return k.n == s.unseen.front().n && k.spaces == s.unseen.front().spaces;
            });
  s.known.known = true;
  s.known.drawn.reset();
  s.known.rest = {s.drawn};
  s.known.turns_left = 0;
  return s;
}

// The draws of sample i: a partial Fisher-Yates shuffle on its own stream.
std::vector<Kind> draws_of(const Setup& s, uint64_t seed, int i) {
  std::vector<Kind> v = s.unseen;
  Rng rng(zobrist(kSampleDomain, seed, static_cast<uint64_t>(i)));
  for (size_t j = 0; j < static_cast<size_t>(s.draws); ++j)
    std::swap(v[j], v[j + rng.below(v.size() - j)]);
  v.resize(s.draws);
  return v;
}

// The known order of one deal (a known order's draws are empty: its deal is
// the position's own).
PositionSpec deal_spec(const Setup& s, const std::vector<Kind>& draws) {
  PositionSpec spec = s.known;
  spec.rest.insert(spec.rest.end(), draws.begin(), draws.end());
  return spec;
}

void check_options(const HintOptions& o) {
  if (o.samples < 1 || o.samples > kMaxHintSamples)
    throw InvalidInput("samples: " + std::to_string(o.samples) + " must be 1.." +
                       std::to_string(kMaxHintSamples));
  if (o.sample_nodes < 1) throw InvalidInput("sample_nodes: must be >= 1");
  if (o.workers < 1) throw InvalidInput("workers: " + std::to_string(o.workers) + " must be >= 1");
}

struct SampleOutcome {
  std::vector<Verdict> verdicts;  // per distinct child state
  uint64_t nodes = 0;
  uint64_t solves = 0;
  StopReason cut = StopReason::kNone;  // a limit or the stop flag ended it early
  bool done = false;
};

// Every distinct child of one deal, each solved by the known-order solver
// under the same limits (`per_solve`: the node cap), so that no answer
// depends on what another solve spent. The node limit leaves this deal
// `allowance` nodes, checked after each solve; the time limit ends at
// `deadline`.
SampleOutcome run_sample(const PositionSpec& spec, const std::vector<Move>& firsts, const Limits& per_solve,
                         uint64_t allowance, Clock::time_point deadline, Control* control) {
  const Game game(spec);
  SampleOutcome out;
  for (const Move& m : firsts) {
    Limits limits = per_solve;
    if (deadline != Clock::time_point::max())
      limits.max_seconds = std::chrono::duration<double>(deadline - Clock::now()).count();
    if (control && control->stop_requested()) out.cut = StopReason::kStopped;
    else if (limits.max_seconds <= 0) out.cut = StopReason::kTime;
    if (out.cut != StopReason::kNone) break;
    const SolveResult r = solve(game, game.apply(game.initial(), m), limits, control);
    out.verdicts.push_back(r.verdict);
    out.nodes += r.stats.nodes;
    ++out.solves;
    // An unknown at the node cap is an answer; one cut by the time limit
    // or the stop flag is not.
    if (r.verdict == Verdict::kUnknown && r.stats.stopped_by != StopReason::kNodes)
      out.cut = r.stats.stopped_by == StopReason::kNone ? StopReason::kStopped : r.stats.stopped_by;
    else if (out.nodes > allowance)
      out.cut = StopReason::kNodes;
    if (out.cut != StopReason::kNone) break;
  }
  out.done = out.cut == StopReason::kNone;
  return out;
}

// The samples counted: the longest prefix finished within the node limit,
// and each distinct first move's verdicts over it. Kept as samples finish,
// so a watcher sees the best move's 95% interval narrow while the hint
// runs (issue 19), and read at the end for the answer.
class Counted {
 public:
  explicit Counted(size_t groups) : wins_(groups), unknown_(groups) {}

  // Counts what finished since; false if the prefix did not grow.
  bool advance(const std::vector<SampleOutcome>& outcomes, uint64_t max_nodes) {
    const size_t before = samples_;
    while (samples_ < outcomes.size() && outcomes[samples_].done &&
           outcomes[samples_].nodes <= max_nodes - nodes_) {
      const SampleOutcome& o = outcomes[samples_++];
      nodes_ += o.nodes;
      for (size_t g = 0; g < o.verdicts.size(); ++g) {
        wins_[g] += o.verdicts[g] == Verdict::kWin;
        unknown_[g] += o.verdicts[g] == Verdict::kUnknown;
      }
    }
    return samples_ > before;
  }

  // The interval of the move with most wins (the hint's best), unknown
  // deals counted as losses for its lower end and as wins for its upper.
  std::pair<double, double> best_interval() const {
    const size_t best = static_cast<size_t>(std::max_element(wins_.begin(), wins_.end()) - wins_.begin());
    const auto share = [&](uint64_t count) { return static_cast<double>(count) / static_cast<double>(samples_); };
    return {wilson95(share(wins_[best]), samples_).first, wilson95(share(wins_[best] + unknown_[best]), samples_).second};
  }

  size_t samples() const { return samples_; }
  int wins(size_t group) const { return static_cast<int>(wins_[group]); }
  int unknown(size_t group) const { return static_cast<int>(unknown_[group]); }

 private:
  std::vector<uint64_t> wins_, unknown_;  // per distinct first move
  size_t samples_ = 0;
  uint64_t nodes_ = 0;
};

}  // namespace

std::vector<std::vector<Kind>> sample_deals(const PositionSpec& spec, int samples, uint64_t seed) {
  const Setup s = make_setup(spec, Game(spec));
  if (samples < 1 || samples > kMaxHintSamples)
    throw InvalidInput("samples: " + std::to_string(samples) + " must be 1.." +
                       std::to_string(kMaxHintSamples));
  std::vector<std::vector<Kind>> out;
  if (s.exact) {
    std::vector<Kind> rest = draws_of(s, seed, 0);
    if (spec.known)
      for (size_t i = 1; i < spec.rest.size(); ++i) rest.push_back(written_out(spec.rest[i]));
    out.push_back(rest);
    return out;
  }
  for (int i = 0; i < samples; ++i) out.push_back(draws_of(s, seed, i));
  return out;
}

HintResult hint(const PositionSpec& spec, const HintOptions& options, Control* control) {
  const auto start = Clock::now();
  check_options(options);
  const Game game(spec);
  const Setup setup = make_setup(spec, game);
  const Limits& limits = options.limits;

  // The actions, and the distinct states they reach (colour-symmetric
  // actions reach one state): each deal is solved once per distinct state.
  HintResult result;
  result.exact = setup.exact;
  result.drawn = setup.drawn;
  std::vector<int> group_of;
  std::vector<Move> firsts;
  std::unordered_map<uint64_t, int> groups;
  for (const Move& m : game.legal_moves(game.initial())) {
    const auto [it, added] = groups.try_emplace(game.key(game.apply(game.initial(), m)),
                                                static_cast<int>(firsts.size()));
    if (added) firsts.push_back(m);
    group_of.push_back(it->second);
    result.choices.push_back({m});
  }

  const int n = setup.exact ? 1 : options.samples;
  result.requested = n;
  const uint64_t memory_mb = std::max<uint64_t>(limits.max_memory_mb, 1);
  // No solve may spend more than the whole hint may: a limit below the
  // sample cap lowers the cap (the same on any thread count), so the limit
  // is passed by at most one such solve per thread.
  Limits per_solve;
  per_solve.max_nodes = std::min<uint64_t>(options.sample_nodes, std::max<uint64_t>(limits.max_nodes, 1));
  per_solve.max_memory_mb = solve_memory_mb(per_solve.max_nodes, memory_mb);
  const int workers = static_cast<int>(std::min<uint64_t>(
      {static_cast<uint64_t>(options.workers), static_cast<uint64_t>(n),
       std::max<uint64_t>(1, memory_mb / per_solve.max_memory_mb)}));
  result.workers = workers;
  const auto deadline = std::isfinite(limits.max_seconds) && limits.max_seconds < 1e9
                            ? start + std::chrono::duration_cast<Clock::duration>(
                                          std::chrono::duration<double>(limits.max_seconds))
                            : Clock::time_point::max();

  // Samples are handed out in order. Sample i may spend what the samples
  // finished before it (all of lower index) left of the node limit, checked
  // after each solve: a sample the limit admits in order is never cut, so
  // which samples count never depends on the thread count (the limit may be
  // passed by up to one solve's cap per thread).
  std::vector<SampleOutcome> outcomes(n);
  Counted counted(firsts.size());
  std::mutex mutex;
  int next = 0;
  uint64_t finished_nodes = 0;
  StopReason halt = StopReason::kNone;
  std::exception_ptr error;
  auto work = [&] {
    while (true) {
      int i;
      uint64_t allowance;
      {
        std::lock_guard lock(mutex);
        if (halt == StopReason::kNone) {
          if (control && control->stop_requested()) halt = StopReason::kStopped;
          else if (Clock::now() >= deadline) halt = StopReason::kTime;
          else if (finished_nodes > limits.max_nodes) halt = StopReason::kNodes;
        }
        if (halt != StopReason::kNone || error || next >= n) return;
        i = next++;
        allowance = limits.max_nodes - std::min(limits.max_nodes, finished_nodes);
      }
      try {
        const std::vector<Kind> draws = draws_of(setup, options.seed, setup.exact ? 0 : i);
        outcomes[i] = run_sample(deal_spec(setup, draws), firsts, per_solve, allowance, deadline, control);
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!error) error = std::current_exception();
        return;
      }
      std::lock_guard lock(mutex);
      finished_nodes += outcomes[i].nodes;
      if (counted.advance(outcomes, limits.max_nodes) && control && !setup.exact) {
        const auto [lo, hi] = counted.best_interval();
        control->publish_interval(lo, hi);
      }
    }
  };
  if (workers == 1) {
    work();
  } else {
    std::vector<std::thread> threads;
    for (int w = 0; w < workers; ++w) threads.emplace_back(work);
    for (std::thread& t : threads) t.join();
  }
  if (error) std::rethrow_exception(error);

  const int k = static_cast<int>(counted.samples());
  result.samples = k;
  if (k < n) {
    const SampleOutcome& first = outcomes[k];
    result.stopped_by = first.done ? StopReason::kNodes
                        : first.cut != StopReason::kNone ? first.cut
                                                         : halt;
  }
  for (size_t c = 0; c < result.choices.size(); ++c) {
    const size_t g = static_cast<size_t>(group_of[c]);
    HintChoice& choice = result.choices[c];
    choice.wins = counted.wins(g);
    choice.unknown = counted.unknown(g);
    choice.losses = k - choice.wins - choice.unknown;
  }
  for (const SampleOutcome& o : outcomes) {
    result.nodes += o.nodes;
    result.solves += o.solves;
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace sj::wildfire
