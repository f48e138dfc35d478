"""Estimators: intervals that cover, edge cases, clustered samples, ratings that recover strengths."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from casino_sim.reports.stats import (
    Z95,
    bradley_terry,
    cluster_diff_ci,
    cluster_mean_ci,
    cluster_wilson,
    elo_from_strengths,
    mean_ci,
    mean_ci_table,
    running_mean_ci,
    t975,
    wilson,
)

# Student's t 97.5% quantiles as published (the 4-decimal tables), to 9 digits.
T_TABLE = {
    1: 12.706204736,
    2: 4.302652730,
    3: 3.182446305,
    4: 2.776445105,
    5: 2.570581836,
    10: 2.228138852,
    29: 2.045229642,
    30: 2.042272456,
    31: 2.039513446,
    100: 1.983971519,
    1000: 1.962339081,
}


def test_mean_ci_covers_the_true_mean_about_95_percent():
    rng = np.random.default_rng(0)
    hits = 0
    for _ in range(2000):
        e = mean_ci(rng.exponential(2.0, size=200))
        hits += e.lo <= 2.0 <= e.hi
    assert 0.93 <= hits / 2000 <= 0.965


def test_t975_matches_the_published_table():
    for df, value in T_TABLE.items():
        assert t975(df) == pytest.approx(value, abs=1e-6), df
    assert t975(10**7) == pytest.approx(Z95, abs=1e-6)  # the normal quantile in the limit
    dfs = np.array([0, 1, 2, 3, 29, 30, 31, 1000, 10**6])
    assert t975(dfs) == pytest.approx([np.inf] + [t975(int(d)) for d in dfs[1:]])  # vectorised as one by one
    assert np.all(np.diff(t975(np.arange(1, 200))) < 0)  # more data, a smaller quantile: no seam at 30


def test_mean_ci_values_and_edges():
    e = mean_ci([1.0, 2.0, 3.0, 4.0])
    half = T_TABLE[3] * np.std([1, 2, 3, 4], ddof=1) / 2
    assert (e.mean, e.lo, e.hi, e.n) == pytest.approx((2.5, 2.5 - half, 2.5 + half, 4))
    assert mean_ci([]).n == 0 and np.isnan(mean_ci([]).mean)
    one = mean_ci([3.0])
    assert one.mean == 3.0 and one.lo == -np.inf and one.hi == np.inf


def test_a_mean_of_two_deals_uses_t_with_one_degree_of_freedom():
    e = mean_ci([-11.5, -11.0])  # the user's "-11.250 [-11.740, -10.760]" from 2 deals used z
    assert e.mean == -11.25
    assert e.half_width == pytest.approx(T_TABLE[1] * 0.25)
    assert e.half_width > 6 * 0.49
    two = cluster_mean_ci([1.0, 2.0, 5.0, 6.0], [0, 0, 1, 1])  # two clusters: t with 1 df
    assert two.half_width == pytest.approx(T_TABLE[1] * np.sqrt(2 * (4.0**2 + 4.0**2)) / 4)  # cluster sums -4, +4
    d = cluster_diff_ci([1.0, 2.0, 5.0, 4.0], [0, 0, 1, 1], [True, False, True, False])
    assert d.half_width == pytest.approx(T_TABLE[1] * np.sqrt(2 * (0.5**2 + 0.5**2)))
    one = cluster_mean_ci([1.0, 2.0], [0, 0])  # one cluster is one sample: no interval
    assert one.lo == -np.inf and one.hi == np.inf


def test_large_samples_barely_move_from_the_normal_interval():
    x = np.random.default_rng(9).normal(size=10_000)
    z_half = Z95 * x.std(ddof=1) / 100
    assert mean_ci(x).half_width == pytest.approx(z_half, rel=2e-4)


def test_wilson_known_value_and_edges():
    e = wilson(5, 10)
    assert (e.lo, e.hi) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    none = wilson(0, 20)
    assert none.mean == 0 and none.lo == 0 and 0.1 < none.hi < 0.2  # not the degenerate [0, 0]
    every = wilson(20, 20)
    assert every.hi == 1 and 0.8 < every.lo < 0.9
    half_wins = wilson(2.5, 5)  # draws as half wins
    assert half_wins.mean == 0.5 and half_wins.lo > 0
    empty = wilson(0, 0)
    assert empty.n == 0 and (empty.lo, empty.hi) == (0.0, 1.0)


def test_cluster_wilson_never_collapses_at_every_win_or_none():
    pairs = np.repeat(np.arange(200), 2)  # 400 games, mirrored pairs
    every = cluster_wilson(np.ones(400), pairs)
    assert every.mean == 1 and every.hi == 1 and every.lo < 1  # the user saw 100.0% [100.0%, 100.0%]
    assert (every.lo, every.n) == (pytest.approx(wilson(400, 400).lo), 400)
    assert f"{every.lo:.1%}" == "99.0%"
    none = cluster_wilson(np.zeros(40), np.arange(40))
    assert none.lo == 0 and none.hi > 0 and none.hi == pytest.approx(wilson(0, 40).hi)
    single = cluster_wilson([1.0], [0])
    assert single.lo > 0.1 and single.hi == 1  # one sample: a wide interval, not a point
    assert np.isnan(cluster_wilson([], []).mean)


def test_cluster_wilson_is_wilson_for_independent_rows_and_wider_for_shared_clusters():
    rng = np.random.default_rng(7)
    x = (rng.random(300) < 0.7).astype(float)
    plain = cluster_wilson(x, np.arange(300))
    assert (plain.lo, plain.hi) == pytest.approx((wilson(x.sum(), 300).lo, wilson(x.sum(), 300).hi), rel=1e-3)
    copies = cluster_wilson(np.repeat(x, 2), np.repeat(np.arange(300), 2))  # each result seen twice
    assert (copies.lo, copies.hi) == pytest.approx((plain.lo, plain.hi), rel=1e-3)
    ties = cluster_wilson([1.0, 0.5, 0.5, 0.0], np.arange(4))
    assert ties.mean == 0.5 and 0 < ties.lo < 0.5 < ties.hi < 1


def test_cluster_wilson_of_rows_of_trials_is_that_of_one_row_per_trial():
    """A row holding k wins of m trials counts as m rows of 0/1 in its cluster (the plays of a round)."""
    rng = np.random.default_rng(3)
    trials = rng.integers(20, 25, 60)
    wins = rng.binomial(trials, 0.3)
    cluster = np.repeat(np.arange(30), 2)
    rows = cluster_wilson(wins / trials, cluster, trials=trials)
    ones = np.concatenate([np.r_[np.ones(k), np.zeros(m - k)] for k, m in zip(wins, trials)])
    expanded = cluster_wilson(ones, np.repeat(cluster, trials))
    assert rows.n == trials.sum() == expanded.n
    assert (rows.mean, rows.lo, rows.hi) == pytest.approx((expanded.mean, expanded.lo, expanded.hi), rel=1e-12)
    assert rows.mean == pytest.approx(wins.sum() / trials.sum())
    none = cluster_wilson(np.zeros(4), np.arange(4), trials=24)  # no win in 96 trials: Wilson's bound of 96
    assert none.n == 96 and none.hi == pytest.approx(wilson(0, 96).hi)


def test_bradley_terry_recovers_known_strengths():
    true = np.array([1.0, 2.0, 4.0, 8.0])
    games = 20_000
    wins = games * true[:, None] / (true[:, None] + true[None, :])
    np.fill_diagonal(wins, 0)
    p = bradley_terry(wins)
    assert p / p[0] == pytest.approx(true / true[0], rel=0.01)
    assert np.exp(np.log(p).mean()) == pytest.approx(1.0)


def test_bradley_terry_keeps_an_unbeaten_policy_finite():
    wins = np.array([[0, 10], [0, 0]])
    p = bradley_terry(wins)
    assert np.all(np.isfinite(p)) and p[0] > 10 * p[1]


def test_elo_orders_like_strengths_and_scales_400_per_tenfold():
    r = elo_from_strengths(np.array([1.0, 10.0, 100.0]))
    assert list(np.argsort(r)) == [0, 1, 2]
    assert np.diff(r) == pytest.approx([400.0, 400.0])
    assert r.mean() == pytest.approx(1500.0)


def test_cluster_mean_ci_with_one_row_per_cluster_is_mean_ci():
    x = np.random.default_rng(1).normal(size=300)
    a, b = cluster_mean_ci(x, np.arange(300)), mean_ci(x)
    assert (a.mean, a.lo, a.hi, a.n) == pytest.approx((b.mean, b.lo, b.hi, b.n))


def test_cluster_mean_ci_does_not_count_copies_as_new_samples():
    x = np.random.default_rng(2).normal(size=300)
    twice = cluster_mean_ci(np.repeat(x, 2), np.repeat(np.arange(300), 2))
    naive = mean_ci(np.repeat(x, 2))
    assert twice.half_width == pytest.approx(mean_ci(x).half_width, rel=1e-9)
    assert naive.half_width < 0.75 * twice.half_width  # what treating rows as independent would claim


def test_cluster_mean_ci_covers_with_correlated_clusters():
    rng = np.random.default_rng(3)
    hits_cluster = hits_naive = 0
    cl = np.repeat(np.arange(100), 4)
    for _ in range(1000):
        x = np.repeat(rng.normal(size=100), 4) + 0.3 * rng.normal(size=400)  # strong shared cluster effect
        hits_cluster += (e := cluster_mean_ci(x, cl)).lo <= 0 <= e.hi
        hits_naive += (e := mean_ci(x)).lo <= 0 <= e.hi
    assert 0.92 <= hits_cluster / 1000 <= 0.975
    assert hits_naive / 1000 < 0.8


def test_cluster_diff_ci_of_pairs_is_the_paired_difference():
    rng = np.random.default_rng(4)
    base = rng.normal(size=200)
    a, b = base + rng.normal(0.3, 0.2, 200), base + rng.normal(0, 0.2, 200)
    x = np.concatenate([a, b])
    est = cluster_diff_ci(x, np.tile(np.arange(200), 2), np.repeat([True, False], 200))
    paired = mean_ci(a - b)
    assert (est.mean, est.lo, est.hi) == pytest.approx((paired.mean, paired.lo, paired.hi))
    unpaired = cluster_diff_ci(x, np.arange(400), np.repeat([True, False], 200))
    assert unpaired.mean == pytest.approx(est.mean)
    assert unpaired.half_width > 3 * est.half_width  # pairing removes the shared deal luck


def test_cluster_diff_ci_without_one_group_is_nan():
    e = cluster_diff_ci([1.0, 2.0], [0, 1], [True, True])
    assert np.isnan(e.mean)


def test_running_mean_ci_ends_at_mean_ci():
    x = np.random.default_rng(5).normal(10.0, 1.0, size=500)
    mean, lo, hi = running_mean_ci(x)
    e = mean_ci(x)
    assert (mean[-1], lo[-1], hi[-1]) == pytest.approx((e.mean, e.lo, e.hi))
    assert mean[9] == pytest.approx(x[:10].mean())
    assert lo[0] == -np.inf and hi[0] == np.inf
    for k in (2, 3, 10):  # every prefix is its own mean_ci, t quantile included
        e = mean_ci(x[:k])
        assert (lo[k - 1], hi[k - 1]) == pytest.approx((e.lo, e.hi))


def test_mean_ci_table_matches_mean_ci_per_group():
    rng = np.random.default_rng(6)
    df = pd.DataFrame({"g": np.r_[rng.integers(0, 3, 300), 3, 3, 4], "v": rng.normal(size=303)})
    t = mean_ci_table(df, ["g"], "v")
    for _, r in t.iterrows():
        e = mean_ci(df.loc[df["g"] == r["g"], "v"])
        assert (r["mean"], r["ci_lo"], r["ci_hi"], r["n"]) == pytest.approx((e.mean, e.lo, e.hi, e.n))
    assert t["n"].tolist()[-2:] == [2, 1]  # small groups: t with 1 df, and no interval for one row
