// On the Run! rules engine (co-op / solitaire, deal known). See onrun.hpp.
#include "games/onrun/onrun.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <bitset>
#include <cstring>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>

#include "core/bits.hpp"
#include "core/error.hpp"
#include "core/hex.hpp"
#include "core/rng.hpp"

namespace sj::onrun {
namespace {

std::string cell_text(Cell c) {
  std::string s(1, '(');
  s += std::to_string(c.q);
  s += ", ";
  s += std::to_string(c.r);
  s += ')';
  return s;
}

Cell neighbor(Cell c, int d) {
  return {static_cast<int16_t>(c.q + kHexStep[d].q), static_cast<int16_t>(c.r + kHexStep[d].r)};
}

uint32_t pack(Cell c) {
  return ((static_cast<uint32_t>(c.q + 1024) << 11) | static_cast<uint32_t>(c.r + 1024)) + 1;
}

// Which tile and which edge pawn stand on a cell: a small open-addressed
// map built per position (at most 64 tiles and 96 edge pawns).
class Lookup {
 public:
  explicit Lookup(const State& s) {
    keys_.fill(0);
    for (int i = 0; i < s.ntiles; ++i) slot_for(s.tiles[i].cell).tile = static_cast<int16_t>(i);
    for (int i = 0; i < s.nedge; ++i) slot_for(s.edge[i].cell).edge = static_cast<int16_t>(i);
  }
  int tile_at(Cell c) const {
    const Slot* s = find(c);
    return s ? s->tile : -1;
  }
  int edge_at(Cell c) const {
    const Slot* s = find(c);
    return s ? s->edge : -1;
  }
  int tile_neighbors(Cell c) const {
    int k = 0;
    for (int d = 0; d < kHexDirections; ++d) k += tile_at(neighbor(c, d)) >= 0;
    return k;
  }

