"""Estimates with 95% intervals: means, mirrored-pair differences, win rates, ratings.

Means use Student's t (few samples get honest, wide intervals; many get the normal
one); proportions use Wilson's interval, which never collapses to a point at 0% or 100%.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache
from statistics import NormalDist

import numpy as np

from casino_sim.core.numbers import number

Z95 = NormalDist().inv_cdf(0.975)
T_EXACT_BELOW = 30  # degrees of freedom solved exactly below this; the expansion is within 1e-7 from here on


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
        return f"{number(self.mean, '+.3f')} [{number(self.lo, '+.3f')}, {number(self.hi, '+.3f')}]"


def _t_central(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with integer df (the finite series of Abramowitz & Stegun 26.7.3-4)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2:
        term = total = math.cos(theta)
        for k in range(3, df - 1, 2):
            term *= c2 * (k - 1) / k
            total += term
        return 2 / math.pi * (theta + (math.sin(theta) * total if df > 1 else 0.0))
    term = total = 1.0
    for k in range(2, df - 1, 2):
        term *= c2 * (k - 1) / k
        total += term
    return math.sin(theta) * total


@cache
def _t975_exact(df: int) -> float:
    """The 97.5% quantile of t with df >= 1 degrees of freedom: closed form for 1 and 2, else bisection."""
    if df == 1:
        return math.tan(0.475 * math.pi)
    if df == 2:
        return 0.95 / math.sqrt(2 * 0.975 * 0.025)
    lo, hi = Z95, 4.31  # the quantile falls from t(2) = 4.30 towards z as df grows
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _t_central(mid, df) < 0.95 else (lo, mid)
    return (lo + hi) / 2


def t975(df):
    """The 97.5% quantile of Student's t (the 95% interval's multiplier) for df degrees of freedom.

    Exact below 30 df, the Cornish-Fisher expansion (A&S 26.7.5) above it; infinite below 1 df.
    Takes an int or an array of them (no scipy needed).
    """
    d = np.asarray(df, dtype=np.float64)
    z = Z95
    g = (
        (z**3 + z) / 4,
        (5 * z**5 + 16 * z**3 + 3 * z) / 96,
        (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
        (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160,
    )
    big = np.maximum(d, T_EXACT_BELOW)
    out = z + g[0] / big + g[1] / big**2 + g[2] / big**3 + g[3] / big**4
    small = d < T_EXACT_BELOW
    if small.any():
        table = np.array([np.inf, *(_t975_exact(k) for k in range(1, T_EXACT_BELOW))])
        out = np.where(small, table[np.clip(np.where(small, d, 0), 0, None).astype(np.int64)], out)
    return float(out) if out.ndim == 0 else out


def mean_ci(x) -> Estimate:
    """Sample mean with a Student-t 95% interval (none from a single sample)."""
    x = np.asarray(x, dtype=np.float64)
    n = len(x)
    if n == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0)
    m = float(x.mean())
    if n == 1:
        return Estimate(m, float("-inf"), float("inf"), 1)
    half = t975(n - 1) * float(x.std(ddof=1)) / np.sqrt(n)
    return Estimate(m, m - half, m + half, n)


def wilson(wins: float, n: float) -> Estimate:
    """Wilson 95% interval of a proportion (draws may count as half a win; n may be an effective size)."""
    if n <= 0:
        return Estimate(float("nan"), 0.0, 1.0, 0)
    p = wins / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # At p = 0 or 1 the bound is exactly 0 or 1; rounding would leave 1e-17 off it.
    lo = 0.0 if p <= 0 else max(0.0, float(centre - half))
    hi = 1.0 if p >= 1 else min(1.0, float(centre + half))
    return Estimate(float(p), lo, hi, n)


def cluster_wilson(x, cluster, trials=None) -> Estimate:
    """Share of rows won (x in [0, 1], a tie 0.5) with a Wilson 95% interval over clustered rows.

    Rows of one cluster (the games of a mirrored pair) are not independent: the
    Wilson interval takes the effective sample size p(1-p) / var, with the
    cluster-robust variance of the mean, at most the number of rows. When every row
    agrees (0% or 100%) nothing shows a correlation and all rows count; one cluster is one sample.
    With `trials` (per row, or one number) x is the share of a row's trials won (the share of a
    round's plays that trail): p pools the trials, the variance is the ratio estimator's, and the
    effective size is at most the number of trials, which n then counts.
    """
    x = np.asarray(x, dtype=np.float64)
    cluster = np.asarray(cluster, dtype=np.int64)
    n = len(x)
    if n == 0:
        return wilson(0, 0)
    if trials is None:
        p = float(x.mean())
        dev = x - p
    else:
        w = np.broadcast_to(np.asarray(trials, dtype=np.float64), x.shape)
        n = float(w.sum())
        if n <= 0:
            return wilson(0, 0)
        p = _dot(w, x) / n
        dev = x - p
        dev *= w  # in place: one row-length temporary fewer on a million rounds
    c = _clusters_seen(cluster)
    resid = np.bincount(cluster, weights=dev)
    var = c / (c - 1) * _dot(resid, resid) / n**2 if c > 1 else 0.0
    n_eff = 1.0 if c < 2 else n if var <= 0 else min(float(n), p * (1 - p) / var)
    return replace(wilson(p * n_eff, n_eff), n=int(n))


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


def _dot(a: np.ndarray, b: np.ndarray) -> float:
    """a . b by numpy's pairwise sum, never BLAS: BLAS sums in an order its CPU kernel (and thread count) picks,
    which moved an interval's last digit from one machine to another; the same records give the same bytes."""
    return float(np.multiply(a, b).sum())


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
    half = t975(c - 1) * np.sqrt(c / (c - 1) * _dot(resid, resid)) / n
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
    z = np.empty_like(x)  # each row's term of its own group only: np.where would hold both groups' at full length
    z[in_a] = (x[in_a] - ma) / na
    z[~in_a] = -(x[~in_a] - mb) / nb
    zc = np.bincount(cluster, weights=z)
    half = t975(c - 1) * np.sqrt(c / (c - 1) * _dot(zc, zc))
    return Estimate(d, d - half, d + half, len(x))


def running_mean_ci(x) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Running mean after 1..n samples and its Student-t 95% band (infinite at one sample)."""
    x = np.asarray(x, dtype=np.float64)
    k = np.arange(1, len(x) + 1, dtype=np.float64)
    # Shifting by the first value keeps the cumulative sums small (no cancellation).
    shift = x[0] if len(x) else 0.0
    s1 = np.cumsum(x - shift)
    s2 = np.cumsum((x - shift) ** 2)
    mean = s1 / k
    with np.errstate(divide="ignore", invalid="ignore"):
        var = np.maximum(s2 - k * mean**2, 0.0) / (k - 1)
        half = np.where(k > 1, t975(k - 1) * np.sqrt(var / k), np.inf)
    mean = mean + shift
    return mean, mean - half, mean + half


def mean_ci_table(df, by, value: str):
    """Per group of `by`: mean, ci_lo, ci_hi (Student t) and n of column `value` (rows independent)."""
    g = df.groupby(by, observed=True, sort=True)[value]
    out = g.agg(["mean", "std", "count"]).rename(columns={"count": "n"})
    half = t975(out["n"].to_numpy() - 1) * out["std"] / np.sqrt(out["n"])
    half = half.where(out["n"] > 1, np.inf)
    out["ci_lo"] = out["mean"] - half
    out["ci_hi"] = out["mean"] + half
    return out[["mean", "ci_lo", "ci_hi", "n"]].reset_index()
