#include "games/volcano/volcano.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdlib>
#include <string>

#include "core/bits.hpp"
#include "core/error.hpp"

namespace sj::volcano {
namespace {

std::string at(Axial a) {
  std::string s(1, '(');
  s.append(std::to_string(a.q)).append(", ").append(std::to_string(a.r)).push_back(')');
  return s;
}

[[noreturn]] void reject(const std::string& message) { throw InvalidInput(message); }

constexpr uint64_t kZobristDomain = 0x766f6c63616e6f;  // "volcano"

// Colours are interchangeable: keys and comparisons see the supply as a
// sorted multiset. (Insertion sort: at most eight values.)
std::array<uint16_t, kMaxColors> sorted_supply(const State& s, int colors) {
  std::array<uint16_t, kMaxColors> v = s.supply;
  for (int i = 1; i < colors; ++i)
    for (int j = i; j > 0 && v[j - 1] > v[j]; --j) std::swap(v[j - 1], v[j]);
  return v;
}

uint64_t supply_key(const State& s, int colors) {
  const std::array<uint16_t, kMaxColors> sorted = sorted_supply(s, colors);
  uint64_t h = 0x5375707031793;
  for (int c = 0; c < colors; ++c) h = mix64(h ^ sorted[c]);
  return h;
}

}  // namespace

Game::Game(const PositionSpec& spec) {
  const int colors = static_cast<int>(spec.supply.size());
  if (colors < 1 || colors > kMaxColors)
    reject("supply must list 1 to " + std::to_string(kMaxColors) + " colours, got " +
           std::to_string(colors));
  for (int c = 0; c < colors; ++c)
    if (spec.supply[c] < 0 || spec.supply[c] > kMaxSupplyPerColor)
      reject("supply[" + std::to_string(c) + "] = " + std::to_string(spec.supply[c]) +
             " is out of range 0.." + std::to_string(kMaxSupplyPerColor));
  color_count_ = colors;
  if (spec.tiles.size() + 1 > static_cast<size_t>(kMaxCells))
    reject("layout has " + std::to_string(spec.tiles.size()) + " forest tiles; at most " +
           std::to_string(kMaxCells - 1) + " are supported");
  auto check_coordinate = [](Axial a, const char* what) {
    if (std::abs(a.q) > kMaxCoordinate || std::abs(a.r) > kMaxCoordinate)
      reject(std::string(what) + " at " + at(a) + " is outside the board (|q|, |r| <= " +
             std::to_string(kMaxCoordinate) + ")");
  };
  check_coordinate(spec.volcano, "volcano");

  // Cell 0..n-1 are the forest tiles in input order, the volcano comes last.
  for (const TileSpec& t : spec.tiles) {
    const Axial a{t.q, t.r};
    check_coordinate(a, "tile");
    if (t.n < 1 || t.n > 6)
      reject("tile at " + at(a) + ": number " + std::to_string(t.n) + " must be 1..6");
    const int spaces = t.spaces <= 0 ? kDefaultSpaces[t.n] : t.spaces;
    if (spaces > 3)
      reject("tile at " + at(a) + ": spaces " + std::to_string(t.spaces) + " must be 1..3");
    if (t.pawns < 0 || t.pawns > spaces)
      reject("tile at " + at(a) + ": pawns " + std::to_string(t.pawns) + " must be 0.." +
             std::to_string(spaces) + " (its spaces)");
    if (a == spec.volcano) reject("tile at " + at(a) + " is on the volcano's cell");
    if (cell_index(a) >= 0) reject("tile at " + at(a) + " appears twice");
    cells_.push_back(a);
    number_.push_back(t.n);
    spaces_.push_back(spaces);
  }
  volcano_ = static_cast<int>(cells_.size());
  cells_.push_back(spec.volcano);
  number_.push_back(0);
  spaces_.push_back(0);

  const int n = cell_count();
  neighbor_.assign(n, {-1, -1, -1, -1, -1, -1});
  neighbor_mask_.assign(n, 0);
  zobrist_.resize(n);
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < kHexDirections; ++d) {
      const int j = cell_index(hex_neighbor(cells_[i], d));
      neighbor_[i][d] = j;
      if (j >= 0) neighbor_mask_[i] |= bit(j);
    }
    for (int p = 0; p < 4; ++p) zobrist_[i][p] = zobrist(kZobristDomain, i, p);
    if (i != volcano_) {
      if (spaces_[i] & 1) spaces_lo_ |= bit(i);
      if (spaces_[i] & 2) spaces_hi_ |= bit(i);
    }
  }
  ring_ = neighbor_mask_[volcano_];
  const Axial v = cells_[volcano_];
  for (int i = 0; i < kHexDirections; ++i) {
    const Axial d = kHexStep[i], next = kHexStep[(i + 1) % kHexDirections];
    ring_cell_[i] = cell_index(v + d);
    edge_cell_[i] = cell_index(v + d + next);
    corner_cell_[i] = cell_index(v + d + d);
  }

  // A layout is one connected group containing the volcano.
  uint64_t reach = bit(volcano_), frontier = reach;
  while (frontier) {
    uint64_t next = 0;
    for_each_bit(frontier, [&](int i) { next |= neighbor_mask_[i]; });
    frontier = next & ~reach;
    reach |= frontier;
  }
  for (int i = 0; i < volcano_; ++i)
    if (!(reach & bit(i)))
      reject("tile at " + at(cells_[i]) +
             " is not connected to the volcano (a layout must be one connected group)");

  if (spec.standard) {
    if (volcano_ != 35)
      reject("a standard layout has 35 forest tiles and the volcano, got " +
             std::to_string(volcano_) + " forest tiles");
    std::array<int, 7> count{};
    for (int i = 0; i < volcano_; ++i) ++count[number_[i]];
    for (int k = 1; k <= 6; ++k)
      if (count[k] != 6 && count[k] != 5)
        reject("a standard layout has six tiles of each number less the one under the "
               "volcano; number " + std::to_string(k) + " appears " +
               std::to_string(count[k]) + " times");
    for (int i = 0; i < volcano_; ++i) {
      const int touching = std::popcount(neighbor_mask_[i]);
      if (touching < 2)
        reject("tile at " + at(cells_[i]) + " touches " + std::to_string(touching) +
               " other tile(s); the standard set-up needs at least two");
    }
    for (int d = 0; d < kHexDirections; ++d)
      if (neighbor_[volcano_][d] < 0)
        reject("the volcano at " + at(spec.volcano) + " is not enclosed: its neighbour " +
               at(hex_neighbor(spec.volcano, d)) + " holds no tile");
  }

  State& s = initial_;
  for (int c = 0; c < colors; ++c) s.supply[c] = static_cast<uint16_t>(spec.supply[c]);
  for (int i = 0; i < volcano_; ++i) {
    s.present |= bit(i);
    s.board_key ^= zobrist_[i][0];
    set_pawns(s, i, spec.tiles[i].pawns);
  }
  // A position given mid-game must already be settled.
  const uint64_t occupied = s.present | bit(volcano_);
  for_each_bit(full_mask(s), [&](int i) {
    if (two_adjacent_free(occupied, i))
      reject("tile at " + at(cells_[i]) + " is full and has two adjacent free edges, so it "
             "would already have been extinguished (the position is not settled)");
  });
}

