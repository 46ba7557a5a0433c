// Legal moves of every decision (spec sections 4-10): each card's shapes
// as masks over the board, deduplicated by their effect (section 4: moves
// with equal JSON are one move).
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "core/bits.hpp"  // mix64
#include "core/rng.hpp"  // uint128
#include "games/firetower/game.hpp"

namespace sj::firetower {

namespace {

// Lines of 3 that touch a tower area: 5 along each of its 3 rows and 3 columns.
constexpr size_t kAreaLines = 30;

// Template placements, precomputed once: a placement lists its squares,
// -1 for a square off the board; at least one is on it.
struct Templates {
  std::vector<std::array<int, 3>> line3;  // rows and columns, in order along the line
  std::vector<std::array<int, 2>> line2;
  std::vector<std::array<int, 4>> block;  // 2x2
  std::array<Bits, kSquares> ring;        // the 8 squares around each square, by centre
  std::array<std::vector<std::array<int, 3>>, 4> area_lines;  // the line3 placements that touch each tower area (kAreaLines)
  // Two touching dominoes: every tetromino but the T, as offsets (dr, dc).
  std::vector<std::array<std::array<int, 2>, 4>> tetrominoes;

  static int at(int r, int c) { return on_board(r, c) ? square_at(r, c) : -1; }

  Templates() {
    for (int b = 0; b < kSide; ++b)
      for (int a = -2; a < kSide; ++a) {
        line3.push_back({at(b, a), at(b, a + 1), at(b, a + 2)});
        line3.push_back({at(a, b), at(a + 1, b), at(a + 2, b)});
      }
    for (const auto& line : line3)
      for (int tower = 0; tower < 4; ++tower)
        if (std::any_of(line.begin(), line.end(), [&](int s) { return s >= 0 && regions().area[tower].test(s); }))
          area_lines[static_cast<size_t>(tower)].push_back(line);
    for (const auto& lines : area_lines)
      if (lines.size() != kAreaLines) throw std::logic_error("firetower: a tower area's lines miscounted");
    for (int b = 0; b < kSide; ++b)
      for (int a = -1; a < kSide; ++a) {
        line2.push_back({at(b, a), at(b, a + 1)});
        line2.push_back({at(a, b), at(a + 1, b)});
      }
    for (int r = -1; r < kSide; ++r)
      for (int c = -1; c < kSide; ++c) block.push_back({at(r, c), at(r, c + 1), at(r + 1, c), at(r + 1, c + 1)});
    for (int s = 0; s < kSquares; ++s)
      for (int dr = -1; dr <= 1; ++dr)
        for (int dc = -1; dc <= 1; ++dc)
          if ((dr || dc) && at(row_of(s) + dr, col_of(s) + dc) >= 0) ring[s].set(at(row_of(s) + dr, col_of(s) + dc));
    // Dominoes in a 4x4 box, paired when disjoint and touching; shapes
    // normalised to their top-left corner and deduplicated.
    std::vector<std::array<int, 4>> dominoes;
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) {
        if (c + 1 < 4) dominoes.push_back({r, c, r, c + 1});
        if (r + 1 < 4) dominoes.push_back({r, c, r + 1, c});
      }
    std::vector<std::vector<int>> seen;
    for (size_t i = 0; i < dominoes.size(); ++i)
      for (size_t j = i + 1; j < dominoes.size(); ++j) {
        const auto& x = dominoes[i];
        const auto& y = dominoes[j];
        std::array<std::array<int, 2>, 4> cells{{{x[0], x[1]}, {x[2], x[3]}, {y[0], y[1]}, {y[2], y[3]}}};
        bool disjoint = true, touching = false;
        for (int p = 0; p < 2; ++p)
          for (int q = 2; q < 4; ++q) {
            const int d = std::abs(cells[p][0] - cells[q][0]) + std::abs(cells[p][1] - cells[q][1]);
            if (d == 0) disjoint = false;
            if (d == 1) touching = true;
          }
        if (!disjoint || !touching) continue;
        int r0 = 9, c0 = 9;
        for (auto& cell : cells) r0 = std::min(r0, cell[0]), c0 = std::min(c0, cell[1]);
        std::vector<int> key;
        for (auto& cell : cells) cell = {cell[0] - r0, cell[1] - c0}, key.push_back(cell[0] * 4 + cell[1]);
        std::sort(key.begin(), key.end());
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
        seen.push_back(key);
        tetrominoes.push_back(cells);
      }
  }
};

const Templates& templates() {
  static const Templates t;
  return t;
}

template <size_t N>
Bits on_board_bits(const std::array<int, N>& squares) {
  Bits b;
  for (int s : squares)
    if (s >= 0) b.set(s);
  return b;
}

void put_squares(Move& m, const Bits& b) {
  m.nsq = 0;
  b.each([&](int s) { m.sq[m.nsq++] = static_cast<uint8_t>(s); });
}

// Pairs of orthogonally adjacent squares within b.
uint64_t adjacent_pairs(const Bits& b) { return static_cast<uint64_t>((b & b.west()).count() + (b & b.north()).count()); }

// Paths of two edges within b: each square's pairs of neighbours in b.
uint64_t two_edge_paths(const Bits& b) {
  const Bits n = b.south() & b, s = b.north() & b, e = b.west() & b, w = b.east() & b;
  return static_cast<uint64_t>((n & s).count() + (n & e).count() + (n & w).count() + (s & e).count() +
                               (s & w).count() + (e & w).count());
}

uint64_t pairs_of(uint64_t n) { return n * (n - (n ? 1 : 0)) / 2; }

// The NW quadrant (rows and columns 0-7) as one word, bit 8 r + c.
uint64_t nw_word(const Bits& b) {
  uint64_t x = 0;
  for (int r = 0; r < 8; ++r) x |= ((b.w[r >> 2] >> ((r & 3) * 16)) & 0xFF) << (8 * r);
  return x;
}

// Rows become columns in an 8x8 word (bit 8 r + c to bit 8 c + r).
uint64_t transpose8(uint64_t x) {
  uint64_t t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAull;
  x ^= t ^ (t << 7);
  t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCull;
  x ^= t ^ (t << 14);
  t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ull;
  return x ^ t ^ (t << 28);
}

uint64_t binomial(int n, int k) {
  if (k < 0 || k > n) return 0;
  uint128 r = 1;  // C(64, 32) fits in 64 bits; its products on the way do not
  for (int i = 1; i <= k; ++i) r = r * static_cast<unsigned>(n - k + i) / static_cast<unsigned>(i);
  return static_cast<uint64_t>(r);
}

uint64_t times(uint64_t a, uint64_t b) {  // saturating: a count past 2^64 is not a count anyone lists
  const uint128 p = static_cast<uint128>(a) * b;
  return p > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(p);
}

// The `index`-th k-subset of {0..n-1} in lexicographic order.
void unrank_combination(int n, int k, uint64_t index, uint8_t* out) {
  int next = 0;
  for (int i = 0; i < k; ++i) {
    while (true) {
      const uint64_t with = binomial(n - next - 1, k - i - 1);  // subsets that take `next` here
      if (index < with) break;
      index -= with;
      ++next;
    }
    out[i] = static_cast<uint8_t>(next++);
  }
}

// Which square sets were seen, for sets that fit a 3x3 box (every
// template's): a set is named by its box's corner and the box's 9 bits,
// marked in a per-thread bitmap that is cleared again when done. No
// hashing, no allocation: this runs at every decision of every playout.
class SeenSets {
 public:
  ~SeenSets() {
    for (size_t i = 0; i < marked_; ++i) seen()[marks_[i]] = 0;
  }
  bool insert(const Bits& b) {
    const uint32_t name = name_of(b);
    uint64_t& word = seen()[name >> 6];
    const uint64_t bit = uint64_t{1} << (name & 63);
    if (word & bit) return false;
    if (!word) marks_[marked_++] = static_cast<uint16_t>(name >> 6);
    word |= bit;
    return true;
  }

