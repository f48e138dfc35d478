"""The first learning baseline's judging (research/evaluate.py, no learning library) and its curve's table; the
training loop itself for a few hundred steps when sb3-contrib is installed (the learn extra; CI has none)."""

from __future__ import annotations

import runpy
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from casino_sim.pettingzoo import SoloEnv
from casino_sim.reports.stats import mean_ci
from casino_sim.research.evaluate import deal_seeds, mirrored_points, random_masked

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _judge(opponent: str):
    return lambda seat: SoloEnv(opponent, seat=seat, rules="strict", zero_sum=True)


def _train_baseline() -> SimpleNamespace:
    """The script's functions (it runs nothing unless it is __main__)."""
    return SimpleNamespace(**runpy.run_path(str(SCRIPTS / "train_baseline.py"), run_name="loaded_by_test"))


def test_a_random_learner_loses_to_greedy_by_a_clear_margin():
    points = mirrored_points(random_masked(1), _judge("greedy"), deal_seeds(7, 16), chunk=5)
    assert points.shape == (16, 2)
    estimate = mean_ci(points.mean(axis=1))
    assert estimate.hi < 0 and estimate.mean < -2  # random play gives greedy several points a round


def test_the_judging_deals_are_fixed_and_mirrored():
    seeds = deal_seeds(3, 4)
    assert seeds == deal_seeds(3, 4) and len(set(seeds)) == 4 and seeds[:2] != deal_seeds(4, 2)
    again = mirrored_points(random_masked(2), _judge("random"), seeds)
    assert np.array_equal(again, mirrored_points(random_masked(2), _judge("random"), seeds))

    def last(observations, masks):  # a policy of the position alone: its points cannot depend on the lockstep
        return masks.shape[1] - 1 - masks[:, ::-1].argmax(axis=1)

    together = mirrored_points(last, _judge("greedy"), seeds)
    assert np.array_equal(together, mirrored_points(last, _judge("greedy"), seeds, chunk=1))
    hands = []
    for seat in (0, 1):  # the same seed deals the same cards whichever seat the learner takes
        solo = SoloEnv("greedy", seat=seat, zero_sum=True)
        solo.reset(seed=seeds[0])
        hands.append(solo.game.core.round.dealt)
    assert hands[0] == hands[1]


def test_an_illegal_action_of_the_learner_is_refused():
    def illegal(observations, masks):
        return np.array([int(np.flatnonzero(~mask)[0]) for mask in masks])

    with pytest.raises(ValueError, match="illegal action"):
        mirrored_points(illegal, _judge("random"), deal_seeds(1, 1))


def test_the_curve_table_has_its_columns_and_intervals(tmp_path):
    train_baseline = _train_baseline()
    rng = np.random.default_rng(0)
    points = {"greedy": rng.normal(-3, 2, (10, 2)), "expert": rng.normal(-5, 2, (10, 2))}
    rows = [train_baseline.curve_row(0, "random", 0.0, points), train_baseline.curve_row(2048, "greedy", 9.5, points)]
    train_baseline.write_curve(rows, tmp_path)
    table = pd.read_csv(tmp_path / "baseline.csv")
    assert list(table.columns) == [
        "steps", "trained_against", "seconds", "greedy_mean", "greedy_ci_lo", "greedy_ci_hi",
        "expert_mean", "expert_ci_lo", "expert_ci_hi", "rounds",
    ]  # fmt: skip
    assert table["steps"].tolist() == [0, 2048] and table["rounds"].tolist() == [20, 20]
    expert = mean_ci(points["expert"].mean(axis=1))
    assert table.loc[1, "expert_ci_lo"] == pytest.approx(expert.lo, abs=1e-3)
    assert (table["greedy_ci_lo"] < table["greedy_mean"]).all() and (table["greedy_mean"] < table["greedy_ci_hi"]).all()


def test_training_runs_and_writes_the_curve(tmp_path):
    pytest.importorskip("sb3_contrib")
    train_baseline = _train_baseline()
    args = ["--random-steps", "128", "--greedy-steps", "128", "--eval-every", "128", "--eval-deals", "2"]
    args += ["--envs", "2", "--rollout", "64", "--out", str(tmp_path), "--work", str(tmp_path)]
    train_baseline.main(args)
    table = pd.read_csv(tmp_path / "baseline.csv")
    assert table["steps"].tolist() == [0, 128, 256]
    assert table["trained_against"].tolist() == ["random", "random", "greedy"]
    assert (table["rounds"] == 4).all() and (tmp_path / "maskable_ppo.zip").exists()
    report = (tmp_path / "baseline.md").read_text()
    assert "python scripts/train_baseline.py --random-steps 128" in report and "| 256 | greedy |" in report
    assert {p.suffix for p in tmp_path.glob("baseline.*")} == {".csv", ".md", ".png", ".svg"}
    (tmp_path / "baseline.md").unlink()  # --report-only writes it again from the csv, the same
    train_baseline.main([*args, "--report-only"])
    assert (tmp_path / "baseline.md").read_text() == report
