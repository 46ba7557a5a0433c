// Tails on Fire: the open-hand hunt value (backward induction for any
// number of players, the hidden Rogue deck as chance) and the 3-card choice.
//
// The search is max-n with chance nodes: a value is a vector (every seat's
// flames), so the single-value expectimax of cpp/search/ does not apply;
// it uses the house's bounded table, Budget and Control.
#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "games/tails/tails.hpp"

namespace sj::tails {

Solver::Solver(const Hunt& hunt, Budget& budget, uint64_t table_bytes)
    : hunt_(hunt), budget_(budget), table_(table_bytes) {}

Value Solver::value(const State& from) {
  // A turn with one way on is no decision: taken at once, without a node or
  // a table entry (most turns of a hunt are passes a seat cannot avoid).
  // The chain ends: at a win within a round of turns once a card is down,
  // at the laps' end at the latest before.
  State s = from;
  while (s.over == Over::kNo && hunt_.forced(s)) s = s.turn == kRogue ? hunt_.rogue_step(s, 0) : hunt_.apply(s, 0);
  if (s.over != Over::kNo) return hunt_.terminal(s);
  if (!budget_.spend()) return {};
  const Key128 k = hunt_.key(s);
  if (const Value* v = table_.find(k)) return *v;
  const uint64_t before = budget_.nodes();
  Value out;
  if (s.turn == kRogue) {  // not forced: a draw from a hidden deck
    const int count = s.deck_n;
    for (int i = 0; i < count; ++i) {
      const Value c = value(hunt_.rogue_step(s, i));
      if (budget_.stopped()) return {};
      for (int j = 0; j < kMaxPlayers; ++j) out.flames[j] += c.flames[j];
      for (int j = 0; j < 8; ++j) out.win[j] += c.win[j];
    }
    // Exact: a value at a deck of k cards is a multiple of 9!/(k-1)!... over 9!.
    for (int j = 0; j < kMaxPlayers; ++j) out.flames[j] /= count;
    for (int j = 0; j < 8; ++j) out.win[j] /= count;
  } else {
    Move moves[3];
    const int count = hunt_.moves(s, moves);
    const int q = s.turn;
    // The spec's tie rule takes the canonically first of the best moves.
    // Where the seat's best end is one end, its plays go before its pass:
    // the first move to reach that end has its value, as would a pass that
    // ties with it. Past the most the seat can get, no move is better.
    int order[3] = {0, 1, 2};
    if (hunt_.one_end_at_most(q)) std::rotate(order, order + 1, order + count);
    int chosen = -1;
    for (int tried = 0; tried < count; ++tried) {
      const int i = order[tried];
      const Value c = value(hunt_.apply(s, moves[i]));
      if (budget_.stopped()) return {};
      if (chosen < 0 || c.flames[q] > out.flames[q] || (c.flames[q] == out.flames[q] && i < chosen)) {
        out = c;
        chosen = i;
      }
      if (out.flames[q] == hunt_.most_flames(q)) break;
    }
  }
  table_.store(k, out, budget_.nodes() - before);
  return out;
}

HuntAnswer Solver::answer(const State& root) {
  HuntAnswer a;
  a.value = value(root);
  if (!budget_.stopped()) {
    for (Move m : hunt_.moves(root)) {
      const Value c = value(hunt_.apply(root, m));
      if (budget_.stopped()) break;
      a.moves.push_back({m, c});
      if (a.best < 0 || c.flames[root.turn] > a.moves[a.best].value.flames[root.turn])
        a.best = static_cast<int>(a.moves.size()) - 1;
    }
  }
  if (budget_.stopped()) {
    a.moves.clear();
    for (Move m : hunt_.moves(root)) a.moves.push_back({m, {}});
    a.best = -1;
    return a;
  }
  a.exact = true;
  // The equilibrium line, while no chance node is met.
  State s = root;
  a.has_line = true;
  while (s.over == Over::kNo) {
    if (s.turn == kRogue) {
      if (hunt_.rogue_chance(s)) {
        a.has_line = false;
        break;
      }
      s = hunt_.rogue_step(s, 0);  // no choice, no chance: a replay runs it again
      continue;
    }
    Move best = 0;
    Value bv;
    bool any = false;
    for (Move m : hunt_.moves(s)) {
      const Value c = value(hunt_.apply(s, m));
      if (!any || c.flames[s.turn] > bv.flames[s.turn]) {
        bv = c;
        best = m;
      }
      any = true;
    }
    if (budget_.stopped()) {  // a line that needed a new search past the limit
      a.has_line = false;
      break;
    }
    a.line.push_back(best);
    s = hunt_.apply(s, best);
  }
  if (!a.has_line) a.line.clear();
  return a;
}

namespace {
uint64_t table_bytes(const Limits& limits) { return limits.max_memory_mb * (1ull << 20) / 4 * 3; }

// What a search spent, read once it is over.
SolveStats spent(Budget& budget, const Solver& solver, StopReason stopped_by) {
  budget.poll();
  SolveStats stats;
  stats.nodes = budget.nodes();
  stats.seconds = budget.seconds();
  stats.stopped_by = stopped_by != StopReason::kNone ? stopped_by : budget.reason();
  stats.table = solver.table_stats();
  return stats;
}

// Tables used one after another: their counts add up, their size is the
// largest one's.
void add_sample_table(TableStats& total, const TableStats& t) {
  total.hits += t.hits;
  total.stores += t.stores;
  total.used += t.used;
  total.capacity = std::max(total.capacity, t.capacity);
  total.bytes = std::max(total.bytes, t.bytes);
}
}  // namespace

HuntAnswer solve_hunt(const Position& p, const Limits& limits, Control* control) {
  const Hunt hunt(p);
  Budget budget(limits, control);
  Solver solver(hunt, budget, table_bytes(limits));
  // The Rogue's turns with no chance in them come first, as in a replay.
  HuntAnswer a = solver.answer(settle(hunt, hunt.initial(), nullptr, nullptr));
  a.stats = spent(budget, solver, StopReason::kNone);
  return a;
}

namespace {

bool cards_less(const std::vector<int>& a, const std::vector<int>& b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
}

uint16_t bits_of(const std::vector<int>& cards) {
  uint16_t b = 0;
  for (int c : cards) b = static_cast<uint16_t>(b | (1u << c));
  return b;
}

// A sampled choice's running sums.
struct Tally {
  double total = 0;
  uint64_t n = 0;
};

// A sampled choice's mean with Hoeffding's 95% interval from the range of
// the hero's flames after the round: it holds for any number of samples
// (a normal interval on a few samples, all alike, would claim a width of
// zero).
ChoiceValue sampled_value(const Tally& t, double low, double high) {
  ChoiceValue v;
  v.samples = t.n;
  v.mean = t.total / static_cast<double>(t.n);
  const double half = (high - low) * std::sqrt(std::log(2 / 0.05) / (2 * static_cast<double>(t.n)));
  v.lo = std::max(low, v.mean - half);
  v.hi = std::min(high, v.mean + half);
  return v;
}

}  // namespace

ChoiceAnswer choose(const Position& p0, uint64_t max_profiles, uint64_t samples, uint64_t seed,
                    const Limits& limits, Control* control, bool draw_rogue_order) {
  validate(p0);
  if (!p0.choose) throw InvalidInput("position.phase: a choose position is needed here");
  Position p = p0;
  // The Rogue's deck is shuffled and hidden at every choice, unless its
  // order is drawn per sample.
  const bool drawn = draw_rogue_order && p.rogue.present;
  p.rogue.known = drawn;
  p.rogue.reserve.clear();
  const int n = static_cast<int>(p.players.size());
  const int hero = p.hero;
  std::vector<std::vector<std::vector<int>>> options(n);
  for (int i = 0; i < n; ++i) options[i] = choices_of(p.players[i].hand);
  uint64_t profiles = 1;
  bool overflow = false;
  for (int i = 0; i < n; ++i) {
    if (i == hero) continue;
    if (profiles > (1ull << 40)) overflow = true;
    else profiles *= options[i].size();
  }
  const size_t count = options[hero].size();
  ChoiceAnswer out;
  out.exact = !drawn && !overflow && profiles <= max_profiles;
  out.sampled_by = out.exact ? SampledBy::kNone : drawn ? SampledBy::kRogueOrder : SampledBy::kProfiles;
  out.profiles = overflow ? 0 : profiles;
  std::vector<std::vector<int>> chosen(n);
  for (int i = 0; i < n; ++i) chosen[i] = options[i][0];
  const Hunt hunt(hunt_from_choice(p, chosen));
  Budget budget(limits, control);
  auto solver = std::make_unique<Solver>(hunt, budget, table_bytes(limits));
  State s = hunt.initial();
  std::vector<ChoiceValue> values(count);
  for (size_t c = 0; c < count; ++c) values[c].cards = options[hero][c];

  // The limit that made the answer a sample: it is named as what stopped the
  // search even when the samples then finish, since a time limit's verdict
  // depends on the machine's speed (so the answer is not one to compare).
  StopReason forced_by = StopReason::kNone;
  TableStats replaced;  // with a Rogue order drawn per sample: the tables used before the last
  if (out.exact) {
    // One hunt first, to price the enumeration: choices x profiles hunts
    // like it. When that would pass the node or time limit, sample instead,
    // so that every choice gets a value (with an interval) within the limit.
    s.hand[hero] = bits_of(options[hero][0]);
    for (int i = 0; i < n; ++i)
      if (i != hero) s.hand[i] = bits_of(options[i][0]);
    solver->value(s);
    const double hunts = static_cast<double>(count) * static_cast<double>(profiles);
    forced_by = budget.stopped() ? budget.reason()
                : static_cast<double>(budget.nodes()) * hunts > static_cast<double>(limits.max_nodes)
                    ? StopReason::kNodes
                : budget.seconds() * hunts > limits.max_seconds ? StopReason::kTime
                                                                : StopReason::kNone;
    if (forced_by != StopReason::kNone) {
      out.exact = false;
      out.sampled_by = SampledBy::kLimit;
    }
  }
  // The best choice's expected flames lie within the flames the hero can
  // have after the round: the live interval starts there and narrows.
  double low = 0, high = 0;
  hunt.flames_range(hero, &low, &high);
  double best_done = low;
  if (out.exact) {
    for (size_t c = 0; c < count && !budget.stopped(); ++c) {
      ChoiceValue& cv = values[c];
      s.hand[hero] = bits_of(cv.cards);
      std::vector<size_t> index(n, 0);
      int64_t sum = 0;
      uint64_t k = 0;
      for (; k < profiles; ++k) {
        for (int i = 0; i < n; ++i)
          if (i != hero) s.hand[i] = bits_of(options[i][index[i]]);
        const Value v = solver->value(s);
        if (budget.stopped()) break;
        sum += v.flames[hero];
        for (int i = 0; i < n; ++i) {  // the next profile, mixed radix
          if (i == hero) continue;
          if (++index[i] < options[i].size()) break;
          index[i] = 0;
        }
      }
      if (k < profiles) break;
      cv.done = true;
      const int64_t den = kDen * static_cast<int64_t>(profiles);
      const int64_t g = std::gcd(sum, den);
      cv.num = sum / g;
      cv.den = den / g;
      cv.mean = static_cast<double>(sum) / static_cast<double>(den);
      cv.lo = cv.hi = cv.mean;
      cv.samples = profiles;
      best_done = std::max(best_done, cv.mean);
      budget.note_interval(best_done, c + 1 < count ? high : best_done);
    }
  } else {
    // Sample k draws one opponents' profile from the seeded stream and
    // values every choice against it (common draws: the choices' means
    // differ by the choices, not by luck), so a limit leaves every choice
    // with k or k+1 samples, and the same seed gives the same answer.
    std::vector<Tally> tally(count);
    Rng rng(seed);
    for (uint64_t k = 0; k < samples && !budget.stopped(); ++k) {
      for (int i = 0; i < n; ++i)
        if (i != hero) s.hand[i] = bits_of(options[i][rng.below(options[i].size())]);
      if (drawn) {
        std::vector<uint8_t> deck(s.deck, s.deck + s.deck_n);
        rng.shuffle(deck);
        std::copy(deck.begin(), deck.end(), s.deck);
        // The key holds the deck as a set, one order's values a table (the
        // first sample's is the fresh one made above).
        if (k > 0) {
          add_sample_table(replaced, solver->table_stats());
          solver.reset();  // freed before the next is made: one table's memory at a time
          solver = std::make_unique<Solver>(hunt, budget, table_bytes(limits));
        }
      }
      for (size_t c = 0; c < count; ++c) {
        s.hand[hero] = bits_of(values[c].cards);
        const Value v = solver->value(s);
        if (budget.stopped()) break;
        tally[c].total += static_cast<double>(v.flames[hero]) / static_cast<double>(kDen);
        ++tally[c].n;
      }
      // Live: the interval of the choice that leads so far.
      auto mean = [&](size_t c) { return tally[c].total / static_cast<double>(tally[c].n); };
      size_t lead = count;
      for (size_t c = 0; c < count; ++c)
        if (tally[c].n && (lead == count || mean(c) > mean(lead))) lead = c;
      if (lead < count) {
        const ChoiceValue v = sampled_value(tally[lead], low, high);
        budget.note_interval(v.lo, v.hi);
      }
    }
    for (size_t c = 0; c < count; ++c) {
      if (tally[c].n == 0) continue;
      const ChoiceValue v = sampled_value(tally[c], low, high);
      ChoiceValue& cv = values[c];
      cv.done = true;
      cv.samples = v.samples;
      cv.mean = v.mean;
      cv.lo = v.lo;
      cv.hi = v.hi;
    }
  }
  out.choices = std::move(values);
  // Best first; choices a limit left without a value last.
  const bool exact = out.exact;
  std::stable_sort(out.choices.begin(), out.choices.end(), [exact](const ChoiceValue& a, const ChoiceValue& b) {
    if (a.done != b.done) return a.done;
    if (a.done) {
      if (exact) {
        const uint128 l = static_cast<uint128>(a.num) * static_cast<uint128>(b.den),
                      r = static_cast<uint128>(b.num) * static_cast<uint128>(a.den);
        if (l != r) return l > r;
      } else if (a.mean != b.mean) {
        return a.mean > b.mean;
      }
    }
    return cards_less(a.cards, b.cards);
  });
  out.stats = spent(budget, *solver, forced_by);
  add_sample_table(out.stats.table, replaced);
  return out;
}

}  // namespace sj::tails