int Game::cell_index(Axial a) const {
  for (size_t i = 0; i < cells_.size(); ++i)
    if (cells_[i] == a) return static_cast<int>(i);
  return -1;
}

void Game::set_pawns(State& s, int i, int p) const {
  s.board_key ^= zobrist_[i][pawns(s, i)] ^ zobrist_[i][p];
  s.pawn_lo = (s.pawn_lo & ~bit(i)) | (p & 1 ? bit(i) : 0);
  s.pawn_hi = (s.pawn_hi & ~bit(i)) | (p & 2 ? bit(i) : 0);
}

void Game::remove_tile(State& s, int i) const {
  s.board_key ^= zobrist_[i][pawns(s, i)];
  s.present &= ~bit(i);
  s.pawn_lo &= ~bit(i);
  s.pawn_hi &= ~bit(i);
}

uint64_t Game::full_mask(const State& s) const {
  return s.present & ~((s.pawn_lo ^ spaces_lo_) | (s.pawn_hi ^ spaces_hi_));
}

bool Game::two_adjacent_free(uint64_t occupied, int i) const {
  unsigned free_dirs = 0;
  for (int d = 0; d < kHexDirections; ++d) {
    const int j = neighbor_[i][d];
    if (j < 0 || !(occupied & bit(j))) free_dirs |= 1u << d;
  }
  return has_adjacent_pair(free_dirs);
}

