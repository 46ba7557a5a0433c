#include "games/wildfire/wildfire.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <string>

#include "core/bits.hpp"
#include "core/error.hpp"

namespace sj::wildfire {
namespace {

constexpr uint64_t kTileDomain = 0x5749'4C44'0001ull;
constexpr uint64_t kPawnDomain = 0x5749'4C44'0002ull;
constexpr uint64_t kSupplyDomain = 0x5749'4C44'0003ull;
constexpr uint64_t kPassedDomain = 0x5749'4C44'0004ull;
constexpr uint8_t kAllDirections = 0x3F;

std::string cell_text(int q, int r) {
  std::string out = "(";
  out.append(std::to_string(q)).append(", ").append(std::to_string(r)).append(")");
  return out;
}

uint64_t cell_code(int q, int r) {
  return (static_cast<uint64_t>(q + 128) << 8) | static_cast<uint64_t>(r + 128);
}

uint64_t tile_code(int q, int r, int n, int spaces) {
  return zobrist(kTileDomain, cell_code(q, r), static_cast<uint64_t>(n * 4 + spaces));
}

uint64_t pawn_code(int q, int r, int count) {
  return count ? zobrist(kPawnDomain, cell_code(q, r), static_cast<uint64_t>(count)) : 0;
}

int spaces_or_default(int n, int spaces) { return spaces > 0 ? spaces : kDefaultSpaces[n]; }

void check_kind(int n, int spaces, const std::string& where) {
  if (n < 1 || n > 6) throw InvalidInput(where + ".n: " + std::to_string(n) + " must be 1..6");
  if (spaces < 0 || spaces > 3)
    throw InvalidInput(where + ".spaces: " + std::to_string(spaces) + " must be 1..3");
}

// The direction from tile (q, r) to the neighbouring cell (nq, nr).
int direction_to(int q, int r, int nq, int nr) {
  for (int d = 0; d < kHexDirections; ++d)
    if (q + kHexStep[d].q == nq && r + kHexStep[d].r == nr) return d;
  return -1;
}

}  // namespace

// The empty cells next to the table with their heat and neighbouring tiles,
// in a small open-addressing table on the stack (a table of 64 tiles has at
// most 134 such cells).
struct Game::Frontier {
  static constexpr int kSlots = 256;
  std::array<uint16_t, kSlots> code;
  std::array<uint16_t, kSlots> heat;
  std::array<uint64_t, kSlots> nb;
  std::array<uint8_t, kSlots> used;
  int size = 0;
  int top = 0;
};

void Game::frontier(const State& s, Frontier& f) const {
  f.code.fill(0);
  f.size = 0;
  f.top = 0;
  for (int i = 0; i < s.count; ++i) {
    const unsigned open = ~s.occ[i] & kAllDirections;
    for (int d = 0; d < kHexDirections; ++d) {
      if (!(open & (1u << d))) continue;
      const int nq = s.q[i] + kHexStep[d].q, nr = s.r[i] + kHexStep[d].r;
      const auto code = static_cast<uint16_t>(cell_code(nq, nr));
      unsigned slot = (code * 0x9E37u) >> 8 & (Frontier::kSlots - 1);
      while (f.code[slot] && f.code[slot] != code) slot = (slot + 1) & (Frontier::kSlots - 1);
      if (!f.code[slot]) {
        f.code[slot] = code;
        f.heat[slot] = 0;
        f.nb[slot] = 0;
        f.used[f.size++] = static_cast<uint8_t>(slot);
      }
      f.heat[slot] = static_cast<uint16_t>(f.heat[slot] + n_[i]);
      f.nb[slot] |= bit(i);
      f.top = std::max<int>(f.top, f.heat[slot]);
    }
  }
}

Game::Game(const PositionSpec& spec) {
  const int colors = static_cast<int>(spec.supply.size());
  if (colors < 1 || colors > kMaxColors)
    throw InvalidInput("supply: " + std::to_string(colors) + " colours; 1.." +
                       std::to_string(kMaxColors) + " are allowed");
  for (int c = 0; c < colors; ++c)
    if (spec.supply[c] < 0 || spec.supply[c] > kMaxSupplyPerColor)
      throw InvalidInput("supply[" + std::to_string(c) + "]: " + std::to_string(spec.supply[c]) +
                         " must be 0.." + std::to_string(kMaxSupplyPerColor));
  if (spec.level < 1 || spec.level > 3)
    throw InvalidInput("level: " + std::to_string(spec.level) + " must be 1, 2 or 3");
  const int on_table = static_cast<int>(spec.tiles.size());
  if (on_table < 1) throw InvalidInput("tiles: the table needs at least the start tile");
  if (spec.turn < 0) throw InvalidInput("turn: " + std::to_string(spec.turn) + " must be >= 0");
  if (on_table != spec.turn + 1)
    throw InvalidInput("tiles: " + std::to_string(on_table) + " tiles after " +
                       std::to_string(spec.turn) + " turns; a solitaire table holds turn + 1 = " +
                       std::to_string(spec.turn + 1));
  const int rest = static_cast<int>(spec.rest.size());
  const std::string rest_name = spec.known ? "deal_rest" : "pool";
  if (spec.known) {
    total_ = on_table + rest;
  } else {
    if (spec.turns_left < 0 || spec.turns_left > rest)
      throw InvalidInput("turns_left: " + std::to_string(spec.turns_left) +
                         " must be 0..the pool size " + std::to_string(rest));
    if (rest > kMaxTiles)
      throw InvalidInput("pool: " + std::to_string(rest) + " tiles; at most " +
                         std::to_string(kMaxTiles));
    total_ = on_table + spec.turns_left;
  }
  if (total_ > kMaxTiles)
    throw InvalidInput("the game has " + std::to_string(total_) + " tiles (table and to come); at most " +
                       std::to_string(kMaxTiles) + " are supported");
  colors_ = colors;
  level_ = spec.level;
  known_ = spec.known;

  for (int i = 0; i < on_table; ++i) {
    const TileSpec& t = spec.tiles[i];
    const std::string where = "tiles[" + std::to_string(i) + "]";
    if (std::abs(t.q) > kMaxCoordinate || std::abs(t.r) > kMaxCoordinate)
      throw InvalidInput(where + ": cell " + cell_text(t.q, t.r) + " is outside |q|, |r| <= " +
                         std::to_string(kMaxCoordinate));
    check_kind(t.n, t.spaces, where);
    n_.push_back(t.n);
    spaces_.push_back(spaces_or_default(t.n, t.spaces));
    if (!t.pawns.empty() && static_cast<int>(t.pawns.size()) != colors)
      throw InvalidInput(where + ".pawns: " + std::to_string(t.pawns.size()) +
                         " counts; give one per colour (" + std::to_string(colors) + " in the supply)");
    int sum = 0;
    for (size_t c = 0; c < t.pawns.size(); ++c) {
      if (t.pawns[c] < 0)
        throw InvalidInput(where + ".pawns[" + std::to_string(c) + "]: must be >= 0");
      sum += t.pawns[c];
    }
    if (sum > spaces_.back())
      throw InvalidInput(where + " at " + cell_text(t.q, t.r) + ": " + std::to_string(sum) +
                         " pawns on a tile with " + std::to_string(spaces_.back()) + " spaces");
    for (int j = 0; j < i; ++j)
      if (spec.tiles[j].q == t.q && spec.tiles[j].r == t.r)
        throw InvalidInput(where + ": cell " + cell_text(t.q, t.r) + " already holds tiles[" +
                           std::to_string(j) + "]");
  }
  for (int i = 0; i < rest; ++i) {
    const Kind& k = spec.rest[i];
    check_kind(k.n, k.spaces, rest_name + "[" + std::to_string(i) + "]");
    if (spec.known) {
      n_.push_back(k.n);
      spaces_.push_back(spaces_or_default(k.n, k.spaces));
    } else {
      pool_.push_back({k.n, spaces_or_default(k.n, k.spaces)});
    }
  }
  // Hidden order with the tile drawn for this turn: it becomes the game's
  // next tile, so this one turn is listed and played as in a known order.
  if (spec.drawn) {
    if (spec.known)
      throw InvalidInput("drawn: only for hidden order (a known order draws deal_rest[0])");
    check_kind(spec.drawn->n, spec.drawn->spaces, "drawn");
    if (spec.turns_left < 1) throw InvalidInput("drawn: no tile is drawn, the game is over");
    const Kind d{spec.drawn->n, spaces_or_default(spec.drawn->n, spec.drawn->spaces)};
    for (int i = 0; i < rest && drawn_ < 0; ++i)
      if (pool_[i].n == d.n && pool_[i].spaces == d.spaces) drawn_ = i;
    if (drawn_ < 0)
      throw InvalidInput("drawn: no tile " + std::to_string(d.n) + " with " + std::to_string(d.spaces) +
                         " spaces in the pool (the pool still lists the drawn tile)");
    n_.push_back(d.n);
    spaces_.push_back(d.spaces);
  }

  // Connected: every tile but the start was placed next to the forest. With
  // at most 64 tiles every cell is then within 63 steps of the first one,
  // which is the origin of the relative cells the state keeps.
  origin_ = {spec.tiles[0].q, spec.tiles[0].r};
  uint64_t reached = 1;
  for (bool grew = true; grew;) {
    grew = false;
    for (int i = 0; i < on_table; ++i) {
      if (reached & bit(i)) continue;
      for (int j = 0; j < on_table; ++j)
        if ((reached & bit(j)) && direction_to(spec.tiles[j].q, spec.tiles[j].r, spec.tiles[i].q,
                                               spec.tiles[i].r) >= 0) {
          reached |= bit(i);
          grew = true;
          break;
        }
    }
  }
  for (int i = 0; i < on_table; ++i)
    if (!(reached & bit(i)))
      throw InvalidInput("tiles[" + std::to_string(i) + "] at " +
                         cell_text(spec.tiles[i].q, spec.tiles[i].r) +
                         ": not connected to tiles[0] (every tile is placed next to the forest)");

  const int known_tiles = static_cast<int>(n_.size());
  ones_from_.assign(known_tiles + 1, 0);
  one_spaces_from_.assign(known_tiles + 1, 0);
  spaces_from_.assign(known_tiles + 1, 0);
  for (int i = known_tiles - 1; i >= 0; --i) {
    ones_from_[i] = ones_from_[i + 1] + (n_[i] == 1);
    one_spaces_from_[i] = one_spaces_from_[i + 1] + (n_[i] == 1 ? spaces_[i] : 0);
    spaces_from_[i] = spaces_from_[i + 1] + spaces_[i];
    if (n_[i] == 1) ones_ |= bit(i);
  }

  State& s = initial_;
  for (int i = 0; i < on_table; ++i) {
    const TileSpec& t = spec.tiles[i];
    const int q = t.q - origin_.q, r = t.r - origin_.r;
    uint64_t nb = 0;
    for (int j = 0; j < i; ++j)
      if (direction_to(s.q[j], s.r[j], q, r) >= 0) nb |= bit(j);
    place(s, static_cast<int8_t>(q), static_cast<int8_t>(r), nb);
    for (int c = 0; c < static_cast<int>(t.pawns.size()); ++c)
      if (t.pawns[c]) add_pawns(s, c, i, t.pawns[c]);
  }
  for (int c = 0; c < colors; ++c) s.supply[c] = static_cast<uint8_t>(spec.supply[c]);
}

void Game::place(State& s, int8_t q, int8_t r, uint64_t neighbours) const {
  const int t = s.count;
  s.q[t] = q;
  s.r[t] = r;
  for_each_bit(neighbours, [&](int j) {
    const int d = direction_to(s.q[j], s.r[j], q, r);
    s.occ[j] = static_cast<uint8_t>(s.occ[j] | (1u << d));
    s.occ[t] = static_cast<uint8_t>(s.occ[t] | (1u << opposite_direction(d)));
    s.adj[j] |= bit(t);
    s.adj[t] |= bit(j);
  });
  s.layout ^= tile_code(q, r, n_[t], spaces_[t]);
  ++s.count;
}

void Game::add_pawns(State& s, int c, int tile, int k) const {
  const int before = count_of(s, c, tile);
  const int after = before + k;
  s.hash[c] ^= pawn_code(s.q[tile], s.r[tile], before) ^ pawn_code(s.q[tile], s.r[tile], after);
  s.lo[c] = (s.lo[c] & ~bit(tile)) | (after & 1 ? bit(tile) : 0);
  s.hi[c] = (s.hi[c] & ~bit(tile)) | (after & 2 ? bit(tile) : 0);
  s.pawns[tile] = static_cast<uint8_t>(s.pawns[tile] + k);
  s.supply[c] = static_cast<uint8_t>(s.supply[c] - std::min<int>(k, s.supply[c]));
}

int Game::free_edges(const State& s, int i) { return 6 - std::popcount(static_cast<unsigned>(s.occ[i])); }

int Game::room(const State& s, int i) const {
  return std::min(spaces_[i], free_edges(s, i)) - s.pawns[i];
}

int Game::tile_at(const State& s, Axial a) const {
  for (int i = 0; i < s.count; ++i)
    if (cell(s, i) == a) return i;
  return -1;
}

int Game::pawn_turns_left(const State& s) const {
  // The next turn is number s.count; turns before the level's first pawn
  // turn L take no pawns; the last turn is total - 1.
  return std::max(0, total_ - std::max<int>(s.count, level_));
}

std::vector<Axial> Game::hottest(const State& s) const {
  Frontier f;
  frontier(s, f);
  std::vector<Axial> out;
  for (int k = 0; k < f.size; ++k) {
    const int slot = f.used[k];
    if (f.heat[slot] != f.top) continue;
    out.push_back({(f.code[slot] >> 8) - 128, (f.code[slot] & 0xFF) - 128});
  }
  std::sort(out.begin(), out.end(),
            [](Axial a, Axial b) { return a.q != b.q ? a.q < b.q : a.r < b.r; });
  return out;
}

bool Game::representative(const State& s, int c) const {
  for (int o = 0; o < c; ++o)
    if (s.supply[o] == s.supply[c] && s.lo[o] == s.lo[c] && s.hi[o] == s.hi[c]) return false;
  return true;
}

std::vector<Move> Game::legal_moves(const State& s) const {
  std::vector<Move> out;
  if (s.count >= total_ || !next_tile_known(s)) return out;
  Frontier f;
  frontier(s, f);
  for (Axial cell : hottest(s)) {
    uint64_t nb = 0;
    for (int k = 0; k < f.size; ++k)
      if (f.code[f.used[k]] == cell_code(cell.q, cell.r)) nb = f.nb[f.used[k]];
    State base = s;
    place(base, static_cast<int8_t>(cell.q), static_cast<int8_t>(cell.r), nb);
    Move m;
    m.pq = static_cast<int8_t>(cell.q);
    m.pr = static_cast<int8_t>(cell.r);
    out.push_back(m);
    if (s.count < level_) continue;
    std::vector<int> order(base.count);
    for (int i = 0; i < base.count; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](int a, int b) {
      return base.q[a] != base.q[b] ? base.q[a] < base.q[b] : base.r[a] < base.r[b];
    });
    for (int c = 0; c < colors_; ++c)
      for (int i : order)
        for (int k = 1; k <= std::min({kMaxPerTurn, static_cast<int>(s.supply[c]), room(base, i)}); ++k) {
          m.color = static_cast<int8_t>(c);
          m.tq = base.q[i];
          m.tr = base.r[i];
          m.count = static_cast<uint8_t>(k);
          out.push_back(m);
        }
    m.color = -1;
    m.count = 0;
    m.tq = m.tr = 0;
  }
  return out;
}

