"""Estimates with 95% intervals: means, mirrored-pair differences, win rates, ratings."""

from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

Z95 = NormalDist().inv_cdf(0.975)


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% interval and the number of samples behind it."""

    mean: float
    lo: float
    hi: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.hi - self.lo) / 2

    def as_dict(self, prefix: str = "") -> dict[str, float]:
        return {f"{prefix}mean": self.mean, f"{prefix}ci_lo": self.lo, f"{prefix}ci_hi": self.hi, f"{prefix}n": self.n}

    def __str__(self) -> str:
        return f"{self.mean:+.3f} [{self.lo:+.3f}, {self.hi:+.3f}]"


def mean_ci(x) -> Estimate:
    """Sample mean with a normal-approximation 95% interval (n is large in every use here)."""
    x = np.asarray(x, dtype=np.float64)
    n = len(x)
    if n == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0)
    m = float(x.mean())
    if n == 1:
        return Estimate(m, float("-inf"), float("inf"), 1)
    half = Z95 * float(x.std(ddof=1)) / np.sqrt(n)
    return Estimate(m, m - half, m + half, n)


def wilson(wins: float, n: int) -> Estimate:
    """Wilson 95% interval of a proportion (draws may count as half a win)."""
    if n == 0:
        return Estimate(float("nan"), 0.0, 1.0, 0)
    p = wins / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # At p = 0 or 1 the bound is exactly 0 or 1; rounding would leave 1e-17 off it.
    lo = 0.0 if p <= 0 else max(0.0, float(centre - half))
    hi = 1.0 if p >= 1 else min(1.0, float(centre + half))
    return Estimate(float(p), lo, hi, n)


def bradley_terry(wins: np.ndarray, iters: int = 10_000, tol: float = 1e-10) -> np.ndarray:
    """Bradley-Terry strengths from a matrix wins[i, j] (i beat j); normalised to geometric mean 1.

    Fitted by the classic minorisation-maximisation update; a half win per pair keeps
    a policy that never won (or never lost) finite.
    """
    w = np.asarray(wins, dtype=np.float64) + 0.5 * (1 - np.eye(len(wins)))
    games = w + w.T
    p = np.ones(len(w))
    for _ in range(iters):
        denom = (games / (p[:, None] + p[None, :])).sum(axis=1)
        new = w.sum(axis=1) / denom
        new /= np.exp(np.log(new).mean())
        if np.max(np.abs(new - p)) < tol:
            return new
        p = new
    return p


def elo_from_strengths(p: np.ndarray, anchor: float = 1500.0) -> np.ndarray:
    """Elo-scale ratings of Bradley-Terry strengths (400 points = 10:1 odds), mean at the anchor."""
    r = 400.0 * np.log10(p)
    return r - r.mean() + anchor


def _clusters_seen(cluster: np.ndarray) -> int:
    return int(np.count_nonzero(np.bincount(cluster))) if len(cluster) else 0


def cluster_mean_ci(x, cluster) -> Estimate:
    """Mean of rows with a cluster-robust 95% interval.

    Rows of one cluster (the two seatings of a mirrored deal, or both seats of a
    round) share cards, so they are not independent; the variance is taken from
    per-cluster sums of residuals. With one row per cluster this is `mean_ci`.
    `cluster` holds non-negative ints.
    """
    x = np.asarray(x, dtype=np.float64)
    cluster = np.asarray(cluster, dtype=np.int64)
    n = len(x)
    if n == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0)
    m = float(x.mean())
    c = _clusters_seen(cluster)
    if c < 2:
        return Estimate(m, float("-inf"), float("inf"), n)
    resid = np.bincount(cluster, weights=x - m)
    half = Z95 * np.sqrt(c / (c - 1) * float(resid @ resid)) / n
    return Estimate(m, m - half, m + half, n)


def cluster_diff_ci(x, cluster, in_a) -> Estimate:
    """mean(x[in_a]) - mean(x[~in_a]) with a cluster-robust 95% interval.

    The same cluster may hold rows of both groups (a policy dealing in one seating
    and playing first in the other), so the covariance between the two means counts.
    n is the number of rows.
    """
    x = np.asarray(x, dtype=np.float64)
    cluster = np.asarray(cluster, dtype=np.int64)
    in_a = np.asarray(in_a, dtype=bool)
    na, nb = int(in_a.sum()), int((~in_a).sum())
    if na == 0 or nb == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), len(x))
    ma, mb = float(x[in_a].mean()), float(x[~in_a].mean())
    d = ma - mb
    c = _clusters_seen(cluster)
    if c < 2:
        return Estimate(d, float("-inf"), float("inf"), len(x))
    z = np.where(in_a, (x - ma) / na, -(x - mb) / nb)
    zc = np.bincount(cluster, weights=z)
    half = Z95 * np.sqrt(c / (c - 1) * float(zc @ zc))
    return Estimate(d, d - half, d + half, len(x))


def running_mean_ci(x) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Running mean after 1..n samples and its 95% band (infinite at one sample)."""
    x = np.asarray(x, dtype=np.float64)
    k = np.arange(1, len(x) + 1, dtype=np.float64)
    # Shifting by the first value keeps the cumulative sums small (no cancellation).
    shift = x[0] if len(x) else 0.0
    s1 = np.cumsum(x - shift)
    s2 = np.cumsum((x - shift) ** 2)
    mean = s1 / k
    with np.errstate(divide="ignore", invalid="ignore"):
        var = np.maximum(s2 - k * mean**2, 0.0) / (k - 1)
        half = np.where(k > 1, Z95 * np.sqrt(var / k), np.inf)
    mean = mean + shift
    return mean, mean - half, mean + half


def mean_ci_table(df, by, value: str):
    """Per group of `by`: mean, ci_lo, ci_hi, n of column `value` (rows independent)."""
    g = df.groupby(by, observed=True, sort=True)[value]
    out = g.agg(["mean", "std", "count"]).rename(columns={"count": "n"})
    half = Z95 * out["std"] / np.sqrt(out["n"])
    half = half.where(out["n"] > 1, np.inf)
    out["ci_lo"] = out["mean"] - half
    out["ci_hi"] = out["mean"] + half
    return out[["mean", "ci_lo", "ci_hi", "n"]].reset_index()
