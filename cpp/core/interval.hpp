// 95% intervals for the searches that sample: Wilson's for a share (MCTS, a
// sampled hint, shown to users as they run) and the normal one for a mean.
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

// The normal 95% interval for the mean of `n` samples given their sum and
// sum of squares (sample variance, n - 1). The samples here are whole
// games' scores: hundreds of them, where the normal interval is the
// textbook choice. Both ends are the mean when n < 2 (no spread is known):
// callers report the sample count alongside.
inline std::pair<double, double> mean_interval95(double sum, double sum_squares, uint64_t n) {
  if (n == 0) return {0.0, 0.0};
  const double k = static_cast<double>(n);
  const double mean = sum / k;
  if (n < 2) return {mean, mean};
  const double variance = std::max(0.0, (sum_squares - k * mean * mean) / (k - 1));
  const double half = kZ95 * std::sqrt(variance / k);
  return {mean - half, mean + half};
}

}  // namespace sj
