#include "games/firetower/search.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <unordered_map>

#include "core/bits.hpp"
#include "core/error.hpp"
#include "games/firetower/io.hpp"

namespace sj::firetower {

namespace {

constexpr double kWon = 1e6;
// A won game's score: the unburned squares of the player's 3x3 tower area.
constexpr double kMaxScore = 9.0;

// The search's costs (fire_distances, search_h), chosen by whole games of
// greedy by search_h on seeds 5000+ (docs/architecture.md): a hawk 3
// against 1, 2, 4 or 5, a firebreak 4 against 2, 3, 5 or 6, an unused Bucket
// 2 against 0, 1, 3, 4, 7 or 12.
constexpr int kHawkCost = 3;
constexpr int kFirebreakCost = 4;
constexpr int kUnusedBucketCost = 2;

// The Manhattan distance from tower t's back corner to the nearest
// burning square; 99 when nothing burns.
int least_distance(const Bits& burning, const Regions& reg, int t) {
  for (int d = 0; d < kCornerRings; ++d)
    if ((burning & reg.ring[t][d]).any()) return d;
  return 99;
}

// Section 14's h with the distance to each back corner given (tower ->
// distance, read only for unburned enemies and NW), and `unused_bucket`
// more for each unburned enemy whose Bucket is unused.
template <class Distance>
double h_of(const State& s, Distance&& distance, int unused_bucket) {
  if (s.status == Status::kWin) return kWon;
  if (s.status == Status::kLoss) return -kWon;
  double h = 0;
  for (int t = kNE; t <= kSE; ++t) {
    if (s.burned >> t & 1) h += 1000;
    else h -= distance(t) + ((s.enemy_buckets_used >> t & 1) ? 0 : unused_bucket);
  }
  return h + 4.0 * distance(kNW) - 2.0 * (s.gems & regions().area[kNW]).count();
}

// A position still in play, as the tree steers by it: search_h mapped
// onto [0, 1) in the same order (a burned tower outweighs any distance, as
// its 1000 does; a win is 1, a loss 0). The rest of h, within a few dozen
// either side of 0, goes through a logistic of scale 20.
double steer_value(const State& s) {
  const double h = search_h(s);
  const double burned = std::floor((h + 500) / 1000);
  const double rest = h - 1000 * burned;
  return std::clamp((burned + 0.999 / (1 + std::exp(-rest / 20))) / 4, 0.0, 1.0);
}

// A position's identity for merging moves and caching: every field that
// the rules read (padding never enters it).
uint64_t state_key(const State& s) {
  uint64_t h = 0x51ED270B27F1A3C5ull;
  auto mix = [&](uint64_t x) { h = mix64(h ^ (x + 0x9E3779B97F4A7C15ull + (h << 6))); };
  for (const Bits* b : {&s.gems, &s.breaks, &s.hawks, &s.pending})
    for (uint64_t w : b->w) mix(w);
  for (const auto* a : {&s.hand, &s.draw, &s.discard, &s.aside, &s.inferno})
    for (size_t i = 0; i < a->size(); i += 8) {
      uint64_t w = 0;
      for (size_t j = 0; j < 8; ++j) w |= uint64_t{(*a)[i + j]} << (8 * j);
      mix(w);
    }
  for (int i = 0; i < s.known; ++i) mix(s.order[static_cast<size_t>(i)]);
  for (int i = 0; i < s.inferno_known; ++i) mix(s.inferno_order[static_cast<size_t>(i)] + 1000u);
  for (int i = 0; i < s.inferno_discards; ++i) mix(s.inferno_discard[static_cast<size_t>(i)] + 2000u);
  mix(uint64_t{s.revealed} | uint64_t{s.penalty} << 8 | uint64_t{s.round_ends} << 9 | uint64_t{s.draw_ordered} << 10 |
      uint64_t{s.inferno_ordered} << 11 | uint64_t{s.wind} << 16 |
      uint64_t{s.burned} << 24 | uint64_t{s.player_bucket} << 32 | uint64_t{s.enemy_buckets_used} << 40 |
      uint64_t{s.bucket_taken} << 48 | uint64_t{s.heavy_winds_back} << 49 | uint64_t{s.lookout_back} << 50 |
      uint64_t{static_cast<uint8_t>(s.status)} << 56);
  mix(uint64_t{s.turn} | uint64_t{s.round} << 16 | uint64_t{s.steps_open} << 32 | uint64_t{s.storms_waiting} << 40 |
      uint64_t{s.storm_dir} << 48 | uint64_t{static_cast<uint8_t>(s.need)} << 56);
  mix(uint64_t{s.level} | uint64_t{s.hand_base} << 8 | uint64_t{s.turn_limit} << 16 |
      uint64_t{s.order_known_option} << 32);
  for (int i = 0; i < s.depth; ++i) {
    const Frame& f = s.stack[static_cast<size_t>(i)];
    mix(uint64_t{static_cast<uint8_t>(f.task)} | uint64_t{f.stage} << 8 | uint64_t{f.a} << 16 | uint64_t{f.b} << 24);
  }
  return h;
}

// The member of a hawk family whose JSON comes first in the canonical
// order (section 12): per list, element by element, the square whose text
// is least among those that still leave room for the rest. A square's
// text ends with ']', which no other character of it is, so the first
// element that differs decides.
Move canonical_first(const HawkFamily& f, const Rules& rules) {
  auto least = [](const uint8_t* from, int n, int k, uint8_t* out) {
    int next = 0;
    for (int i = 0; i < k; ++i) {
      int best = -1;
      for (int j = next; j <= n - (k - i); ++j)
        if (best < 0 || square_json(from[j]) < square_json(from[best])) best = j;
      out[i] = from[best];
      next = best + 1;
    }
  };
  Move best_move = f.base;
  std::string best_text;
  for (int take = 0; take <= f.max_take; ++take) {
    const int size = f.own + f.placed + take;
    if (f.placed + take == 0 || size > f.ncells || take > f.nenemies) continue;
    Move m = f.base;
    m.nsq = static_cast<uint8_t>(size);
    m.ntake = static_cast<uint8_t>(take);
    least(f.cells.data(), f.ncells, size, m.sq.data());
    least(f.enemies.data(), f.nenemies, take, m.sq.data() + size);
    const std::string text = move_json(m, rules);
    if (best_text.empty() || text < best_text) best_text = text, best_move = m;
  }
  return best_move;
}

// A few arrangements of a hawk card for the search to try (it cannot try
// billions): its canonical first, every hawk kept and the new ones on the
// squares next to fire nearest the own back corner, and all of them there.
void hawk_candidates(const Engine& engine, const State& s, const HawkFamily& f, std::vector<Move>& out) {
  out.push_back(canonical_first(f, engine.rules()));
  const Bits touching = engine.placeable(s) & engine.fire(s).adjacent();
  std::vector<uint8_t> near(f.cells.begin(), f.cells.begin() + f.ncells);
  std::stable_sort(near.begin(), near.end(), [&](uint8_t a, uint8_t b) {
    const int ta = touching.test(a) ? 0 : 1, tb = touching.test(b) ? 0 : 1;
    return ta != tb ? ta < tb : row_of(a) + col_of(a) < row_of(b) + col_of(b);
  });
  const Bits own = s.hawks & regions().quadrant[kNW];
  for (bool keep : {true, false}) {
    const int take = f.max_take;
    const int size = f.own + f.placed + take;
    if (f.placed + take == 0 || size > f.ncells || take > f.nenemies) continue;
    Bits chosen = keep ? own : Bits{};
    for (uint8_t sq : near)
      if (chosen.count() < size) chosen.set(sq);
    Move m = f.base;
    m.nsq = 0;
    chosen.each([&](int sq) { m.sq[m.nsq++] = static_cast<uint8_t>(sq); });
    m.ntake = static_cast<uint8_t>(take);
    for (int i = 0; i < take; ++i) m.sq[static_cast<size_t>(size + i)] = f.enemies[static_cast<size_t>(i)];
    if (f.contains(m) && std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  }
}

// Every move as the searches see it: the listed moves and a few of each
// hawk family.
void searchable_moves(const Engine& engine, const State& s, MoveList& list, std::vector<Move>& out) {
  list.load(engine, s);
  out = list.moves;
  for (const HawkFamily& f : list.families) hawk_candidates(engine, s, f, out);
}

// search_h of the positions one move after `s`, for a greedy that values
// every move of a decision. Most moves leave hawks and firebreaks alone and
// only add or remove gems (fire cards, water cards): each square's least
// cost to each corner is then the same as on s's board, so a corner's
// distance is the first ring of its flood that holds a burning square,
// read from each corner's flood of s's board, built at the first such
// move. A move that moves hawks or lays firebreaks floods anew. Equal to
// search_h(next): tests/test_firetower_distances.py holds the two equal on
// every move of thousands of decisions.
class SearchH {
 public:
  explicit SearchH(const State& s) : s_(s) {}

  double operator()(const State& next) const {
    if (next.over() || next.hawks != s_.hawks || next.breaks != s_.breaks) return search_h(next);
    if (!rings_built_) build_rings();
    const Bits burning = next.gems | regions().flame;
    std::array<int, 4> d{};
    for (size_t t = 0; t < 4; ++t) {
      int k = 0;
      while (!(burning & rings_[t][static_cast<size_t>(k)]).any()) ++k;  // the flame burns: some ring holds it
      d[t] = k;
    }
    return h_of(next, [&](int t) { return d[static_cast<size_t>(t)]; }, kUnusedBucketCost);
  }

 private:
  // From each corner outwards: a square's cost is paid by the squares next
  // to it (a path from g enters every square after g), so the ring of
  // squares reached at d passes d + its own cost to its neighbours.
  void build_rings() const {
    constexpr int kLayers = 8;
    for (size_t t = 0; t < 4; ++t) {
      Bits pending[kLayers];
      Bits reached;
      pending[0] = Bits::one(kBackCorner[t]);
      for (size_t d = 0; reached.count() < kSquares; ++d) {
        Bits& layer = pending[d % kLayers];
        const Bits now = layer.minus(reached);
        layer = {};
        reached |= now;
        rings_[t][d] = now;
        pending[(d + 1) % kLayers] |= now.minus(s_.breaks | s_.hawks).adjacent().minus(reached);
        pending[(d + kHawkCost) % kLayers] |= (now & s_.hawks).adjacent().minus(reached);
        pending[(d + kFirebreakCost) % kLayers] |= (now & s_.breaks).adjacent().minus(reached);
      }
    }
    rings_built_ = true;
  }

  // At most 30 squares of a path, each at most a firebreak's cost.
  static constexpr size_t kRings = 30 * kFirebreakCost + 1;
  const State& s_;
  mutable bool rings_built_ = false;
  mutable std::array<std::array<Bits, kRings>, 4> rings_;
};

struct Scored {
  Move move;
  double h;
  uint64_t key;
};

// Each move's h after its deterministic effect, best first (ties in
// generation order).
void rank_by_search_h(const Engine& engine, const State& s, const std::vector<Move>& moves, std::vector<Scored>& out) {
  out.clear();
  const SearchH value(s);
  for (const Move& m : moves) {
    State next = s;
    engine.apply(next, m);
    out.push_back({m, value(next), state_key(next)});
  }
  std::stable_sort(out.begin(), out.end(), [](const Scored& a, const Scored& b) { return a.h > b.h; });
}

// The move whose next position (its deterministic effect, forced moves
// included, stopped at the first chance event or decision) has the highest
// value; ties to the first in canonical order. A hawk family's moves
// change no fire, so they tie: its canonical first stands for it.
template <class Value>
Move best_by(const Engine& engine, const State& s, MoveList& list, const Value& value) {
  // Per thread and kept, so that a playout's decisions allocate nothing
  // but the tie-break's texts (only among the moves of the highest h).
  thread_local std::vector<Move> moves;
  thread_local std::vector<double> hs;
  list.load(engine, s);
  moves.assign(list.moves.begin(), list.moves.end());
  for (const HawkFamily& f : list.families) moves.push_back(canonical_first(f, engine.rules()));
  hs.clear();
  double best_h = -2 * kWon;
  for (const Move& m : moves) {
    State next = s;
    engine.apply(next, m);
    hs.push_back(value(next));
    best_h = std::max(best_h, hs.back());
  }
  size_t best = 0;
  std::string best_text;
  for (size_t i = 0; i < moves.size(); ++i) {
    if (hs[i] != best_h) continue;
    std::string text = move_json(moves[i], engine.rules());
    if (best_text.empty() || text < best_text) best = i, best_text = std::move(text);
  }
  return moves.empty() ? Move{} : moves[best];
}

// Greedy by search_h: the search's own player.
Move search_greedy_move(const Engine& engine, const State& s, MoveList& list) {
  return best_by(engine, s, list, SearchH(s));
}

// Each search thread's moves inside the tree, by position key; a
// hint clears its own thread's (the others start with the threads).
thread_local std::unordered_map<uint64_t, Move> inner_cache;

// The game as cpp/search/mcts.hpp sees it (SampledGame).
struct SearchState {
  using Move = firetower::Move;
  const Engine* engine = nullptr;
  State s;
  bool score = false;
  const std::vector<Move>* root_moves = nullptr;  // the candidates valued at the root

  bool terminal() const { return s.over(); }
  double value() const {
    if (s.status != Status::kWin) return 0.0;
    return score ? static_cast<double>(s.score) : 1.0;
  }
  // What the tree steers by at a game's end: a win above everything (its
  // score too, for that objective), a loss 0, a timeout as a position in
  // play. Rollouts steer by the position after the Inferno's answer
  // (Rollout): wins are rare at most levels, and a share of zero for every
  // move would leave the tree blind.
  double search_value() const {
    if (s.status == Status::kWin) return score ? 0.5 + 0.5 * s.score / kMaxScore : 1.0;
    return s.status == Status::kTimeout ? steer_value(s) : 0.0;
  }
  bool chance() const { return s.at_chance(); }
  uint64_t sample_chance(Rng& rng) {
    thread_local std::vector<Outcome> outcomes;
    engine->outcomes(s, outcomes);
    const uint8_t v = sample_outcome(outcomes, rng);
    root_moves = nullptr;
    const uint64_t key = uint64_t{static_cast<uint8_t>(s.need)} << 8 | v;
    engine->apply_chance(s, v);
    return key;
  }
  void legal_moves(std::vector<Move>& out) const {
    if (root_moves) {
      out = *root_moves;
      return;
    }
    inner_candidates(out);
  }
  void apply(const Move& m) {
    root_moves = nullptr;
    engine->apply(s, m);
  }

  // Inside the tree: greedy's move by search_h alone, so that every visit
  // below a root move is that greedy answering the sampled draws (a
  // rollout improvement of it, in Bertsekas' sense): at the few dozen
  // iterations a candidate that a whole game can afford, its other top
  // moves below the root would each be valued on a sample or two. Cached
  // by key, per thread, bounded, since the tree asks at every pass.
  void inner_candidates(std::vector<Move>& out) const {
    static constexpr size_t kCache = 1 << 12;
    std::unordered_map<uint64_t, Move>& cache = inner_cache;
    thread_local MoveList list;
    const uint64_t key = state_key(s);
    out.clear();
    const auto hit = cache.find(key);
    if (hit != cache.end()) {
      out.push_back(hit->second);
      return;
    }
    out.push_back(search_greedy_move(*engine, s, list));
    if (cache.size() >= kCache) cache.clear();
    cache.emplace(key, out.back());
  }
};

// A rollout: greedy by search_h until the player's action in a later
// turn, so that the next Inferno card, its placement and the wind have
// answered the move; the tree steers by search_h there. Measured on
// Level 1 (docs/architecture.md): stopping at the turn's end saw no
// Inferno and only reordered greedy's ties; one more whole turn cost 2-3
// times as much and was no stronger (paired, 60 seeds at Levels 1, 4, 5).
// Where the answer reports values (`to_end`), the same greedy plays on to
// the game's end for the outcome; it never steers, so a hint's order is
// the same with it or without (play reads only the order, and skips it).
struct Rollout {
  bool to_end = true;
  Playout operator()(SearchState g, Rng& rng, std::vector<Move>&) const {
    thread_local MoveList list;
    thread_local std::vector<Outcome> outcomes;
    const Engine& engine = *g.engine;
    State& s = g.s;
    const int start = s.turn;
    double steer = -1;
    while (!s.over()) {
      if (steer < 0 && s.turn > start && s.need == Need::kAction) {
        steer = steer_value(s);
        if (!to_end) return {steer, 0.0};
      }
      if (s.at_chance()) {
        engine.outcomes(s, outcomes);
        engine.apply_chance(s, sample_outcome(outcomes, rng));
        continue;
      }
      engine.apply(s, search_greedy_move(engine, s, list));
    }
    const Playout end = terminal_playout(g);
    return steer < 0 ? end : Playout{steer, end.outcome};
  }
};

}  // namespace

Policy policy_named(const std::string& name) {
  if (name == "random") return Policy::kRandom;
  if (name == "greedy") return Policy::kGreedy;
  if (name == "mcts") return Policy::kMcts;
  throw InvalidInput("policy: \"" + name + "\" is not one of mcts, greedy, random");
}

double greedy_value(const State& s) {
  const Bits burning = s.gems | regions().flame;
  return h_of(s, [&](int t) { return least_distance(burning, regions(), t); }, 0);
}

std::array<int, 4> fire_distances(const State& s) {
  // Dijkstra over the board in bitboard layers: the squares first reached
  // at cost d, from which the next square costs 1, a hawk kHawkCost, a
  // firebreak kFirebreakCost (all below kLayers, so a ring of layers holds
  // every cost still pending).
  constexpr int kLayers = 8;
  static_assert(kFirebreakCost < kLayers && kHawkCost < kLayers);
  Bits pending[kLayers];
  Bits reached;
  pending[0] = s.gems | regions().flame;
  std::array<int, 4> out{};
  int found = 0;
  for (int d = 0; found != 15; ++d) {
    Bits& layer = pending[d % kLayers];
    const Bits now = layer.minus(reached);
    layer = {};
    reached |= now;
    for (int t = 0; t < 4; ++t)
      if (!(found >> t & 1) && now.test(kBackCorner[t])) out[static_cast<size_t>(t)] = d, found |= 1 << t;
    const Bits next = now.adjacent().minus(reached);
    pending[(d + 1) % kLayers] |= next.minus(s.breaks | s.hawks);
    pending[(d + kHawkCost) % kLayers] |= next & s.hawks;
    pending[(d + kFirebreakCost) % kLayers] |= next & s.breaks;
  }
  return out;
}

double search_h(const State& s) {
  const std::array<int, 4> d = fire_distances(s);
  return h_of(s, [&](int t) { return d[static_cast<size_t>(t)]; }, kUnusedBucketCost);
}

std::vector<SearchHCheck> search_h_both_ways(const Engine& engine, const State& s) {
  MoveList list;
  std::vector<Move> moves;
  searchable_moves(engine, s, list, moves);
  const SearchH incremental(s);
  std::vector<SearchHCheck> out;
  for (const Move& m : moves) {
    State next = s;
    engine.apply(next, m);
    out.push_back({m, incremental(next), search_h(next)});
  }
  return out;
}

uint64_t MoveList::size() const {
  uint64_t n = moves.size();
  for (const HawkFamily& f : families) n += f.count;
  return n;
}

Move MoveList::at(uint64_t i) const {
  if (i < moves.size()) return moves[i];
  i -= moves.size();
  for (const HawkFamily& f : families) {
    if (i < f.count) return f.unrank(i);
    i -= f.count;
  }
  return moves.empty() ? Move{} : moves.back();
}

Move random_move(const Engine& engine, const State& s, Rng& rng, MoveList& list) {
  if (s.need == Need::kAction) return engine.random_action(s, rng);
  list.load(engine, s);
  return list.at(rng.below(list.size()));
}

// Section 14's greedy.
Move greedy_move(const Engine& engine, const State& s, MoveList& list) { return best_by(engine, s, list, greedy_value); }

HintResult hint(const Engine& engine, const State& s, const Limits& limits, const HintOptions& o, Control* control) {
  if (s.over()) throw InvalidInput(std::string("hint: the game is over (") + status_name(s.status) + ")");
  HintResult out;
  out.threads = o.threads;
  MoveList list;
  std::vector<Move> all;
  std::vector<Move> candidates;
  std::vector<std::vector<Move>> merged;
  if (s.at_decision()) {
    searchable_moves(engine, s, list, all);
    out.moves_total = list.size();
    std::vector<Scored> ranked;
    rank_by_search_h(engine, s, all, ranked);
    // Moves to the same next position are one (section 12): the first in
    // canonical order stands for them. Candidates in the order of the
    // greedy the tree plays (search_h, then canonical order), so that its
    // move is the first and wins every tie: h ties often (a water card's
    // squares, a fire card against a water card), and greedy's tie-break
    // was worth keeping.
    struct Group {
      uint64_t key;
      double h;
      std::vector<Move> moves;
      std::string first;
    };
    std::vector<Group> groups;
    for (const Scored& x : ranked) {
      auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& p) { return p.key == x.key; });
      if (g == groups.end()) groups.push_back({x.key, x.h, {x.move}, {}});
      else g->moves.push_back(x.move);
    }
    for (Group& g : groups) {
      std::sort(g.moves.begin(), g.moves.end(), [&](const Move& a, const Move& b) {
        return move_json(a, engine.rules()) < move_json(b, engine.rules());
      });
      g.first = move_json(g.moves[0], engine.rules());
    }
    std::stable_sort(groups.begin(), groups.end(),
                     [](const Group& a, const Group& b) { return a.h != b.h ? a.h > b.h : a.first < b.first; });
    for (Group& g : groups) {
      if (candidates.size() < o.root_candidates) candidates.push_back(g.moves[0]);
      merged.push_back(std::move(g.moves));
    }
  }
  inner_cache.clear();
  SearchState root{&engine, s, o.score, s.at_decision() ? &candidates : nullptr};
  MctsOptions mo;
  mo.seed = o.seed;
  mo.threads = std::max<uint32_t>(1, o.threads);
  mo.trees = o.trees;
  mo.proportion = !o.score;
  // The search value lies in [0, 1] and moves differ by hundredths: UCT's
  // constant this large shares the iterations evenly (each candidate is
  // valued on the same sampled futures, common_random_numbers), and the
  // answer takes the best mean. UCT's own allocation (c 0.05-1) lost to
  // greedy on Level 1.
  mo.exploration = 10.0;
  // An iteration is a simulated game, up to tens of milliseconds when played
  // to the end on a loaded machine: a clock read each costs nothing beside it.
  mo.poll_interval = 1;
  mo.common_random_numbers = true;  // one move's effect is small beside the draws' and dice's
  const auto r = mcts(root, limits, mo, control, Rollout{o.values});
  out.stats = r.stats;
  // A score's normal interval can reach past the scores a game can have.
  const double most = o.score ? kMaxScore : 1.0;
  auto possible = [most](Estimate95 e) {
    e.lo = std::clamp(e.lo, 0.0, most);
    e.hi = std::clamp(e.hi, 0.0, most);
    return e;
  };
  out.root = possible(r.root_outcome);
  out.candidates = candidates.size();
  std::vector<size_t> order(merged.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto value_of = [&](size_t i) -> const Estimate95* { return i < r.outcomes.size() ? &r.outcomes[i] : nullptr; };
  auto guide_of = [&](size_t i) { return i < r.values.size() ? r.values[i].mean : 0.0; };
  // Best first: the higher mean of what the tree steered by (the
  // iterations are shared evenly), ties in the candidates' order; moves the
  // search did not value last.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Estimate95* x = value_of(a);
    const Estimate95* y = value_of(b);
    if (!x || !y) return x && !y;
    return guide_of(a) > guide_of(b);
  });
  for (size_t i : order) {
    HintMove h;
    h.move = merged[i][0];
    h.equivalent.assign(merged[i].begin() + 1, merged[i].end());
    if (const Estimate95* v = value_of(i)) h.value = possible(*v);
    else h.value = Estimate95{0, 0, 0, most};
    h.search_value = guide_of(i);
    out.moves.push_back(std::move(h));
  }
  return out;
}

