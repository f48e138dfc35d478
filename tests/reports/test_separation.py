"""reports/separation.py: a leader only where intervals separate, and the samples that would separate them."""

from __future__ import annotations

import math

import numpy as np

from casino_sim.reports.separation import Verdict, about, beats, leader
from casino_sim.reports.stats import mean_ci


def test_a_leader_needs_its_interval_clear_of_every_other():
    assert leader([("a", 3.0, 2.0, 4.0), ("b", 1.0, 0.5, 1.5)], 100).leader == "a"
    # the runner-up by mean is clear, but a wide third reaches into the top's interval
    overlapping = leader([("a", 3.0, 2.0, 4.0), ("b", 1.0, 0.5, 1.5), ("c", 0.9, -1.0, 2.8)], 100)
    assert overlapping.leader is None and overlapping.needed > 100


def test_the_samples_needed_follow_the_square_of_spread_over_gap():
    # half-widths 1 and 1 around means 1 apart: the intervals clear each other at 4x the samples
    assert leader([("a", 2.0, 1.0, 3.0), ("b", 1.0, 0.0, 2.0)], 50).needed == 200
    assert beats("a", "b", 0.1, -0.1, 0.3, 100).needed == 400
    assert beats("a", "b", 0.6, 0.55, 0.65, 100, centre=0.5).leader == "a"
    assert beats("a", "b", 0.4, 0.35, 0.45, 100, centre=0.5).leader == "b"


def test_the_estimate_separates_simulated_means():
    """Two means 0.5 apart with unit noise: at the number a small sample asks for (with room), they separate."""
    rng = np.random.default_rng(4)

    def estimates(n):
        out = []
        for name, mu in (("a", 0.5), ("b", 0.0)):
            e = mean_ci(rng.normal(mu, 1, n))
            out.append((name, e.mean, e.lo, e.hi))
        return out

    first = leader(estimates(20), 20)
    assert first.leader is None
    assert leader(estimates(int(2 * first.needed)), int(2 * first.needed)).leader == "a"


def test_no_spread_no_estimate_and_level_means_never_separate():
    one = leader([("a", 1.0, -math.inf, math.inf), ("b", 0.0, -math.inf, math.inf)], 1)
    assert one == Verdict(None, None) and "no spread measured" in one.too_few("rank them")
    level = leader([("a", 1.0, 0.0, 2.0), ("b", 1.0, 0.0, 2.0)], 10)
    assert math.isinf(level.needed) and "level" in level.too_few("rank them")


def test_counts_are_rounded_up_to_two_figures():
    assert [about(x) for x in (7.2, 48.0, 4_812.3, 4_800, 1_234_567)] == ["8", "48", "4,900", "4,800", "1,300,000"]
    text = Verdict(None, 4_812.3).too_few("rank the cards")
    assert text == "too few deals to rank the cards: about 4,900 deals would separate the top two (observed spread)"