// Walks the flight's path. Calls f(flight path cells, count, non-full count)
// for every legal (tile, direction); colour is left to the caller.
template <class F>
void Game::for_each_flight(const State& s, F&& f) const {
  const uint64_t occupied = s.present | bit(volcano_);
  std::array<int, kMaxCells> path;
  for_each_bit(s.present, [&](int t) {
    for (int d = 0; d < kHexDirections; ++d) {
      const int back = neighbor_[t][opposite_direction(d)];
      if (back >= 0 && (occupied & bit(back))) continue;
      int length = 0, open = 0;
      bool blocked = false;
      for (int i = t; i >= 0 && (occupied & bit(i)); i = neighbor_[i][d]) {
        if (i == volcano_) {
          blocked = true;
          break;
        }
        path[length++] = i;
        if (pawns(s, i) < spaces_[i]) ++open;
      }
      if (!blocked && open > 0) f(t, d, path.data(), length);
    }
  });
}

bool Game::legal(const State& s, Flight f, std::string* why) const {
  auto no = [&](const std::string& reason) {
    if (why) *why = reason;
    return false;
  };
  if (s.lost || s.present == 0) return no("the game is over");
  if (f.color >= color_count_) return no("colour " + std::to_string(f.color) + " does not exist");
  if (s.supply[f.color] < 1) return no("colour " + std::to_string(f.color) + " has no pawns left");
  if (f.dir >= kHexDirections) return no("direction must be 0..5");
  if (f.tile >= cell_count() || f.tile == volcano_ || !(s.present & bit(f.tile)))
    return no("the entry cell holds no forest tile");
  const int back = neighbor_[f.tile][opposite_direction(f.dir)];
  if (back >= 0 && ((s.present | bit(volcano_)) & bit(back)))
    return no("the plane's cell (tile - dir) is not empty");
  bool found = false;
  for_each_flight(s, [&](int t, int d, const int*, int) { found |= (t == f.tile && d == f.dir); });
  if (!found) return no("the path crosses the volcano or has no empty space");
  return true;
}

State Game::apply(const State& s, Flight f, FlightReport* report, bool* isolated) const {
  State next = s;
  const uint64_t occupied = s.present | bit(volcano_);
  int left = next.supply[f.color];
  int dropped = 0;
  for (int i = f.tile; i >= 0 && (occupied & bit(i)) && left > 0; i = neighbor_[i][f.dir]) {
    const int p = pawns(next, i);
    if (p < spaces_[i]) {
      set_pawns(next, i, p + 1);
      --left;
      ++dropped;
    }
  }
  next.supply[f.color] = static_cast<uint16_t>(left);
  next.need = -1;
  if (report) report->dropped = dropped;
  const bool cut_off = settle(next, report);
  if (isolated) *isolated = cut_off;
  return next;
}

bool Game::settle(State& s, FlightReport* report) const {
  // Extinguish until nothing changes: a removal only adds free edges, so the
  // order of removals does not matter, and only neighbours of a removed tile
  // can newly qualify.
  uint64_t occupied = s.present | bit(volcano_);
  uint64_t candidates = full_mask(s);
  bool removed_any = false;
  while (candidates) {
    uint64_t next_candidates = 0;
    for_each_bit(candidates, [&](int i) {
      if (!(s.present & bit(i)) || !two_adjacent_free(occupied, i)) return;
      if (report) report->extinguished.push_back(i);
      remove_tile(s, i);
      occupied &= ~bit(i);
      next_candidates |= neighbor_mask_[i];
      removed_any = true;
    });
    candidates = next_candidates & full_mask(s);
  }
  if (!removed_any) return false;  // only removals can cut a tile off

  uint64_t reach = bit(volcano_), frontier = reach;
  while (frontier) {
    uint64_t next = 0;
    for_each_bit(frontier, [&](int i) { next |= neighbor_mask_[i]; });
    frontier = next & occupied & ~reach;
    reach |= frontier;
  }
  const uint64_t isolated = s.present & ~reach;
  if (isolated & ~(s.pawn_lo | s.pawn_hi)) s.lost = true;
  for_each_bit(isolated, [&](int i) {
    if (report) report->isolated.push_back(i);
    remove_tile(s, i);
  });
  return isolated != 0;
}