 private:
  static constexpr int kNames = kSquares << 9;
  static std::array<uint64_t, kNames / 64>& seen() {
    thread_local std::array<uint64_t, kNames / 64> words{};
    return words;
  }
  static uint32_t name_of(const Bits& b) {
    const int top = b.first() >> 4;
    uint32_t rows[3];
    for (int i = 0; i < 3; ++i) {
      const int r = top + i;
      rows[i] = r < kSide ? static_cast<uint32_t>(b.w[r >> 2] >> ((r & 3) * 16)) & 0xFFFF : 0;
    }
    const int left = std::countr_zero(rows[0] | rows[1] | rows[2]);
    return static_cast<uint32_t>(top * kSide + left) << 9 | ((rows[0] >> left) & 7) | ((rows[1] >> left) & 7) << 3 |
           ((rows[2] >> left) & 7) << 6;
  }
  std::array<uint16_t, kNames / 64> marks_;  // the words written
  size_t marked_ = 0;
};

// Distinct square sets as moves made from `base`, in the order first seen
// (section 4: moves with equal JSON are one move).
class DistinctSets {
 public:
  DistinctSets(const Move& base, std::vector<Move>& out) : base_(base), out_(out) {}
  void add(const Bits& b) {
    if (!seen_.insert(b)) return;
    Move m = base_;
    put_squares(m, b);
    out_.push_back(m);
  }
  bool insert(const Bits& b) { return seen_.insert(b); }

 private:
  const Move base_;
  std::vector<Move>& out_;
  SeenSets seen_;
};

Move play_of(uint8_t card, uint8_t option = kNoOption) {
  Move m;
  m.type = MoveType::kPlay;
  m.card = card;
  m.option = option;
  return m;
}

// Every sub-multiset of `counts` of `min_size` cards or more (all of a
// kind's copies are alike), cards sorted by kind.
void sub_multisets(const std::array<uint8_t, kMaxKinds>& counts, int kinds, int min_size, const Move& base,
                   std::vector<Move>& out) {
  std::array<uint8_t, kMaxKinds> take{};
  while (true) {
    int size = 0;
    for (int k = 0; k < kinds; ++k) size += take[k];
    if (size >= min_size) {
      Move m = base;
      m.ncards = 0;
      for (int k = 0; k < kinds; ++k)
        for (int i = 0; i < take[k]; ++i) m.cards[m.ncards++] = static_cast<uint8_t>(k);
      out.push_back(m);
    }
    int k = 0;
    while (k < kinds && take[k] == counts[k]) take[k++] = 0;
    if (k == kinds) break;
    ++take[k];
  }
}

}  // namespace

bool rolling_ends(const State& s, int a, int b, int dir, int ends[2]) {
  const int pair[2] = {a, b};
  const Bits burning = s.gems | regions().flame;
  for (int g = 0; g < 2; ++g) {
    int end = -1;
    for (int k = 1; k <= 2; ++k) {
      const int r = row_of(pair[g]) + k * kDirRow[dir], c = col_of(pair[g]) + k * kDirCol[dir];
      if (!on_board(r, c)) return false;
      const int sq = square_at(r, c);
      if (sq == a || sq == b) continue;  // the pair's own squares do not block it
      if (burning.test(sq) || s.breaks.test(sq)) return false;
      if (end < 0 && s.hawks.test(sq)) end = sq;  // captured by the first hawk on its path
    }
    if (end < 0) end = square_at(row_of(pair[g]) + 2 * kDirRow[dir], col_of(pair[g]) + 2 * kDirCol[dir]);
    const int area = area_of(pair[g]);
    if (area >= 0 && area_of(end) != area) return false;  // gems never leave a tower area
    ends[g] = end;
  }
  return ends[0] != ends[1];
}

// The generators, with the board's masks computed once per call.
struct MoveGen {
  const Engine& engine;
  const State& s;
  const Regions& reg = regions();
  Bits burning, place, empty, removable, touching;  // touching: placeable squares next to fire

  MoveGen(const Engine& e, const State& st) : engine(e), s(st) {
    burning = s.gems | reg.flame;
    place = reg.all.minus(s.gems | s.breaks | reg.flame);
    empty = place.minus(s.hawks);
    removable = s.gems.minus(reg.any_area);
    touching = place & burning.adjacent();
  }

  const CardKind& kind(int k) const { return engine.rules_.cards[static_cast<size_t>(k)]; }

  // ---------------------------------------------------------- fire cards

  // The fill rule: every placeable square of the shape; legal when one of
  // them touches pre-existing fire.
  bool fill(const Bits& shape, Bits& placed) const {
    placed = shape & place;
    return (placed & touching).any();
  }

  void flare_up(uint8_t card, std::vector<Move>& out) const {
    DistinctSets sets(play_of(card), out);
    for (const auto& line : templates().line3) {
      Bits piece;
      auto close = [&] {
        Bits placed;
        if (piece.any() && fill(piece, placed)) sets.add(placed);
        piece = Bits{};
      };
      for (int sq : line) {
        if (sq >= 0 && s.breaks.test(sq)) close();  // a firebreak cuts the line
        else if (sq >= 0) piece.set(sq);
      }
      close();
    }
  }

  template <class Shapes>
  void pattern(const Shapes& shapes, const Move& base, std::vector<Move>& out) const {
    DistinctSets sets(base, out);
    for (const auto& shape : shapes) {
      Bits placed;
      if (fill(on_board_bits(shape), placed)) sets.add(placed);
    }
  }

  // Crown Fire's double: whole tetrominoes, by shape, then by the corner of
  // the shape's box. No two placements cover the same squares.
  void crown_fire_double(uint8_t card, std::vector<Move>& out) const {
    for (const auto& shape : templates().tetrominoes)
      tetromino_corners(shape).each([&](int corner) { out.push_back(tetromino_play(card, shape, corner)); });
  }

  Bits tetromino_corners(const std::array<std::array<int, 2>, 4>& shape) const {
    Bits all = ~Bits{}, near;
    for (const auto& cell : shape) {
      all &= place.ahead(cell[0], cell[1]);
      near |= touching.ahead(cell[0], cell[1]);
    }
    return all & near;
  }

  static Move tetromino_play(uint8_t card, const std::array<std::array<int, 2>, 4>& shape, int corner) {
    Bits b;
    for (const auto& cell : shape) b.set(corner + cell[0] * kSide + cell[1]);
    Move m = play_of(card, kDouble);
    put_squares(m, b);
    return m;
  }

  void explosion(uint8_t card, std::vector<Move>& out) const {
    explosion_centres().each([&](int c) {
      Move m = play_of(card);
      m.nsq = 1;
      m.sq[0] = static_cast<uint8_t>(c);
      out.push_back(m);
    });
  }

  void ember(uint8_t card, std::vector<Move>& out) const {
    s.gems.minus(reg.any_area).each([&](int from) {
      const Bits lifted = burning.minus(Bits::one(from));
      const Bits to = (place & lifted.adjacent()).minus(Bits::one(from));
      to.each([&](int dst) {
        Move m = play_of(card);
        m.nsq = 2;
        m.sq[0] = static_cast<uint8_t>(from);
        m.sq[1] = static_cast<uint8_t>(dst);
        out.push_back(m);
      });
    });
  }

  static Bits above(int s) {  // squares after s
    Bits b;
    for (int i = 0; i < 4; ++i) {
      const int lo = i * 64;
      if (s < lo) b.w[i] = ~uint64_t{0};
      else if (s < lo + 63) b.w[i] = ~uint64_t{0} << (s - lo + 1);
    }
    return b;
  }

  void creeping_fires(uint8_t card, std::vector<Move>& out) const {
    const Bits c = touching;
    auto emit = [&](std::initializer_list<int> squares) {
      Move m = play_of(card);
      for (int sq : squares) m.sq[m.nsq++] = static_cast<uint8_t>(sq);
      out.push_back(m);
    };
    const size_t before = out.size();
    c.each([&](int i) {
      const Bits ri = (c & above(i)).minus(Bits::one(i).adjacent());
      ri.each([&](int j) {
        const Bits rj = (ri & above(j)).minus(Bits::one(j).adjacent());
        rj.each([&](int k) { emit({i, j, k}); });
      });
    });
    if (out.size() > before) return;
    c.each([&](int i) { ((c & above(i)).minus(Bits::one(i).adjacent())).each([&](int j) { emit({i, j}); }); });
    if (out.size() > before) return;
    c.each([&](int i) { emit({i}); });
  }

  void rolling_firebrand(uint8_t card, std::vector<Move>& out) const {
    s.gems.each([&](int a) {
      for (int toward : {int{kE}, int{kS}}) {
        const int br = row_of(a) + kDirRow[toward], bc = col_of(a) + kDirCol[toward];
        if (!on_board(br, bc) || !s.gems.test(square_at(br, bc))) continue;
        for (int d = kN; d <= kW; ++d) {
          int ends[2];
          if (!rolling_ends(s, a, square_at(br, bc), d, ends)) continue;
          Move m = play_of(card);
          m.nsq = 2;
          m.sq[0] = static_cast<uint8_t>(a);
          m.sq[1] = static_cast<uint8_t>(square_at(br, bc));
          m.arg = static_cast<uint8_t>(d);
          out.push_back(m);
        }
      }
    });
  }

