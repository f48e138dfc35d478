"""reports/separation.py: a leader, or entries called equal, only where a test of their difference says so (the
verdict rule of reports/verdict.py), and otherwise the samples that would decide."""

from __future__ import annotations

import math

import numpy as np

from casino_sim.reports.separation import Verdict, about, beats, leader
from casino_sim.reports.stats import mean_ci


def test_a_leader_needs_its_lead_over_every_other_clear_of_zero():
    assert leader([("a", 3.0, 2.0, 4.0), ("b", 1.0, 0.5, 1.5)], 100, 0.1).leader == "a"
    # the runner-up by mean is behind, but a wide third's difference from the top reaches below 0
    overlapping = leader([("a", 3.0, 2.0, 4.0), ("b", 1.0, 0.5, 1.5), ("c", 0.9, -1.0, 2.8)], 100, 0.1)
    assert overlapping.leader is None and overlapping.needed > 100


def test_the_test_is_on_the_difference_not_on_whether_the_intervals_touch():
    # the intervals overlap on [0.3, 0.7], yet the difference 1.0 has the half-width 0.99 (quadrature): a leads
    assert leader([("a", 1.0, 0.3, 1.7), ("b", 0.0, -0.7, 0.7)], 100, 0.1).leader == "a"


def test_equal_only_when_the_difference_lies_inside_the_margin():
    close = leader([("a", 1.00, 0.98, 1.02), ("b", 0.99, 0.97, 1.01)], 100, 0.1)
    assert close == Verdict(None, None, 0.1) and "equal to within ±0.1" in close.no_leader("rank them")
    # wide intervals around one mean are not agreement: the data cannot tell, and about how many samples would
    wide = leader([("a", 1.0, 0.0, 2.0), ("b", 1.0, 0.0, 2.0)], 10, 0.1)
    assert wide.equal is None and wide.leader is None and "too few" in wide.no_leader("rank them")
    assert math.isclose(wide.needed, 10 * (math.hypot(1, 1) / 0.1) ** 2)
    # without a margin (Elo) nothing is ever called equal
    assert leader([("a", 1.00, 0.98, 1.02), ("b", 0.99, 0.97, 1.01)], 100, 0.0).equal is None


def test_the_samples_needed_follow_the_square_of_spread_over_gap():
    # a difference of 1 with half-width sqrt(2): it clears 0 at 2x the samples
    assert math.isclose(leader([("a", 2.0, 1.0, 3.0), ("b", 1.0, 0.0, 2.0)], 50, 0.1).needed, 100)
    assert math.isclose(beats("a", "b", 0.1, -0.1, 0.3, 100, 0.01).needed, 400)
    assert beats("a", "b", 0.6, 0.55, 0.65, 100, 0.01, centre=0.5).leader == "a"
    assert beats("a", "b", 0.4, 0.35, 0.45, 100, 0.01, centre=0.5).leader == "b"
    assert beats("a", "b", 0.501, 0.498, 0.504, 100, 0.01, centre=0.5).equal == 0.01


def test_the_estimate_decides_simulated_means():
    """Two means 0.5 apart with unit noise: at the number a small sample asks for (with room), a leads."""
    rng = np.random.default_rng(4)

    def estimates(n):
        out = []
        for name, mu in (("a", 0.5), ("b", 0.0)):
            e = mean_ci(rng.normal(mu, 1, n))
            out.append((name, e.mean, e.lo, e.hi))
        return out

    first = leader(estimates(10), 10, 0.1)
    assert first.leader is None
    more = int(4 * first.needed)  # the count is itself an estimate from a small sample: room for its error
    assert leader(estimates(more), more, 0.1).leader == "a"


def test_no_spread_no_estimate():
    one = leader([("a", 1.0, -math.inf, math.inf), ("b", 0.0, -math.inf, math.inf)], 1, 0.1)
    assert one == Verdict(None, None) and "no spread measured" in one.no_leader("rank them")


