#include "games/fire/analysis.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <tuple>

#include "core/error.hpp"
#include "core/rng.hpp"

namespace sj::fire {
namespace {

// The game with one policy's choice at every decision, so that the one
// expectimax also values policies: everything but decision_children is the
// game's own.
struct PolicyGame {
  using Key = Game::Key;
  using State = fire::State;
  using Child = fire::Child;
  const Game& game;

  NodeKind kind(const State& s) const { return game.kind(s); }
  Key key(const State& s) const { return game.key(s); }
  double upper_bound(const State& s) const { return game.upper_bound(s); }
  void chance_children(const State& s, std::vector<Child>& out) const { game.chance_children(s, out); }
};

// Every decision forced to the fixed strategy's move.
struct StrategyGame : PolicyGame {
  void decision_children(const State& s, std::vector<Child>& out) const {
    Child c;
    c.move = strategy_move(game, s);
    c.state = game.apply(s, c.move);
    c.key = game.key(c.state);
    out.push_back(c);
  }
};

// One step of policy improvement over the fixed strategy: at each decision,
// the choice whose result the strategy values highest. Its value is at least
// the strategy's (the policy improvement theorem), and whatever the
// strategy's values are worth within the budget, it is a policy, so its
// value is a proved lower bound on the optimum.
struct ImprovedGame : PolicyGame {
  Expectimax<StrategyGame>& strategy;
  std::vector<Child>& scratch;  // one level deep only: the strategy's search never calls back here

  void decision_children(const State& s, std::vector<Child>& out) const {
    scratch.clear();
    game.decision_children(s, scratch);
    size_t best = 0;
    double best_value = -1;
    for (size_t i = 0; i < scratch.size(); ++i) {
      const double v = strategy.solve(scratch[i].state).lo;
      if (v > best_value) best_value = v, best = i;
    }
    out.push_back(scratch[best]);
  }
};

// The game with fewer choices, for the certain-win question: a shot
// destroys the weakest battery on its weapon and aims for the most hits
// that weapon can score, and no weapon fires for no hit while another
// choice only charges. A win for certain here is one in the game (the
// player may play so); a refutation here says nothing. It is asked first
// because where it wins it is much cheaper (three aliens against the team
// decks: 10.4M nodes against 53.7M).
struct FocusedGame : PolicyGame {
  void decision_children(const State& s, std::vector<Child>& out) const {
    auto gained = [&](const Move& m) {
      return game.hits_from(m.target, s.hits[static_cast<size_t>(m.target)], game.shot_damage(s, m.weapon));
    };
    std::array<int, kMaxWeapons> most{};
    bool charges = false;
    game.for_each_legal_move(s, [&](const Move& m) {
      if (m.give) return;
      if (m.target < 0) charges = true;
      else most[static_cast<size_t>(m.weapon)] = std::max(most[static_cast<size_t>(m.weapon)], gained(m));
    });
    // Kinds are numbered weakest first.
    auto weakest_on = [&](int w) {
      const auto& on = game.weapon_kinds(s, w);
      int k = 0;
      while (on[static_cast<size_t>(k)] == 0 && k != s.revealed) ++k;
      return k;
    };
    // Filtered before the moves are applied: most of them are shots this
    // game leaves out, and applying and keying them was most of its cost.
    game.decision_children_if(s, out, [&](const Move& m) {
      if (m.give || m.target < 0) return true;
      const int hits = gained(m);
      return hits == most[static_cast<size_t>(m.weapon)] && !(hits == 0 && charges) &&
             (m.destroy < 0 || m.destroy == weakest_on(m.weapon));
    });
  }
};

// A team plan that needs no search of the team game: the live aliens are
// shared out and each player destroys its share alone, giving nothing
// more. The decks are separate, so the two players' chances are
// independent and the plan wins with the product of their solo games'
// values; the best split's is a proved lower bound on the team's value (a
// policy's), and where both shares are won for certain, so is the team.
// A partner's shots never spoil a player's line: from more hits the same
// shot reaches at least as far, whatever the strengths, so the player keeps
// to its own game's line (at any live alien once its target is gone).
class SplitPlan {
 public:
  // The two solo games' tables and the lookahead's share `memory_share` of
  // 3/4 of the memory limit.
  SplitPlan(const Game& game, Budget& budget, double memory_share)
      : game_(game),
        budget_(budget),
        looked_(static_cast<uint64_t>(static_cast<double>(budget.limits().max_memory_mb * 1024 * 1024 * 3 / 4) *
                                      memory_share / 3)) {
    for (int p = 0; p < 2; ++p) {
      parts_[static_cast<size_t>(p)] = std::make_unique<Game>(game.part_game(p));
      searches_[static_cast<size_t>(p)] = std::make_unique<Expectimax<Game>>(
          *parts_[static_cast<size_t>(p)], budget, ExpectimaxOptions{}, memory_share / 3);
    }
  }