  // Creeping Fires and Helitack have thousands of plays once the fire
  // spreads, and the random baseline wants one of them: they are counted,
  // and their play `index` found, by whole-board counts instead of a list.
  // The candidates' adjacency is a grid graph (no triangles), so the sets
  // of 3 holding an adjacent pair number E (n - 2) - P, E its edges and P
  // its paths of two edges (each such set counted twice by E (n - 2)).

  struct Creeping {
    uint64_t count;
    int size;  // 3 when any 3 fit, else 2, else 1
  };
  Creeping creeping() const {
    const uint64_t n = static_cast<uint64_t>(touching.count());
    const uint64_t edges = adjacent_pairs(touching), paths = two_edge_paths(touching);
    if (n >= 3) {
      const uint64_t three = n * (n - 1) * (n - 2) / 6 - (edges * (n - 2) - paths);
      if (three) return {three, 3};
    }
    const uint64_t two = pairs_of(n) - edges;
    return two ? Creeping{two, 2} : Creeping{n, 1};
  }

  // In creeping_fires' order: by first square, then second, then third.
  Move creeping_at(uint8_t card, uint64_t index) const {
    Move m = play_of(card);
    auto put = [&](int sq) { m.sq[m.nsq++] = static_cast<uint8_t>(sq); };
    const int size = creeping().size;
    if (size == 1) {
      put(touching.nth(static_cast<int>(index)));
      return m;
    }
    for (Bits after_i = touching;;) {
      const int i = after_i.first();
      after_i.clear(i);
      const Bits with_i = after_i.minus(Bits::one(i).adjacent());
      const uint64_t sets = size == 2 ? static_cast<uint64_t>(with_i.count())
                                      : pairs_of(static_cast<uint64_t>(with_i.count())) - adjacent_pairs(with_i);
      if (index >= sets) {
        index -= sets;
        continue;
      }
      put(i);
      if (size == 2) {
        put(with_i.nth(static_cast<int>(index)));
        return m;
      }
      for (Bits after_j = with_i;;) {
        const int j = after_j.first();
        after_j.clear(j);
        const Bits with_j = after_j.minus(Bits::one(j).adjacent());
        const uint64_t n = static_cast<uint64_t>(with_j.count());
        if (index < n) {
          put(j);
          put(with_j.nth(static_cast<int>(index)));
          return m;
        }
        index -= n;
      }
    }
  }

  // Gems with a free side (spec 6.8): on the board's edge (a domino may
  // overhang it) or next to a square that is not a removable gem.
  Bits free_sided() const {
    constexpr Bits edge{{0x800180018001FFFFull, 0x8001800180018001ull, 0x8001800180018001ull, 0xFFFF800180018001ull}};
    return removable & (edge | (~removable).adjacent());
  }

  // Helitack (spec 6.8's test): every gem alone; every pair but two
  // non-adjacent gems that both lack a free side; the triples holding an
  // adjacent pair.
  uint64_t helitack_count() const {
    const Bits enclosed = removable.minus(free_sided());
    const uint64_t n = static_cast<uint64_t>(removable.count());
    const uint64_t e = static_cast<uint64_t>(enclosed.count());
    const uint64_t pairs = pairs_of(n) - (pairs_of(e) - adjacent_pairs(enclosed));
    const uint64_t triples = n >= 3 ? adjacent_pairs(removable) * (n - 2) - two_edge_paths(removable) : 0;
    return n + pairs + triples;
  }

  // In helitack's order: by first gem, that gem alone first; then by
  // second, the pair before its triples.
  Move helitack_at(uint8_t card, uint64_t index) const {
    const Bits free = free_sided();
    Move m = play_of(card);
    auto put = [&](int sq) { m.sq[m.nsq++] = static_cast<uint8_t>(sq); };
    for (Bits after_i = removable;;) {
      const int i = after_i.first();
      after_i.clear(i);
      if (index == 0) {
        put(i);
        return m;
      }
      --index;
      const Bits near_i = Bits::one(i).adjacent();
      const bool free_i = free.test(i);
      const uint64_t later = static_cast<uint64_t>(after_i.count());
      const uint64_t pairs = free_i ? later : static_cast<uint64_t>((after_i & (near_i | free)).count());
      const Bits apart = after_i.minus(near_i);  // triples without i's adjacency: those with none at all
      const uint64_t triples = pairs_of(later) - (pairs_of(static_cast<uint64_t>(apart.count())) - adjacent_pairs(apart));
      if (index >= pairs + triples) {
        index -= pairs + triples;
        continue;
      }
      put(i);
      for (Bits after_j = after_i;;) {
        const int j = after_j.first();
        after_j.clear(j);
        const bool ij = near_i.test(j);
        if (ij || free_i || free.test(j)) {
          if (index == 0) {
            put(j);
            return m;
          }
          --index;
        }
        const Bits thirds = ij ? after_j : after_j & (near_i | Bits::one(j).adjacent());
        const uint64_t n = static_cast<uint64_t>(thirds.count());
        if (index < n) {
          put(j);
          put(thirds.nth(static_cast<int>(index)));
          return m;
        }
        index -= n;
      }
    }
  }

  // ---------------------------------------------------------- water

  template <class Shapes>
  void water(const Shapes& shapes, uint8_t card, std::vector<Move>& out) const {
    DistinctSets sets(play_of(card), out);
    for (const auto& shape : shapes) {
      const Bits r = on_board_bits(shape) & removable;
      if (r.any()) sets.add(r);
    }
  }

  void smokejumper(uint8_t card, std::vector<Move>& out) const {
    DistinctSets sets(play_of(card), out);
    burning.each([&](int c) {
      const Bits r = templates().ring[c] & removable;
      if (r.any()) sets.add(r);
    });
  }

  void helitack(uint8_t card, std::vector<Move>& out) const {
    // Spec 6.8's equivalent test on the set R of gems removed; each set
    // made once (a triple from its first adjacent pair).
    const Bits not_removable = ~removable;
    auto has_free_side = [&](int g) {
      const int r = row_of(g), c = col_of(g);
      if (r == 0 || r == 15 || c == 0 || c == 15) return true;  // a domino may overhang the edge
      return (Bits::one(g).adjacent() & not_removable).any();
    };
    auto adjacent = [](int a, int b) { return std::abs(row_of(a) - row_of(b)) + std::abs(col_of(a) - col_of(b)) == 1; };
    auto emit = [&](std::initializer_list<int> squares) {
      Move m = play_of(card);
      for (int sq : squares) m.sq[m.nsq++] = static_cast<uint8_t>(sq);
      out.push_back(m);
    };
    std::vector<int> g;
    removable.each([&](int sq) { g.push_back(sq); });
    const size_t n = g.size();
    for (size_t i = 0; i < n; ++i) {
      emit({g[i]});
      for (size_t j = i + 1; j < n; ++j) {
        const bool ij = adjacent(g[i], g[j]);
        if (ij || has_free_side(g[i]) || has_free_side(g[j])) emit({g[i], g[j]});
        for (size_t k = j + 1; k < n; ++k)
          if (ij || adjacent(g[i], g[k]) || adjacent(g[j], g[k])) emit({g[i], g[j], g[k]});
      }
    }
  }

  // ---------------------------------------------------------- wind, firebreaks, hawks

  Bits gem_squares(int dir) const { return burning.step(dir) & place; }

  void wind_gems(const Move& base, int dir, std::vector<Move>& out) const {
    gem_squares(dir).each([&](int sq) {
      Move m = base;
      m.nsq = 1;
      m.sq[0] = static_cast<uint8_t>(sq);
      out.push_back(m);
    });
  }

  void wind_card(uint8_t card, std::vector<Move>& out) const {
    const CardKind& k = kind(card);
    const int allowed = engine.allowed_winds(s);
    for (int d = kN; d <= kW; ++d)
      if ((k.dirs >> d & 1) && (allowed >> d & 1) && d != s.wind) {
        Move m = play_of(card, kSet);
        m.arg = static_cast<uint8_t>(d);
        out.push_back(m);
      }
    if (allowed & ~(s.wind < 4 ? 1 << s.wind : 0)) out.push_back(play_of(card, kRoll));
    wind_gems(play_of(card, kGem), k.gem, out);
  }

