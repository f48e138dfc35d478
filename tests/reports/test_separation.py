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