 private:
  static constexpr uint32_t kSlots = 512;
  struct Slot {
    int16_t tile = -1;
    int16_t edge = -1;
  };
  uint32_t home(uint32_t key) const { return static_cast<uint32_t>(mix64(key)) & (kSlots - 1); }
  Slot& slot_for(Cell c) {
    const uint32_t key = pack(c);
    uint32_t i = home(key);
    while (keys_[i] != 0 && keys_[i] != key) i = (i + 1) & (kSlots - 1);
    if (keys_[i] == 0) {
      keys_[i] = key;
      slots_[i] = Slot{};
    }
    return slots_[i];
  }
  const Slot* find(Cell c) const {
    const uint32_t key = pack(c);
    uint32_t i = home(key);
    while (keys_[i] != 0) {
      if (keys_[i] == key) return &slots_[i];
      i = (i + 1) & (kSlots - 1);
    }
    return nullptr;
  }
  std::array<uint32_t, kSlots> keys_;
  std::array<Slot, kSlots> slots_;
};

void insert_edge(State& s, Cell c, uint8_t color) {
  int i = s.nedge;
  while (i > 0 && c < s.edge[i - 1].cell) {
    s.edge[i] = s.edge[i - 1];
    --i;
  }
  s.edge[i] = EdgePawn{c, color};
  ++s.nedge;
}

void erase_edge(State& s, int i) {
  for (int j = i; j + 1 < s.nedge; ++j) s.edge[j] = s.edge[j + 1];
  --s.nedge;
  s.edge[s.nedge] = EdgePawn{};
}

// Group index of every tile (tiles of one number connected through that number).
std::array<int8_t, kMaxTiles> groups_of(const State& s, const Lookup& look) {
  std::array<int8_t, kMaxTiles> group;
  group.fill(-1);
  int g = 0;
  std::array<int8_t, kMaxTiles> stack{};
  for (int i = 0; i < s.ntiles; ++i) {
    if (group[i] >= 0) continue;
    int top = 0;
    stack[top++] = static_cast<int8_t>(i);
    group[i] = static_cast<int8_t>(g);
    while (top) {
      const int t = stack[--top];
      for (int d = 0; d < kHexDirections; ++d) {
        const int j = look.tile_at(neighbor(s.tiles[t].cell, d));
        if (j >= 0 && group[j] < 0 && s.tiles[j].n == s.tiles[t].n) {
          group[j] = static_cast<int8_t>(g);
          stack[top++] = static_cast<int8_t>(j);
        }
      }
    }
    ++g;
  }
  return group;
}

int colour_turns(int turns, int next, int color) {
  return turns / kColors + (((color - next + kColors) % kColors) < turns % kColors ? 1 : 0);
}

}  // namespace

bool State::operator==(const State& o) const {
  if (ntiles != o.ntiles || nedge != o.nedge || supply != o.supply || next != o.next || drawn != o.drawn)
    return false;
  for (int i = 0; i < ntiles; ++i) {
    const Tile &a = tiles[i], &b = o.tiles[i];
    if (!(a.cell == b.cell) || a.n != b.n || a.spaces != b.spaces || a.pawns != b.pawns) return false;
  }
  for (int i = 0; i < nedge; ++i)
    if (!(edge[i].cell == o.edge[i].cell) || edge[i].color != o.edge[i].color) return false;
  return true;
}

bool canonical_less(const Move& a, const Move& b) {
  if (!(a.place == b.place)) return a.place < b.place;
  if (a.kind != b.kind) return a.kind < b.kind;
  switch (a.kind) {
    case ActionKind::kPass: return false;
    case ActionKind::kTile:
      if (!(a.cell == b.cell)) return a.cell < b.cell;
      return a.count < b.count;
    case ActionKind::kEdge: return a.cell < b.cell;
    case ActionKind::kEvacuate:
      if (a.number != b.number) return a.number < b.number;
      return a.to < b.to;
  }
  return false;
}

// ------------------------------------------------------------ set-up and validation

Game::Game(const PositionSpec& spec) {
  const int total = static_cast<int>(spec.tiles.size() + spec.deal_rest.size());
  if (spec.tiles.size() < 2) throw InvalidInput("position.tiles: fewer than 2 tiles");
  if (total > kMaxTiles)
    throw InvalidInput("position: " + std::to_string(total) + " tiles in all, at most " +
                       std::to_string(kMaxTiles));
  State s;
  std::array<int, kColors> pawns_of{};
  for (size_t i = 0; i < spec.tiles.size(); ++i) {
    const TileSpec& t = spec.tiles[i];
    const std::string where = "position.tiles." + std::to_string(i);
    if (std::abs(t.q) > kMaxCoordinate || std::abs(t.r) > kMaxCoordinate)
      throw InvalidInput(where + ": cell (" + std::to_string(t.q) + ", " + std::to_string(t.r) +
                         ") is outside -" + std::to_string(kMaxCoordinate) + ".." +
                         std::to_string(kMaxCoordinate));
    const Cell c{static_cast<int16_t>(t.q), static_cast<int16_t>(t.r)};
    if (t.n < 1 || t.n > 6) throw InvalidInput(where + ".n: " + std::to_string(t.n) + " on " + cell_text(c) + " is not 1..6");
    if (t.spaces < 1 || t.spaces > 3)
      throw InvalidInput(where + ".spaces: " + std::to_string(t.spaces) + " on " + cell_text(c) + " is not 1..3");
    int sum = 0;
    for (int k = 0; k < kColors; ++k) {
      if (t.pawns[k] < 0) throw InvalidInput(where + ".pawns: negative on " + cell_text(c));
      sum += t.pawns[k];
      pawns_of[k] += t.pawns[k];
    }
    if (sum > t.spaces)
      throw InvalidInput(where + ".pawns: " + std::to_string(sum) + " pawns on " + cell_text(c) + " with " +
                         std::to_string(t.spaces) + " spaces");
    for (int j = 0; j < s.ntiles; ++j)
      if (s.tiles[j].cell == c) throw InvalidInput(where + ": two tiles on " + cell_text(c));
    Tile& tile = s.tiles[s.ntiles++];
    tile.cell = c;
    tile.n = static_cast<uint8_t>(t.n);
    tile.spaces = static_cast<uint8_t>(t.spaces);
    for (int k = 0; k < kColors; ++k) tile.pawns[k] = static_cast<uint8_t>(t.pawns[k]);
  }
  {  // connected
    const Lookup look(s);
    std::vector<bool> seen(s.ntiles, false);
    std::vector<int> stack{0};
    seen[0] = true;
    int reached = 1;
    while (!stack.empty()) {
      const int t = stack.back();
      stack.pop_back();
      for (int d = 0; d < kHexDirections; ++d) {
        const int j = look.tile_at(neighbor(s.tiles[t].cell, d));
        if (j >= 0 && !seen[j]) {
          seen[j] = true;
          ++reached;
          stack.push_back(j);
        }
      }
    }
    if (reached != s.ntiles)
      for (int i = 0; i < s.ntiles; ++i)
        if (!seen[i])
          throw InvalidInput("position.tiles." + std::to_string(i) + ": the tile on " + cell_text(s.tiles[i].cell) +
                             " is not connected to the tile on " + cell_text(s.tiles[0].cell));
  }
  {
    const Lookup look(s);
    for (size_t i = 0; i < spec.edge.size(); ++i) {
      const EdgeSpec& e = spec.edge[i];
      const std::string where = "position.edge." + std::to_string(i);
      if (std::abs(e.q) > kMaxCoordinate + 1 || std::abs(e.r) > kMaxCoordinate + 1)
        throw InvalidInput(where + ": cell (" + std::to_string(e.q) + ", " + std::to_string(e.r) + ") is next to no tile");
      const Cell c{static_cast<int16_t>(e.q), static_cast<int16_t>(e.r)};
      if (e.color < 0 || e.color >= kColors)
        throw InvalidInput(where + ".color: " + std::to_string(e.color) + " on " + cell_text(c) + " is not 0..3");
      if (look.tile_at(c) >= 0) throw InvalidInput(where + ": a pawn on " + cell_text(c) + ", which holds a tile");
      if (look.tile_neighbors(c) == 0) throw InvalidInput(where + ": the cell " + cell_text(c) + " is next to no tile");
      for (int j = 0; j < s.nedge; ++j)
        if (s.edge[j].cell == c) throw InvalidInput(where + ": two pawns on " + cell_text(c));
      if (s.nedge >= kMaxEdge) throw InvalidInput(where + ": too many edge pawns");
      insert_edge(s, c, static_cast<uint8_t>(e.color));
      ++pawns_of[e.color];
    }
  }
  for (int k = 0; k < kColors; ++k) {
    if (spec.supply[k] < 0) throw InvalidInput("position.supply." + std::to_string(k) + ": negative");
    pawns_of[k] += spec.supply[k];
    if (pawns_of[k] > kMaxPawnsPerColor)
      throw InvalidInput("position.supply." + std::to_string(k) + ": colour " + std::to_string(k) + " has " +
                         std::to_string(pawns_of[k]) + " pawns in all, at most " + std::to_string(kMaxPawnsPerColor));
    s.supply[k] = static_cast<uint8_t>(spec.supply[k]);
    in_play_[k] = pawns_of[k] > 0;
  }
  if (spec.next < 0 || spec.next >= kColors) throw InvalidInput("position.next: " + std::to_string(spec.next) + " is not 0..3");
  s.next = static_cast<uint8_t>(spec.next);
  for (size_t i = 0; i < spec.deal_rest.size(); ++i) {
    const NewTile& t = spec.deal_rest[i];
    const std::string where = "position.deal_rest." + std::to_string(i);
    if (t.n < 1 || t.n > 6) throw InvalidInput(where + ".n: " + std::to_string(t.n) + " is not 1..6");
    if (t.spaces < 1 || t.spaces > 3) throw InvalidInput(where + ".spaces: " + std::to_string(t.spaces) + " is not 1..3");
  }
  deal_ = spec.deal_rest;
  rest_unknown_ = spec.rest_unknown;
  numbers_before_.assign(deal_.size() + 1, {});
  for (size_t i = 0; i < deal_.size(); ++i) {
    numbers_before_[i + 1] = numbers_before_[i];
    ++numbers_before_[i + 1][deal_[i].n];
  }
  initial_ = s;
}

PositionSpec Game::to_spec(const State& s) const {
  PositionSpec p;
  for (int i = 0; i < s.ntiles; ++i) {
    const Tile& t = s.tiles[i];
    TileSpec ts{t.cell.q, t.cell.r, t.n, t.spaces, {}};
    for (int k = 0; k < kColors; ++k) ts.pawns[k] = t.pawns[k];
    p.tiles.push_back(ts);
  }
  for (int i = 0; i < s.nedge; ++i) p.edge.push_back({s.edge[i].cell.q, s.edge[i].cell.r, s.edge[i].color});
  for (int k = 0; k < kColors; ++k) p.supply[k] = s.supply[k];
  p.next = s.next;
  p.deal_rest.assign(deal_.begin() + s.drawn, deal_.end());
  return p;
}

uint64_t Game::key(const State& s) const {
  uint64_t h = zobrist(1, s.drawn, s.next);
  for (int i = 0; i < s.ntiles; ++i) {
    const Tile& t = s.tiles[i];
    const uint64_t pawns = t.pawns[0] | (t.pawns[1] << 4) | (t.pawns[2] << 8) | (t.pawns[3] << 12);
    // Spaces too: with the order hidden, two kinds may share a number.
    h ^= zobrist(2, pack(t.cell), pawns | (uint64_t{t.n} << 16) | (uint64_t{t.spaces} << 20));
  }
  for (int i = 0; i < s.nedge; ++i) h ^= zobrist(3, pack(s.edge[i].cell), s.edge[i].color);
  for (int k = 0; k < kColors; ++k) h ^= zobrist(4, static_cast<uint64_t>(k), s.supply[k]);
  return h;
}

// ------------------------------------------------------------ end and score

bool Game::won(const State& s) const {
  return s.supply[0] == 0 && s.supply[1] == 0 && s.supply[2] == 0 && s.supply[3] == 0;
}

int Game::score(const State& s) const {
  if (!won(s)) return 0;
  std::array<int, kColors> at_edge{};
  for (int i = 0; i < s.nedge; ++i) ++at_edge[s.edge[i].color];
  int product = 1;
  for (int k = 0; k < kColors; ++k)
    if (in_play_[k]) product *= at_edge[k];
  return product;
}

struct PawnCounts {
  std::array<std::array<int, 7>, kColors> on_number{};  // on the tiles of each number
  // On tiles of numbers not known (an evacuation class's destinations):
  // counted as if on every number at once.
  std::array<int, kColors> loose{};
  std::array<int, kColors> at_edge{}, supply{};
  int edge_areas = 0;
  std::array<int, 7> empty_next_to{};  // empty edge areas next to a tile of each number
  int first_to_come = 0;               // the deal's first tile not on the table when they were counted
};

namespace {

// How the edge areas' count changes when a tile goes on the edge area
// `at`: it stops being one, and its empty neighbours that touched no tile
// become ones. Next to two tiles (every flashpoint is) that is at most +1.
int edge_areas_change(Cell at, const Lookup& look) {
  int change = -1;
  for (int d = 0; d < kHexDirections; ++d) {
    const Cell c = neighbor(at, d);
    change += look.tile_at(c) < 0 && look.tile_neighbors(c) == 0;
  }
  return change;
}

PawnCounts pawns_of(const State& s) {
  PawnCounts p;
  for (int i = 0; i < s.nedge; ++i) ++p.at_edge[s.edge[i].color];
  for (int i = 0; i < s.ntiles; ++i)
    for (int k = 0; k < kColors; ++k) p.on_number[k][s.tiles[i].n] += s.tiles[i].pawns[k];
  for (int k = 0; k < kColors; ++k) p.supply[k] = s.supply[k];
  // The board as a dense window over the tiles and two cells around them
  // (an edge area and its neighbours): a tile's number, or 0 with a bit
  // for an edge pawn. Every node reads it, so no hashing.
  constexpr int kSpan = kMaxTiles + 4;
  constexpr uint8_t kPawn = 0x80;
  int qmin = INT16_MAX, rmin = INT16_MAX, qmax = INT16_MIN, rmax = INT16_MIN;
  for (int i = 0; i < s.ntiles; ++i) {
    qmin = std::min<int>(qmin, s.tiles[i].cell.q), qmax = std::max<int>(qmax, s.tiles[i].cell.q);
    rmin = std::min<int>(rmin, s.tiles[i].cell.r), rmax = std::max<int>(rmax, s.tiles[i].cell.r);
  }
  const int width = qmax - qmin + 5, height = rmax - rmin + 5;
  std::array<uint8_t, kSpan * kSpan> board;
  std::fill_n(board.begin(), width * height, 0);
  auto at = [&](int q, int r) -> uint8_t& { return board[(r - rmin + 2) * width + (q - qmin + 2)]; };
  for (int i = 0; i < s.ntiles; ++i) at(s.tiles[i].cell.q, s.tiles[i].cell.r) = s.tiles[i].n;
  for (int i = 0; i < s.nedge; ++i) at(s.edge[i].cell.q, s.edge[i].cell.r) |= kPawn;
  for (int r = rmin - 1; r <= rmax + 1; ++r)
    for (int q = qmin - 1; q <= qmax + 1; ++q) {
      if (at(q, r) & ~kPawn) continue;  // a tile
      unsigned numbers = 0;  // the numbers of the tiles next to it
      for (const Axial step : kHexStep) numbers |= 1u << (at(q + step.q, r + step.r) & ~kPawn);
      numbers &= ~1u;
      if (!numbers) continue;
      ++p.edge_areas;
      if (at(q, r) & kPawn) continue;
      for (int v = 1; v <= 6; ++v) p.empty_next_to[v] += numbers >> v & 1;
    }
  p.first_to_come = s.drawn;
  return p;
}

// The most pawns of colour `k` the edge can hold at the end, `t` >= 1
// turns of k's to come, `reach[v]` the most edge areas that evacuations
// of the number v can fill. A pawn counts once, at its last arrival, and
// only if it was not at the edge already (a pawn covered and placed again
// gains nothing). A supply pawn arrives by a placement at the edge, or on
// a tile and then evacuated. A pawn now on a tile arrives only by
// evacuations, the first of the number it stands on; k evacuates one
// number a turn, so with the numbers D evacuated, those pawns are at most
// the ones on D and fill at most D's reach. The supply must empty, at most
// 3 a turn: e evacuation turns leave t - e to place, so
// |D| <= e <= t - ceil(supply / 3). With none (every turn placing) at most
// (3t - supply) / 2 turns can put a pawn at the edge rather than 3 on a
// tile.
int edge_cap(const PawnCounts& p, int k, int t, const std::array<int, 7>& reach) {
  const int supply = p.supply[k];
  const int evacuations = t - (supply + 2) / 3;
  if (evacuations <= 0) return p.at_edge[k] + std::min(supply, (3 * t - supply) / 2);
  // Both sums only grow with D: the sets of exactly min(e, 6) numbers.
  struct SetsOfSize {
    std::array<std::array<uint8_t, 20>, 7> sets{};  // at most C(6, 3) = 20 of a size
    std::array<int, 7> count{};
  };
  static constexpr SetsOfSize kBySize = [] {
    SetsOfSize by;
    for (unsigned numbers = 1; numbers < 64; ++numbers) {
      const int size = std::popcount(numbers);
      by.sets[size][by.count[size]++] = static_cast<uint8_t>(numbers);
    }
    return by;
  }();
  const int size = std::min(evacuations, 6);
  int from_tiles = 0;
  for (int n = 0; n < kBySize.count[size]; ++n) {
    const unsigned numbers = kBySize.sets[size][n];
    int on = p.loose[k], room = 0;
    for (int v = 1; v <= 6; ++v)
      if (numbers >> (v - 1) & 1) on += p.on_number[k][v], room += reach[v];
    from_tiles = std::max(from_tiles, std::min(on, room));
  }
  return p.at_edge[k] + supply + from_tiles;
}

}  // namespace

int Game::upper_objective(const State& s) const {
  if (final(s)) return objective(s);
  return upper_from(pawns_of(s), turns_left(s), s.next);
}

int Game::every_pawn_saved(const State& s) const {
  std::array<int, kColors> total{};
  for (int i = 0; i < s.nedge; ++i) ++total[s.edge[i].color];
  for (int i = 0; i < s.ntiles; ++i)
    for (int k = 0; k < kColors; ++k) total[k] += s.tiles[i].pawns[k];
  int product = 1;
  for (int k = 0; k < kColors; ++k)
    if (in_play_[k]) product *= total[k] + s.supply[k];
  return 2 * product + 1;
}

int Game::upper_from(const PawnCounts& p, int turns, int next) const {
  if (turns == 0) {  // final: the objective itself
    const bool won = p.supply[0] == 0 && p.supply[1] == 0 && p.supply[2] == 0 && p.supply[3] == 0;
    int product = 1;
    for (int k = 0; k < kColors; ++k)
      if (in_play_[k]) product *= p.at_edge[k];
    return won ? 2 * product + 1 : 0;
  }
  std::array<int, kColors> cap{};
  for (int k = 0; k < kColors; ++k)
    if ((cap[k] = colour_cap(p, k, turns, next)) < 0) return 0;
  return shared_out(cap, p.edge_areas + turns);
}

int Game::colour_cap(const PawnCounts& p, int k, int turns, int next) const {
  const int t = colour_turns(turns, next, k);
  // The supply only shrinks on its colour's turns, by at most 3 a turn.
  if (p.supply[k] > 3 * t) return -1;
  if (!in_play_[k]) return 0;
  if (t == 0) return p.at_edge[k];
  int total = p.at_edge[k] + p.supply[k] + p.loose[k];
  for (int v = 1; v <= 6; ++v) total += p.on_number[k][v];
  // An evacuation's edge areas touch its number's tiles. Such an area,
  // once filled, stays filled until a tile covers it, and only a new tile
  // of the number (at most 4 empty neighbours: a flashpoint touches two
  // tiles) brings new ones; so k's evacuations of v fill at most the empty
  // areas next to v now, and 4 for each v-tile placed up to k's last turn.
  const int last = static_cast<int>(deal_.size()) - turns + (k - next + kColors) % kColors + kColors * (t - 1);
  std::array<int, 7> reach{};
  for (int v = 1; v <= 6; ++v) {
    const int coming = rest_unknown_ ? last + 1 - p.first_to_come
                                     : numbers_before_[last + 1][v] - numbers_before_[p.first_to_come][v];
    reach[v] = p.empty_next_to[v] + 4 * coming;
  }
  return std::min(total, edge_cap(p, k, t, reach));
}

int Game::shared_out(const std::array<int, kColors>& cap, int room) const {
  // An edge area holds one pawn, and each tile still to come adds at most
  // one edge area: share those out, the fewest saved first (the greatest
  // product under the caps). Filled as water: the smallest caps first,
  // each colour held to its cap or to an equal share of the room left.
  std::array<int, kColors> caps{};
  int n = 0;
  for (int k = 0; k < kColors; ++k) {
    if (!in_play_[k]) continue;
    int i = n++;  // insertion: ascending
    for (; i > 0 && caps[i - 1] > cap[k]; --i) caps[i] = caps[i - 1];
    caps[i] = cap[k];
  }
  int product = 1;
  for (int i = 0; i < n; ++i) {
    const int left = n - i, share = std::max(room, 0) / left;
    if (caps[i] <= share) {
      product *= caps[i];
      room -= caps[i];
      continue;
    }
    // The rest are above the share: each gets it, and the remainder one more each.
    for (int j = 0; j < left; ++j) product *= share + (j < room % left ? 1 : 0);
    break;
  }
  return 2 * product + 1;
}

namespace {

const Move& move_of(const Move& m) { return m; }
const Move& move_of(const Game::MoveClass& c) { return c.move; }

// The pawns an evacuation moves and how many of them go onto tiles (the
// tile placed this turn, at `place`, is one).
std::pair<int, int> evacuated(const Move& m, Cell place, const Lookup& look) {
  int to_tiles = 0;
  for (Cell to : m.to) to_tiles += to == place || look.tile_at(to) >= 0;
  return {static_cast<int>(m.to.size()), to_tiles};
}
std::pair<int, int> evacuated(const Game::MoveClass& c, Cell place, const Lookup& look) {
  if (c.to_edge < 0) return evacuated(c.move, place, look);
  return {c.moved, c.moved - c.to_edge};
}

}  // namespace

template <class Entry>
void Game::keys_of(const State& s, const std::vector<Entry>& moves, std::vector<MoveKey>& out) const {
  out.clear();
  if (final(s)) return;
  const int c = s.next;
  const int turns = turns_left(s) - 1;
  const int next = (c + 1) % kColors;
  const int new_number = next_tile(s).n;
  const Lookup look(s);
  const PawnCounts before = pawns_of(s);
  Cell place{INT16_MIN, INT16_MIN};
  PawnCounts placed;  // once the tile is on `place`
  // Only colour c's counts differ from move to move: the others' caps
  // once per place (-1: a supply that cannot empty).
  std::array<int, kColors> cap{};
  bool lost = false;
  for (const Entry& entry : moves) {
    const Move& m = move_of(entry);
    if (!(m.place == place)) {
      place = m.place;
      placed = before;
      placed.edge_areas = before.edge_areas + edge_areas_change(place, look);
      if (const int e = look.edge_at(place); e >= 0) --placed.at_edge[s.edge[e].color], ++placed.supply[s.edge[e].color];
      lost = false;
      for (int k = 0; k < kColors; ++k)
        if (k != c) lost |= (cap[k] = colour_cap(placed, k, turns, next)) < 0;
    }
    PawnCounts after = placed;
    switch (m.kind) {
      case ActionKind::kPass: break;
      case ActionKind::kTile: {
        const int on = m.cell == place ? new_number : s.tiles[look.tile_at(m.cell)].n;
        after.on_number[c][on] += m.count, after.supply[c] -= m.count;
        break;
      }
      case ActionKind::kEdge: ++after.at_edge[c], --after.supply[c]; break;
      case ActionKind::kEvacuate: {
        const auto [moved, to_tiles] = evacuated(entry, place, look);
        const int leaving = before.on_number[c][m.number];
        after.on_number[c][m.number] = 0;
        after.loose[c] += to_tiles;
        after.at_edge[c] += moved - to_tiles;
        after.supply[c] += leaving - moved;
        break;
      }
    }
    int bound = 0;
    if (turns == 0) {
      bound = upper_from(after, turns, next);
    } else if (!lost && (cap[c] = colour_cap(after, c, turns, next)) >= 0) {
      bound = shared_out(cap, after.edge_areas + turns);
    }
    out.push_back({bound, after.supply[0] + after.supply[1] + after.supply[2] + after.supply[3],
                   after.at_edge[0] + after.at_edge[1] + after.at_edge[2] + after.at_edge[3]});
  }
}

void Game::move_keys(const State& s, const std::vector<Move>& moves, std::vector<MoveKey>& out) const {
  keys_of(s, moves, out);
}

void Game::move_keys(const State& s, const std::vector<MoveClass>& moves, std::vector<MoveKey>& out) const {
  keys_of(s, moves, out);
}

// ------------------------------------------------------------ the board

std::vector<Cell> Game::flashpoints(const State& s) const {
  const Lookup look(s);
  std::vector<Cell> out;
  for (int v = 6; v >= 1 && out.empty(); --v)
    for (int i = 0; i < s.ntiles; ++i) {
      if (s.tiles[i].n != v) continue;
      for (int d = 0; d < kHexDirections; ++d) {
        const Cell c = neighbor(s.tiles[i].cell, d);
        if (look.tile_at(c) < 0 && look.tile_neighbors(c) >= 2) out.push_back(c);
      }
    }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<Cell> Game::edge_areas(const State& s) const {
  const Lookup look(s);
  std::vector<Cell> out;
  for (int i = 0; i < s.ntiles; ++i)
    for (int d = 0; d < kHexDirections; ++d) {
      const Cell c = neighbor(s.tiles[i].cell, d);
      if (look.tile_at(c) < 0) out.push_back(c);
    }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

State Game::place_tile(const State& s, const NewTile& nt, Cell at, TurnReport* report) const {
  State t = s;
  for (int i = 0; i < t.nedge; ++i)
    if (t.edge[i].cell == at) {
      if (report) report->covered_color = t.edge[i].color;
      ++t.supply[t.edge[i].color];
      erase_edge(t, i);
      break;
    }
  Tile& tile = t.tiles[t.ntiles++];
  tile = Tile{};
  tile.cell = at;
  tile.n = static_cast<uint8_t>(nt.n);
  tile.spaces = static_cast<uint8_t>(nt.spaces);
  if (report) report->tile_n = nt.n;
  return t;
}

namespace {

// One number's evacuation by one colour on a placed board: the source
// groups with their pawns, the destinations (cells, with the pawns each can
// take) and the destinations of each source.
struct Evacuation {
  std::vector<int> sources;  // group ids, ascending
  std::vector<int> k;        // pawns of each source
  std::vector<Cell> dest;
  std::vector<int> cap;
  std::vector<bool> at_edge;           // the destination is an edge area (else a tile)
  std::vector<std::vector<int>> of;    // each source's destinations
  std::vector<int> by_cell;            // the destinations in cell order
};

// False when no tile numbered `v` holds a pawn of `color`.
bool evacuation_of(const State& s, const Lookup& look, const std::array<int8_t, kMaxTiles>& group, int color, int v,
                   Evacuation& e) {
  // `e` may be a previous number's: emptied, its buffers kept (a listing
  // asks for every number at every node).
  e.sources.clear(), e.k.clear(), e.dest.clear(), e.cap.clear(), e.at_edge.clear(), e.by_cell.clear();
  for (std::vector<int>& of : e.of) of.clear();
  std::array<int, kMaxTiles> k_of{};
  for (int i = 0; i < s.ntiles; ++i)
    if (s.tiles[i].n == v && s.tiles[i].pawns[color] > 0) {
      if (k_of[group[i]] == 0) e.sources.push_back(group[i]);
      k_of[group[i]] += s.tiles[i].pawns[color];
    }
  if (e.sources.empty()) return false;
  std::sort(e.sources.begin(), e.sources.end());
  for (int g : e.sources) e.k.push_back(k_of[g]);
  e.of.resize(e.sources.size());
  auto dest_index = [&](Cell c, int capacity, bool edge) {
    for (size_t j = 0; j < e.dest.size(); ++j)
      if (e.dest[j] == c) return static_cast<int>(j);
    e.dest.push_back(c);
    e.cap.push_back(capacity);
    e.at_edge.push_back(edge);
    return static_cast<int>(e.dest.size() - 1);
  };
  for (size_t si = 0; si < e.sources.size(); ++si) {
    const int g = e.sources[si];
    std::array<bool, kMaxTiles> adjacent{};
    for (int i = 0; i < s.ntiles; ++i) {
      if (group[i] != g) continue;
      for (int d = 0; d < kHexDirections; ++d) {
        const Cell c = neighbor(s.tiles[i].cell, d);
        const int j = look.tile_at(c);
        if (j >= 0) {
          if (group[j] != g) adjacent[group[j]] = true;
        } else if (look.edge_at(c) < 0) {
          e.of[si].push_back(dest_index(c, 1, true));
        }
      }
    }
    for (int j = 0; j < s.ntiles; ++j)
      if (adjacent[group[j]] && s.tiles[j].room() > 0)
        e.of[si].push_back(dest_index(s.tiles[j].cell, s.tiles[j].room(), false));
    std::sort(e.of[si].begin(), e.of[si].end());
    e.of[si].erase(std::unique(e.of[si].begin(), e.of[si].end()), e.of[si].end());
  }
  e.by_cell.resize(e.dest.size());
  for (size_t j = 0; j < e.dest.size(); ++j) e.by_cell[j] = static_cast<int>(j);
  std::sort(e.by_cell.begin(), e.by_cell.end(), [&](int a, int b) { return e.dest[a] < e.dest[b]; });
  return true;
}

// The most pawns that can go from the sources (at most give[i] from
// source i) to their destinations (at most take[j] into destination j):
// augmenting paths one pawn at a time (a source that cannot send a pawn
// now never can later), moving pawns already placed to make way.
int most_moved(const Evacuation& e, const std::vector<int>& give, const std::vector<uint8_t>& take) {
  const size_t ns = give.size(), nd = take.size();
  // Called at every step of a class's outcomes: the buffers are the
  // thread's, so that a call does not allocate.
  thread_local std::vector<int> flow, got;  // flow[i * nd + j]: source i's pawns in destination j
  thread_local std::vector<char> seen;
  flow.assign(ns * nd, 0);
  got.assign(nd, 0);
  seen.resize(nd);
  auto send = [&](auto&& self, size_t i) -> bool {
    for (int j : e.of[i]) {
      if (seen[j]) continue;
      seen[j] = 1;
      if (got[j] < take[j]) {
        ++got[j], ++flow[i * nd + j];
        return true;
      }
      for (size_t r = 0; r < ns; ++r)
        if (flow[r * nd + j] > 0 && self(self, r)) {  // r's pawn here goes elsewhere; i's takes its place
          --flow[r * nd + j], ++flow[i * nd + j];
          return true;
        }
    }
    return false;
  };
  int moved = 0;
  for (size_t i = 0; i < ns; ++i)
    for (int a = 0; a < give[i]; ++a) {
      std::fill(seen.begin(), seen.end(), 0);
      if (!send(send, i)) break;
      ++moved;
    }
  return moved;
}

// Whether some outcome puts x[j] pawns in destination j (x[j] <= cap[j]),
// without listing the outcomes (a crowded turn has millions). A source
// with a destination left with room must send all its pawns; any source
// may send fewer only when all its destinations are full. So x must be
// fillable from the sources, and the sources that must send all must be
// able to, within x; when both can be done, one assignment does both (the
// Mendelsohn-Dulmage theorem, a pawn and a place being a vertex each).
bool is_outcome(const Evacuation& e, const std::vector<uint8_t>& x) {
  std::vector<int> must(e.k.size(), 0);
  int listed = 0, required = 0;
  for (int j : x) listed += j;
  for (size_t i = 0; i < e.k.size(); ++i)
    for (int j : e.of[i])
      if (x[j] < e.cap[j]) must[i] = e.k[i];
  for (int k : must) required += k;
  return most_moved(e, e.k, x) == listed && most_moved(e, must, x) == required;
}

// The cells an outcome sends pawns to, in cell order: `x` pawns to each destination.
void cells_of(const Evacuation& e, const std::vector<uint8_t>& x, InlineVector<Cell, kMaxPawnsPerColor>& to) {
  for (int r : e.by_cell)
    for (int a = 0; a < x[r]; ++a) to.push_back(e.dest[r]);
}

// The outcomes that send `to_edge` of `moved` pawns to the edge (any
// number with `to_edge` < 0), in canonical order, to `emit`, which gets
// the pawns per destination and returns false to stop. The candidates come
// straight in canonical order (ascending `to`) when the destinations are
// taken in cell order, each as full as it can be first; a branch that
// cannot place its pawns in the room after it is never entered, and
// nothing is sorted. With one source every candidate of the right count
// is an outcome (every outcome moves the least of the source's and its
// destinations' room: a pawn goes back only when every destination is
// full). With `several`, is_outcome decides, and a branch is not entered
// when no assignment from the sources gives the pawns placed so far (all
// its candidates would fail; without this a class's first outcome could
// take 10^6 candidates). So a caller that wants the first outcome pays
// for the branches before it, not for every outcome. `spend` is called at
// every step and returns false to stop.
template <class Emit, class Spend>
void outcomes_in_order(const Evacuation& e, int moved, int to_edge, bool several, Emit&& emit, Spend&& spend) {
  const std::vector<int>& ranked = e.by_cell;
  const size_t n = ranked.size();
  std::vector<int> room_after(n + 1, 0), edges_after(n + 1, 0);
  for (size_t p = n; p-- > 0;) {
    room_after[p] = room_after[p + 1] + e.cap[ranked[p]];
    edges_after[p] = edges_after[p + 1] + (e.at_edge[ranked[p]] ? 1 : 0);
  }
  std::vector<uint8_t> x(e.dest.size(), 0);
  bool stop = false;
  const bool any_to_edge = to_edge < 0;
  // Can `left` pawns go to the destinations from `pos` on, `edges` of them
  // to the edge?
  auto fits = [&](size_t pos, int left, int edges) {
    if (any_to_edge) return left <= room_after[pos];
    return 0 <= edges && edges <= left && edges <= edges_after[pos] &&
           left - edges <= room_after[pos] - edges_after[pos];
  };
  auto place_from = [&](auto&& self, size_t pos, int left, int edges) -> void {
    if (stop || !spend()) {
      stop = true;
      return;
    }
    if (left == 0) {
      if ((!several || is_outcome(e, x)) && !emit(x)) stop = true;
      return;
    }
    const int j = ranked[pos];
    for (int a = std::min(left, e.cap[j]); a >= 0 && !stop; --a) {
      const int rest_edges = edges - (e.at_edge[j] ? a : 0);
      if (!fits(pos + 1, left - a, rest_edges)) continue;
      x[j] = static_cast<uint8_t>(a);
      if (several && a > 0 && most_moved(e, e.k, x) < moved - (left - a)) continue;
      self(self, pos + 1, left - a, rest_edges);
    }
    x[j] = 0;
  };
  if (fits(0, moved, to_edge)) place_from(place_from, 0, moved, to_edge);
}

// Several sources' outcomes: assignments enumerated group by group,
// destination by destination, kept where a group sends fewer than its
// pawns only when all its destinations are full. Two sources sharing a
// destination can reach one multiset twice, so the outcomes are sorted and
// merged, as keys: `to` as the ranks (+1) of its cells in cell order, a
// byte each, big-endian and zero-padded, so that the keys compare as the
// cell lists do (a shorter list first where it is a prefix). A connected
// layout has at most 2 * tiles + 4 empty neighbours, so a rank fits a
// byte; sorting 24-byte keys instead of the moves (a hundred bytes each,
// compared cell by cell) was a third of a full deal's search.
static_assert(kMaxTiles + 2 * kMaxTiles + 4 < 255 && kMaxPawnsPerColor <= 24);
using OutcomeKey = std::array<uint64_t, 3>;

void to_cells(const Evacuation& e, const OutcomeKey& key, InlineVector<Cell, kMaxPawnsPerColor>& to) {
  for (int byte = 0; byte < kMaxPawnsPerColor; ++byte) {
    const int rank = static_cast<int>(key[byte / 8] >> (56 - 8 * (byte % 8)) & 0xff);
    if (rank == 0) break;
    to.push_back(e.dest[e.by_cell[rank - 1]]);
  }
}

// A step of the several-sources enumerations: destination `j` takes `a`
// of the `left` pawns, from the most it can down to none, around
// `next(left - a)`; `edges` counts the pawns at edge areas.
template <class Next>
void fill_destination(const Evacuation& e, int j, int left, std::vector<uint8_t>& x, int& edges, Next&& next) {
  const int most = std::min(left, e.cap[j] - static_cast<int>(x[j]));
  for (int a = most; a >= 0; --a) {
    x[j] = static_cast<uint8_t>(x[j] + a);
    if (e.at_edge[j]) edges += a;
    next(left - a);
    if (e.at_edge[j]) edges -= a;
    x[j] = static_cast<uint8_t>(x[j] - a);
  }
}

// Every distinct outcome, in canonical order (the listing's; the search
// takes a class's one at a time from outcomes_in_order).
template <class Spend>
std::vector<OutcomeKey> several_sources_outcomes(const Evacuation& e, Spend&& spend) {
  const size_t m = e.sources.size();
  const std::vector<std::vector<int>>& of = e.of;
  std::vector<uint8_t> x(e.dest.size(), 0);
  std::vector<OutcomeKey> keys;
  std::vector<int> sent(m, 0);
  std::vector<size_t> last_source(e.dest.size(), 0);  // the last group that can send to each destination
  for (size_t si = 0; si < m; ++si)
    for (int j : of[si]) last_source[j] = si;
  int edges = 0;  // counted by fill_destination, not needed here
  bool cut = false;
  auto maximal = [&]() {
    for (size_t si = 0; si < m; ++si) {
      if (sent[si] == e.k[si]) continue;
      for (int j : of[si])
        if (x[j] < e.cap[j]) return false;
    }
    return true;
  };
  auto rec = [&](auto&& self, size_t si, size_t pos, int left) -> void {
    if (cut || (cut = !spend())) return;
    if (si == m) {
      if (!maximal()) return;
      OutcomeKey& key = keys.emplace_back(OutcomeKey{});
      int byte = 0;
      for (size_t rank = 0; rank < e.by_cell.size(); ++rank)
        for (int a = 0; a < x[e.by_cell[rank]]; ++a, ++byte)
          key[byte / 8] |= static_cast<uint64_t>(rank + 1) << (56 - 8 * (byte % 8));
      return;
    }
    if (pos == of[si].size()) {
      // Pawns kept back need every destination of the group full in the
      // end: one that no later group can fill must be full already.
      if (left > 0)
        for (int j : of[si])
          if (x[j] < e.cap[j] && last_source[j] == si) return;
      sent[si] = e.k[si] - left;
      const size_t nsi = si + 1;
      self(self, nsi, 0, nsi < m ? e.k[nsi] : 0);
      return;
    }
    fill_destination(e, of[si][pos], left, x, edges, [&](int rest) { self(self, si, pos + 1, rest); });
  };
  rec(rec, 0, 0, e.k[0]);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

// The classes (pawns moved, pawns sent to the edge) that several sources'
// outcomes fall in, ascending. A destination only one group reaches counts
// for the class and for that group's being full by amount only, so each
// group's own edge areas and own tile room are taken as two amounts, and
// only destinations groups share are enumerated cell by cell. The groups
// are taken in turn, and what the groups after `si` can add depends only
// on the shared destinations still open to them (their pawns, and whether
// a group that kept pawns back needs them full): so the classes the rest
// can add are kept per such state. Enumerating every assignment instead
// took up to 10^6 steps on turns of 8 pawns in 4 groups, and most of a
// search's time once the search walks its lines (docs/benchmarks.md).
template <class Spend>
std::vector<std::pair<int, int>> several_sources_classes(const Evacuation& e, Spend&& spend) {
  const size_t m = e.sources.size(), n = e.dest.size();
  std::vector<int> reach(n, 0);
  for (size_t si = 0; si < m; ++si)
    for (int j : e.of[si]) ++reach[j];
  std::vector<std::vector<int>> shared(m);
  std::vector<int> own_edges(m, 0), own_room(m, 0);
  for (size_t si = 0; si < m; ++si)
    for (int j : e.of[si]) {
      if (reach[j] > 1) shared[si].push_back(j);
      else (e.at_edge[j] ? own_edges[si] : own_room[si]) += e.cap[j];
    }
  std::vector<size_t> first_source(n, m), last_source(n, 0);
  for (size_t si = m; si-- > 0;)
    for (int j : shared[si]) first_source[j] = si;
  for (size_t si = 0; si < m; ++si)
    for (int j : shared[si]) last_source[j] = si;
  int total = 0;
  for (int k : e.k) total += k;
  const int side = total + 1;  // a class (moved, to_edge) is bit moved * side + to_edge
  using Classes = std::bitset<(kMaxPawnsPerColor + 1) * (kMaxPawnsPerColor + 1)>;
  // Before group si, a shared destination some group before it and some
  // group from it reach is open: its pawns so far, and whether a group that
  // kept pawns back needs it full, are the state.
  std::vector<std::vector<int>> open(m);
  for (size_t si = 1; si < m; ++si)
    for (size_t j = 0; j < n; ++j)
      if (first_source[j] < si && last_source[j] >= si) open[si].push_back(static_cast<int>(j));
  std::vector<uint8_t> x(n, 0);
  std::vector<int> needed(n, 0);  // groups kept back that need destination j full
  std::unordered_map<uint64_t, Classes> memo;
  // A state whose key would not fit in 64 bits is not kept (never met in
  // play: it needs over 15 open destinations).
  std::vector<bool> keyed(m, true);
  for (size_t si = 0; si < m; ++si) {
    double states = static_cast<double>(m);
    for (int j : open[si]) states *= 2 * (e.cap[j] + 1);
    keyed[si] = states < 0x1p63;
  }
  // Mixed radix, the group last: groups with different open destinations
  // must not share a key.
  auto state_key = [&](size_t si) {
    uint64_t key = 0;
    for (int j : open[si]) key = key * static_cast<uint64_t>(2 * (e.cap[j] + 1)) + 2 * x[j] + (needed[j] > 0);
    return key * m + si;
  };
  bool cut = false;
  // The classes groups si.. can add (bit dm * side + de: dm pawns moved,
  // de of them to the edge).
  auto rest = [&](auto&& self, size_t si) -> Classes {
    Classes out;
    if (si == m) {
      out.set(0);
      return out;
    }
    const uint64_t key = keyed[si] ? state_key(si) : 0;
    if (keyed[si])
      if (auto it = memo.find(key); it != memo.end()) return it->second;
    int edges = 0;
    auto fill = [&](auto&& fill_next, size_t pos, int left) -> void {
      if (cut || (cut = !spend())) return;
      if (pos < shared[si].size()) {
        fill_destination(e, shared[si][pos], left, x, edges, [&](int after) { fill_next(fill_next, pos + 1, after); });
        return;
      }
      for (int to_edge = std::min(own_edges[si], left); to_edge >= 0; --to_edge)
        for (int to_room = std::min(own_room[si], left - to_edge); to_room >= 0; --to_room) {
          const int back = left - to_edge - to_room;
          // Pawns kept back: the group's own destinations full, and its
          // shared ones full by the end.
          if (back > 0 && (to_edge < own_edges[si] || to_room < own_room[si])) continue;
          if (back > 0)
            for (int j : shared[si]) ++needed[j];
          bool unmet = false;  // a destination no later group reaches, needed full and not
          for (int j : shared[si]) unmet |= last_source[j] == si && needed[j] > 0 && x[j] < e.cap[j];
          if (!unmet) {
            const Classes after = self(self, si + 1);
            out |= after << ((e.k[si] - back) * side + edges + to_edge);
          }
          if (back > 0)
            for (int j : shared[si]) --needed[j];
        }
    };
    fill(fill, 0, e.k[si]);
    if (keyed[si] && !cut) memo.emplace(key, out);
    return out;
  };
  const Classes all = rest(rest, 0);
  std::vector<std::pair<int, int>> out;
  for (int mv = 0; mv <= total; ++mv)
    for (int te = 0; te <= mv; ++te)
      if (all[mv * side + te]) out.emplace_back(mv, te);
  return out;
}

// Several sources' classes, remembered by the evacuation's shape (each
// source's pawns and destinations, each destination's room and kind: all
// the classes depend on). A listing asks for every number at every
// flashpoint, and a tile placed away from a number's groups leaves that
// evacuation as it was, so most asks repeat one (docs/benchmarks.md). Per
// thread, and forgotten once kRememberedShapes are held; a listing cut
// short by `spend` is not kept.
constexpr size_t kRememberedShapes = 1 << 14;
template <class Spend>
std::vector<std::pair<int, int>> remembered_classes(const Evacuation& e, Spend&& spend) {
  thread_local std::unordered_map<std::string, std::vector<std::pair<int, int>>> known;
  thread_local std::string shape;
  shape.clear();
  // Every count fits a byte: groups, pawns and destinations are below 255
  // (the static_assert above).
  auto put = [&](size_t x) { shape.push_back(static_cast<char>(x)); };
  put(e.sources.size());
  for (size_t si = 0; si < e.sources.size(); ++si) {
    put(e.k[si]);
    put(e.of[si].size());
    for (int j : e.of[si]) put(j);
  }
  for (size_t j = 0; j < e.dest.size(); ++j) put(2 * e.cap[j] + (e.at_edge[j] ? 1 : 0));
  if (auto it = known.find(shape); it != known.end()) return it->second;
  bool cut = false;
  std::vector<std::pair<int, int>> classes = several_sources_classes(e, [&] { return spend() || (cut = true, false); });
  if (!cut) {
    if (known.size() >= kRememberedShapes) known.clear();
    known.emplace(shape, classes);
  }
  return classes;
}

}  // namespace

// Every evacuation of colour `color` from the placed board, in canonical order.
void Game::evacuations(const State& s, int color, std::vector<Move>* out, Cell place, bool* truncated,
                       std::vector<MoveClass>* folded) const {
  const Lookup look(s);
  const auto group = groups_of(s, look);
  Evacuation e;
  for (int v = 1; v <= 6; ++v) {
    if (!evacuation_of(s, look, group, color, v, e)) continue;
    uint64_t work = 0;
    auto spend = [&]() {
      if (++work <= kMaxEvacuationWork) return true;
      if (!truncated)
        throw InvalidInput("position: an evacuation of number " + std::to_string(v) + " has too many outcomes to list");
      *truncated = true;
      return false;
    };
    auto new_move = [&]() -> Move& {
      Move& m = folded ? folded->emplace_back().move : out->emplace_back();
      m.place = place;
      m.kind = ActionKind::kEvacuate;
      m.number = static_cast<uint8_t>(v);
      return m;
    };
    auto new_class = [&](int moved, int to_edge) {
      new_move();
      folded->back().to_edge = static_cast<int8_t>(to_edge);
      folded->back().moved = static_cast<uint8_t>(moved);
    };
    if (e.sources.size() == 1) {
      int edges = 0, room = 0;
      for (size_t j = 0; j < e.dest.size(); ++j) (e.at_edge[j] ? edges : room) += e.cap[j];
      const int moved = std::min(e.k[0], edges + room);
      if (folded) {
        for (int to_edge = std::max(0, moved - room); to_edge <= std::min(edges, moved); ++to_edge)
          new_class(moved, to_edge);
        continue;
      }
      outcomes_in_order(e, moved, -1, false,
                        [&](const std::vector<uint8_t>& x) {
                          cells_of(e, x, new_move().to);
                          return true;
                        }, spend);
      continue;
    }
    if (folded) {
      for (const auto& [moved, to_edge] : remembered_classes(e, spend)) new_class(moved, to_edge);
      continue;
    }
    for (const OutcomeKey& key : several_sources_outcomes(e, spend)) to_cells(e, key, new_move().to);
  }
}

bool Game::class_outcomes(const State& s, const MoveClass& c,
                          const std::function<bool(const Move&)>& visit) const {
  const State placed = place_tile(s, next_tile(s), c.move.place, nullptr);
  const Lookup look(placed);
  const auto group = groups_of(placed, look);
  Evacuation e;
  if (!evacuation_of(placed, look, group, placed.next, c.move.number, e))
    throw InvalidInput("position: no evacuation class of number " + std::to_string(c.move.number) + " here");
  Move m = c.move;
  auto give = [&](const std::vector<uint8_t>& x) {
    m.to.clear();
    cells_of(e, x, m.to);
    return visit(m);
  };
  if (e.sources.size() == 1) {
    // Every step here leads to an outcome: no bound needed.
    outcomes_in_order(e, c.moved, c.to_edge, false, give, [] { return true; });
    return true;
  }
  // Candidates that are not outcomes are steps too: held to the listing's bound.
  uint64_t work = 0;
  outcomes_in_order(e, c.moved, c.to_edge, true, give,
                    [&] { return ++work <= kMaxEvacuationWork; });
  return work <= kMaxEvacuationWork;
}

State Game::act(const State& placed, const Move& m, TurnReport* report) const {
  State s = placed;
  const int c = s.next;
  switch (m.kind) {
    case ActionKind::kPass: break;
    case ActionKind::kTile:
      for (int i = 0; i < s.ntiles; ++i)
        if (s.tiles[i].cell == m.cell) s.tiles[i].pawns[c] = static_cast<uint8_t>(s.tiles[i].pawns[c] + m.count);
      s.supply[c] = static_cast<uint8_t>(s.supply[c] - m.count);
      break;
    case ActionKind::kEdge:
      insert_edge(s, m.cell, static_cast<uint8_t>(c));
      --s.supply[c];
      break;
    case ActionKind::kEvacuate: {
      int leaving = 0;
      for (int i = 0; i < s.ntiles; ++i)
        if (s.tiles[i].n == m.number) {
          leaving += s.tiles[i].pawns[c];
          s.tiles[i].pawns[c] = 0;
        }
      // A few cells: a scan of the tiles is cheaper than building a Lookup.
      for (Cell to : m.to) {
        int j = s.ntiles - 1;
        while (j >= 0 && !(s.tiles[j].cell == to)) --j;
        if (j >= 0) ++s.tiles[j].pawns[c];
        else insert_edge(s, to, static_cast<uint8_t>(c));
      }
      const int back = leaving - static_cast<int>(m.to.size());
      s.supply[c] = static_cast<uint8_t>(s.supply[c] + back);
      if (report) report->returned = back;
      break;
    }
  }
  s.drawn = static_cast<uint8_t>(s.drawn + 1);
  s.next = static_cast<uint8_t>((s.next + 1) % kColors);
  return s;
}

void Game::moves(const State& s, std::vector<Move>& out, bool* truncated) const {
  if (!final(s)) moves_with(s, next_tile(s), out, truncated);
}

void Game::moves_with(const State& s, const NewTile& tile, std::vector<Move>& out, bool* truncated) const {
  list_moves(s, tile, &out, nullptr, truncated);
}

void Game::move_classes(const State& s, std::vector<MoveClass>& out, bool* truncated) const {
  if (!final(s)) list_moves(s, next_tile(s), nullptr, &out, truncated);
}

void Game::list_moves(const State& s, const NewTile& tile, std::vector<Move>* out, std::vector<MoveClass>* folded,
                      bool* truncated) const {
  const int c = s.next;
  auto push = [&](const Move& m) {
    if (folded) folded->push_back(MoveClass{m});
    else out->push_back(m);
  };
  for (Cell place : flashpoints(s)) {
    const State placed = place_tile(s, tile, place, nullptr);
    Move pass;
    pass.place = place;
    push(pass);
    std::vector<int> order(placed.ntiles);
    for (int i = 0; i < placed.ntiles; ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](int a, int b) { return placed.tiles[a].cell < placed.tiles[b].cell; });
    for (int i : order) {
      const int most = std::min({3, static_cast<int>(placed.supply[c]), placed.tiles[i].room()});
      for (int k = 1; k <= most; ++k) {
        Move m;
        m.place = place;
        m.kind = ActionKind::kTile;
        m.cell = placed.tiles[i].cell;
        m.count = static_cast<uint8_t>(k);
        push(m);
      }
    }
    if (placed.supply[c] > 0) {
      const Lookup look(placed);
      for (Cell e : edge_areas(placed))
        if (look.edge_at(e) < 0) {
          Move m;
          m.place = place;
          m.kind = ActionKind::kEdge;
          m.cell = e;
          push(m);
        }
    }
    evacuations(placed, c, out, place, truncated, folded);
  }
}

std::vector<Child> Game::children(const State& s) const {
  std::vector<Move> all;
  moves(s, all, nullptr);
  if (all.size() > kMaxListedMoves)
    throw InvalidInput("position: the turn has " + std::to_string(all.size()) + " legal moves, more than the " +
                       std::to_string(kMaxListedMoves) + " a listing gives (solve still searches it)");
  std::vector<Child> out;
  // Merged by state: a key finds the candidate, the state itself decides.
  std::unordered_map<uint64_t, size_t> first;
  for (Move& m : all) {
    const State next = apply(s, m);
    const uint64_t k = key(next);
    const auto it = first.find(k);
    if (it != first.end() && apply(s, out[it->second].move) == next) {
      out[it->second].equivalent.push_back(std::move(m));
      continue;
    }
    if (it == first.end()) first.emplace(k, out.size());
    out.push_back(Child{std::move(m), {}});
  }
  return out;
}

bool Game::legal(const State& s, const Move& m, std::string* why) const {
  auto fail = [&](const std::string& text) {
    *why = text;
    return false;
  };
  if (final(s)) return fail("the game is over: no tile is left to place");
  const std::vector<Cell> fp = flashpoints(s);
  if (std::find(fp.begin(), fp.end(), m.place) == fp.end())
    return fail("place " + cell_text(m.place) + " is not a flashpoint");
  const State placed = place_tile(s, next_tile(s), m.place, nullptr);
  const Lookup look(placed);
  const int c = s.next;
  switch (m.kind) {
    case ActionKind::kPass: return true;
    case ActionKind::kTile: {
      const int i = look.tile_at(m.cell);
      if (i < 0) return fail("no tile on " + cell_text(m.cell));
      if (m.count < 1 || m.count > 3) return fail("count must be 1..3");
      if (m.count > placed.supply[c]) return fail("colour " + std::to_string(c) + " has only " + std::to_string(placed.supply[c]) + " pawns in the supply");
      if (m.count > placed.tiles[i].room()) return fail("the tile on " + cell_text(m.cell) + " has room for " + std::to_string(placed.tiles[i].room()));
      return true;
    }
    case ActionKind::kEdge: {
      if (placed.supply[c] < 1) return fail("colour " + std::to_string(c) + " has no pawn in the supply");
      if (look.tile_at(m.cell) >= 0) return fail(cell_text(m.cell) + " holds a tile");
      if (look.tile_neighbors(m.cell) == 0) return fail(cell_text(m.cell) + " is not an edge area");
      if (look.edge_at(m.cell) >= 0) return fail("the edge area " + cell_text(m.cell) + " holds a pawn");
      return true;
    }
    case ActionKind::kEvacuate: {
      if (m.number < 1 || m.number > 6) return fail("number must be 1..6");
      const auto group = groups_of(placed, look);
      Evacuation e;
      if (!evacuation_of(placed, look, group, c, m.number, e))
        return fail("no pawn of colour " + std::to_string(c) + " stands on a tile numbered " + std::to_string(m.number));
      std::vector<uint8_t> x(e.dest.size(), 0);  // a destination holds 3 at most: checked at each pawn
      for (Cell to : m.to) {
        const auto j = std::find(e.dest.begin(), e.dest.end(), to) - e.dest.begin();
        if (j == static_cast<long>(e.dest.size()) || ++x[j] > e.cap[j])
          return fail("the evacuation's destinations are not those of any outcome");
      }
      if (!is_outcome(e, x)) return fail("the evacuation's destinations are not those of any outcome");
      return true;
    }
  }
  return fail("unknown action");
}

State Game::apply(const State& s, const Move& m, TurnReport* report) const {
  return apply_with(s, next_tile(s), m, report);
}

State Game::apply_with(const State& s, const NewTile& tile, const Move& m, TurnReport* report) const {
  Move sorted = m;
  std::sort(sorted.to.begin(), sorted.to.end());
  return act(place_tile(s, tile, m.place, report), sorted, report);
}

// ------------------------------------------------------------ the deal

std::vector<NewTile> deal(uint64_t seed, int count) {
  static constexpr int kSpaces[7] = {0, 1, 1, 2, 2, 3, 3};
  std::vector<NewTile> box;
  for (int n = 1; n <= 6; ++n)
    for (int i = 0; i < 7; ++i) box.push_back({n, kSpaces[n]});
  box.push_back({3, kSpaces[3]});
  Rng rng(seed);
  rng.shuffle(box);
  box.resize(static_cast<size_t>(std::clamp(count, 2, static_cast<int>(box.size()))));
  return box;
}

}  // namespace sj::onrun