  void de_reforest(uint8_t card, std::vector<Move>& out) const {
    const Bits add = empty.minus(reg.area[kNW] | s.breaks.adjacent());
    add.each([&](int sq) {
      Move m = play_of(card, kAdd);
      m.nsq = 1;
      m.sq[0] = static_cast<uint8_t>(sq);
      out.push_back(m);
    });
    s.breaks.each([&](int sq) {
      Move m = play_of(card, kRemove);
      m.nsq = 1;
      m.sq[0] = static_cast<uint8_t>(sq);
      out.push_back(m);
    });
  }

  // Dozer Line (gap 0) and Scratch Line (gap 1): two empty squares in a row
  // or column, neither in the NW area nor next to a firebreak.
  void firebreak_pair(uint8_t card, int gap, std::vector<Move>& out) const {
    const Bits ok = empty.minus(reg.area[kNW] | s.breaks.adjacent());
    ok.each([&](int a) {
      for (int d : {int{kE}, int{kS}}) {
        const int r = row_of(a) + (gap + 1) * kDirRow[d], c = col_of(a) + (gap + 1) * kDirCol[d];
        if (!on_board(r, c) || !ok.test(square_at(r, c))) continue;
        Move m = play_of(card);
        m.nsq = 2;
        m.sq[0] = static_cast<uint8_t>(a);
        m.sq[1] = static_cast<uint8_t>(square_at(r, c));
        out.push_back(m);
      }
    });
  }

  void backburn(uint8_t card, std::vector<Move>& out) const {
    s.gems.minus(reg.area[kNW] | s.breaks.adjacent()).each([&](int sq) {
      Move m = play_of(card);
      m.nsq = 1;
      m.sq[0] = static_cast<uint8_t>(sq);
      out.push_back(m);
    });
  }

  // The squares own hawks may stand on: the NW quadrant outside its tower
  // area and the Eternal Flame, empty or holding an own hawk.
  Bits hawk_land() const { return reg.quadrant[kNW].minus(reg.area[kNW] | reg.flame); }

  void hawk_card(uint8_t card, std::vector<HawkFamily>* families) const {
    if (!families) return;
    const HawkFamily f = hawk_family(card);
    if (f.count) families->push_back(f);
  }

  HawkFamily hawk_family(uint8_t card) const {
    const int k = kind(card).hawks;
    const Bits own = s.hawks & reg.quadrant[kNW];
    const Bits land = empty & hawk_land();
    const int free = land.count();
    const int supply = engine.rules_.hawks_total - s.hawk_count();
    HawkFamily f;
    f.base = play_of(card);
    f.own = static_cast<uint8_t>(own.count());
    f.placed = static_cast<uint8_t>(std::clamp(std::min(k, supply), 0, free));
    f.max_take = static_cast<uint8_t>(supply < k ? std::min(k - f.placed, free - f.placed) : 0);
    ((land | own) & hawk_land()).each([&](int sq) { f.cells[f.ncells++] = static_cast<uint8_t>(sq); });
    s.hawks.minus(reg.quadrant[kNW]).each([&](int sq) {
      if (f.nenemies < f.enemies.size()) f.enemies[f.nenemies++] = static_cast<uint8_t>(sq);
    });
    for (int take = 0; take <= f.max_take; ++take)
      if (f.placed + take > 0) f.count += times(binomial(f.nenemies, take), binomial(f.ncells, f.own + f.placed + take));
    return f;
  }

  // ---------------------------------------------------------- counting a card's plays

  // The random baseline draws one play among a whole hand's, so each
  // card's plays are counted here by whole-board masks, the same distinct
  // square sets its listing keeps; only the drawn play is then made, by
  // rank (the template cards list their one card). A set is counted at its
  // lowest square, and b.ahead(dr, dc) tests the set's other cells there.

  // Lines of 3 (Flare Up, Air Drop): the distinct sets of a line's squares
  // in `within`, the line cut at squares in `cut`, holding one of `legal`.
  static uint64_t line3_sets(const Bits& within, const Bits& legal, const Bits& cut) {
    uint64_t n = 0;
    Bits alone;  // squares that some line leaves alone, along either direction
    for (int d : {int{kE}, int{kS}}) {
      auto along = [&](const Bits& b, int k) { return b.ahead(k * kDirRow[d], k * kDirCol[d]); };
      const Bits in1 = along(within, 1), in2 = along(within, 2);
      const Bits out1 = ~in1, out2 = ~in2, out_1 = ~along(within, -1), out_2 = ~along(within, -2);
      const Bits legal1 = along(legal, 1), legal2 = along(legal, 2), cut1 = along(cut, 1);
      n += (within & in1 & in2 & (legal | legal1 | legal2)).count();
      n += (within & in1 & (out_1 | out2) & (legal | legal1)).count();  // two: some line's third square is out
      n += (within & out1.minus(cut1) & in2 & (legal | legal2)).count();  // two with an uncut gap
      alone |= (out_1 & out1) | (out_1 & out_2) | (out1 & out2) | along(cut, -1) | cut1;
    }
    return n + (within & legal & alone).count();
  }

  // 2x2 blocks (Burning Snag, Fire Engine), overhanging the edge too.
  static uint64_t block_sets(const Bits& within, const Bits& legal) {
    const Bits& a = within;  // the block's cells from its top-left: a, e, s, se
    const Bits e = within.ahead(0, 1), s = within.ahead(1, 0), se = within.ahead(1, 1);
    const Bits la = legal, le = legal.ahead(0, 1), ls = legal.ahead(1, 0), lse = legal.ahead(1, 1);
    const Bits n = within.ahead(-1, 0), ne = within.ahead(-1, 1), w = within.ahead(0, -1), sw = within.ahead(1, -1);
    const Bits nw = within.ahead(-1, -1);
    uint64_t count = (a & e & s & se & (la | le | ls | lse)).count();
    count += ((a & e & s).minus(se) & (la | le | ls)).count();  // three of the four
    count += ((a & e & se).minus(s) & (la | le | lse)).count();
    count += ((a & s & se).minus(e) & (la | ls | lse)).count();
    count += ((e & s & se).minus(a) & (le | ls | lse)).count();
    count += ((a & se).minus(e | s) & (la | lse)).count();  // two on a diagonal
    count += ((e & s).minus(a | se) & (le | ls)).count();
    count += (a & e & (~(n | ne) | ~(s | se)) & (la | le)).count();  // two side by side: the block above or below
    count += (a & s & (~(w | sw) | ~(e | se)) & (la | ls)).count();  // one above the other: the block left or right
    const Bits alone = ~(e | s | se) | ~(w | s | sw) | ~(n | ne | e) | ~(n | nw | w);
    return count + (a & la & alone).count();
  }

  // Dominoes (Crown Fire): two side by side or one above the other, or one
  // square whose domino's other square is out.
  static uint64_t line2_sets(const Bits& within, const Bits& legal) {
    const Bits e = within.ahead(0, 1), s = within.ahead(1, 0);
    const Bits alone = ~e | ~s | ~within.ahead(0, -1) | ~within.ahead(-1, 0);
    return static_cast<uint64_t>((within & e & (legal | legal.ahead(0, 1))).count() +
                                 (within & s & (legal | legal.ahead(1, 0))).count() + (within & legal & alone).count());
  }

  uint64_t smokejumper_count() const {
    SeenSets seen;
    uint64_t n = 0;
    burning.each([&](int c) {
      const Bits r = templates().ring[c] & removable;
      if (r.any() && seen.insert(r)) ++n;
    });
    return n;
  }

  // Gems with a placeable square among their 8 neighbours.
  Bits explosion_centres() const {
    const Bits column = place | place.north() | place.south();
    return s.gems & (column | column.east() | column.west());
  }

  // Ember: a gem outside the areas moves next to the fire left behind. The
  // squares next to fire lose, for each gem moved, those next to it alone.
  Bits ember_gems() const { return s.gems.minus(reg.any_area); }
  Bits next_to_one_fire() const {
    const Bits a = burning.north(), b = burning.south(), c = burning.east(), d = burning.west();
    return touching & (a | b | c | d).minus((a & b) | (c & d) | ((a | b) & (c | d)));
  }
  uint64_t ember_count() const {
    const Bits from = ember_gems();
    return static_cast<uint64_t>(from.count()) * static_cast<uint64_t>(touching.count()) -
           static_cast<uint64_t>((next_to_one_fire() & from.adjacent()).count());
  }
  Move ember_at(uint8_t card, uint64_t index) const {
    const Bits lonely = next_to_one_fire();
    for (Bits from = ember_gems();;) {
      const int g = from.first();
      from.clear(g);
      const Bits to = touching.minus(lonely & Bits::one(g).adjacent());
      const uint64_t n = static_cast<uint64_t>(to.count());
      if (index < n) return squares_play(card, {g, to.nth(static_cast<int>(index))});
      index -= n;
    }
  }

