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
  spec.rest_unknown = true;
  return spec;
}

struct Share {
  double mean = 0, low = 0, high = 0;
};
// Scores are never negative: a normal interval of few samples is cut at 0.
Share share_of(double sum, double sum_squares, uint64_t n) {
  const auto [low, high] = mean_interval95(sum, sum_squares, n);
  return {n ? sum / static_cast<double>(n) : 0.0, std::max(0.0, low), high};
}

// The fixed policy's move at `s` of `blind` (a game whose keys, the
// admissible bound after each move, do not read the tiles to come, or the
// policy would not be one of the hidden game). Classes, as the search lists
// them: the first move of the best key is the first outcome of the best class.
Move fixed_policy_move(const Game& blind, const State& s, std::vector<Game::MoveClass>& moves,
                       std::vector<Game::MoveKey>& keys) {
  moves.clear();
  bool truncated = false;
  blind.move_classes(s, moves, &truncated);
  blind.move_keys(s, moves, keys);
  size_t best = 0;
  for (size_t i = 1; i < moves.size(); ++i)
    if (keys[i].before(keys[best])) best = i;
  Move chosen = moves[best].move;
  if (moves[best].to_edge >= 0) blind.class_outcomes(s, moves[best], [&](const Move& m) {
    chosen = m;
    return false;
  });
  return chosen;
}

// The policy's game on `budget` (see play_policy), the moves into `line`
// when it is not null; -1 once the budget stops it.
int policy_score(const Game& seen, Budget& budget, std::vector<Move>* line) {
  const Game game = seen.blind_to_rest();
  State s = game.initial();
  std::vector<Game::MoveClass> moves;
  std::vector<Game::MoveKey> keys;
  while (!game.final(s)) {
    if (!budget.spend()) return -1;
    const Move chosen = fixed_policy_move(game, s, moves, keys);
    if (line) line->push_back(chosen);
    s = game.apply(s, chosen);
  }
  return game.score(s);
}

// The lookahead policy's cost a turn: this many orders of the tiles to
// come, each solved with the order known under this many nodes
// (docs/benchmarks.md, "A policy that looks ahead").
constexpr int kLookaheadOrders = 2;
constexpr uint64_t kLookaheadNodes = 5000;

// The lookahead policy's game (see play_policy); its known-order solves'
// nodes go to `inner_nodes`, counted against the same limit.
int lookahead_score(const Game& seen, Budget& budget, Control* control, uint64_t seed, std::vector<Move>* line,
                    uint64_t& inner_nodes) {
  const Game blind = seen.blind_to_rest();
  const Limits& limits = budget.limits();
  Rng rng(seed);
  State s = seen.initial();
  std::vector<Game::MoveClass> moves;
  std::vector<Game::MoveKey> keys;
  std::vector<NewTile> left, rest;  // the tiles to come, sorted; one order of them
  std::vector<std::pair<Move, int>> votes;  // a first move, and the objectives + 1 of the lines starting with it
  while (!seen.final(s)) {
    if (!budget.spend()) return -1;
    PositionSpec spec = seen.to_spec(s);
    // The player knows the tile drawn and which tiles are left, not their
    // order: they are sorted before each shuffle, so that the moves are a
    // function of what the player sees (and the seed) alone.
    left.assign(spec.deal_rest.begin() + 1, spec.deal_rest.end());
    std::sort(left.begin(), left.end(), [](const NewTile& a, const NewTile& b) { return kind_of(a) < kind_of(b); });
    votes.clear();
    for (int k = 0; k < kLookaheadOrders; ++k) {
      rest = left;
      rng.shuffle(rest);
      std::copy(rest.begin(), rest.end(), spec.deal_rest.begin() + 1);
      const uint64_t used = budget.nodes() + inner_nodes;
      if (used >= limits.max_nodes) {
        budget.stop(StopReason::kNodes);
        return -1;
      }
      Limits inner = limits;
      inner.max_nodes = std::min(kLookaheadNodes, limits.max_nodes - used);
      inner.max_seconds = std::max(0.0, limits.max_seconds - budget.seconds());
      inner.max_memory_mb = std::min<uint64_t>(limits.max_memory_mb, 16);
      const Game order(spec);
      const SolveResult r = solve(order, order.initial(), inner, control);
      inner_nodes += r.stats.nodes;
      if (!r.exact && r.stats.stopped_by != StopReason::kNodes) {
        budget.stop(r.stats.stopped_by);
        return -1;
      }
      if (r.line.empty()) continue;
      auto same = std::find_if(votes.begin(), votes.end(), [&](const auto& v) {
        return !canonical_less(v.first, r.line[0]) && !canonical_less(r.line[0], v.first);
      });
      if (same == votes.end()) votes.emplace_back(r.line[0], 0), same = votes.end() - 1;
      same->second += r.lower + 1;
    }
    Move chosen;
    if (votes.empty()) {
      chosen = fixed_policy_move(blind, s, moves, keys);
    } else {
      const auto best = std::max_element(votes.begin(), votes.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second < b.second : canonical_less(b.first, a.first);
      });
      chosen = best->first;
    }
    if (line) line->push_back(chosen);
    s = seen.apply(s, chosen);
  }
  return seen.score(s);
}

