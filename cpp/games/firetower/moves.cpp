// Legal moves of every decision (spec sections 4-10): each card's shapes
// as masks over the board, deduplicated by their effect (section 4: moves
// with equal JSON are one move).
#include <algorithm>
#include <cstring>

#include "core/bits.hpp"  // mix64
#include "core/rng.hpp"  // uint128
#include "games/firetower/game.hpp"

namespace sj::firetower {

namespace {

// Template placements, precomputed once: a placement lists its squares,
// -1 for a square off the board; at least one is on it.
struct Templates {
  std::vector<std::array<int, 3>> line3;  // rows and columns, in order along the line
  std::vector<std::array<int, 2>> line2;
  std::vector<std::array<int, 4>> block;  // 2x2
  std::vector<std::array<int, 8>> ring;   // the 8 squares around each square, by centre
  std::array<std::vector<std::array<int, 3>>, 4> area_lines;  // the line3 placements that touch each tower area
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
    for (int b = 0; b < kSide; ++b)
      for (int a = -1; a < kSide; ++a) {
        line2.push_back({at(b, a), at(b, a + 1)});
        line2.push_back({at(a, b), at(a + 1, b)});
      }
    for (int r = -1; r < kSide; ++r)
      for (int c = -1; c < kSide; ++c) block.push_back({at(r, c), at(r, c + 1), at(r + 1, c), at(r + 1, c + 1)});
    ring.resize(kSquares);
    for (int s = 0; s < kSquares; ++s) {
      int i = 0;
      for (int dr = -1; dr <= 1; ++dr)
        for (int dc = -1; dc <= 1; ++dc)
          if (dr || dc) ring[s][i++] = at(row_of(s) + dr, col_of(s) + dc);
    }
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

// Distinct square sets, each as a move made from `base`, in the order
// first seen (a small open-addressed set, not a sort: this runs at every
// decision of every playout).
void emit_sets(std::vector<Bits>& sets, const Move& base, std::vector<Move>& out) {
  thread_local std::vector<Bits> table;
  thread_local std::vector<uint8_t> used;
  size_t size = 64;
  while (size < 2 * sets.size()) size *= 2;
  table.resize(size);
  used.assign(size, 0);
  for (const Bits& b : sets) {
    size_t i = mix64(b.w[0] ^ mix64(b.w[1] ^ mix64(b.w[2] ^ mix64(b.w[3])))) & (size - 1);
    while (used[i] && !(table[i] == b)) i = (i + 1) & (size - 1);
    if (used[i]) continue;
    used[i] = 1;
    table[i] = b;
    Move m = base;
    put_squares(m, b);
    out.push_back(m);
  }
}

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
    std::vector<Bits> sets;
    for (const auto& line : templates().line3) {
      Bits piece;
      auto close = [&] {
        Bits placed;
        if (piece.any() && fill(piece, placed)) sets.push_back(placed);
        piece = Bits{};
      };
      for (int sq : line) {
        if (sq >= 0 && s.breaks.test(sq)) close();  // a firebreak cuts the line
        else if (sq >= 0) piece.set(sq);
      }
      close();
    }
    emit_sets(sets, play_of(card), out);
  }

  template <class Shapes>
  void pattern(const Shapes& shapes, const Move& base, std::vector<Move>& out) const {
    std::vector<Bits> sets;
    for (const auto& shape : shapes) {
      Bits placed;
      if (fill(on_board_bits(shape), placed)) sets.push_back(placed);
    }
    emit_sets(sets, base, out);
  }

  void crown_fire_double(uint8_t card, std::vector<Move>& out) const {
    std::vector<Bits> sets;
    for (const auto& shape : templates().tetrominoes)
      for (int r = 0; r < kSide; ++r)
        for (int c = 0; c < kSide; ++c) {
          Bits b;
          bool ok = true;
          for (const auto& cell : shape) {
            const int rr = r + cell[0], cc = c + cell[1];
            if (!on_board(rr, cc) || !place.test(square_at(rr, cc))) {
              ok = false;
              break;
            }
            b.set(square_at(rr, cc));
          }
          if (ok && (b & touching).any()) sets.push_back(b);
        }
    emit_sets(sets, play_of(card, kDouble), out);
  }