  // Rolling Firebrand: pairs of gems side by side, each roll tried; few
  // pairs stand, and only those are visited.
  template <class F>  // f(a, b, dir) for each legal roll in listing order; true stops
  void rolls(F&& f) const {
    const Bits firsts = s.gems & (s.gems.ahead(0, 1) | s.gems.ahead(1, 0));
    for (Bits left = firsts; left.any();) {
      const int a = left.first();
      left.clear(a);
      for (int b : {a + 1, a + kSide}) {
        if ((b == a + 1 && col_of(a) == kSide - 1) || b >= kSquares || !s.gems.test(b)) continue;
        for (int d = kN; d <= kW; ++d) {
          int ends[2];
          if (rolling_ends(s, a, b, d, ends) && f(a, b, d)) return;
        }
      }
    }
  }
  uint64_t rolling_count() const {
    uint64_t n = 0;
    rolls([&](int, int, int) {
      ++n;
      return false;
    });
    return n;
  }
  Move rolling_at(uint8_t card, uint64_t index) const {
    Move m = play_of(card);
    rolls([&](int a, int b, int d) {
      if (index--) return false;
      m = squares_play(card, {a, b});
      m.arg = static_cast<uint8_t>(d);
      return true;
    });
    return m;
  }

  // A wind card: each direction it may set, its roll, then its gem squares.
  int wind_sets(uint8_t card) const {
    const int allowed = engine.allowed_winds(s) & kind(card).dirs & ~(s.wind < 4 ? 1 << s.wind : 0);
    return popcount64(static_cast<uint64_t>(allowed));
  }
  bool wind_roll() const { return (engine.allowed_winds(s) & ~(s.wind < 4 ? 1 << s.wind : 0)) != 0; }
  uint64_t wind_count(uint8_t card) const {
    return static_cast<uint64_t>(wind_sets(card) + (wind_roll() ? 1 : 0) + gem_squares(kind(card).gem).count());
  }
  Move wind_at(uint8_t card, uint64_t index) const {
    const int allowed = engine.allowed_winds(s) & kind(card).dirs & ~(s.wind < 4 ? 1 << s.wind : 0);
    for (int d = kN; d <= kW; ++d)
      if ((allowed >> d & 1) && index-- == 0) {
        Move m = play_of(card, kSet);
        m.arg = static_cast<uint8_t>(d);
        return m;
      }
    if (wind_roll() && index-- == 0) return play_of(card, kRoll);
    Move m = play_of(card, kGem);
    m.nsq = 1;
    m.sq[0] = static_cast<uint8_t>(gem_squares(kind(card).gem).nth(static_cast<int>(index)));
    return m;
  }

  // Firebreak cards: where a break may go, and Dozer and Scratch Lines'
  // pairs by their first square (the second east of it, then south).
  Bits break_squares() const { return empty.minus(reg.area[kNW] | s.breaks.adjacent()); }
  Bits pair_firsts(int gap, int toward) const {
    const Bits ok = break_squares();
    return ok & ok.ahead((gap + 1) * kDirRow[toward], (gap + 1) * kDirCol[toward]);
  }
  Move pair_at(uint8_t card, int gap, uint64_t index) const {
    const Bits east = pair_firsts(gap, kE), south = pair_firsts(gap, kS);
    for (Bits firsts = east | south;;) {
      const int a = firsts.first();
      firsts.clear(a);
      for (int toward : {int{kE}, int{kS}})
        if ((toward == kE ? east : south).test(a) && index-- == 0)
          return squares_play(card, {a, a + (gap + 1) * (toward == kE ? 1 : kSide)});
    }
  }
  Bits backburn_squares() const { return s.gems.minus(reg.area[kNW] | s.breaks.adjacent()); }

  static Move squares_play(uint8_t card, std::initializer_list<int> squares, uint8_t option = kNoOption) {
    Move m = play_of(card, option);
    for (int sq : squares) m.sq[m.nsq++] = static_cast<uint8_t>(sq);
    return m;
  }

  // The number of plays() lists for a card (hawk cards: none, their
  // families are apart).
  uint64_t play_count(uint8_t card, bool allow_double) const {
    const auto& t = templates();
    switch (kind(card).effect) {
      case Effect::kFlareUp: return line3_sets(place, touching, s.breaks);
      case Effect::kBurningSnag: return block_sets(place, touching);
      case Effect::kCrownFire: {
        uint64_t n = line2_sets(place, touching);
        if (allow_double && s.hand[card] >= 2)
          for (const auto& shape : t.tetrominoes) n += static_cast<uint64_t>(tetromino_corners(shape).count());
        return n;
      }
      case Effect::kExplosion: return static_cast<uint64_t>(explosion_centres().count());
      case Effect::kEmber: return ember_count();
      case Effect::kCreepingFires: return creeping().count;
      case Effect::kRollingFirebrand: return rolling_count();
      case Effect::kWind: return wind_count(card);
      case Effect::kDeReforest: return static_cast<uint64_t>(break_squares().count() + s.breaks.count());
      case Effect::kDozerLine:
      case Effect::kScratchLine: {
        const int gap = kind(card).effect == Effect::kScratchLine ? 1 : 0;
        return static_cast<uint64_t>(pair_firsts(gap, kE).count() + pair_firsts(gap, kS).count());
      }
      case Effect::kBackburn: return static_cast<uint64_t>(backburn_squares().count());
      case Effect::kSmokejumper: return smokejumper_count();
      case Effect::kAirDrop: return line3_sets(removable, removable, Bits{});
      case Effect::kFireEngine: return block_sets(removable, removable);
      case Effect::kHelitack: return helitack_count();
      case Effect::kHawks:
      case Effect::kFirestorm: return 0;
    }
    return 0;
  }

  // plays()'s move `index` (< play_count).
  Move play_at(uint8_t card, bool allow_double, uint64_t index) const {
    const int i = static_cast<int>(index);
    switch (kind(card).effect) {
      case Effect::kExplosion: return squares_play(card, {explosion_centres().nth(i)});
      case Effect::kEmber: return ember_at(card, index);
      case Effect::kCreepingFires: return creeping_at(card, index);
      case Effect::kHelitack: return helitack_at(card, index);
      case Effect::kRollingFirebrand: return rolling_at(card, index);
      case Effect::kWind: return wind_at(card, index);
      case Effect::kDeReforest: {
        const Bits add = break_squares();
        return i < add.count() ? squares_play(card, {add.nth(i)}, kAdd)
                               : squares_play(card, {s.breaks.nth(i - add.count())}, kRemove);
      }
      case Effect::kDozerLine: return pair_at(card, 0, index);
      case Effect::kScratchLine: return pair_at(card, 1, index);
      case Effect::kBackburn: return squares_play(card, {backburn_squares().nth(i)});
      case Effect::kCrownFire: {
        const uint64_t singles = line2_sets(place, touching);
        if (index < singles) break;  // listed below, without the doubles
        index -= singles;
        for (const auto& shape : templates().tetrominoes) {
          const Bits corners = tetromino_corners(shape);
          if (index < static_cast<uint64_t>(corners.count()))
            return tetromino_play(card, shape, corners.nth(static_cast<int>(index)));
          index -= static_cast<uint64_t>(corners.count());
        }
        break;
      }
      default: break;
    }
    // The template cards: their sets are told apart by listing them.
    std::vector<Move>& list = engine.scratch();
    list.clear();
    if (kind(card).effect == Effect::kCrownFire) pattern(templates().line2, play_of(card), list);
    else plays(card, allow_double, list, nullptr);
    return list[index];
  }

  // ---------------------------------------------------------- a card's plays

  void plays(uint8_t card, bool allow_double, std::vector<Move>& out, std::vector<HawkFamily>* families) const {
    const auto& t = templates();
    switch (kind(card).effect) {
      case Effect::kFlareUp: flare_up(card, out); break;
      case Effect::kBurningSnag: pattern(t.block, play_of(card), out); break;
      case Effect::kCrownFire:
        pattern(t.line2, play_of(card), out);
        if (allow_double && s.hand[card] >= 2) crown_fire_double(card, out);
        break;
      case Effect::kExplosion: explosion(card, out); break;
      case Effect::kEmber: ember(card, out); break;
      case Effect::kCreepingFires: creeping_fires(card, out); break;
      case Effect::kRollingFirebrand: rolling_firebrand(card, out); break;
      case Effect::kWind: wind_card(card, out); break;
      case Effect::kDeReforest: de_reforest(card, out); break;
      case Effect::kDozerLine: firebreak_pair(card, 0, out); break;
      case Effect::kScratchLine: firebreak_pair(card, 1, out); break;
      case Effect::kBackburn: backburn(card, out); break;
      case Effect::kSmokejumper: smokejumper(card, out); break;
      case Effect::kAirDrop: water(t.line3, card, out); break;
      case Effect::kFireEngine: water(t.block, card, out); break;
      case Effect::kHelitack: helitack(card, out); break;
      case Effect::kHawks: hawk_card(card, families); break;
      case Effect::kFirestorm: break;
    }
  }

