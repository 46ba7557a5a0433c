// Small bit and hashing helpers shared by every game.
#pragma once
#include <bit>
#include <cstdint>

namespace sj {

// Calls f(index) for every set bit of mask, lowest first.
template <class F>
inline void for_each_bit(uint64_t mask, F&& f) {
  while (mask) {
    f(std::countr_zero(mask));
    mask &= mask - 1;
  }
}

inline constexpr uint64_t bit(int i) { return uint64_t{1} << i; }

// SplitMix64 finaliser: a fast, well-mixed 64-bit hash of a 64-bit word.
constexpr uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Zobrist code for (slot, value): derived, not stored, so every game gets
// stable keys without tables to initialise.
constexpr uint64_t zobrist(uint64_t domain, uint64_t slot, uint64_t value) {
  return mix64(mix64(domain * 0x100000001B3ull + slot) ^ (value * 0xD6E8FEB86659FD93ull));
}

}  // namespace sj