  void explosion(uint8_t card, std::vector<Move>& out) const {
    s.gems.each([&](int c) {
      for (int sq : templates().ring[c])
        if (sq >= 0 && place.test(sq)) {
          Move m = play_of(card);
          m.nsq = 1;
          m.sq[0] = static_cast<uint8_t>(c);
          out.push_back(m);
          return;
        }
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
    std::vector<Bits> sets;
    for (const auto& shape : shapes) {
      const Bits r = on_board_bits(shape) & removable;
      if (r.any()) sets.push_back(r);
    }
    emit_sets(sets, play_of(card), out);
  }

  void smokejumper(uint8_t card, std::vector<Move>& out) const {
    std::vector<Bits> sets;
    burning.each([&](int c) {
      const Bits r = on_board_bits(templates().ring[c]) & removable;
      if (r.any()) sets.push_back(r);
    });
    emit_sets(sets, play_of(card), out);
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
    if (f.count) families->push_back(f);
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
    std::vector<Bits> sets;
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
        if (in > best_in || all > best_all) sets.clear();
        best_in = in;
        best_all = all;
      }
      sets.push_back(r);
    }
    Move base;
    base.type = best_only ? MoveType::kEnemyBucket : MoveType::kBucket;
    if (best_only) base.arg = static_cast<uint8_t>(tower);
    emit_sets(sets, base, out);
  }

  void player_bucket(std::vector<Move>& out) const {
    if (s.player_bucket == kBucketUnused) buckets(kNW, out, false);
  }