  // ---------------------------------------------------------- decisions

  // A Bucket's lines (spec 9.1-9.2): 3 squares in a line holding a gem of
  // the tower's area; each removes every gem under it. An enemy's must
  // remove the most gems inside its area, then the most in all.
  void buckets(int tower, std::vector<Move>& out, bool best_only) const {
    if ((s.gems & reg.area[tower]).none()) return;
    std::array<Bits, kAreaLines> sets;
    size_t nsets = 0;
    int best_in = -1, best_all = -1;
    for (const auto& line : templates().area_lines[static_cast<size_t>(tower)]) {
      Bits r;
      int in = 0, all = 0;
      for (int sq : line)
        if (sq >= 0 && s.gems.test(sq)) {
          r.set(sq);
          ++all;
          if (reg.area[tower].test(sq)) ++in;
        }
      if (!in) continue;
      if (best_only) {
        if (in < best_in || (in == best_in && all < best_all)) continue;
        if (in > best_in || all > best_all) nsets = 0;
        best_in = in;
        best_all = all;
      }
      sets[nsets++] = r;
    }
    Move base;
    base.type = best_only ? MoveType::kEnemyBucket : MoveType::kBucket;
    if (best_only) base.arg = static_cast<uint8_t>(tower);
    DistinctSets distinct(base, out);
    for (size_t i = 0; i < nsets; ++i) distinct.add(sets[i]);
  }

  void player_bucket(std::vector<Move>& out) const {
    if (s.player_bucket == kBucketUnused) buckets(kNW, out, false);
  }

  // The Inferno places whole shapes inside the NW quadrant, which fits one
  // word (nw_word): a Flare Up's lines by their first square, rows' and
  // columns' (transposed, so that both read in the templates' order: by
  // row or column, then start), a Burning Snag's blocks by their corner.
  struct InfernoShapes {
    uint64_t rows = 0, columns = 0, blocks = 0;
    uint64_t count() const { return static_cast<uint64_t>(popcount64(rows) + popcount64(columns) + popcount64(blocks)); }
  };
  InfernoShapes inferno_shapes(Effect effect) const {
    const Bits in = reg.quadrant[kNW] & place, near = burning.adjacent();
    auto whole = [&](std::initializer_list<std::array<int, 2>> cells) {
      Bits all = in, touches;
      for (const auto& [dr, dc] : cells) {
        all &= in.ahead(dr, dc);
        touches |= near.ahead(dr, dc);
      }
      return nw_word(all & (near | touches));
    };
    InfernoShapes shapes;
    if (effect == Effect::kFlareUp) {
      shapes.rows = whole({{{0, 1}}, {{0, 2}}});
      shapes.columns = transpose8(whole({{{1, 0}}, {{2, 0}}}));
    } else if (effect == Effect::kBurningSnag) {
      shapes.blocks = whole({{{0, 1}}, {{1, 0}}, {{1, 1}}});
    }
    return shapes;
  }
  Bits inferno_explosions() const {
    const Bits q = reg.quadrant[kNW];
    Bits centres;
    (s.gems & q).each([&](int c) {
      if ((templates().ring[c] & q & place).count() >= 4) centres.set(c);
    });
    return centres;
  }

  void inferno(std::vector<Move>& out) const {
    const CardKind& k = kind(s.revealed);
    Move base;
    base.type = MoveType::kInferno;
    auto emit = [&](std::initializer_list<int> squares) {
      Move m = base;
      for (int sq : squares) m.sq[m.nsq++] = static_cast<uint8_t>(sq);
      out.push_back(m);
    };
    switch (k.effect) {
      case Effect::kFlareUp: {
        const InfernoShapes shapes = inferno_shapes(k.effect);
        for (uint64_t both = shapes.rows | shapes.columns; both; both &= both - 1) {
          const int at = std::countr_zero(both), b = at >> 3, a = at & 7;
          if (shapes.rows >> at & 1) emit({square_at(b, a), square_at(b, a + 1), square_at(b, a + 2)});
          if (shapes.columns >> at & 1) emit({square_at(a, b), square_at(a + 1, b), square_at(a + 2, b)});
        }
        break;
      }
      case Effect::kBurningSnag:
        for (uint64_t corners = inferno_shapes(k.effect).blocks; corners; corners &= corners - 1) {
          const int r = std::countr_zero(corners) >> 3, c = std::countr_zero(corners) & 7;
          emit({square_at(r, c), square_at(r, c + 1), square_at(r + 1, c), square_at(r + 1, c + 1)});
        }
        break;
      case Effect::kExplosion:
        base.arg = 1;
        inferno_explosions().each([&](int c) { emit({c}); });
        break;
      default: out.push_back(base); return;  // a wind card: its storm
    }
    if (out.empty() && !s.penalty) {
      for (int d : {int{kN}, int{kW}}) {
        Move m;
        m.type = MoveType::kPenalty;
        m.arg = static_cast<uint8_t>(d);
        out.push_back(m);
      }
    }
  }

  // At least two moves at this decision, known without listing them (the
  // forced-move check runs at every decision of every playout; a random
  // playout then lists the moves once, to draw one).
  bool surely_several() const {
    switch (s.need) {
      case Need::kAction: return s.hand_count >= 2;  // two cards give two discards
      case Need::kStormDiscard: return s.hand_count >= 1;  // none, or the one card
      case Need::kStormReroll: return true;  // keep, or reroll with the wind card it waits for
      case Need::kSetupHawk: return (empty & hawk_land()).count() >= 2;
      case Need::kWind: return gem_squares(s.wind).count() >= 2;
      case Need::kHawk: return s.pending.count() >= 2 || hawk_moves(s.pending.first()) >= 2;
      case Need::kInfernoPlace: {
        const Effect e = kind(s.revealed).effect;
        const uint64_t n = e == Effect::kExplosion ? static_cast<uint64_t>(inferno_explosions().count())
                                                   : inferno_shapes(e).count();
        return n >= 2 || (n == 0 && !s.penalty && (e == Effect::kFlareUp || e == Effect::kBurningSnag ||
                                                   e == Effect::kExplosion));  // two penalty storms
      }
      default: return false;
    }
  }

  void action(std::vector<Move>& out, std::vector<HawkFamily>* families) const {
    const int kinds = static_cast<int>(engine.rules_.cards.size());
    for (int k = 0; k < kinds; ++k)
      if (s.hand[k]) plays(static_cast<uint8_t>(k), true, out, families);
    Move discard;
    discard.type = MoveType::kDiscard;
    sub_multisets(s.hand, kinds, 1, discard, out);
    reckless(out);
    specialties(out);
  }

