// On the Run! with the tile order hidden: the exact expected score by the
// generic exact expectimax (search/exact_expectimax.hpp), and, where that
// cannot finish, a sampled answer labelled with what it bounds.
#include <algorithm>
#include <cmath>
#include <memory>

#include "core/bits.hpp"
#include "core/error.hpp"
#include "core/interval.hpp"
#include "core/rng.hpp"
#include "games/onrun/onrun.hpp"

namespace sj::onrun {
namespace {

void check_tile(const NewTile& t, const std::string& where) {
  if (t.n < 1 || t.n > 6) throw InvalidInput(where + ".n: " + std::to_string(t.n) + " is not 1..6");
  if (t.spaces < 1 || t.spaces > 3) throw InvalidInput(where + ".spaces: " + std::to_string(t.spaces) + " is not 1..3");
}

int turns_of(const HiddenSpec& h) {
  const int available = static_cast<int>(h.pool.size()) + (h.has_drawn ? 1 : 0);
  if (h.turns_left == -1) return available;
  if (h.turns_left < 0) throw InvalidInput("position.turns_left: " + std::to_string(h.turns_left) + " is negative");
  if (h.turns_left > available)
    throw InvalidInput("position.turns_left: " + std::to_string(h.turns_left) + " is larger than the " +
                       std::to_string(available) + " tiles available (pool" + (h.has_drawn ? " and drawn)" : ")"));
  if (h.turns_left == 0 && h.has_drawn)
    throw InvalidInput("position.turns_left: 0 with a tile drawn (the drawn tile's turn counts)");
  return h.turns_left;
}

// The engine's spec: the table, with placeholder tiles for the turns left
// (the drawn tile first). Validates the hidden fields first.
PositionSpec engine_spec(const PositionSpec& table, const HiddenSpec& h) {
  for (size_t i = 0; i < h.pool.size(); ++i) check_tile(h.pool[i], "position.pool." + std::to_string(i));
  if (h.has_drawn) check_tile(h.drawn, "position.drawn");
  if (!table.deal_rest.empty()) throw InvalidInput("position: both deal_rest and pool given (the order is known or hidden)");
  PositionSpec spec = table;
  const int turns = turns_of(h);
  spec.deal_rest.assign(static_cast<size_t>(turns), NewTile{1, 1});
  if (h.has_drawn) spec.deal_rest[0] = h.drawn;
  return spec;
}

struct Share {
  double mean = 0, low = 0, high = 0;
};
Share share_of(double sum, double sum_squares, uint64_t n) {
  const auto [low, high] = mean_interval95(sum, sum_squares, n);
  return {n ? sum / static_cast<double>(n) : 0.0, low, high};
}

// The sampled policy: on each turn, the move the known-order search tries
// first (highest admissible bound after it, then the emptiest supply, then
// the most pawns at the edge, ties canonical). It reads only the board and
// the tile drawn, never the tiles to come, so its mean score is at most the
// hidden-order value.
int play_policy(const Game& game, Budget& budget, bool* cut) {
  State s = game.initial();
  std::vector<Move> moves;
  std::vector<Game::MoveKey> keys;
  while (!game.final(s)) {
    if (!budget.spend()) {
      *cut = true;
      return 0;
    }
    moves.clear();
    bool truncated = false;
    game.moves(s, moves, &truncated);
    game.move_keys(s, moves, keys);
    size_t best = 0;
    for (size_t i = 1; i < moves.size(); ++i) {
      const Game::MoveKey &a = keys[i], &b = keys[best];
      if (a.bound != b.bound ? a.bound > b.bound : a.supply != b.supply ? a.supply < b.supply : a.edge > b.edge) best = i;
    }
    s = game.apply(s, moves[best]);
  }
  return game.score(s);
}

void sample(const HiddenGame& game, Budget& budget, Control* control, uint64_t seed, int samples,
            HiddenSolveResult& r) {
  SampledValue& v = r.sample;
  v.seed = seed;
  v.samples_asked = samples;
  const HiddenGame::Node& root = game.root();
  const int turns = game.engine().turns_left(root.state);
  std::vector<NewTile> pool;
  for (int k = 0; k < kTileKinds; ++k)
    for (int c = 0; c < root.pool[k]; ++c) pool.push_back(tile_of_kind(k));
  const Limits& limits = budget.limits();
  // Each known-order solve gets a fixed quota, or its share of max_nodes.
  const uint64_t share = limits.max_nodes / static_cast<uint64_t>(std::max(1, samples) * 2);
  v.clairvoyant_nodes = std::max<uint64_t>(1, std::min(kClairvoyantNodes, share));
  Rng rng(seed);
  double policy_sum = 0, policy_squares = 0, clair_sum = 0, clair_squares = 0;
  uint64_t inner_nodes = 0;
  std::vector<NewTile> deal;
  for (int i = 0; i < samples; ++i) {
    rng.shuffle(pool);
    deal.clear();
    if (root.drawn >= 0) deal.push_back(tile_of_kind(root.drawn));
    for (const NewTile& t : pool)
      if (static_cast<int>(deal.size()) < turns) deal.push_back(t);
    // The sample's nodes at most: a policy node a turn and one solve's quota.
    const uint64_t used = budget.nodes() + inner_nodes;
    if (used >= limits.max_nodes || limits.max_nodes - used < v.clairvoyant_nodes + static_cast<uint64_t>(turns)) {
      budget.stop(StopReason::kNodes);
      break;
    }
    const Game known = game.known(deal);
    bool cut = false;
    const double policy = play_policy(known, budget, &cut);
    if (cut) break;
    Limits inner = limits;
    inner.max_nodes = v.clairvoyant_nodes;
    inner.max_seconds = std::max(0.0, limits.max_seconds - budget.seconds());
    inner.max_memory_mb = std::min<uint64_t>(limits.max_memory_mb, 16);
    const SolveResult best = solve(known, known.initial(), inner, control, true);
    inner_nodes += best.stats.nodes;
    if (!best.exact && best.stats.stopped_by != StopReason::kNodes) {
      budget.stop(best.stats.stopped_by);  // time or a stop request: this sample is not counted
      break;
    }
    const double clairvoyant = (best.exact ? best.lower : best.upper) / 2;
    if (!best.exact) ++v.clairvoyant_bounded;
    policy_sum += policy;
    policy_squares += policy * policy;
    clair_sum += clairvoyant;
    clair_squares += clairvoyant * clairvoyant;
    ++v.samples;
    budget.note_interval(policy_sum / v.samples, clair_sum / v.samples);
  }
  const Share p = share_of(policy_sum, policy_squares, static_cast<uint64_t>(v.samples));
  const Share c = share_of(clair_sum, clair_squares, static_cast<uint64_t>(v.samples));
  v.policy_mean = p.mean, v.policy_low = p.low, v.policy_high = p.high;
  v.clairvoyant_mean = c.mean, v.clairvoyant_low = c.low, v.clairvoyant_high = c.high;
  r.stats.nodes += inner_nodes;
}


}  // namespace

HiddenGame::HiddenGame(const PositionSpec& table, const HiddenSpec& hidden)
    : table_(table), engine_(engine_spec(table, hidden)) {
  root_.state = engine_.initial();
  for (const NewTile& t : hidden.pool) ++root_.pool[kind_of(t)];
  if (hidden.has_drawn) root_.drawn = static_cast<int8_t>(kind_of(hidden.drawn));
  if (is_final(root_)) root_.drawn = -1;
}

int HiddenGame::pool_size(const Node& n) const {
  int total = 0;
  for (uint8_t c : n.pool) total += c;
  return total;
}

uint64_t HiddenGame::key(const Node& n) const {
  // The tiles placed already fix the pool of a search's node; it is hashed
  // anyway so that a key never depends on where the search started.
  uint64_t packed[3] = {0, 0, 0};
  for (int k = 0; k < kTileKinds; ++k) packed[k / 8] |= uint64_t{n.pool[k]} << (8 * (k % 8));
  return engine_.key(n.state) ^ zobrist(11, packed[0], packed[1]) ^ zobrist(12, packed[2], static_cast<uint64_t>(n.drawn + 1));
}

void HiddenGame::chance_children(const Node& n, std::vector<Weighted>& out) const {
  for (int k = 0; k < kTileKinds; ++k)
    if (n.pool[k] > 0) {
      Weighted w{n, n.pool[k]};
      --w.state.pool[k];
      w.state.drawn = static_cast<int8_t>(k);
      out.push_back(w);
    }
}

void HiddenGame::decision_children(const Node& n, std::vector<Node>& out) const {
  std::vector<Move> moves;
  engine_.moves_with(n.state, tile_of_kind(n.drawn), moves, nullptr);
  std::vector<uint64_t> seen;
  seen.reserve(moves.size());
  for (const Move& m : moves) {
    Node child = after(n, m);
    const uint64_t k = engine_.key(child.state);
    if (std::find(seen.begin(), seen.end(), k) != seen.end()) continue;  // the same state by another move
    seen.push_back(k);
    out.push_back(child);
  }
}

HiddenGame::Node HiddenGame::after(const Node& n, const Move& move) const {
  Node child = n;
  child.state = engine_.apply_with(n.state, tile_of_kind(n.drawn), move);
  child.drawn = -1;
  return child;
}

Game HiddenGame::known(const std::vector<NewTile>& deal) const {
  PositionSpec spec = table_;
  spec.deal_rest = deal;
  return Game(spec);
}

HiddenSolveResult solve_hidden(const HiddenGame& game, const Limits& limits, Control* control, uint64_t seed,
                               int samples, bool sample_only) {
  HiddenSolveResult r;
  Budget budget(limits, control, kPollEvery);
  const bool small = game.engine().turns_left(game.root().state) <= kExactTurns;
  ExactOutcome outcome = ExactOutcome::kStopped;
  if (small && !sample_only) {
    // Half the budget for the exact search, the rest for sampling if it stops.
    const Budget::Slice outer = budget.begin_slice(0.5, UINT64_MAX);
    ExactExpectimax<HiddenGame> search(game, budget);
    r.value = reduced(search.value(game.root(), &outcome));
    r.stats.pruned = search.pruned();
    r.stats.max_depth = search.max_depth();
    r.stats.table = search.table_stats();
    budget.end_slice(outer);
  }
  r.exact = outcome == ExactOutcome::kExact;
  if (!r.exact) {
    r.why_not = sample_only ? "asked" : !small ? "large" : outcome == ExactOutcome::kOverflow ? "overflow" : "limit";
    r.sampled = true;
    sample(game, budget, control, seed, samples, r);
  }
  r.stats.nodes += budget.nodes();
  r.stats.seconds = budget.seconds();
  r.stats.stopped_by = budget.reason();
  if (!r.exact && !r.sampled && r.stats.stopped_by == StopReason::kNone) r.stats.stopped_by = StopReason::kNodes;
  if (budget.control()) budget.poll();
  return r;
}

HiddenHintResult hint_hidden(const HiddenGame& game, const Limits& limits, Control* control) {
  HiddenHintResult r;
  Budget budget(limits, control, kPollEvery);
  const HiddenGame::Node& root = game.root();
  r.pool_size = game.pool_size(root);
  ExactExpectimax<HiddenGame> search(game, budget);
  ExactOutcome outcome = ExactOutcome::kExact;
  bool all_exact = true;
  if (root.drawn >= 0) {
    std::vector<Child> kids = game.engine().children(root.state);
    for (size_t i = 0; i < kids.size(); ++i) {
      HiddenChoice c;
      c.child = std::move(kids[i]);
      const Budget::Slice outer = budget.begin_slice(1.0 / static_cast<double>(kids.size() - i), UINT64_MAX);
      if (!budget.stopped()) {
        c.value = search.value(game.after(root, c.child.move), &outcome);
        c.exact = outcome == ExactOutcome::kExact;
      }
      budget.end_slice(outer);
      all_exact = all_exact && c.exact;
      r.moves.push_back(std::move(c));
    }
    std::stable_sort(r.moves.begin(), r.moves.end(), [](const HiddenChoice& a, const HiddenChoice& b) {
      if (a.exact != b.exact) return a.exact;
      return a.exact && exact_greater(a.value, b.value);
    });
    if (all_exact && !r.moves.empty()) r.value = r.moves.front().value;
  } else if (!game.is_final(root)) {
    std::vector<HiddenGame::Weighted> draws;
    game.chance_children(root, draws);
    Uint128 numerator = 0, denominator = 0;
    for (size_t i = 0; i < draws.size(); ++i) {
      HiddenDraw d;
      d.tile = tile_of_kind(draws[i].state.drawn);
      d.count = static_cast<int>(draws[i].weight);
      const Budget::Slice outer = budget.begin_slice(1.0 / static_cast<double>(draws.size() - i), UINT64_MAX);
      if (!budget.stopped()) {
        d.value = search.value(draws[i].state, &outcome);
        d.exact = outcome == ExactOutcome::kExact;
      }
      budget.end_slice(outer);
      all_exact = all_exact && d.exact;
      if (all_exact) {
        // Every draw's value shares one denominator (a draw a turn to the
        // end); the sum is checked all the same.
        Uint128 part = 0;
        const bool fits = (denominator == 0 || denominator == d.value.denominator * static_cast<Uint128>(r.pool_size)) &&
                          !__builtin_mul_overflow(d.value.denominator, static_cast<Uint128>(r.pool_size), &denominator) &&
                          !__builtin_mul_overflow(d.value.numerator, static_cast<Uint128>(d.count), &part) &&
                          !__builtin_add_overflow(numerator, part, &numerator);
        all_exact = fits;
      }
      d.value = reduced(d.value);
      r.draws.push_back(d);
    }
    if (all_exact) r.value = reduced({numerator, denominator});
  } else {
    r.value = {game.leaf_value(root), 1};
  }
  for (HiddenChoice& c : r.moves) c.value = reduced(c.value);
  r.exact = all_exact;
  r.stats.nodes = budget.nodes();
  r.stats.seconds = budget.seconds();
  r.stats.stopped_by = budget.reason();
  if (!all_exact && r.stats.stopped_by == StopReason::kNone) r.stats.stopped_by = StopReason::kNodes;
  r.stats.pruned = search.pruned();
  r.stats.max_depth = search.max_depth();
  r.stats.table = search.table_stats();
  if (budget.control()) budget.poll();
  return r;
}

}  // namespace sj::onrun