// One game's sampled bounds, a deal at a time: the hint advances several
// side by side. Every sampler of one seed draws the same shuffles, so the
// moves of a hint are compared on the same deals.
class Sampler {
 public:
  Sampler(const HiddenGame& game, uint64_t seed, int samples_asked, uint64_t clairvoyant_nodes, bool lookahead)
      : game_(game), rng_(seed) {
    v_.seed = seed;
    v_.lookahead = lookahead;
    v_.samples_asked = samples_asked;
    v_.clairvoyant_nodes = clairvoyant_nodes;
    const HiddenGame::Node& root = game.root();
    for (int k = 0; k < kTileKinds; ++k)
      for (int c = 0; c < root.pool[k]; ++c) pool_.push_back(tile_of_kind(k));
  }

  // Plays one more deal; false, without counting it, once a limit or the
  // control stops the run. `inner_nodes` gathers the known-order solves'
  // nodes (counted by their own budgets) across samplers.
  bool step(Budget& budget, Control* control, uint64_t& inner_nodes) {
    const HiddenGame::Node& root = game_.root();
    const int turns = game_.engine().turns_left(root.state);
    const Limits& limits = budget.limits();
    // The sample's nodes at most: a policy node a turn (and the lookahead's
    // solves) and one solve's quota.
    const uint64_t used = budget.nodes() + inner_nodes;
    const uint64_t policy_nodes =
        static_cast<uint64_t>(turns) * (v_.lookahead ? 1 + kLookaheadOrders * kLookaheadNodes : 1);
    if (used >= limits.max_nodes || limits.max_nodes - used < v_.clairvoyant_nodes + policy_nodes) {
      budget.stop(StopReason::kNodes);
      return false;
    }
    rng_.shuffle(pool_);
    deal_.clear();
    if (root.drawn >= 0) deal_.push_back(tile_of_kind(root.drawn));
    for (const NewTile& t : pool_)
      if (static_cast<int>(deal_.size()) < turns) deal_.push_back(t);
    const Game known = game_.known(deal_);
    // The lookahead's shuffles by the sample's index too: the hint's moves
    // meet the same ones on the same deal.
    const int played = v_.lookahead ? lookahead_score(known, budget, control, mix64(v_.seed ^ mix64(v_.samples + 1)),
                                                      nullptr, inner_nodes)
                                    : policy_score(known, budget, nullptr);
    if (played < 0) return false;
    const double policy = played;
    Limits inner = limits;
    inner.max_nodes = v_.clairvoyant_nodes;
    inner.max_seconds = std::max(0.0, limits.max_seconds - budget.seconds());
    inner.max_memory_mb = std::min<uint64_t>(limits.max_memory_mb, 16);
    // Only its bound is used: no spread for a line.
    const SolveResult best = solve(known, known.initial(), inner, control, true, false);
    inner_nodes += best.stats.nodes;
    if (!best.exact && best.stats.stopped_by != StopReason::kNodes) {
      budget.stop(best.stats.stopped_by);  // time or a stop request: this sample is not counted
      return false;
    }
    const double clairvoyant = (best.exact ? best.lower : best.upper) / 2;
    if (!best.exact) ++v_.clairvoyant_bounded;
    policy_sum_ += policy;
    policy_squares_ += policy * policy;
    clair_sum_ += clairvoyant;
    clair_squares_ += clairvoyant * clairvoyant;
    ++v_.samples;
    return true;
  }