bool Game::has_flight(const State& s) const {
  if (supply_total(s) == 0) return false;
  bool any = false;
  for_each_flight(s, [&](int, int, const int*, int) { any = true; });
  return any;
}

Outcome Game::outcome(const State& s) const {
  if (s.lost) return Outcome::kLoss;
  if (s.present == 0) return Outcome::kWin;
  return Outcome::kOngoing;
}

Outcome Game::outcome_with_moves(const State& s) const {
  const Outcome o = outcome(s);
  if (o == Outcome::kOngoing && !has_flight(s)) return Outcome::kLoss;
  return o;
}

uint64_t Game::key(const State& s) const { return s.board_key ^ supply_key(s, color_count_); }

int Game::supply_total(const State& s) const {
  int total = 0;
  for (int c = 0; c < color_count_; ++c) total += s.supply[c];
  return total;
}

bool Game::same_canonical(const State& a, const State& b) const {
  if (a.present != b.present || a.pawn_lo != b.pawn_lo || a.pawn_hi != b.pawn_hi ||
      a.lost != b.lost)
    return false;
  return sorted_supply(a, color_count_) == sorted_supply(b, color_count_);
}

// Every tile must leave by being extinguished (full) or isolated (holding a
// pawn). Tiles next to the volcano (the ring) can never be isolated, so they
// must be filled. Before a tile is extinguished it needs two adjacent free
// edges; a neighbour removed while the tile stands is still connected to the
// volcano through it, so it too must be extinguished, i.e. filled. Digging
// that argument kDigDepth levels out from the ring gives the extra fill.
int Game::clearing_cost(const State& s, int x, uint64_t standing, bool ring_stands,
                        int depth) const {
  const uint64_t occupied = s.present | bit(volcano_);
  const uint64_t ring = s.present & ring_;
  const uint64_t blocking = bit(volcano_) | standing | (ring_stands ? ring : 0);
  int best = INT_MAX;
  for (int d = 0; d < kHexDirections && best > 0; ++d) {
    int cost = 0, members = 0;
    std::array<int, 2> member{};
    bool usable = true;
    for (int e : {d, (d + 1) % kHexDirections}) {
      const int u = neighbor_[x][e];
      if (u < 0 || !(occupied & bit(u))) continue;
      if (blocking & bit(u)) {
        usable = false;
        break;
      }
      if (ring & bit(u)) continue;  // its fill is counted already
      cost += spaces_[u] - std::max(pawns(s, u), 1);
      member[members++] = u;
    }
    if (!usable || cost >= best) continue;
    if (depth > 1 && members > 0) {
      // One of the pair goes first, while x and the other still stand.
      int dig = INT_MAX;
      for (int k = 0; k < members && dig > 0; ++k) {
        const uint64_t others = bit(x) | (members == 2 ? bit(member[1 - k]) : 0);
        dig = std::min(dig, clearing_cost(s, member[k], standing | others, ring_stands, depth - 1));
      }
      if (dig == INT_MAX) continue;
      cost += dig;
    }
    best = std::min(best, cost);
  }
  return best;
}

