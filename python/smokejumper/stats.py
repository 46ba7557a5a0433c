"""Small statistics shared by the analyses."""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the normal's 97.5% point, as the core's searches use it


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); it stays
    inside [0, 1] and behaves at 0 and n successes, unlike the normal one."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    lower = 0.0 if successes == 0 else max(0.0, centre - half)
    upper = 1.0 if successes == trials else min(1.0, centre + half)  # exact ends, not 1 - 1e-16
    return lower, upper