  struct Split {
    double value = 0;     // each share at the lower end of its interval when the budget ran out first
    bool exact = true;    // every share valued exactly
    uint32_t first = 0;   // player 0's aliens (a bit per alien, game order); player 1 has the other live ones
  };
  // The best split; value 0 when none applies.
  Split best(const State& s) {
    uint32_t live = 0;
    for (int a = 0; a < game_.alien_count(); ++a) live |= static_cast<uint32_t>(s.hits[static_cast<size_t>(a)] < 4) << a;
    Split best;
    for (uint32_t mine = live;; mine = (mine - 1) & live) {
      if (!canonical(s, mine)) continue;  // 0 is canonical, so the loop still ends below
      const Bounds first = share(s, 0, mine);
      best.exact = best.exact && first.exact();
      if (first.lo > best.value) {
        const Bounds second = share(s, 1, live & ~mine);
        best.exact = best.exact && second.exact();
        if (first.lo * second.lo > best.value) best.value = first.lo * second.lo, best.first = mine;
      }
      if (mine == 0 || best.value >= 1) break;
    }
    return best;
  }
  double value(const State& s) { return best(s).value; }

  // The split's value after `plies` more moves and reveals, each move the
  // one whose split is best: a policy too (play so, then split), and never
  // below value(s), since one of the moves is the split's own. Where the
  // budget runs out, the split at that state stands in. `complete` says
  // whether every line of the look ended within `plies` (in a win, a loss,
  // a dead end or a split of 1): then no deeper look can add to it. Until
  // then one may, even after a look that added nothing.
  double lookahead(const State& s, int plies, bool& complete) {
    cut_ = false;
    const double v = lookahead(s, game_.key(s), plies);
    complete = !cut_;
    return v;
  }

 private:
  static constexpr int kComplete = std::numeric_limits<int>::max();  // a stored look no deeper one beats

  // The same, given the state's key (children come with theirs); sets
  // cut_ when a line of the look stopped short.
  double lookahead(const State& s, const Game::Key& key, int plies) {
    switch (game_.kind(s)) {
      case NodeKind::kWin: return 1;
      case NodeKind::kLoss: return 0;
      default: break;
    }
    // A look as deep or deeper is as good (never below a shallower one).
    const Looked* seen = looked_.find(key);
    if (seen && seen->plies >= plies) {
      cut_ = cut_ || seen->plies != kComplete;
      return seen->value;
    }
    if (!seen && game_.upper_bound(s) < 1) return 0;  // a dead end: no line wins
    // A split here is a policy too; where it is 1 nothing deeper can beat it.
    const double here = seen ? seen->split : value(s);
    if (!seen) looked_.store(key, Looked{here, here, here >= 1 ? kComplete : 0}, 1);
    if (here >= 1) return here;
    if (plies == 0 || !budget_.spend()) {
      cut_ = true;
      return here;
    }
    const bool cut_before = cut_;
    cut_ = false;
    std::vector<Child> children;  // not the hot loop: each node here values splits
    double result = 0;
    if (game_.kind(s) == NodeKind::kChance) {
      game_.chance_children(s, children);
      for (const Child& c : children) result += c.probability * lookahead(c.state, c.key, plies - 1);
    } else {
      game_.decision_children(s, children);
      for (size_t i = 0; i < children.size() && result < 1; ++i)
        result = std::max(result, lookahead(children[i].state, children[i].key, plies - 1));
    }
    result = std::max(result, here);  // already so unless the budget cut the look short
    const bool complete = result >= 1 || !cut_;  // a 1 no deeper look can beat
    cut_ = cut_before || !complete;
    if (!budget_.stopped()) looked_.store(key, Looked{here, result, complete ? kComplete : plies}, 1);
    return result;
  }