// The ring tiles taken together. Around ring tile i the usable pairs of
// adjacent free edges are (ring i-1, edge i-1), (edge i-1, corner i),
// (corner i, edge i), (edge i, ring i+1): every one holds an edge cell, so
// each ring tile needs one of its two edge cells cleared (filled and
// extinguished) while it stands, and the first ring tile to go needs a pair
// with no standing ring tile. A cover of the six ring tiles by edge cells is
// a small dynamic programme around the cycle.
int Game::ring_cover_cost(const State& s) const {
  auto cost = [&](int cell) {
    if (cell < 0 || !(s.present & bit(cell))) return 0;
    return spaces_[cell] - std::max(pawns(s, cell), 1);
  };
  auto standing = [&](int i) {
    const int cell = ring_cell_[(i + kHexDirections) % kHexDirections];
    return cell >= 0 && (s.present & bit(cell));
  };
  std::array<int, 6> edge_cost;
  for (int j = 0; j < kHexDirections; ++j) edge_cost[j] = cost(edge_cell_[j]);
  // Least cost of edge cells such that every standing ring tile i has edge
  // i-1 or edge i chosen; `free_edges` are paid for already.
  auto cover = [&](unsigned free_edges) {
    int best = INT_MAX;
    for (int last = 0; last < 2; ++last) {  // edge 5 chosen or not
      auto price = [&](int j, int chosen) { return chosen && !(free_edges >> j & 1) ? edge_cost[j] : 0; };
      std::array<int, 2> dp{INT_MAX, INT_MAX};
      for (int c = 0; c < 2; ++c)
        if (!standing(0) || last || c) dp[c] = price(5, last) + price(0, c);
      for (int j = 1; j < kHexDirections; ++j) {
        std::array<int, 2> next{INT_MAX, INT_MAX};
        for (int c = 0; c < 2; ++c) {
          if (j == 5 && c != last) continue;
          const int add = j == 5 ? 0 : price(j, c);
          for (int p = 0; p < 2; ++p)
            if (dp[p] != INT_MAX && (!standing(j) || p || c))
              next[c] = std::min(next[c], dp[p] + add);
        }
        dp = next;
      }
      best = std::min(best, dp[last]);
    }
    return best;
  };
  int best = INT_MAX;
  for (int i = 0; i < kHexDirections; ++i) {
    if (!standing(i)) continue;
    const int before = (i + 5) % kHexDirections, corner = cost(corner_cell_[i]);
    // The first ring tile's pair: edge and corner, or one edge beside a ring
    // cell that is empty already.
    const std::array<std::pair<unsigned, int>, 4> starts{{
        {1u << before, corner}, {1u << i, corner},
        {1u << before, standing(i - 1) ? INT_MAX : 0}, {1u << i, standing(i + 1) ? INT_MAX : 0}}};
    for (const auto& [edges, extra] : starts) {
      if (extra == INT_MAX) continue;
      const int forced = extra + cost(edge_cell_[std::countr_zero(edges)]);
      best = std::min(best, forced + cover(edges));
    }
  }
  return best == INT_MAX ? 0 : best;
}

int Game::pawns_needed(const State& s) const { return pawns_needed(s, kDigDepth); }

int Game::pawns_needed(const State& s, int dig_depth) const {
  const uint64_t ring = s.present & ring_;
  const uint64_t pawnless = ~(s.pawn_lo | s.pawn_hi);
  int need = std::popcount(s.present & ~ring & pawnless);
  if (!ring) return need;
  int every_ring_tile = 0;        // the largest cost some ring tile must pay
  int first_ring_tile = INT_MAX;  // the cheapest start, before any ring tile goes
  for_each_bit(ring, [&](int t) {
    need += spaces_[t] - pawns(s, t);
    every_ring_tile = std::max(every_ring_tile, clearing_cost(s, t, 0, false, dig_depth));
    if (first_ring_tile > 0)
      first_ring_tile = std::min(first_ring_tile, clearing_cost(s, t, 0, true, dig_depth));
  });
  // No ring tile can be the first to go: none can ever be extinguished.
  if (first_ring_tile == INT_MAX || every_ring_tile == INT_MAX) return INT_MAX;
  return need + std::max({every_ring_tile, first_ring_tile, ring_cover_cost(s)});
}

bool Game::hopeless(const State& s) const {
  const int need = s.need >= 0 ? s.need : pawns_needed(s);
  return need > supply_total(s);
}

bool Game::deep_hopeless(const State& s, Budget& budget) const {
  if (s.lost) return true;
  if (s.present == 0) return false;
  const RemovalPlan plan(*this, s);
  const int spare = supply_total(s) - plan.base();
  if (spare < 0) return true;
  const auto slice = budget.begin_slice(1.0, kPlanNodes);
  BudgetSearch<RemovalPlan> search(plan, budget, budget.limits().max_memory_mb * (1ull << 20) / 8);
  const Verdict v = search.solve(plan.root(), spare, nullptr);
  budget.end_slice(slice);
  return v == Verdict::kLoss;
}

int Game::plan_pawns(const State& s, Budget& budget) const {
  if (s.lost) return INT_MAX;
  const RemovalPlan plan(*this, s);
  BudgetSearch<RemovalPlan> search(plan, budget, budget.limits().max_memory_mb * (1ull << 20) / 8);
  // Deepen the budget; every failed pass leaves its bounds in the table.
  int extra = plan.lower_bound(plan.root());
  for (;;) {
    int proved = 0;
    const Verdict v = search.solve(plan.root(), extra, nullptr, &proved);
    if (v != Verdict::kLoss) break;
    if (proved == BudgetSearch<RemovalPlan>::kUnreachable) return INT_MAX;
    extra = std::max(extra + 1, proved);
  }
  return plan.base() + extra;
}

