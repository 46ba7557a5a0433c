// The 16x16 board as four 64-bit words: square s = 16 * row + column, row 0
// north, so a word holds four rows and shifting by 16 moves one row. Every
// rule of the game is a few shifts and masks on these sets.
#pragma once
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>

namespace sj::firetower {

constexpr int kSide = 16;
constexpr int kSquares = kSide * kSide;
using Square = uint8_t;

constexpr int row_of(int s) { return s >> 4; }
constexpr int col_of(int s) { return s & 15; }
constexpr int square_at(int r, int c) { return r * kSide + c; }
constexpr bool on_board(int r, int c) { return r >= 0 && r < kSide && c >= 0 && c < kSide; }

// N, E, S, W, then the diagonals NE, NW, SE, SW (spec section 1).
enum Dir : uint8_t { kN, kE, kS, kW, kDirNE, kDirNW, kDirSE, kDirSW, kNoDir = 255 };
constexpr int kDirRow[8] = {-1, 0, 1, 0, -1, -1, 1, 1};
constexpr int kDirCol[8] = {0, 1, 0, -1, 1, -1, 1, -1};
constexpr const char* kDirName[8] = {"N", "E", "S", "W", "NE", "NW", "SE", "SW"};

// Set bits of a word. The build targets any x86-64, without POPCNT, where
// std::popcount is a call into libgcc; the bit-parallel sum inlines, and
// counting is most of what the move generators do.
constexpr int popcount64(uint64_t x) {
#ifdef __POPCNT__
  return std::popcount(x);
#else
  x -= (x >> 1) & 0x5555555555555555ull;
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<int>((x * 0x0101010101010101ull) >> 56);
#endif
}

struct Bits {
  std::array<uint64_t, 4> w{};

  static Bits one(int s) {
    Bits b;
    b.set(s);
    return b;
  }
  bool test(int s) const { return (w[s >> 6] >> (s & 63)) & 1; }
  void set(int s) { w[s >> 6] |= uint64_t{1} << (s & 63); }
  void clear(int s) { w[s >> 6] &= ~(uint64_t{1} << (s & 63)); }
  bool any() const { return (w[0] | w[1] | w[2] | w[3]) != 0; }
  bool none() const { return !any(); }
  int count() const {
    return popcount64(w[0]) + popcount64(w[1]) + popcount64(w[2]) + popcount64(w[3]);
  }
  // The lowest square, or -1.
  int first() const {
    for (int i = 0; i < 4; ++i)
      if (w[i]) return i * 64 + std::countr_zero(w[i]);
    return -1;
  }
  // The square of rank n (0: the lowest); n < count().
  int nth(int n) const {
    int i = 0;
    for (int c = popcount64(w[0]); n >= c; c = popcount64(w[++i])) n -= c;
    uint64_t x = w[i];
    for (; n > 0; --n) x &= x - 1;
    return i * 64 + std::countr_zero(x);
  }
  Bits operator&(const Bits& o) const { return {{w[0] & o.w[0], w[1] & o.w[1], w[2] & o.w[2], w[3] & o.w[3]}}; }
  Bits operator|(const Bits& o) const { return {{w[0] | o.w[0], w[1] | o.w[1], w[2] | o.w[2], w[3] | o.w[3]}}; }
  Bits operator~() const { return {{~w[0], ~w[1], ~w[2], ~w[3]}}; }
  Bits minus(const Bits& o) const { return *this & ~o; }
  Bits& operator|=(const Bits& o) { return *this = *this | o; }
  Bits& operator&=(const Bits& o) { return *this = *this & o; }
  bool operator==(const Bits&) const = default;