bool Game::legal(const State& s, const Move& m, std::string* why) const {
  auto fail = [&](const std::string& text) {
    if (why) *why = text;
    return false;
  };
  if (s.count >= total_) return fail("the game is over: no turns left");
  if (!next_tile_known(s))
    return fail("hidden order: the tile of this turn is unknown; give it as 'drawn' (one turn at a time)");
  const Axial place_at = absolute(m.pq, m.pr);
  const std::vector<Axial> hot = hottest(s);
  if (std::find(hot.begin(), hot.end(), Axial{m.pq, m.pr}) == hot.end()) {
    std::string list;
    for (Axial a : hot) {
      if (!list.empty()) list.append(", ");
      list.append(cell_text(absolute(a.q, a.r).q, absolute(a.q, a.r).r));
    }
    return fail("place: " + cell_text(place_at.q, place_at.r) + " is not a hottest cell; hottest are " + list);
  }
  if (m.color < 0) return true;
  if (s.count < level_)
    return fail("pawns: no pawns on turn " + std::to_string(s.count) + " at level " + std::to_string(level_));
  if (m.color >= colors_) return fail("pawns.color: colour " + std::to_string(m.color) + " does not exist");
  if (m.count < 1 || m.count > kMaxPerTurn) return fail("pawns.count: must be 1..3");
  if (m.count > s.supply[m.color])
    return fail("pawns: colour " + std::to_string(m.color) + " has only " +
                std::to_string(s.supply[m.color]) + " pawns left");
  const State placed = apply(s, Move{m.pq, m.pr, -1, 0, 0, 0});
  const Axial target = absolute(m.tq, m.tr);
  const int i = tile_at(placed, target);
  if (i < 0) return fail("pawns.tile: no tile at " + cell_text(target.q, target.r));
  const int free = free_edges(placed, i);
  if (placed.pawns[i] + m.count > std::min(spaces_[i], free))
    return fail("pawns: " + std::to_string(placed.pawns[i]) + " + " + std::to_string(m.count) +
                " pawns on " + cell_text(target.q, target.r) + " exceed min(spaces " +
                std::to_string(spaces_[i]) + ", free edges " + std::to_string(free) + " after placing)");
  return true;
}