int32_t Game::order_score(State& s, int policy) const {
  // Most children are hopeless already by the cheap one-level bound; dig
  // deeper only for the others.
  int need = pawns_needed(s, 1);
  if (need <= supply_total(s)) need = pawns_needed(s, kDigDepth);
  s.need = static_cast<int16_t>(std::min(need, int{INT16_MAX}));
  if (need == INT_MAX) return INT32_MIN;
  const int spare = supply_total(s) - need, tiles = std::popcount(s.present);
  // Policy 0: spare pawns first, then fewer tiles left; policy 1 the other
  // way round. Each finds some wins far sooner than the other.
  return policy == 0 ? spare * 128 - tiles : spare - tiles * 128;
}

void Game::generate(const State& s, std::vector<Child>& out, bool keep_duplicates,
                    int policy) const {
  out.clear();
  if (s.lost || s.present == 0) return;
  // Colours with equal supply give states equal up to colour renaming: try
  // the first of each.
  std::array<int, kMaxColors> colors;
  int distinct = 0;
  for (int c = 0; c < color_count_; ++c) {
    if (s.supply[c] == 0) continue;
    bool seen = false;
    for (int k = 0; k < distinct; ++k) seen |= s.supply[colors[k]] == s.supply[c];
    if (!seen || keep_duplicates) colors[distinct++] = c;
  }
  uint32_t seq = 0;
  for_each_flight(s, [&](int t, int d, const int* path, int length) {
    uint64_t on_path = 0, open = 0;
    for (int k = 0; k < length; ++k) {
      on_path |= bit(path[k]);
      if (pawns(s, path[k]) < spaces_[path[k]]) open |= bit(path[k]);
    }
    for (int k = 0; k < distinct; ++k) {
      Child c;
      c.move = Flight{static_cast<uint8_t>(colors[k]), static_cast<uint8_t>(t),
                      static_cast<uint8_t>(d)};
      bool isolated = false;
      c.state = apply(s, c.move, nullptr, &isolated);
      c.footprint = {c.move, on_path, open, s.present & ~c.state.present, isolated};
      c.key = key(c.state);
      c.order = c.state.lost ? INT32_MIN : order_score(c.state, policy);
      if (c.state.present == 0 && !c.state.lost) c.order = INT32_MAX;
      c.seq = seq++;
      out.push_back(c);
    }
  });
}

void Game::order_and_merge(std::vector<Child>& out) const {
  std::sort(out.begin(), out.end(), [](const Child& a, const Child& b) {
    return a.key != b.key ? a.key < b.key : a.seq < b.seq;
  });
  size_t kept = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    bool duplicate = false;
    for (size_t j = kept; j-- > 0 && out[j].key == out[i].key;)
      if (same_canonical(out[j].state, out[i].state)) duplicate = true;
    if (!duplicate) out[kept++] = out[i];
  }
  out.resize(kept);
  std::sort(out.begin(), out.end(), [](const Child& a, const Child& b) {
    return a.order != b.order ? a.order > b.order : a.seq < b.seq;
  });
}

void Game::children(const State& s, std::vector<Child>& out, int policy) const {
  generate(s, out, false, policy);
  order_and_merge(out);
}

Footprint Game::footprint(const State& s, Flight f) const {
  Footprint fp{f, 0, 0, 0, false};
  const uint64_t occupied = s.present | bit(volcano_);
  for (int i = f.tile; i >= 0 && (occupied & bit(i)); i = neighbor_[i][f.dir]) {
    fp.path |= bit(i);
    if (pawns(s, i) < spaces_[i]) fp.open |= bit(i);
  }
  fp.removed = s.present & ~apply(s, f, nullptr, &fp.isolates).present;
  return fp;
}

// Two flights commute at a state when each drops the same pawns whichever
// goes first: their drops are on different tiles, neither removes a tile on
// the other's path, neither isolates anything (isolation is checked after
// each flight), and neither shortens the other's drop (different colours, or
// one colour with pawns for both). Extinguishing reaches the same fixpoint
// from the same pawns in any order, so both orders end in the same state.
bool Game::independent(const State& s, const Footprint& a, const Footprint& b) const {
  if (a.isolates || b.isolates || (a.open & b.open) || (a.removed & b.path) ||
      (b.removed & a.path))
    return false;
  return a.move.color != b.move.color ||
         s.supply[a.move.color] >= std::popcount(a.open) + std::popcount(b.open);
}