  // Reckless Abandon: three cards of one type discarded (water, then
  // firebreak; in sub_multisets' order), then gems on a pair of squares next
  // to fire, or on the one square when only one is.
  bool reckless_open() const {
    return s.player_bucket == kBucketUsed && (s.gems & reg.area[kNW]).any() && touching.any();
  }
  template <class F>  // f(the discard, as a move without squares); true stops
  void reckless_discards(F&& f) const {
    const int kinds = static_cast<int>(engine.rules_.cards.size());
    for (CardType type : {CardType::kWater, CardType::kFirebreak}) {
      std::array<uint8_t, kMaxKinds> of_type{}, take{};
      for (int k = 0; k < kinds; ++k)
        if (kind(k).type == type) of_type[k] = s.hand[k];
      while (true) {
        int size = 0;
        for (int k = 0; k < kinds; ++k) size += take[k];
        if (size == 3) {
          Move m;
          m.type = MoveType::kReckless;
          for (int k = 0; k < kinds; ++k)
            for (int i = 0; i < take[k]; ++i) m.cards[m.ncards++] = static_cast<uint8_t>(k);
          if (f(m)) return;
        }
        int k = 0;
        while (k < kinds && take[k] == of_type[k]) take[k++] = 0;
        if (k == kinds) break;
        ++take[k];
      }
    }
  }
  uint64_t reckless_squares() const {
    const uint64_t n = static_cast<uint64_t>(touching.count());
    return n == 1 ? 1 : pairs_of(n);
  }
  uint64_t reckless_count() const {
    if (!reckless_open()) return 0;
    uint64_t discards = 0;
    reckless_discards([&](const Move&) {
      ++discards;
      return false;
    });
    return discards * reckless_squares();
  }
  Move reckless_at(uint64_t index) const {
    uint64_t discard = index / reckless_squares();
    Move m;
    reckless_discards([&](const Move& d) {
      if (discard--) return false;
      m = d;
      return true;
    });
    return with_reckless_squares(m, index % reckless_squares());
  }
  // The discard `d` with its squares numbered `pair`: pairs by first square.
  Move with_reckless_squares(Move d, uint64_t pair) const {
    if (touching.count() == 1) {
      d.sq[d.nsq++] = static_cast<uint8_t>(touching.first());
      return d;
    }
    for (Bits later = touching;;) {
      const int i = later.first();
      later.clear(i);
      const uint64_t n = static_cast<uint64_t>(later.count());
      if (pair < n) {
        d.sq[d.nsq++] = static_cast<uint8_t>(i);
        d.sq[d.nsq++] = static_cast<uint8_t>(later.nth(static_cast<int>(pair)));
        return d;
      }
      pair -= n;
    }
  }
  void reckless(std::vector<Move>& out) const {
    if (!reckless_open()) return;
    reckless_discards([&](const Move& d) {
      for (uint64_t i = 0; i < reckless_squares(); ++i) out.push_back(with_reckless_squares(d, i));
      return false;
    });
  }

  bool wind_gem_possible() const {
    const int kinds = static_cast<int>(engine.rules_.cards.size());
    for (int k = 0; k < kinds; ++k)
      if (s.hand[k] && kind(k).type == CardType::kWind && gem_squares(kind(k).gem).any()) return true;
    return false;
  }

  void specialties(std::vector<Move>& out) const {
    Move m;
    m.type = MoveType::kSpecialty;
    if (!s.heavy_winds_back && wind_gem_possible()) {
      m.card = kHeavyWinds;
      out.push_back(m);
    }
    if (!s.lookout_back) {
      m.card = kLookout;
      out.push_back(m);
    } else {
      m.card = kPatrol;
      for (int k = 0; k < static_cast<int>(engine.rules_.cards.size()); ++k)
        if (s.hand[k]) {
          m.ncards = 1;
          m.cards[0] = static_cast<uint8_t>(k);
          out.push_back(m);
        }
    }
  }

  uint64_t specialty_count() const {
    uint64_t n = !s.heavy_winds_back && wind_gem_possible() ? 1 : 0;
    if (!s.lookout_back) return n + 1;
    for (size_t k = 0; k < engine.rules_.cards.size(); ++k)
      if (s.hand[k]) ++n;
    return n;
  }
  Move specialty_at(uint64_t index) const {
    Move m;
    m.type = MoveType::kSpecialty;
    if (!s.heavy_winds_back && wind_gem_possible() && index-- == 0) {
      m.card = kHeavyWinds;
      return m;
    }
    if (!s.lookout_back) {
      m.card = kLookout;
      return m;
    }
    m.card = kPatrol;
    m.ncards = 1;
    for (size_t k = 0; k < engine.rules_.cards.size(); ++k)
      if (s.hand[k] && index-- == 0) {
        m.cards[0] = static_cast<uint8_t>(k);
        break;
      }
    return m;
  }

  // One wind card more as option "gem" (Light Breeze, Heavy Winds).
  void extra_wind_gems(MoveType type, bool may_stop, std::vector<Move>& out) const {
    if (may_stop) {
      Move stop;
      stop.type = type;
      out.push_back(stop);
    }
    for (int k = 0; k < static_cast<int>(engine.rules_.cards.size()); ++k)
      if (s.hand[k] && kind(k).type == CardType::kWind) {
        Move base;
        base.type = type;
        base.card = static_cast<uint8_t>(k);
        wind_gems(base, kind(k).gem, out);
      }
  }

  // Where an activated hawk throws its gem: next to the fire left behind
  // (an enemy hawk: into the NW quadrant). None: the gem leaves the game.
  Bits hawk_destinations(int h) const {
    Bits to = (place & burning.minus(Bits::one(h)).adjacent()).minus(Bits::one(h));
    if (!reg.quadrant[kNW].test(h)) to &= reg.quadrant[kNW];
    return to;
  }
  int hawk_moves(int h) const { return std::max(1, hawk_destinations(h).count()); }

  void hawk(std::vector<Move>& out) const {
    s.pending.each([&](int h) {
      const Bits to = hawk_destinations(h);
      Move m;
      m.type = MoveType::kHawk;
      m.sq[0] = static_cast<uint8_t>(h);
      if (to.none()) {
        m.nsq = 1;
        out.push_back(m);
        return;
      }
      m.nsq = 2;
      to.each([&](int dst) {
        m.sq[1] = static_cast<uint8_t>(dst);
        out.push_back(m);
      });
    });
  }


  void pick(bool patrol, std::vector<Move>& out, std::vector<HawkFamily>* families) const {
    const int kinds = static_cast<int>(engine.rules_.cards.size());
    int drawn = 0;
    for (int k = 0; k < kinds; ++k) drawn += s.aside[k];
    // Families are needed to know whether a hawk card can be played at all.
    std::vector<HawkFamily> own_families;
    std::vector<HawkFamily>& fam = families ? *families : own_families;
    for (int k = 0; k < kinds; ++k) {
      if (!s.aside[k]) continue;
      uint8_t keep = kNull;
      if (patrol && drawn == 2)  // the other card drawn
        for (int o = 0; o < kinds; ++o)
          if (s.aside[o] - (o == k ? 1 : 0) > 0) keep = static_cast<uint8_t>(o);
      const size_t from = out.size(), from_families = fam.size();
      plays(static_cast<uint8_t>(k), false, out, &fam);
      for (size_t i = from; i < out.size(); ++i) {
        out[i].type = MoveType::kPick;
        out[i].keep = keep;
      }
      for (size_t i = from_families; i < fam.size(); ++i) {
        fam[i].base.type = MoveType::kPick;
        fam[i].base.keep = keep;
      }
    }
    if (!out.empty() || !fam.empty()) return;
    Move none;
    none.type = MoveType::kPick;
    if (!patrol) {
      out.push_back(none);
      return;
    }
    for (int k = 0; k < kinds; ++k)
      if (s.aside[k]) {
        none.keep = static_cast<uint8_t>(k);
        out.push_back(none);
      }
  }
};

void Engine::legal_moves(const State& s, std::vector<Move>& out, std::vector<HawkFamily>* families) const {
  out.clear();
  if (families) families->clear();
  if (!s.at_decision()) return;
  const MoveGen g(*this, s);
  const Frame& top = s.stack[s.depth - 1];
  switch (s.need) {
    case Need::kSetupHawk:
      (g.empty & g.hawk_land()).each([&](int sq) {
        Move m;
        m.type = MoveType::kSetupHawk;
        m.nsq = 1;
        m.sq[0] = static_cast<uint8_t>(sq);
        out.push_back(m);
      });
      break;
    case Need::kInfernoPlace:
      g.inferno(out);
      g.player_bucket(out);
      break;
    case Need::kWind: {
      Move base;
      base.type = MoveType::kWindGem;
      g.wind_gems(base, s.wind, out);
      g.player_bucket(out);
      break;
    }
    case Need::kAction: {
      // The Bucket comes with a decision, never instead of one: an action
      // with no legal move is skipped, Bucket or not.
      std::vector<HawkFamily> own;
      std::vector<HawkFamily>& fam = families ? *families : own;
      g.action(out, &fam);
      if (!out.empty() || !fam.empty()) g.player_bucket(out);
      break;
    }
    case Need::kEnd: {
      g.player_bucket(out);
      Move end;
      end.type = MoveType::kEnd;
      out.push_back(end);
      break;
    }
    case Need::kHawk: g.hawk(out); break;
    case Need::kEnemyBucket: g.buckets(top.b, out, true); break;
    case Need::kStormReroll: {
      Move keep;
      keep.type = MoveType::kKeep;
      out.push_back(keep);
      for (int k = 0; k < static_cast<int>(rules_.cards.size()); ++k)
        if (s.hand[k] && rules_.cards[static_cast<size_t>(k)].type == CardType::kWind) {
          Move m;
          m.type = MoveType::kReroll;
          m.card = static_cast<uint8_t>(k);
          out.push_back(m);
        }
      break;
    }
    case Need::kStormDiscard: {
      Move base;
      base.type = MoveType::kStormDiscard;
      sub_multisets(s.hand, static_cast<int>(rules_.cards.size()), 0, base, out);
      break;
    }
    case Need::kLightBreeze: g.extra_wind_gems(MoveType::kLightBreeze, true, out); break;
    case Need::kHeavyWind: g.extra_wind_gems(MoveType::kHeavyWind, top.a > 0, out); break;
    case Need::kPick: g.pick(top.a == kPatrol, out, families); break;
    default: break;
  }
}