PlayResult play_game(const Rules& rules, int level, uint64_t seed, Policy policy, const Limits& limits, int turn_limit,
                     uint32_t threads, Control* control, bool record) {
  const auto started = std::chrono::steady_clock::now();
  const Engine engine(rules);
  PlayResult out;
  State s = new_game(rules, level, seed, false, turn_limit);
  if (record) out.start = *write_position(s, rules);
  engine.advance(s);
  Rng chance(mix64(seed ^ 0xC4A2CE5EEDull));  // the deal's dice and draws, the same for every policy
  Rng choices(mix64(seed ^ 0x90C1C1E5ull));
  // Kept from game to game on each thread: a playout's loop never allocates.
  thread_local MoveList list;
  thread_local std::vector<Outcome> outcomes;
  while (!s.over()) {
    if (control && control->stop_requested()) {
      out.stopped = true;
      break;
    }
    if (s.at_chance()) {
      engine.outcomes(s, outcomes);
      const uint8_t v = sample_outcome(outcomes, chance);
      if (record) out.events.push_back(chance_json(s, v, rules));
      engine.apply_chance(s, v);
      continue;
    }
    Move m;
    if (policy == Policy::kRandom) {
      m = random_move(engine, s, choices, list);
    } else if (policy == Policy::kGreedy) {
      m = greedy_move(engine, s, list);
    } else {
      HintOptions o;
      o.seed = mix64(seed + out.decisions);
      o.threads = threads;
      o.values = false;
      const HintResult h = hint(engine, s, limits, o, control);
      out.nodes += h.stats.iterations;
      m = h.moves.front().move;
    }
    if (record) out.events.push_back(move_json(m, rules));
    engine.apply(s, m);
    ++out.decisions;
  }
  out.status = s.status;
  out.score = s.score;
  out.turns = s.turn;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

PlayoutStats playouts(const Rules& rules, int level, uint64_t seed, uint64_t games, Policy policy) {
  const auto started = std::chrono::steady_clock::now();
  PlayoutStats out;
  for (uint64_t g = 0; g < games; ++g) {
    const PlayResult r = play_game(rules, level, seed + g, policy, Limits{}, 100, 1, nullptr, false);
    ++out.games;
    out.decisions += r.decisions;
    if (r.status == Status::kWin) ++out.wins, out.score_sum += static_cast<uint64_t>(r.score);
    else if (r.status == Status::kLoss) ++out.losses;
    else ++out.timeouts;
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace sj::firetower