 public:
  ExpectimaxStats stats() const {
    ExpectimaxStats total = searches_[0]->stats();
    const ExpectimaxStats other = searches_[1]->stats();
    total.table += other.table;
    total.cutoffs += other.cutoffs;
    total.bound_prunes += other.bound_prunes;
    total.max_depth = std::max(total.max_depth, other.max_depth);
    return total;
  }

 private:
  // Aliens with the same strengths and hits are interchangeable, so of the
  // splits that differ only in which of them player 0 takes, only the one
  // taking the first few is valued (five fresh aliens: 6 splits, not 32).
  bool canonical(const State& s, uint32_t mine) const {
    for (int b = 1; b < game_.alien_count(); ++b)
      if (mine >> b & 1)
        for (int a = 0; a < b; ++a)
          if (!(mine >> a & 1) && s.hits[static_cast<size_t>(a)] == s.hits[static_cast<size_t>(b)] &&
              s.hits[static_cast<size_t>(a)] < 4 && game_.same_strengths(a, b))
            return false;
    return true;
  }

  // Player p's chance of destroying the aliens in `aliens` alone.
  Bounds share(const State& s, int p, uint32_t aliens) {
    const std::optional<State> part = game_.part_state(s, p, aliens);
    return part ? searches_[static_cast<size_t>(p)]->solve(*part) : Bounds{0, 0};
  }

  struct Looked {
    double split = 0;  // value() here
    double value = 0;  // the look `plies` deep
    int plies = 0;     // kComplete: every line ended
  };

