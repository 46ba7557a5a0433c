// Axial hex coordinates in the spec's fixed direction order.
#pragma once
#include <array>
#include <cstdint>

namespace sj {

struct Axial {
  int q = 0;
  int r = 0;
  friend constexpr bool operator==(Axial, Axial) = default;
  constexpr Axial operator+(Axial o) const { return {q + o.q, r + o.r}; }
  constexpr Axial operator-(Axial o) const { return {q - o.q, r - o.r}; }
};

inline constexpr int kHexDirections = 6;

// E, NE, NW, W, SW, SE: directions i and (i+1) % 6 are neighbouring edges.
inline constexpr std::array<Axial, kHexDirections> kHexStep{{
    {+1, 0}, {+1, -1}, {0, -1}, {-1, 0}, {-1, +1}, {0, +1}}};

inline constexpr std::array<const char*, kHexDirections> kHexDirectionName{
    {"E", "NE", "NW", "W", "SW", "SE"}};

constexpr int opposite_direction(int d) { return (d + 3) % kHexDirections; }

constexpr Axial hex_neighbor(Axial c, int d) { return c + kHexStep[d]; }

// A six-bit mask of directions has two neighbouring set bits (cyclically).
constexpr bool has_adjacent_pair(unsigned six_bits) {
  const unsigned rotated = ((six_bits >> 1) | (six_bits << 5)) & 0x3Fu;
  return (six_bits & rotated) != 0;
}

}  // namespace sj