  double policy_mean() const { return v_.samples ? policy_sum_ / v_.samples : 0.0; }
  double clairvoyant_mean() const { return v_.samples ? clair_sum_ / v_.samples : 0.0; }

  SampledValue value() const {
    SampledValue v = v_;
    const Share p = share_of(policy_sum_, policy_squares_, static_cast<uint64_t>(v.samples));
    const Share c = share_of(clair_sum_, clair_squares_, static_cast<uint64_t>(v.samples));
    v.policy_mean = p.mean, v.policy_low = p.low, v.policy_high = p.high;
    v.clairvoyant_mean = c.mean, v.clairvoyant_low = c.low, v.clairvoyant_high = c.high;
    return v;
  }

 private:
  const HiddenGame& game_;
  Rng rng_;
  std::vector<NewTile> pool_, deal_;
  SampledValue v_;
  double policy_sum_ = 0, policy_squares_ = 0, clair_sum_ = 0, clair_squares_ = 0;
};

// Each known-order solve of a sampled deal gets a fixed quota, or its share
// of max_nodes among `solves`.
uint64_t clairvoyant_quota(const Limits& limits, uint64_t solves) {
  return std::max<uint64_t>(1, std::min(kClairvoyantNodes, limits.max_nodes / std::max<uint64_t>(1, solves * 2)));
}

void sample(const HiddenGame& game, Budget& budget, Control* control, uint64_t seed, int samples, bool lookahead,
            HiddenSolveResult& r) {
  Sampler sampler(game, seed, samples, clairvoyant_quota(budget.limits(), static_cast<uint64_t>(samples)), lookahead);
  uint64_t inner_nodes = 0;
  for (int i = 0; i < samples && sampler.step(budget, control, inner_nodes); ++i)
    budget.note_interval(sampler.policy_mean(), sampler.clairvoyant_mean());
  r.sample = sampler.value();
  r.stats.nodes += inner_nodes;
}

// The hint's sampling: the candidates' games advanced a deal each in turn,
// so that a limit leaves them with as many samples as one another.
// Returns the known-order solves' nodes.
uint64_t sample_side_by_side(const std::vector<HiddenGame>& games, Budget& budget, Control* control, uint64_t seed,
                             int samples, bool lookahead, std::vector<SampledValue>& out) {
  const uint64_t quota = clairvoyant_quota(budget.limits(), static_cast<uint64_t>(samples) * games.size());
  std::vector<Sampler> samplers;
  samplers.reserve(games.size());
  for (const HiddenGame& g : games) samplers.emplace_back(g, seed, samples, quota, lookahead);
  uint64_t inner_nodes = 0;
  bool going = !budget.stopped();
  for (int i = 0; i < samples && going; ++i)
    for (Sampler& s : samplers)
      if (!(going = s.step(budget, control, inner_nodes))) break;
  out.clear();
  for (const Sampler& s : samplers) out.push_back(s.value());
  return inner_nodes;
}

}  // namespace

PolicyGame play_policy(const Game& game, const Limits& limits, Control* control, bool lookahead, uint64_t seed) {
  PolicyGame r;
  Budget budget(limits, control, kPollEvery);
  uint64_t inner_nodes = 0;
  r.score = lookahead ? lookahead_score(game, budget, control, seed, &r.line, inner_nodes)
                      : policy_score(game, budget, &r.line);
  r.stats.nodes = budget.nodes() + inner_nodes;
  r.stats.seconds = budget.seconds();
  r.stats.stopped_by = budget.reason();
  if (budget.control()) budget.poll();
  return r;
}

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