State Game::apply(const State& s, const Move& m) const {
  Frontier f;
  frontier(s, f);
  uint64_t nb = 0;
  const auto code = cell_code(m.pq, m.pr);
  for (int k = 0; k < f.size; ++k)
    if (f.code[f.used[k]] == code) nb = f.nb[f.used[k]];
  State out = s;
  place(out, m.pq, m.pr, nb);
  if (m.color >= 0) {
    for (int i = 0; i < out.count; ++i)
      if (out.q[i] == m.tq && out.r[i] == m.tr) {
        add_pawns(out, m.color, i, m.count);
        break;
      }
  }
  return out;
}

uint64_t flood(const State& s, uint64_t from, uint64_t within) {
  uint64_t reached = from & within, frontier = reached;
  while (frontier) {
    uint64_t next = 0;
    for_each_bit(frontier, [&](int i) { next |= s.adj[i]; });
    frontier = next & within & ~reached;
    reached |= frontier;
  }
  return reached;
}

namespace {

uint64_t open_tiles(const State& s) {
  uint64_t open = 0;
  for (int i = 0; i < s.count; ++i)
    if (s.occ[i] != kAllDirections) open |= bit(i);
  return open;
}

}  // namespace

bool Game::won(const State& s) const {
  for (int c = 0; c < colors_; ++c)
    if (s.supply[c]) return false;
  const uint64_t open = open_tiles(s);
  for (int c = 0; c < colors_; ++c) {
    const uint64_t mine = color_mask(s, c);
    if (!mine) continue;  // never had pawns: exempt
    if (flood(s, mine & (~mine + 1), mine) != mine) return false;
    if (!(mine & ones_ & open)) return false;
  }
  return true;
}