  void inferno(std::vector<Move>& out) const {
    const uint8_t card = s.revealed;
    const CardKind& k = kind(card);
    Move base;
    base.type = MoveType::kInferno;
    const Bits q = reg.quadrant[kNW];
    const Bits fire_next = burning.adjacent();
    auto full = [&](const auto& shapes) {
      for (const auto& shape : shapes) {
        Bits b;
        bool ok = true;
        for (int sq : shape) {
          if (sq < 0 || !q.test(sq) || !place.test(sq)) {
            ok = false;
            break;
          }
          b.set(sq);
        }
        if (ok && (b & fire_next).any()) {
          Move m = base;
          put_squares(m, b);
          out.push_back(m);
        }
      }
    };
    switch (k.effect) {
      case Effect::kFlareUp: full(templates().line3); break;
      case Effect::kBurningSnag: full(templates().block); break;
      case Effect::kExplosion:
        (s.gems & q).each([&](int c) {
          int n = 0;
          for (int sq : templates().ring[c])
            if (sq >= 0 && q.test(sq) && place.test(sq)) ++n;
          if (n >= 4) {
            Move m = base;
            m.arg = 1;
            m.nsq = 1;
            m.sq[0] = static_cast<uint8_t>(c);
            out.push_back(m);
          }
        });
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

  void reckless(std::vector<Move>& out) const {
    if (s.player_bucket != kBucketUsed || (s.gems & reg.area[kNW]).none() || touching.none()) return;
    const int kinds = static_cast<int>(engine.rules_.cards.size());
    std::vector<Move> discards;
    for (CardType type : {CardType::kWater, CardType::kFirebreak}) {
      std::array<uint8_t, kMaxKinds> of_type{};
      for (int k = 0; k < kinds; ++k)
        if (kind(k).type == type) of_type[k] = s.hand[k];
      Move base;
      base.type = MoveType::kReckless;
      std::vector<Move> all;
      sub_multisets(of_type, kinds, 3, base, all);
      for (const Move& m : all)
        if (m.ncards == 3) discards.push_back(m);
    }
    std::vector<int> c;
    touching.each([&](int sq) { c.push_back(sq); });
    for (const Move& d : discards) {
      if (c.size() == 1) {
        Move m = d;
        m.nsq = 1;
        m.sq[0] = static_cast<uint8_t>(c[0]);
        out.push_back(m);
        continue;
      }
      for (size_t i = 0; i < c.size(); ++i)
        for (size_t j = i + 1; j < c.size(); ++j) {
          Move m = d;
          m.nsq = 2;
          m.sq[0] = static_cast<uint8_t>(c[i]);
          m.sq[1] = static_cast<uint8_t>(c[j]);
          out.push_back(m);
        }
    }
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

  void hawk(std::vector<Move>& out) const {
    s.pending.each([&](int h) {
      const Bits lifted = burning.minus(Bits::one(h));
      Bits to = (place & lifted.adjacent()).minus(Bits::one(h));
      if (!reg.quadrant[kNW].test(h)) to &= reg.quadrant[kNW];  // an enemy hawk throws into the NW
      Move m;
      m.type = MoveType::kHawk;
      m.sq[0] = static_cast<uint8_t>(h);
      if (to.none()) {
        m.nsq = 1;  // no destination: the gem leaves the game
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

// The action's moves as a random draw needs them: the small families
// listed, Creeping Fires and Helitack counted, the discards and hawk cards
// counted. Their total is every distinct action move (Engine::action_count
// is checked against the full listing).
struct ActionFamilies {
  struct Counted {
    uint8_t card;
    bool creeping;  // else Helitack
    uint64_t count;
  };
  std::vector<Move>& small;
  std::vector<HawkFamily> families;
  std::array<Counted, 2> counted{};
  int ncounted = 0;
  uint64_t discards = 0;
  uint64_t total = 0;

  ActionFamilies(const MoveGen& g, const State& s, const Rules& rules, std::vector<Move>& buffer) : small(buffer) {
    small.clear();
    const int kinds = static_cast<int>(rules.cards.size());
    for (int k = 0; k < kinds; ++k) {
      if (!s.hand[k]) continue;
      const Effect e = rules.cards[static_cast<size_t>(k)].effect;
      if (e == Effect::kCreepingFires || e == Effect::kHelitack) {
        const uint64_t n = e == Effect::kCreepingFires ? g.creeping().count : g.helitack_count();
        counted[static_cast<size_t>(ncounted++)] = {static_cast<uint8_t>(k), e == Effect::kCreepingFires, n};
        total += n;
      } else {
        g.plays(static_cast<uint8_t>(k), true, small, &families);
      }
    }
    g.reckless(small);
    g.specialties(small);
    discards = 1;
    for (int k = 0; k < kinds; ++k) discards *= uint64_t{s.hand[k]} + 1;
    --discards;
    if (!small.empty() || !families.empty() || total || discards) g.player_bucket(small);
    total += small.size() + discards;
    for (const HawkFamily& f : families) total += f.count;
  }

  Move at(const MoveGen& g, const State& s, uint64_t r) {
    if (r < small.size()) return small[r];
    r -= small.size();
    for (const HawkFamily& f : families) {
      if (r < f.count) return f.unrank(r);
      r -= f.count;
    }
    for (int i = 0; i < ncounted; ++i) {
      const Counted& c = counted[static_cast<size_t>(i)];
      if (r < c.count)
        return c.creeping ? g.creeping_at(c.card, r) : g.helitack_at(c.card, r);
      r -= c.count;
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

// One action move uniformly among every distinct one, listing only the
// small families: the random baseline plays this at every action of every
// game.
Move Engine::random_action(const State& s, Rng& rng) const {
  const MoveGen g(*this, s);
  ActionFamilies a(g, s, rules_, scratch());
  return a.at(g, s, rng.below(a.total));
}

uint64_t Engine::action_count(const State& s) const {
  const MoveGen g(*this, s);
  return ActionFamilies(g, s, rules_, scratch()).total;
}

void Engine::card_plays(const State& s, uint8_t card, std::vector<Move>& out, std::vector<HawkFamily>* families) const {
  out.clear();
  if (families) families->clear();
  MoveGen(*this, s).plays(card, true, out, families);
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
