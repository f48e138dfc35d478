"""Mean intervals outside the reports use Student's t as well: the --until-ci stopping rule and `analyse`."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from casino_sim.core.rules import get_rules
from casino_sim.experiments.headline import Headline
from casino_sim.reports.stats import mean_ci, t975


def test_until_ci_judges_a_few_deals_with_t():
    frame = pd.DataFrame(
        {
            "deal_id": [0, 0, 1, 1],
            "mirror": [0, 1, 0, 1],
            "void": 0,
            "first_seat": 0,
            "dealer_seat": 1,  # player 1 deals every round
            "first_total": [6, 2, 5, 5],
            "dealer_total": [1, 3, 2, 4],
        }
    )  # A (player `mirror`) minus B per deal: (5 + 1) / 2 = 3 and (3 - 1) / 2 = 1
    head = Headline(get_rules("strict"))
    head.add(frame)
    mean, width = head.interval()
    assert mean == 2
    assert width == pytest.approx(2 * mean_ci([3.0, 1.0]).half_width)
    assert width == pytest.approx(2 * t975(1) * 1.0)  # 12.7 standard errors each side, not 1.96


def test_analyse_intervals_from_few_worlds_use_t(monkeypatch):
    import casino_sim.kernels as engine
    from casino_sim.analysis import analyse
    from tests.support.policies import get_policy
    from tests.support.positions import random_position

    # two worlds in which every move scores 1, then 3: mean 2, standard error 1
    monkeypatch.setattr(engine, "rollout_diffs", lambda pos, moves, *rest: np.tile([[1.0], [3.0]], (1, len(moves))))
    a = analyse(random_position(3, 30), get_policy("greedy"), worlds=2, seed=1)
    for m in a.moves:
        assert m.mean == 2
        assert (m.low, m.high) == pytest.approx((2 - t975(1), 2 + t975(1)))  # not 2 -/+ 1.96
