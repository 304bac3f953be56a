"""simulate/estimates: what many simulated games say, with how sure it is. Proportions get Wilson
score intervals, quantiles distribution-free intervals from the order statistics, means the normal
interval; all at 95 % unless asked otherwise."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

Z95 = 1.959964  # the standard normal's 97.5th percentile: two-sided 95 %


@dataclass(frozen=True)
class Estimate:
    value: float
    low: float
    high: float

    def __contains__(self, exact: float) -> bool:
        return self.low - 1e-9 <= exact <= self.high + 1e-9

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def as_dict(self, digits: int = 4) -> dict[str, float]:
        return {"value": round(self.value, digits), "low": round(self.low, digits), "high": round(self.high, digits)}


def proportion(hits: int, trials: int, z: float = Z95) -> Estimate:
    """Wilson's score interval: right near 0 and 1, where the normal one is not."""
    if trials == 0:
        return Estimate(0.0, 0.0, 1.0)
    p = hits / trials
    spread = z * z / trials
    centre = (p + spread / 2) / (1 + spread)
    half = z * math.sqrt(p * (1 - p) / trials + spread / (4 * trials)) / (1 + spread)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half))


def quantile(values: Sequence[int], q: float, z: float = Z95) -> Estimate:
    """The q-quantile of sorted values, its interval between the order statistics whose ranks
    the binomial count of values below the true quantile reaches with the given confidence."""
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0)
    spread = z * math.sqrt(n * q * (1 - q))
    low = max(0, math.floor(n * q - spread) - 1)
    high = min(n - 1, math.ceil(n * q + spread))
    return Estimate(float(values[min(n - 1, math.floor(n * q))]), float(values[low]), float(values[high]))


def mean(total: float, squares: float, n: int, z: float = Z95) -> Estimate:
    """A mean from the sum and the sum of squares of n values, with its normal interval."""
    if n == 0:
        return Estimate(0.0, 0.0, 0.0)
    average = total / n
    variance = max(0.0, squares / n - average * average) * n / max(1, n - 1)
    half = z * math.sqrt(variance / n)
    return Estimate(average, average - half, average + half)


def estimates_dict(estimates: dict[str, Estimate]) -> dict[str, Any]:
    return {name: e.as_dict() for name, e in estimates.items()}