HiddenGame HiddenGame::rooted_at(const Node& n) const {
  PositionSpec table = engine_.to_spec(n.state);
  table.deal_rest.clear();
  HiddenSpec hidden;
  for (int k = 0; k < kTileKinds; ++k) hidden.pool.insert(hidden.pool.end(), n.pool[k], tile_of_kind(k));
  hidden.turns_left = engine_.turns_left(n.state);
  if (n.drawn >= 0) {
    hidden.has_drawn = true;
    hidden.drawn = tile_of_kind(n.drawn);
  }
  return HiddenGame(table, hidden);
}

HiddenSolveResult solve_hidden(const HiddenGame& game, const Limits& limits, Control* control, uint64_t seed,
                               int samples, bool sample_only, bool lookahead) {
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
    sample(game, budget, control, seed, samples, lookahead, r);
  }
  r.stats.nodes += budget.nodes();
  r.stats.seconds = budget.seconds();
  r.stats.stopped_by = budget.reason();
  if (!r.exact && !r.sampled && r.stats.stopped_by == StopReason::kNone) r.stats.stopped_by = StopReason::kNodes;
  if (budget.control()) budget.poll();
  return r;
}

namespace {

// What a hint knows of one move or draw, whichever it is.
struct HintItem {
  HiddenGame::Node node;  // the game after it
  bool* exact;
  ExactValue* value;
  SampledValue* sample;
};

// The exact values, each item in turn with its share of the budget; true
// when every one finished.
bool exact_values(ExactExpectimax<HiddenGame>& search, Budget& budget, std::vector<HintItem>& items) {
  bool all = true;
  for (size_t i = 0; i < items.size(); ++i) {
    const Budget::Slice outer = budget.begin_slice(1.0 / static_cast<double>(items.size() - i), UINT64_MAX);
    ExactOutcome outcome = ExactOutcome::kStopped;
    if (!budget.stopped()) *items[i].value = search.value(items[i].node, &outcome);
    *items[i].exact = outcome == ExactOutcome::kExact;
    budget.end_slice(outer);
    all = all && *items[i].exact;
  }
  return all;
}

}  // namespace