Outcome Game::outcome(const State& s) const {
  if (s.count < total_) return Outcome::kOngoing;
  return won(s) ? Outcome::kWin : Outcome::kLoss;
}

uint64_t Game::key(const State& s) const {
  // Colours are interchangeable: each colour's pattern (its pawns and its
  // supply) hashes on its own, and the patterns combine in sorted order.
  std::array<uint64_t, kMaxColors> v{};
  for (int c = 0; c < colors_; ++c) v[c] = mix64(s.hash[c] ^ zobrist(kSupplyDomain, s.supply[c], 0));
  for (int i = 1; i < colors_; ++i)  // insertion sort: at most four values
    for (int j = i; j > 0 && v[j - 1] > v[j]; --j) std::swap(v[j - 1], v[j]);
  uint64_t k = s.layout ^ (s.passed ? zobrist(kPassedDomain, 0, 1) : 0);
  for (int c = 0; c < colors_; ++c) k = mix64(k ^ v[c]);
  return k;
}

bool Game::hopeless(const State& s) const {
  const int turns = pawn_turns_left(s);
  // Each turn places at most 3 pawns of one colour.
  int needed_turns = 0, supply = 0;
  for (int c = 0; c < colors_; ++c) {
    needed_turns += (s.supply[c] + kMaxPerTurn - 1) / kMaxPerTurn;
    supply += s.supply[c];
  }
  if (needed_turns > turns) return true;
  const bool future = s.count < total_ && turns > 0;
  // Room: a tile takes pawns while pawns < min(spaces, free edges), and free
  // edges only shrink; tiles to come bring their spaces.
  uint64_t roomy = 0, open = 0;
  int room_total = future ? spaces_from_[s.count] : 0;
  int one_slots = future ? one_spaces_from_[s.count] : 0;
  for (int i = 0; i < s.count; ++i) {
    const int f = free_edges(s, i);
    if (f) open |= bit(i);
    const int rm = std::min(spaces_[i], f) - s.pawns[i];
    if (rm > 0 && turns > 0) {
      roomy |= bit(i);
      room_total += rm;
    }
    if (n_[i] == 1 && f) one_slots += std::max<int>(s.pawns[i], std::min(spaces_[i], f));
  }
  if (supply > room_total) return true;
  // Every colour with pawns needs one of them on a 1-tile that keeps a free
  // edge; a 1-tile holds at most max(its pawns, min(spaces, free edges)).
  const bool ones_to_come = future && ones_from_[s.count] > 0;
  const uint64_t ones_open = ones_ & open;
  int colors_with_pawns = 0;
  for (int c = 0; c < colors_; ++c) {
    const uint64_t mine = color_mask(s, c);
    if (!mine && !s.supply[c]) continue;
    ++colors_with_pawns;
    const bool can_add = s.supply[c] > 0 && turns > 0;
    const uint64_t usable = mine | (can_add ? roomy : 0);
    if (!mine) {
      if (!(ones_open & usable) && !ones_to_come) return true;
      continue;
    }
    // The region can grow only through tiles it holds or tiles with room;
    // with tiles to come, any open tile it reaches may link to any other
    // open tile (a superset of what new tiles can bridge).
    uint64_t reached = flood(s, mine & (~mine + 1), usable);
    bool outside = false;
    if (can_add && s.count < total_ && (reached & open)) {
      outside = true;
      reached = flood(s, reached | (usable & open), usable);
    }
    if ((reached & mine) != mine) return true;
    if (!(reached & ones_open & usable) && !(outside && ones_to_come)) return true;
    // The colour's pawns left go on its region: tiles so reached, or tiles
    // to come when it links to the outside.
    if (s.supply[c] && !outside) {
      int fits = 0;
      for_each_bit(reached & roomy, [&](int i) { fits += room(s, i); });
      if (s.supply[c] > fits) return true;
    }
  }
  return colors_with_pawns > one_slots;
}