  const Game& game_;
  Budget& budget_;
  std::array<std::unique_ptr<Game>, 2> parts_;
  std::array<std::unique_ptr<Expectimax<Game>>, 2> searches_;
  BoundedTable<Looked, Game::Key> looked_;
  bool cut_ = false;
};

// Groups the moves at a decision by the state they reach, in move order.
std::vector<Choice> distinct_choices(const Game& game, const State& s, std::vector<State>& states) {
  std::vector<Choice> choices;
  std::vector<Game::Key> keys;
  for (const Move& m : game.legal_moves(s)) {
    const State next = game.apply(s, m);
    const Game::Key k = game.key(next);
    const auto it = std::find(keys.begin(), keys.end(), k);
    if (it != keys.end()) {
      choices[static_cast<size_t>(it - keys.begin())].equivalent.push_back(m);
      continue;
    }
    keys.push_back(k);
    states.push_back(next);
    choices.push_back(Choice{m, {}, {}});
  }
  return choices;
}

Bounds best_of(std::vector<Choice>& choices) {
  std::stable_sort(choices.begin(), choices.end(), [](const Choice& a, const Choice& b) {
    return std::tie(a.value.lo, a.value.hi) > std::tie(b.value.lo, b.value.hi);
  });
  Bounds best{0, 0};
  for (const Choice& c : choices) {
    best.lo = std::max(best.lo, c.value.lo);
    best.hi = std::max(best.hi, c.value.hi);
  }
  return best;
}

// The share of a solve's budget that asks "won for certain?" first: enough
// for the default solo Level 1's proof within 60 s.
constexpr double kCertainShare = 0.75;
// The share (of time and memory) for a team game's first phase: the split
// plan and a short certain-win probe.
constexpr double kSplitShare = 0.45;
// Of that share, the first look's and then the certain-win probe's.
constexpr double kProbeShare = 0.1;
constexpr int kSplitPlies = 400;  // more than any game lasts: time or a complete look ends it

// Raises each lower[i] to the split plan's value at states[i], then to its
// lookahead's, two plies deeper each round, until the budget stops it or
// every look is complete. Every look is a policy's value, even one the
// budget cuts short (the split stands in where it stopped), so each
// lower[i] stays a proved lower bound. Returns which looks were complete:
// those are exact values, since every line of them ended in a win, a loss,
// a dead end (bound 0) or a split of 1, and every choice and reveal on the
// way was looked at.
std::vector<bool> deepen_split(SplitPlan& plan, const Budget& budget, const std::vector<State>& states,
                               std::vector<double>& lower) {
  std::vector<bool> complete(states.size(), false);
  for (int plies = 0; plies <= kSplitPlies && !budget.stopped(); plies += 2) {
    bool any_open = false;
    for (size_t i = 0; i < states.size() && !budget.stopped(); ++i) {
      if (complete[i] || lower[i] >= 1) continue;
      bool ended = false;
      lower[i] = std::max(lower[i], plan.lookahead(states[i], plies, ended));
      complete[i] = ended;
      any_open = any_open || (!ended && lower[i] < 1);
    }
    if (!any_open) break;
  }
  return complete;
}

// Asks `question` about each state whose verdict is still unknown, each on
// a fair part of the budget's slice, in two rounds: the second gives what
// settled states left to the others, which resume from the table.
// Refutations are kept only with `accept_refutations` (a focused one
// proves nothing).
template <class G>
void ask_each(CertainWin<G>& question, Budget& budget, const std::vector<State>& states,
              std::vector<Certain>& verdicts, bool accept_refutations) {
  for (int round = 0; round < 2; ++round) {
    std::vector<size_t> open;
    for (size_t i = 0; i < states.size(); ++i)
      if (verdicts[i] == Certain::kUnknown) open.push_back(i);
    for (size_t k = 0; k < open.size(); ++k) {
      const auto part = budget.begin_slice(1.0 / static_cast<double>(open.size() - k), UINT64_MAX);
      const Certain got = question.prove(states[open[k]]);
      budget.end_slice(part);
      if (got == Certain::kWon || (got == Certain::kNotWon && accept_refutations)) verdicts[open[k]] = got;
    }
  }
}

// Which states are won whatever the reveals, on kCertainShare of the
// budget: first (with `focus`) in the focused game, then in the game itself
// on what that left. The focused search may take the whole share: where it
// cannot settle a state in time, the full one, a larger search of the same
// question, would not either, and a focused refutation is usually quick.
// `stats` receives the last search's, and `decided_by` (when given) which
// one settled the last state. The tables take `memory_share` of the memory.
std::vector<Certain> certain_verdicts(const Game& game, Budget& budget, const std::vector<State>& states,
                                      bool focus, ExpectimaxStats& stats, DecidedBy* decided_by = nullptr,
                                      double memory_share = 1.0) {
  std::vector<Certain> verdicts(states.size(), Certain::kUnknown);
  const auto slice = budget.begin_slice(kCertainShare, UINT64_MAX);
  if (focus) {
    FocusedGame focused{{game}};
    CertainWin<FocusedGame> question(focused, budget, memory_share);
    ask_each(question, budget, states, verdicts, false);
    stats = question.stats();
    if (decided_by) *decided_by = DecidedBy::kFocused;
  }  // each table is freed before the next search
  if (std::find(verdicts.begin(), verdicts.end(), Certain::kUnknown) != verdicts.end()) {
    CertainWin<Game> question(game, budget, memory_share);
    ask_each(question, budget, states, verdicts, true);
    stats = question.stats();
    if (decided_by) *decided_by = DecidedBy::kCertain;
  }
  budget.end_slice(slice);
  return verdicts;
}

// What a team game's first phase proved about each state.
struct TeamStart {
  std::vector<double> lower;    // a policy's value; 1 where won for certain
  std::vector<bool> exact;      // a complete look: lower is the value
  std::vector<Certain> probed;  // the probe's verdicts
  DecidedBy proved_by = DecidedBy::kSplit;  // the probe's search, where it proved one
  ExpectimaxStats split_stats, probe_stats;
};

// A team game's first phase, on kSplitShare of the budget: the split
// plan's lookahead and (with `probe`) the certain-win question, taking
// turns so that whichever settles a state fast does so at once: the
// lookahead on a short slice (where a split is 1 or a look completes
// soon), the question on another (where a proof is small), then the
// lookahead on the rest, resuming from its table.
TeamStart team_start(const Game& game, Budget& budget, const std::vector<State>& states, bool probe, bool focus) {
  TeamStart t;
  t.lower.assign(states.size(), -1.0);
  t.probed.assign(states.size(), Certain::kUnknown);
  const auto slice = budget.begin_slice(kSplitShare, UINT64_MAX);
  SplitPlan plan(game, budget, kSplitShare);
  const auto first = budget.begin_slice(kProbeShare, UINT64_MAX);
  t.exact = deepen_split(plan, budget, states, t.lower);
  budget.end_slice(first);
  std::vector<size_t> open;
  std::vector<State> asked;
  for (size_t i = 0; i < states.size(); ++i)
    if (!t.exact[i] && t.lower[i] < 1) open.push_back(i), asked.push_back(states[i]);
  if (probe && !open.empty() && !budget.stopped()) {
    const auto part = budget.begin_slice(kProbeShare, UINT64_MAX);
    const std::vector<Certain> got =
        certain_verdicts(game, budget, asked, focus, t.probe_stats, &t.proved_by, 1.0 - kSplitShare);
    budget.end_slice(part);
    for (size_t k = 0; k < open.size(); ++k) {
      t.probed[open[k]] = got[k];
      if (got[k] == Certain::kWon) t.lower[open[k]] = 1;
    }
  }
  if (!budget.stopped()) {
    const std::vector<bool> resumed = deepen_split(plan, budget, states, t.lower);
    for (size_t i = 0; i < states.size(); ++i) t.exact[i] = t.exact[i] || resumed[i];
  }
  budget.end_slice(slice);
  t.split_stats = plan.stats();
  return t;
}

}  // namespace

SolveResult solve(const Game& game, const Limits& limits, Control* control, SolveOptions options) {
  Budget budget(limits, control);
  SolveResult r;
  double known_lower = -1.0;
  if (game.team() && options.split) {
    // The split plan is cheap (two solo games), so it comes first: team
    // games with few aliens are won for certain this way, and elsewhere it
    // is a lower bound far above the fixed strategy's.
    const TeamStart start = team_start(game, budget, {game.initial()}, options.ask_certain, options.focus);
    known_lower = start.lower[0];
    r.certain = start.probed[0];
    if (r.certain == Certain::kWon) {
      r.value = {1, 1};
      r.decided_by = start.proved_by;
      r.stats = start.probe_stats;
      return r;
    }
    if (known_lower >= 1 || start.exact[0]) {
      // A value below 1 means some reveals lose against any play.
      r.value = {known_lower, known_lower};
      r.certain = known_lower >= 1 ? Certain::kWon : Certain::kNotWon;
      r.decided_by = DecidedBy::kSplit;
      r.stats = start.split_stats;
      return r;
    }
  }
  if (options.ask_certain && r.certain == Certain::kUnknown) {
    // Is it won whatever the reveals? Cheaper than the value: a decision
    // needs one choice won for certain, and one losing reveal refutes a
    // chance node. The default solo Level 1 is such a game, though no
    // simple policy comes near it, so no upper bound below 1 exists there
    // and only this question closes its interval. Elsewhere a refutation
    // is quick and returns the rest of its slice, so the slice is large.
    r.certain = certain_verdicts(game, budget, {game.initial()}, options.focus, r.stats, &r.decided_by)[0];
    if (r.certain == Certain::kWon) {
      r.value = {1, 1};
      return r;
    }
  }
  r.decided_by = DecidedBy::kExpectimax;
  // The policy pass's tables are small (a fixed policy reaches few states)
  // and freed before the main search.
  constexpr double kPolicyShare = 0.1;
  if (options.search.use_pruning) {
    // A good policy's value, on half of the budget, is a proved lower bound
    // to search above (its lower end, if the slice ran out).
    const auto outer = budget.begin_slice(0.5, UINT64_MAX);
    StrategyGame forced{{game}};
    Expectimax<StrategyGame> strategy(forced, budget, {}, kPolicyShare);
    known_lower = std::max(known_lower, strategy.solve(game.initial()).lo);
    std::vector<Child> scratch;
    ImprovedGame improved{{game}, strategy, scratch};
    Expectimax<ImprovedGame> policy(improved, budget, {}, kPolicyShare);
    known_lower = std::max(known_lower, policy.solve(game.initial()).lo);
    budget.end_slice(outer);
  }
  Expectimax<Game> search(game, budget, options.search);
  search.watch_root();
  r.value = search.solve(game.initial(), known_lower);
  r.stats = search.stats();
  return r;
}

SplitResult split_plan(const Game& game, const Limits& limits, Control* control) {
  if (!game.team()) throw InvalidInput("split: only a team game can be split between players");
  Budget budget(limits, control);
  SplitPlan plan(game, budget, 1.0);
  const SplitPlan::Split best = plan.best(game.initial());
  SplitResult r;
  r.value = best.value;
  r.exact = best.exact;
  for (int a = 0; a < game.alien_count(); ++a)
    if (game.initial().hits[static_cast<size_t>(a)] < 4)
      r.aliens[best.first >> a & 1 ? 0 : 1].push_back(game.alien_input(a));
  for (auto& mine : r.aliens) std::sort(mine.begin(), mine.end());
  r.stats = plan.stats();
  return r;
}

HintResult hint(const Game& game, const Limits& limits, Control* control) {
  Budget budget(limits, control);
  HintResult r;
  const State& root = game.initial();
  std::vector<State> states;
  switch (game.kind(root)) {
    case NodeKind::kWin: r.value = {1, 1}; return r;
    case NodeKind::kLoss: r.value = {0, 0}; return r;
    case NodeKind::kDecision: r.choices = distinct_choices(game, root, states); break;
    case NodeKind::kChance: {
      std::vector<Child> outcomes;
      game.chance_children(root, outcomes);
      // Listed weakest battery first, whatever order the search tries them in.
      std::sort(outcomes.begin(), outcomes.end(), [](const Child& a, const Child& b) { return a.reveal < b.reveal; });
      for (const Child& o : outcomes)
        r.reveals.push_back(RevealChoices{o.reveal, o.probability, {}, distinct_choices(game, o.state, states)});
      break;
    }
  }
  // Proved lower bounds per choice: a team game's split plan and its
  // lookahead first, every choice deepened in turn on one table (where it
  // reaches 1, the choice is won for certain; where it is complete, its
  // value is exact), then the certain-win question for the others, on one
  // table so that their proofs share work.
  std::vector<double> lower(states.size(), -1.0);
  std::vector<bool> exact(states.size(), false);
  std::vector<Certain> probed(states.size(), Certain::kUnknown);
  if (game.team()) {
    TeamStart start = team_start(game, budget, states, true, true);
    lower = std::move(start.lower);
    exact = std::move(start.exact);
    probed = std::move(start.probed);
  }
  const auto settled = [&](size_t i) { return exact[i] || lower[i] >= 1; };
  {
    std::vector<size_t> open;
    std::vector<State> asked;
    for (size_t i = 0; i < states.size(); ++i)
      if (!settled(i) && probed[i] == Certain::kUnknown) open.push_back(i), asked.push_back(states[i]);
    ExpectimaxStats certain_stats;
    const std::vector<Certain> verdicts = certain_verdicts(game, budget, asked, true, certain_stats);
    for (size_t k = 0; k < open.size(); ++k)
      if (verdicts[k] == Certain::kWon) lower[open[k]] = 1;
  }
  // The fixed strategy's value of each other choice, on a slice of the
  // budget: proved lower bounds that keep a hint useful when the exact
  // search cannot finish.
  {
    const auto outer = budget.begin_slice(0.25, UINT64_MAX);
    StrategyGame forced{{game}};
    Expectimax<StrategyGame> strategy(forced, budget, {}, 0.25);
    size_t open = 0;
    for (size_t i = 0; i < states.size(); ++i) open += !settled(i);
    for (size_t i = 0; i < states.size(); ++i) {
      if (settled(i)) continue;
      const auto part = budget.begin_slice(1.0 / static_cast<double>(open--), UINT64_MAX);
      lower[i] = std::max(lower[i], strategy.solve(states[i]).lo);
      budget.end_slice(part);
    }
    budget.end_slice(outer);
  }
  // Settled choices keep their value; the others are searched above their lower bound.
  std::vector<Bounds> known;
  for (size_t i = 0; i < states.size(); ++i) known.push_back({lower[i], settled(i) ? lower[i] : 1.0});
  Expectimax<Game> search(game, budget);
  const std::vector<Bounds> values = search.value_each(states, known);
  size_t next = 0;
  for (Choice& c : r.choices) c.value = values[next++];
  r.value = r.choices.empty() ? Bounds{0, 0} : best_of(r.choices);
  // The reveals' values weighted by their chances and divided by the chances'
  // own sum: a position won (lost) after every reveal is worth exactly 1 (0),
  // as solve says, not 1 - 1e-16 from rounding (which no proved bound allows).
  double chances = 0, lo = 0, hi = 0;
  for (RevealChoices& rc : r.reveals) {
    for (Choice& c : rc.choices) c.value = values[next++];
    rc.value = best_of(rc.choices);
    chances += rc.probability;
    lo += rc.probability * rc.value.lo;
    hi += rc.probability * rc.value.hi;
  }
  if (chances > 0) r.value = {lo / chances, hi / chances};
  r.stats = search.stats();
  return r;
}

Move strategy_move(const Game& game, const State& s) {
  // Every tie is broken by what the choices are, never by input position,
  // so symmetric states get symmetric moves (the table merges them). Reads
  // the state directly: policy evaluation calls this at every decision.
  const Battery& revealed = game.battery(s.revealed);
  auto energy = [&](int w) { return game.weapon_energy(s, w) + revealed.energy; };
  auto shot_hits = [&](const Move& m) {
    const int damage = (energy(m.weapon) - kFireAt) * (game.weapon_crosshairs(s, m.weapon) + revealed.crosshairs);
    return game.hits_from(m.target, s.hits[static_cast<size_t>(m.target)], damage);
  };
  // Larger is better: hits, then the target's damage so far, then the
  // weakest battery destroyed, then the fuller weapon.
  auto fire_rank = [&](const Move& m) {
    return std::make_tuple(shot_hits(m), s.hits[static_cast<size_t>(m.target)], -m.destroy, -m.target,
                           game.weapon_kinds(s, m.weapon));
  };
  auto charge_rank = [&](const Move& m) { return std::make_tuple(energy(m.weapon), game.weapon_kinds(s, m.weapon)); };
  std::optional<Move> hit, charge, any;
  game.for_each_legal_move(s, [&](const Move& m) {
    if (m.give) return;
    if (m.target < 0) {
      if (!charge || charge_rank(m) > charge_rank(*charge)) charge = m;
      return;
    }
    if (shot_hits(m) > 0 && (!hit || fire_rank(m) > fire_rank(*hit))) hit = m;
    if (!any || fire_rank(m) > fire_rank(*any)) any = m;
  });
  // Every weapon would fire for nothing: ranked as shots are.
  return hit ? *hit : charge ? *charge : *any;
}

SolveResult strategy_value(const Game& game, const Limits& limits, Control* control) {
  Budget budget(limits, control);
  StrategyGame forced{{game}};
  Expectimax<StrategyGame> search(forced, budget);
  SolveResult r;
  r.value = search.solve(game.initial());
  r.stats = search.stats();
  return r;
}

Simulation simulate_strategy(const Game& game, uint64_t games, uint64_t seed, const Limits& limits,
                             Control* control) {
  // A game is a node of this budget: it polls the stop flag and the clock
  // every kPollInterval games. Its node limit is the games asked for.
  Limits per_game = limits;
  per_game.max_nodes = games;
  Budget budget(per_game, control);
  Rng rng(seed);
  std::vector<Child> outcomes;
  Simulation sim;
  while (budget.spend()) {
    ++sim.played;
    State s = game.initial();
    for (;;) {
      const NodeKind k = game.kind(s);
      if (k == NodeKind::kWin) ++sim.wins;
      if (k == NodeKind::kWin || k == NodeKind::kLoss) break;
      if (k == NodeKind::kDecision) {
        s = game.apply(s, strategy_move(game, s));
        continue;
      }
      outcomes.clear();
      game.chance_children(s, outcomes);
      // A uniform card: outcome i stands for probability x draw size cards.
      const double cards = static_cast<double>(s.draw_size[s.turn]);
      auto pick = static_cast<double>(rng.below(s.draw_size[s.turn]));
      size_t i = 0;
      while (i + 1 < outcomes.size() && pick >= std::round(outcomes[i].probability * cards))
        pick -= std::round(outcomes[i++].probability * cards);
      s = outcomes[i].state;
    }
  }
  // Every game asked for was played: finished, not stopped by the count.
  sim.stopped_by = budget.reason() == StopReason::kNodes ? StopReason::kNone : budget.reason();
  return sim;
}

}  // namespace sj::fire