// The action's moves as the random draw numbers them: each card's plays
// by kind (but hawk cards, Creeping Fires and Helitack), Reckless Abandon,
// the specialties, the Bucket, the hawk cards' families, Creeping Fires and
// Helitack, the discards. Only counted: the drawn move is then made alone.
// Their total is every distinct action move (Engine::action_count is
// checked against the full listing).
struct ActionDraw {
  enum class Part : uint8_t { kPlays, kReckless, kSpecialties, kBucket, kHawks, kDiscards };
  struct Segment {
    Part part;
    uint8_t card;
    uint64_t count;
  };
  std::array<Segment, 2 * kMaxKinds + 4> parts{};
  int nparts = 0;
  uint64_t total = 0;

  ActionDraw(const MoveGen& g, const State& s, const Rules& rules) {
    const int kinds = static_cast<int>(rules.cards.size());
    auto effect = [&](int k) { return rules.cards[static_cast<size_t>(k)].effect; };
    auto counted_apart = [&](int k) {
      return effect(k) == Effect::kHawks || effect(k) == Effect::kCreepingFires || effect(k) == Effect::kHelitack;
    };
    for (int k = 0; k < kinds; ++k)
      if (s.hand[k] && !counted_apart(k)) add(Part::kPlays, k, g.play_count(static_cast<uint8_t>(k), true));
    add(Part::kReckless, 0, g.reckless_count());
    add(Part::kSpecialties, 0, g.specialty_count());
    const int before_bucket = nparts;
    uint64_t discards = 1;
    for (int k = 0; k < kinds; ++k) discards *= uint64_t{s.hand[k]} + 1;
    for (int k = 0; k < kinds; ++k)
      if (s.hand[k] && effect(k) == Effect::kHawks) add(Part::kHawks, k, g.hawk_family(static_cast<uint8_t>(k)).count);
    for (int k = 0; k < kinds; ++k)
      if (s.hand[k] && counted_apart(k) && effect(k) != Effect::kHawks)
        add(Part::kPlays, k, g.play_count(static_cast<uint8_t>(k), true));
    add(Part::kDiscards, 0, discards - 1);
    // The Bucket comes with a decision, never instead of one; it goes
    // before the hawk cards.
    if (total && s.player_bucket == kBucketUnused) {
      std::vector<Move>& lines = g.engine.scratch();
      lines.clear();
      g.player_bucket(lines);
      if (!lines.empty()) {
        std::copy_backward(parts.begin() + before_bucket, parts.begin() + nparts, parts.begin() + nparts + 1);
        parts[static_cast<size_t>(before_bucket)] = {Part::kBucket, 0, lines.size()};
        ++nparts;
        total += lines.size();
      }
    }
  }

  void add(Part part, int card, uint64_t count) {
    if (!count) return;
    parts[static_cast<size_t>(nparts++)] = {part, static_cast<uint8_t>(card), count};
    total += count;
  }

  Move at(const MoveGen& g, const State& s, uint64_t r) const {
    const Segment* part = parts.data();
    while (r >= part->count) r -= part++->count;
    switch (part->part) {
      case Part::kPlays: return g.play_at(part->card, true, r);
      case Part::kReckless: return g.reckless_at(r);
      case Part::kSpecialties: return g.specialty_at(r);
      case Part::kBucket: {
        std::vector<Move>& lines = g.engine.scratch();
        lines.clear();
        g.player_bucket(lines);
        return lines[r];
      }
      case Part::kHawks: return g.hawk_family(part->card).unrank(r);
      case Part::kDiscards: break;
    }
    // A discard: r + 1 in mixed radix over the kinds in hand (0 would be none).
    Move m;
    m.type = MoveType::kDiscard;
    uint64_t x = r + 1;
    for (size_t k = 0; k < s.hand.size(); ++k) {
      const uint64_t base = uint64_t{s.hand[k]} + 1;
      for (uint64_t i = 0; i < x % base; ++i) m.cards[m.ncards++] = static_cast<uint8_t>(k);
      x /= base;
    }
    return m;
  }
};

// One action move uniformly among every distinct one, made alone: the
// random baseline plays this at every action of every game.
Move Engine::random_action(const State& s, Rng& rng) const {
  const MoveGen g(*this, s);
  const ActionDraw a(g, s, rules_);
  return a.at(g, s, rng.below(a.total));
}

uint64_t Engine::action_count(const State& s) const {
  const MoveGen g(*this, s);
  return ActionDraw(g, s, rules_).total;
}

bool Engine::surely_several(const State& s) const { return MoveGen(*this, s).surely_several(); }

void Engine::card_plays(const State& s, uint8_t card, std::vector<Move>& out, std::vector<HawkFamily>* families) const {
  out.clear();
  if (families) families->clear();
  MoveGen(*this, s).plays(card, true, out, families);
}

uint64_t Engine::card_play_count(const State& s, uint8_t card) const { return MoveGen(*this, s).play_count(card, true); }

Move Engine::card_play_at(const State& s, uint8_t card, uint64_t index) const {
  return MoveGen(*this, s).play_at(card, true, index);
}

void Engine::inferno_moves(const State& s, std::vector<Move>& out) const {
  out.clear();
  MoveGen(*this, s).inferno(out);
}

Move HawkFamily::unrank(uint64_t index) const {
  for (int take = 0; take <= max_take; ++take) {
    if (placed + take == 0) continue;
    const int size = own + placed + take;
    const uint64_t per_take = binomial(ncells, size);
    const uint64_t block = times(binomial(nenemies, take), per_take);
    if (index >= block) {
      index -= block;
      continue;
    }
    Move m = base;
    uint8_t pick[64];
    unrank_combination(ncells, size, index % per_take, pick);
    m.nsq = static_cast<uint8_t>(size);
    for (int i = 0; i < size; ++i) m.sq[static_cast<size_t>(i)] = cells[pick[i]];
    unrank_combination(nenemies, take, index / per_take, pick);
    m.ntake = static_cast<uint8_t>(take);
    for (int i = 0; i < take; ++i) m.sq[static_cast<size_t>(size + i)] = enemies[pick[i]];
    return m;
  }
  return base;
}

bool HawkFamily::contains(const Move& m) const {
  if (m.type != base.type || m.card != base.card || m.keep != base.keep || m.ntake > max_take) return false;
  if (placed + m.ntake == 0 || m.nsq != own + placed + m.ntake) return false;
  auto within = [](const uint8_t* xs, int n, const uint8_t* set, int size) {
    for (int i = 0; i < n; ++i)
      if (std::find(set, set + size, xs[i]) == set + size) return false;
    return true;
  };
  return within(m.sq.data(), m.nsq, cells.data(), ncells) && within(m.sq.data() + m.nsq, m.ntake, enemies.data(), nenemies);
}

uint64_t Engine::move_count(const State& s) const {
  std::vector<Move>& moves = scratch();
  std::vector<HawkFamily> families;
  legal_moves(s, moves, &families);
  uint64_t n = moves.size();
  for (const HawkFamily& f : families) n += f.count;
  return n;
}

bool Engine::is_legal(const State& s, const Move& m) const {
  std::vector<Move>& moves = scratch();
  std::vector<HawkFamily> families;
  legal_moves(s, moves, &families);
  if (std::find(moves.begin(), moves.end(), m) != moves.end()) return true;
  return std::any_of(families.begin(), families.end(), [&](const HawkFamily& f) { return f.contains(m); });
}

Bits Engine::fire(const State& s) const { return s.gems | regions().flame; }

Bits Engine::placeable(const State& s) const {
  return regions().all.minus(s.gems | s.breaks | regions().flame);
}

int Engine::allowed_winds(const State& s) const {
  int allowed = 0xF;
  const auto burned = [&](int t) { return (s.burned >> t & 1) != 0; };
  if (burned(kNE) && burned(kSE)) allowed &= ~(1 << kE);
  if (burned(kSW) && burned(kSE)) allowed &= ~(1 << kS);
  return allowed;
}

}  // namespace sj::firetower