HiddenHintResult hint_hidden(const HiddenGame& game, const Limits& limits, Control* control, uint64_t seed,
                             int samples, size_t candidates, bool lookahead) {
  HiddenHintResult r;
  Budget budget(limits, control, kPollEvery);
  const HiddenGame::Node& root = game.root();
  r.pool_size = game.pool_size(root);
  if (game.is_final(root)) {
    r.exact = true;
    r.value = {game.leaf_value(root), 1};
    r.stats.seconds = budget.seconds();
    return r;
  }
  // The items, and the order the policy prefers them in (which are sampled).
  std::vector<HintItem> items;
  std::vector<size_t> preferred;
  if (root.drawn >= 0) {
    std::vector<Child> kids = game.engine().children(root.state);
    r.moves.resize(kids.size());
    std::vector<Move> moves;
    for (size_t i = 0; i < kids.size(); ++i) {
      moves.push_back(kids[i].move);
      r.moves[i].child = std::move(kids[i]);
    }
    std::vector<Game::MoveKey> keys;
    game.engine().move_keys(root.state, moves, keys);
    for (size_t i = 0; i < r.moves.size(); ++i) {
      HiddenChoice& c = r.moves[i];
      items.push_back({game.after(root, c.child.move), &c.exact, &c.value, &c.sample});
      preferred.push_back(i);
    }
    std::stable_sort(preferred.begin(), preferred.end(), [&](size_t a, size_t b) {
      const Game::MoveKey &x = keys[a], &y = keys[b];
      return x.bound != y.bound ? x.bound > y.bound : x.supply != y.supply ? x.supply < y.supply : x.edge > y.edge;
    });
  } else {
    std::vector<HiddenGame::Weighted> draws;
    game.chance_children(root, draws);
    r.draws.resize(draws.size());
    for (size_t i = 0; i < draws.size(); ++i) {
      HiddenDraw& d = r.draws[i];
      d.tile = tile_of_kind(draws[i].state.drawn);
      d.count = static_cast<int>(draws[i].weight);
      items.push_back({draws[i].state, &d.exact, &d.value, &d.sample});
      preferred.push_back(i);
    }
    std::stable_sort(preferred.begin(), preferred.end(),
                     [&](size_t a, size_t b) { return r.draws[a].count > r.draws[b].count; });
  }

  ExactExpectimax<HiddenGame> search(game, budget);
  bool all_exact = false;
  if (game.engine().turns_left(root.state) <= kExactTurns) {
    // Half the budget for the exact values, the rest for sampling if they stop.
    const Budget::Slice outer = budget.begin_slice(0.5, UINT64_MAX);
    all_exact = exact_values(search, budget, items);
    budget.end_slice(outer);
  }
  uint64_t inner_nodes = 0;
  bool memory_cut = false;
  if (!all_exact) {
    // The sampled games are kept side by side: a quarter of the memory limit
    // at most (a full game's turn may have 20,000 moves); past that, the
    // policy's favourites, and the answer says memory stopped it.
    const size_t fits = std::max<size_t>(1, std::max<uint64_t>(1, limits.max_memory_mb) * (uint64_t{1} << 20) / 4 /
                                                sizeof(HiddenGame));
    const size_t wanted = candidates == 0 ? items.size() : candidates;
    std::vector<size_t> chosen;
    for (size_t i : preferred)
      if (!*items[i].exact && chosen.size() < wanted) chosen.push_back(i);
    if (chosen.size() > fits) {
      chosen.resize(fits);
      memory_cut = true;
    }
    std::vector<HiddenGame> games;
    games.reserve(chosen.size());
    for (size_t i : chosen) games.push_back(game.rooted_at(items[i].node));
    std::vector<SampledValue> values;
    inner_nodes = sample_side_by_side(games, budget, control, seed, samples, lookahead, values);
    for (size_t j = 0; j < chosen.size(); ++j) *items[chosen[j]].sample = values[j];
  }

  if (root.drawn >= 0) {
    auto rank = [](const HiddenChoice& c) { return c.exact ? 0 : c.sample.samples > 0 ? 1 : 2; };
    std::stable_sort(r.moves.begin(), r.moves.end(), [&](const HiddenChoice& a, const HiddenChoice& b) {
      if (rank(a) != rank(b)) return rank(a) < rank(b);
      if (rank(a) == 0) return exact_greater(a.value, b.value);
      return rank(a) == 1 && a.sample.policy_mean > b.sample.policy_mean;
    });
    if (all_exact) r.value = r.moves.front().value;
    for (HiddenChoice& c : r.moves) c.value = reduced(c.value);
  } else if (all_exact) {
    // The expected value over the draws; every draw's value shares one
    // denominator (a draw a turn to the end), checked all the same.
    Uint128 numerator = 0, denominator = 0;
    for (const HiddenDraw& d : r.draws) {
      Uint128 part = 0;
      all_exact = all_exact &&
                  (denominator == 0 || denominator == d.value.denominator * static_cast<Uint128>(r.pool_size)) &&
                  !__builtin_mul_overflow(d.value.denominator, static_cast<Uint128>(r.pool_size), &denominator) &&
                  !__builtin_mul_overflow(d.value.numerator, static_cast<Uint128>(d.count), &part) &&
                  !__builtin_add_overflow(numerator, part, &numerator);
    }
    if (all_exact) r.value = reduced({numerator, denominator});
  }
  for (HiddenDraw& d : r.draws) d.value = reduced(d.value);
  r.exact = all_exact;
  r.stats.nodes = budget.nodes() + inner_nodes;
  r.stats.seconds = budget.seconds();
  // Memory first: it decided which moves are sampled at all.
  r.stats.stopped_by = memory_cut ? StopReason::kMemory : budget.reason();
  r.stats.pruned = search.pruned();
  r.stats.max_depth = search.max_depth();
  r.stats.table = search.table_stats();
  if (budget.control()) budget.poll();
  return r;
}

}  // namespace sj::onrun
