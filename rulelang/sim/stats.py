"""Confidence intervals for win rates and means, and for the differences between two runs.

Win rates use Wilson's score interval; a difference of two win rates uses Newcombe's
hybrid score interval (his method 10, built from the two Wilson intervals); a mean
uses Student's t and a difference of two means Welch's t with Welch-Satterthwaite
degrees of freedom. All intervals are two-sided 95% by default.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import attrs

Z95 = NormalDist().inv_cdf(0.975)


def z_for(confidence: float) -> float:
    """The two-sided normal quantile for a confidence level (0.95 -> 1.95996...)."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``successes / n`` (successes may be fractional: shared wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0))
    return (max(0.0, centre - half), min(1.0, centre + half))


def newcombe(x1: float, n1: int, x2: float, n2: int, z: float = Z95) -> tuple[float, float, float]:
    """The difference ``x2/n2 - x1/n1`` of two independent proportions and its hybrid score interval."""
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson(x1, n1, z)
    l2, u2 = wilson(x2, n2, z)
    d = p2 - p1
    lo = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    hi = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return (d, lo, hi)


def t_quantile(p: float, df: float) -> float:
    """Quantile ``p`` of Student's t with ``df`` degrees of freedom (exact for 1 and 2, else a series)."""
    if df <= 0:
        raise ValueError("degrees of freedom must be positive")
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    z = NormalDist().inv_cdf(p)
    # Cornish-Fisher expansion of t in powers of 1/df (Abramowitz and Stegun 26.7.5).
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


@attrs.frozen
class Moments:
    """Count, mean, sample standard deviation, minimum and maximum of some numbers."""

    n: int
    mean: float
    sd: float
    lo: float
    hi: float

    @classmethod
    def of(cls, values: list[float]) -> Moments:
        """The moments of ``values`` (sd 0 for fewer than two values)."""
        n = len(values)
        if n == 0:
            return cls(0, 0.0, 0.0, 0.0, 0.0)
        mean = math.fsum(values) / n
        var = math.fsum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
        return cls(n, mean, math.sqrt(var), min(values), max(values))

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """Student-t confidence interval of the mean."""
        if self.n < 2:
            return (self.mean, self.mean)
        half = t_quantile(0.5 + confidence / 2, self.n - 1) * self.sd / math.sqrt(self.n)
        return (self.mean - half, self.mean + half)


def welch(a: Moments, b: Moments, confidence: float = 0.95) -> tuple[float, float, float]:
    """The difference ``b.mean - a.mean`` and its Welch t interval."""
    d = b.mean - a.mean
    if a.n < 2 or b.n < 2:
        return (d, d, d)
    va, vb = a.sd**2 / a.n, b.sd**2 / b.n
    se = math.sqrt(va + vb)
    if se == 0:
        return (d, d, d)
    df = (va + vb) ** 2 / ((va**2 / (a.n - 1) if va else 0.0) + (vb**2 / (b.n - 1) if vb else 0.0))
    half = t_quantile(0.5 + confidence / 2, df) * se
    return (d, d - half, d + half)


def paired(values_a: list[float], values_b: list[float]) -> tuple[float, float, float]:
    """The mean of the differences ``b_i - a_i`` and its 95% t interval."""
    d = Moments.of([b - a for a, b in zip(values_a, values_b, strict=True)])
    lo, hi = d.interval()
    return (d.mean, lo, hi)