def test_counts_are_rounded_up_to_two_figures():
    assert [about(x) for x in (7.2, 48.0, 4_812.3, 4_800, 1_234_567)] == ["8", "48", "4,900", "4,800", "1,300,000"]
    text = Verdict(None, 4_812.3).no_leader("rank the cards")
    assert (
        text == "too few deals to rank the cards: about 4,900 deals would decide between the top two (observed spread)"
    )


def test_a_lead_over_every_other_of_many_is_named_without_dividing_the_level():
    """52 cards, the top one's difference from each of the other 51 just clear of 0 at 95%: named. A Bonferroni
    correction over the 51 (each at 0.05/51) would not name it; the claim is one intersection-union test."""
    rows = [("10♦", 1.0, 0.3, 1.7)] + [(f"c{i}", 0.0, -0.7, 0.7) for i in range(51)]
    assert math.isclose(1.0 - math.hypot(0.7, 0.7), 0.0101, abs_tol=1e-4)  # each lead's lower end: just above 0
    assert leader(rows, 100, 0.1).leader == "10♦"
    bonferroni_half = 0.7 * 3.29 / 1.96  # z at 0.05/51 two-sided is 3.29: the difference's interval would reach 0
    assert 1.0 - math.hypot(bonferroni_half, bonferroni_half) < 0


def _wrong_leaders(means: np.ndarray, sd: float, trials: int, seed: int) -> float:
    """The share of trials in which leader() names an entry that is not strictly the best by the true `means`
    (estimates drawn normal around them, 95% intervals of half-width 1.96 sd)."""
    rng = np.random.default_rng(seed)
    best = means.max()
    wrong = 0
    for _ in range(trials):
        drawn = means + sd * rng.standard_normal(len(means))
        rows = [(str(i), m, m - 1.96 * sd, m + 1.96 * sd) for i, m in enumerate(drawn)]
        named = leader(rows, 100, 0.0).leader
        wrong += named is not None and (means[int(named)] < best or (means == best).sum() > 1)
    return wrong / trials


def test_naming_the_leader_picked_from_the_data_errs_at_most_one_tail():
    """Picking the top by the data and testing its lead over every other errs no more than one comparison's lower
    tail (2.5%), however many entries: worst when one other is a hair behind and the rest far off; with 52 level
    entries it almost never names one; two exactly level entries err both ways (5%)."""
    trials = 4_000
    slack = 3 * math.sqrt(0.025 * 0.975 / trials)  # three standard errors of a 2.5% share
    runner_up = np.array([0.001, 0.0] + [-100.0] * 50)
    assert _wrong_leaders(runner_up, 1.0, trials, 1) <= 0.025 + slack
    assert _wrong_leaders(np.zeros(52), 1.0, trials // 4, 2) <= 0.005
    level = _wrong_leaders(np.zeros(2), 1.0, trials, 3)
    assert 0.05 - 2 * slack <= level <= 0.05 + 2 * slack


def test_equal_names_the_pair_that_is_equal():
    """ "The top two are equal" only when the runner-up is the one inside the margin: a top clearly ahead of the
    next yet equal to a lower, wider-measured entry is not "the top two"."""
    two = leader([("a", 1.00, 0.99, 1.01), ("b", 0.99, 0.98, 1.00), ("c", 0.50, 0.49, 0.51)], 100, 0.1)
    assert two == Verdict(None, None, 0.1) and "the top two are equal" in two.no_leader("rank them")
    # a - b = +0.09 [+0.04, +0.14]: clear of 0 but not inside ±0.1; a - c = +0.095 [+0.091, +0.099]: inside it
    rows = [("a", 1.00, 0.999, 1.001), ("b", 0.91, 0.86, 0.96), ("c", 0.905, 0.902, 0.908)]
    assert leader([rows[0], rows[1], ("c", 0.5, 0.49, 0.51)], 100, 0.1).leader == "a"  # c far below: a leads
    odd = leader(rows, 100, 0.1)
    assert odd.leader is None and odd.equal == 0.1 and not odd.runner_up
    assert "the top two" not in odd.no_leader("rank them") and "a lower entry" in odd.no_leader("rank them")
