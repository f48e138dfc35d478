"""Regret against exact play: a perfect player loses nothing, random loses more than expert, and the table is
reproducible and counts whole deals."""

from __future__ import annotations

import numba
import pandas as pd
import pytest

from casino_sim.analysis.regret import Regret, RegretConfig
from casino_sim.core.errors import UserError
from casino_sim.experiments.skill_fields import REGRET
from casino_sim.experiments.skill_runs import RegretRun
from tests.support.policies import LOADER

EXACT = "tests.support.exact_policy:exact_best"


def _run(**options) -> Regret:
    run = Regret(RegretConfig(**options).resolve(LOADER))
    run.run()
    return run


def test_a_player_of_the_exact_best_move_loses_nothing():
    run = _run(policies=(EXACT,), decisions=40, seed=4)
    row = run.table().iloc[0]
    assert row["decisions"] >= 40
    assert row["best_mean"] == 1.0 and row["lost_per_decision_mean"] == 0 and row["lost_per_round_mean"] == 0
    assert row["best_ci_lo"] < 1.0  # Wilson: a finite sample never proves 100%


def test_losses_are_never_negative_and_zero_exactly_on_a_best_move():
    plays = _run(policies=("random",), decisions=500, seed=2).plays("random")
    assert (plays["lost"] >= 0).all()
    assert ((plays["lost"] == 0) == (plays["played"] == plays["best"])).all()
    assert (plays.loc[plays["moves"] == 1, "lost"] == 0).all()
    assert (plays["lost"] > 0).any()


def test_random_loses_more_than_expert_on_the_same_deals():
    t = _run(policies=("expert", "random"), decisions=600, seed=1).table().set_index("policy")
    assert t.loc["random", "lost_per_decision_ci_lo"] > t.loc["expert", "lost_per_decision_ci_hi"]
    assert t.loc["random", "lost_per_round_ci_lo"] > t.loc["expert", "lost_per_round_ci_hi"]
    assert t.loc["random", "best_ci_hi"] < t.loc["expert", "best_ci_lo"]


def test_whole_deals_up_to_the_decisions_asked():
    run = _run(policies=("greedy",), decisions=300, seed=7)
    plays = run.plays("greedy")
    per_deal = (plays["moves"] > 1).groupby(plays["deal_id"]).sum()
    assert per_deal.sum() >= 300 and per_deal.sum() - per_deal.iloc[-1] < 300
    assert run.table().iloc[0]["decisions"] == per_deal.sum()
    assert run.table().iloc[0]["rounds"] == 2 * plays["deal_id"].nunique()  # itself: both seats of each round


def test_against_another_policy_only_its_own_seat_counts_in_mirrored_deals():
    run = _run(policies=("expert",), vs="random", decisions=200, seed=3)
    plays = run.plays("expert")
    assert set(plays["mirror"]) == {0, 1}
    assert (plays.groupby(["deal_id", "mirror"])["seat"].nunique() == 1).all()
    assert (plays.groupby(["deal_id", "mirror"]).size() == 4).all()  # four last-batch plays a seat
    assert run.table().iloc[0]["vs"] == "random"


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 numba threads")
def test_same_seed_same_table_on_any_thread_count():
    one = _run(policies=("greedy", "random"), decisions=300, seed=5, threads=1).table()
    two = _run(policies=("greedy", "random"), decisions=300, seed=5, threads=2).table()
    pd.testing.assert_frame_equal(one, two)
    other = _run(policies=("greedy", "random"), decisions=300, seed=6, threads=2).table()
    assert not one.equals(other)


def test_a_rollout_policy_is_judged(tmp_path):
    path = tmp_path / "quick.toml"
    path.write_text('name = "quick"\nkind = "rollout"\n[params]\nworlds = 2\nbase = "greedy"\n')
    row = _run(policies=(str(path),), decisions=12, seed=1).table().iloc[0]
    assert row["decisions"] >= 12 and 0 <= row["best_mean"] <= 1


@pytest.mark.parametrize(
    "options, fragment",
    [
        ({"policies": ()}, "policies"),
        ({"policies": ("expert",), "decisions": 0}, "--decisions"),
        ({"policies": ("expert",), "seed": -1}, "--seed"),
        ({"policies": ("expert",), "threads": -1}, "--threads"),
        ({"policies": ("nosuch",)}, "nosuch"),
        ({"policies": ("expert",), "vs": "nosuch"}, "nosuch"),
        ({"policies": ("expert",), "rules": "poker"}, "poker"),
        ({"policies": ("rollout",), "vs": EXACT}, "rollout"),
    ],
)
def test_bad_options_are_refused(options, fragment, tmp_path):
    """Through regret's front door, which checks the declared bounds (experiments/skill_fields.py) and resolves."""
    values = REGRET.defaults() | {"out": tmp_path / "regret"} | options
    with pytest.raises(UserError, match=fragment):
        RegretRun.new(values, frozenset(options), LOADER)
    assert not (tmp_path / "regret").exists()