void Game::children(const State& s, std::vector<Child>& out, int policy) const {
  out.clear();
  if (s.count >= total_) return;
  Frontier f;
  frontier(s, f);
  const bool pawns_ok = s.count >= level_;
  for (int k = 0; k < f.size; ++k) {
    const int slot = f.used[k];
    if (f.heat[slot] != f.top) continue;
    Child base;
    base.move.pq = static_cast<int8_t>((f.code[slot] >> 8) - 128);
    base.move.pr = static_cast<int8_t>((f.code[slot] & 0xFF) - 128);
    base.state = s;
    place(base.state, base.move.pq, base.move.pr, f.nb[slot]);
    base.footprint = {base.move};
    base.order = policy == 0 ? 45 : 1000;
    base.state.passed = pawns_ok;
    out.push_back(base);
    if (!pawns_ok) continue;
    State placed = base.state;
    placed.passed = false;
    // Normal form: after a turn that could have placed pawns and did not,
    // pawns go only on the tile just placed. Any other action was legal on
    // that earlier turn too (same pawns and supply, and free edges only
    // shrink), and playing it there instead reaches the same state, so a
    // winning line keeps a winning twin that obeys this rule.
    const int first_tile = s.passed ? placed.count - 1 : 0;
    for (int c = 0; c < colors_; ++c) {
      if (!placed.supply[c] || !representative(placed, c)) continue;
      const uint64_t mine = color_mask(placed, c);
      const bool has_one = (mine & ones_) != 0;
      for (int i = first_tile; i < placed.count; ++i) {
        const int rm = std::min({room(placed, i), kMaxPerTurn, static_cast<int>(placed.supply[c])});
        if (rm <= 0) continue;
        int score = 0;
        if (!mine) score += n_[i] == 1 ? 40 : 0;
        else if (mine & bit(i)) score += 30;
        else if (placed.adj[i] & mine) score += 40;
        else score -= 100;
        if (n_[i] == 1 && !has_one) score += 50;
        score += 2 * free_edges(placed, i);
        for (int kk = rm; kk >= 1; --kk) {
          Child ch;
          ch.move = base.move;
          ch.move.color = static_cast<int8_t>(c);
          ch.move.tq = placed.q[i];
          ch.move.tr = placed.r[i];
          ch.move.count = static_cast<uint8_t>(kk);
          ch.state = placed;
          add_pawns(ch.state, c, i, kk);
          ch.footprint = {ch.move};
          ch.order = score + 20 * kk;
          out.push_back(ch);
        }
      }
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Child& a, const Child& b) { return a.order > b.order; });
}