// The same flight again, up to colours with equal supply.
bool Game::same_move(const State& s, const Footprint& earlier, const Footprint& now) const {
  return earlier.move.tile == now.move.tile && earlier.move.dir == now.move.dir &&
         s.supply[earlier.move.color] == s.supply[now.move.color];
}

std::vector<Game::Merged> Game::merged_children(const State& s) const {
  std::vector<Child> all;
  generate(s, all, true, 0);
  std::vector<Child> distinct = all;
  order_and_merge(distinct);
  std::vector<Merged> out;
  for (const Child& c : distinct) out.push_back({c, {}});
  for (const Child& c : all)
    for (Merged& m : out)
      if (m.child.seq != c.seq && m.child.key == c.key && same_canonical(m.child.state, c.state)) {
        m.equivalent.push_back(c.move);
        break;
      }
  return out;
}

RemovalPlan::RemovalPlan(const Game& game, const volcano::State& s) : game_(game), root_(s.present) {
  for_each_bit(s.present, [&](int i) {
    const int p = Game::pawns(s, i);
    base_ += p == 0;
    extra_[i] = game.spaces_[i] - std::max(p, 1);
    if (extra_[i] == 0) free_ |= bit(i);
  });
  root_ = close(root_);
}

uint64_t RemovalPlan::key(const PlanState& s) const { return mix64(s.present ^ 0x706c616e); }

int RemovalPlan::lower_bound(const PlanState& s) const {
  int need = 0;
  for_each_bit(s.present & game_.ring_, [&](int i) { need += extra_[i]; });
  return need;
}

// A plan never loses by taking a free removal (a full tile, or one whose one
// pawn fills it) at once: fewer standing tiles only free more edges and cut
// more off, so every plan from the bigger set of tiles works, no dearer, from
// the smaller one. So every state is closed under free removals.
uint64_t RemovalPlan::close(uint64_t present) const {
  for (;;) {
    // Whatever is cut off from the volcano goes for free.
    uint64_t occupied = present | bit(game_.volcano_);
    uint64_t reach = bit(game_.volcano_), frontier = reach;
    while (frontier) {
      uint64_t next = 0;
      for_each_bit(frontier, [&](int j) { next |= game_.neighbor_mask_[j]; });
      frontier = next & occupied & ~reach;
      reach |= frontier;
    }
    present &= reach;
    occupied = present | bit(game_.volcano_);
    bool changed = false;
    for_each_bit(present & free_, [&](int i) {
      if (!game_.two_adjacent_free(occupied, i)) return;
      occupied &= ~bit(i);
      changed = true;
    });
    if (!changed) return present;
    present = occupied & ~bit(game_.volcano_);
  }
}

int RemovalPlan::children(const PlanState& s, int budget, std::vector<Child>& out) const {
  out.clear();
  int least_left_out = INT_MAX;
  const uint64_t occupied = s.present | bit(game_.volcano_);
  for_each_bit(s.present, [&](int i) {
    if (!game_.two_adjacent_free(occupied, i)) return;
    if (extra_[i] > budget) {
      least_left_out = std::min(least_left_out, extra_[i]);
      return;
    }
    Child c;
    c.move = static_cast<uint8_t>(i);
    c.cost = extra_[i];
    c.state.present = close(s.present & ~bit(i));
    c.bound = lower_bound(c.state);
    out.push_back(c);
  });
  // Cheapest estimate first, then the one that leaves fewest tiles.
  std::stable_sort(out.begin(), out.end(), [](const Child& a, const Child& b) {
    const int fa = a.cost + a.bound, fb = b.cost + b.bound;
    if (fa != fb) return fa < fb;
    return std::popcount(a.state.present) < std::popcount(b.state.present);
  });
  return least_left_out;
}

PositionSpec Game::to_spec(const State& s) const {
  PositionSpec spec;
  spec.volcano = cells_[volcano_];
  spec.supply.assign(s.supply.begin(), s.supply.begin() + color_count_);
  for_each_bit(s.present, [&](int i) {
    spec.tiles.push_back({cells_[i].q, cells_[i].r, number_[i], spaces_[i], pawns(s, i)});
  });
  return spec;
}

}  // namespace sj::volcano
