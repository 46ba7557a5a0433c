// The 95% Wilson interval for a share, shared by the searches that sample
// (MCTS, a sampled hint) and shown to users as they run.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

namespace sj {

inline constexpr double kZ95 = 1.959963984540054;

// The interval for a share `p` of `n` samples (clamped to [0, 1]); [0, 1]
// when there are none. Wilson's, not the normal one, because the shares
// shown are often near 0 or 1 after few samples.
inline std::pair<double, double> wilson95(double p, uint64_t n) {
  if (n == 0) return {0.0, 1.0};
  const double k = static_cast<double>(n);
  const double z = kZ95;
  p = std::clamp(p, 0.0, 1.0);
  const double d = 1 + z * z / k;
  const double centre = (p + z * z / (2 * k)) / d;
  const double half = z * std::sqrt(p * (1 - p) / k + z * z / (4 * k * k)) / d;
  return {p <= 0 ? 0.0 : std::max(0.0, centre - half), p >= 1 ? 1.0 : std::min(1.0, centre + half)};
}

}  // namespace sj