PositionSpec Game::to_spec(const State& s) const {
  PositionSpec spec;
  spec.turn = s.count - 1;
  spec.level = level_;
  spec.known = known_;
  spec.supply.assign(s.supply.begin(), s.supply.begin() + colors_);
  for (int i = 0; i < s.count; ++i) {
    TileSpec t;
    const Axial a = cell(s, i);
    t.q = a.q;
    t.r = a.r;
    t.n = n_[i];
    t.spaces = spaces_[i];
    for (int c = 0; c < colors_; ++c) t.pawns.push_back(count_of(s, c, i));
    spec.tiles.push_back(t);
  }
  std::sort(spec.tiles.begin(), spec.tiles.end(),
            [](const TileSpec& a, const TileSpec& b) { return a.q != b.q ? a.q < b.q : a.r < b.r; });
  if (known_) {
    for (int i = s.count; i < total_; ++i) spec.rest.push_back({n_[i], spaces_[i]});
    spec.turns_left = total_ - s.count;
  } else {
    // The drawn tile stays in the pool until it is placed.
    spec.rest = pool_;
    if (drawn_ >= 0 && next_tile_known(s)) spec.drawn = pool_[drawn_];
    if (drawn_ >= 0 && !next_tile_known(s)) spec.rest.erase(spec.rest.begin() + drawn_);
    spec.turns_left = total_ - s.count;
  }
  return spec;
}