  // Every square moved one row south (towards row 15) or north.
  Bits south() const {
    return {{w[0] << 16, (w[1] << 16) | (w[0] >> 48), (w[2] << 16) | (w[1] >> 48), (w[3] << 16) | (w[2] >> 48)}};
  }
  Bits north() const {
    return {{(w[0] >> 16) | (w[1] << 48), (w[1] >> 16) | (w[2] << 48), (w[2] >> 16) | (w[3] << 48), w[3] >> 16}};
  }
  // One column east or west; nothing wraps into the next row.
  Bits east() const {
    constexpr uint64_t keep = ~0x8000800080008000ull;  // column 15 leaves the board
    return {{(w[0] & keep) << 1, (w[1] & keep) << 1, (w[2] & keep) << 1, (w[3] & keep) << 1}};
  }
  Bits west() const {
    constexpr uint64_t keep = ~0x0001000100010001ull;  // column 0 leaves the board
    return {{(w[0] & keep) >> 1, (w[1] & keep) >> 1, (w[2] & keep) >> 1, (w[3] & keep) >> 1}};
  }
  // Moved by one step of direction d (diagonals included).
  Bits step(int d) const {
    switch (d) {
      case kN: return north();
      case kE: return east();
      case kS: return south();
      case kW: return west();
      case kDirNE: return north().east();
      case kDirNW: return north().west();
      case kDirSE: return south().east();
      case kDirSW: return south().west();
    }
    return {};
  }
  // Squares orthogonally adjacent to some square of this set.
  Bits adjacent() const { return north() | south() | east() | west(); }
  // Each square given the bit of the square dr rows and dc columns from it
  // (none when that is off the board): whole-board tests of a shape's cells.
  Bits ahead(int dr, int dc) const {
    Bits b = *this;
    for (; dr > 0; --dr) b = b.north();
    for (; dr < 0; ++dr) b = b.south();
    for (; dc > 0; --dc) b = b.west();
    for (; dc < 0; ++dc) b = b.east();
    return b;
  }

  template <class F>
  void each(F&& f) const {
    for (int i = 0; i < 4; ++i)
      for (uint64_t x = w[i]; x; x &= x - 1) f(i * 64 + std::countr_zero(x));
  }
};

// Fixed regions (spec section 1).
enum Tower : uint8_t { kNW, kNE, kSW, kSE };
constexpr const char* kTowerName[4] = {"NW", "NE", "SW", "SE"};
constexpr int kAreaRow[4] = {0, 0, 13, 13};
constexpr int kAreaCol[4] = {0, 13, 0, 13};
constexpr int kBackCorner[4] = {square_at(0, 0), square_at(0, 15), square_at(15, 0), square_at(15, 15)};

// Manhattan distances from a board corner: 0 to 15 + 15.
constexpr int kCornerRings = 31;

struct Regions {
  Bits flame;          // the Eternal Flame
  Bits area[4];        // tower areas
  Bits any_area;
  Bits quadrant[4];    // NW, NE, SW, SE
  Bits all;
  // ring[t][d]: the squares at Manhattan distance d from tower t's back
  // corner, so that the nearest fire is found by a few ANDs, not a walk
  // over every burning square (the greedy evaluation's hot spot).
  Bits ring[4][kCornerRings];
  Regions() {
    for (int s = 0; s < kSquares; ++s) {
      const int r = row_of(s), c = col_of(s);
      all.set(s);
      for (int t = 0; t < 4; ++t)
        ring[t][std::abs(r - row_of(kBackCorner[t])) + std::abs(c - col_of(kBackCorner[t]))].set(s);
      if ((r == 7 || r == 8) && (c == 7 || c == 8)) flame.set(s);
      quadrant[(r < 8 ? 0 : 2) + (c < 8 ? 0 : 1)].set(s);
      for (int t = 0; t < 4; ++t)
        if (r >= kAreaRow[t] && r < kAreaRow[t] + 3 && c >= kAreaCol[t] && c < kAreaCol[t] + 3) {
          area[t].set(s);
          any_area.set(s);
        }
    }
  }
};

inline const Regions& regions() {
  static const Regions r;
  return r;
}

inline int area_of(int s) {
  const int r = row_of(s), c = col_of(s);
  if ((r >= 3 && r < 13) || (c >= 3 && c < 13)) return -1;
  return (r >= 13 ? kSW : kNW) + (c >= 13 ? 1 : 0);
}

}  // namespace sj::firetower