// ---------------------------------------------------------------- scoring

std::vector<std::vector<int>> player_colors(int colors, int players) {
  // Three players play one colour each plus the neutral fourth (the spec).
  const bool neutral = players == 3 && colors == 4;
  if (players < 1 || players > colors || (colors % players && !neutral)) {
    std::string allowed;
    for (int p = 1; p <= colors; ++p)
      if (colors % p == 0 || (p == 3 && colors == 4))
        allowed.append(allowed.empty() ? "" : ", ").append(std::to_string(p));
    throw InvalidInput("players: " + std::to_string(players) + " does not fit " + std::to_string(colors) +
                       " colours; allowed " + allowed +
                       " (players split the colours evenly in index order; 3 players with 4 colours "
                       "leave the fourth neutral)");
  }
  const int each = neutral ? 1 : colors / players;
  std::vector<std::vector<int>> out(players);
  for (int p = 0; p < players; ++p)
    for (int c = p * each; c < (p + 1) * each; ++c) out[p].push_back(c);
  return out;
}

ScoreSheet score_sheet(const Game& game, const State& s, int players) {
  ScoreSheet sheet;
  sheet.colors = player_colors(game.colors(), players);
  sheet.scores.assign(players, 0);
  sheet.tie_breaks.assign(players, 0);
  const uint64_t open = open_tiles(s);
  // Regions are met in the (q, r) order of their first cell, whatever the
  // order the tiles were placed in.
  std::vector<int> by_cell(s.count);
  for (int i = 0; i < s.count; ++i) by_cell[i] = i;
  std::sort(by_cell.begin(), by_cell.end(),
            [&](int a, int b) { return s.q[a] != s.q[b] ? s.q[a] < s.q[b] : s.r[a] < s.r[b]; });
  for (int p = 0; p < players; ++p)
    for (int c : sheet.colors[p]) {
      uint64_t left = s.lo[c] | s.hi[c];
      for (int i : by_cell) {
        if (!(left & bit(i))) continue;
        ScoredRegion region{p, c, flood(s, bit(i), left), 0};
        left &= ~region.tiles;
        int total = 0, smallest = 0;
        for_each_bit(region.tiles, [&](int t) {
          total += game.number(t);
          if ((open & bit(t)) && (!smallest || game.number(t) < smallest)) smallest = game.number(t);
        });
        region.value = smallest ? total / smallest : 0;
        sheet.scores[p] += region.value;
        sheet.tie_breaks[p] = std::max(sheet.tie_breaks[p], region.value);
        sheet.regions.push_back(region);
      }
    }
  return sheet;
}

}  // namespace sj::wildfire
