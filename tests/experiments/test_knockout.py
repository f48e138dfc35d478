"""The knockout of a heuristic's features: knocked-out policies, common deals, early stops, pairs, bad input."""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd
import pytest

from casino_sim.core.errors import UserError
from casino_sim.experiments.compare import compare
from casino_sim.experiments.knockout import (
    SKIPPED,
    Knockout,
    KnockoutConfig,
    parse_pairs,
    stop_reason,
    without,
)
from casino_sim.experiments.simulate import SimConfig
from casino_sim.policies.features import FEATURE_INDEX, FEATURE_NAMES
from casino_sim.reports.stats import Estimate
from tests.support.policies import LOADER, get_policy


def _knockout(**options) -> Knockout:
    run = Knockout(KnockoutConfig(**options).resolve(LOADER))
    run.run()
    return run


def test_without_sets_only_the_named_weights_to_zero():
    expert = get_policy("expert")
    gone = ("sweep_open", "trail_points")
    knocked = without(expert, gone)
    assert knocked.kind == "heuristic" and knocked.name != expert.name
    for name in FEATURE_NAMES:
        expected = 0.0 if name in gone else expert.weights[FEATURE_INDEX[name]]
        assert knocked.weights[FEATURE_INDEX[name]] == expected


def test_stop_reasons():
    assert stop_reason(Estimate(0.01, -0.02, 0.04, 900), precision=0.05) == "precise"
    assert stop_reason(Estimate(1.0, 0.5, 1.5, 900), precision=0.05) == "clear"
    assert stop_reason(Estimate(0.3, 0.05, 0.55, 900), precision=0.05) == ""  # clear of 0, but not by a margin
    assert stop_reason(Estimate(0.0, -0.4, 0.4, 900), precision=0.05) == ""
    assert stop_reason(Estimate(5.0, -np.inf, np.inf, 1), precision=0.05) == ""


def test_every_feature_is_measured_or_skipped_and_the_table_is_sorted():
    run = _knockout(policy="greedy", deals=400, chunk_deals=200, seed=3)
    t = run.table()
    greedy = get_policy("greedy")
    assert sorted(t["feature"]) == sorted(FEATURE_NAMES)
    zero = {n for n in FEATURE_NAMES if greedy.weights[FEATURE_INDEX[n]] == 0}
    assert set(t.loc[t["stopped"] == SKIPPED, "feature"]) == zero
    assert (t.loc[t["stopped"] == SKIPPED, "deals"] == 0).all()
    measured = t[t["stopped"] != SKIPPED]
    assert list(measured.index) == list(range(len(measured)))  # measured first
    assert measured["worth_mean"].is_monotonic_decreasing
    assert measured["deals"].isin([200, 400]).all()
    assert set(measured["stopped"]) <= {"clear", "precise", "most deals"}


def test_taking_cards_is_worth_points_to_greedy():
    row = _knockout(policy="greedy", deals=1000, chunk_deals=500, seed=1).table().set_index("feature")
    assert row.loc["cards_taken", "worth_ci_lo"] > 0.5


def test_a_feature_that_played_every_deal_matches_compare_on_the_same_deals(tmp_path):
    run = _knockout(policy="greedy", deals=600, chunk_deals=300, precision=0.0, seed=9)
    knocked = without(get_policy("greedy"), ("aces_taken",))
    path = tmp_path / "knocked.toml"
    weights = "\n".join(f"{n} = {float(w)!r}" for n, w in zip(FEATURE_NAMES, knocked.weights) if w)
    path.write_text(f'name = "knocked"\n[weights]\n{weights}\n')
    row = run.table().set_index("feature").loc["aces_taken"]
    played = int(row["deals"])  # all 600, or the first chunk's 300 when its interval was already clear
    est = compare(
        SimConfig(deals=played, policy_a="greedy", policy_b=str(path), seed=9, chunk_deals=300).resolve(LOADER)
    )
    assert row["worth_mean"] == pytest.approx(est.mean)
    assert (row["worth_ci_lo"], row["worth_ci_hi"]) == pytest.approx((est.lo, est.hi))


def test_a_pair_measures_the_second_feature_with_the_first_out():
    run = Knockout(
        KnockoutConfig(policy="expert", deals=200, chunk_deals=200, pairs=(("sweep_open", "sweep"),)).resolve(LOADER)
    )
    pair = [e for e in run.entries if e.given_out]
    assert [(e.feature, e.given_out) for e in pair] == [("sweep", ("sweep_open",))]
    assert sorted(e.feature for e in run.entries if not e.given_out) == ["sweep", "sweep_open"]
    base, challenger = pair[0].baseline.weights, pair[0].challenger.weights
    assert base[FEATURE_INDEX["sweep_open"]] == 0 and base[FEATURE_INDEX["sweep"]] != 0
    assert challenger[FEATURE_INDEX["sweep_open"]] == 0 and challenger[FEATURE_INDEX["sweep"]] == 0
    t = run.run()
    assert list(t["given_out"]).count("sweep_open") == 1 and (t["deals"] == 200).all()


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 numba threads")
def test_same_seed_same_table_on_any_thread_count():
    one = _knockout(policy="greedy", deals=400, chunk_deals=200, seed=2, threads=1).table()
    two = _knockout(policy="greedy", deals=400, chunk_deals=200, seed=2, threads=2).table()
    pd.testing.assert_frame_equal(one, two)


def test_pairs_are_parsed_from_one_or_several_values():
    assert parse_pairs(["a,b;c, d", "e,f"]) == (("a", "b"), ("c", "d"), ("e", "f"))
    assert parse_pairs(None) == ()
    with pytest.raises(UserError, match="two features"):
        parse_pairs(["a,b,c"])
    with pytest.raises(UserError, match="two features"):
        parse_pairs(["a,"])


@pytest.mark.parametrize(
    "options, fragment",
    [
        ({"deals": 0}, "--deals"),
        ({"seed": -1}, "--seed"),
        ({"threads": -1}, "--threads"),
        ({"chunk_deals": 0}, "--chunk-deals"),
        ({"precision": -1.0}, "--precision"),
        ({"rules": "poker"}, "poker"),
        ({"policy": "nosuch"}, "nosuch"),
        ({"policy": "random"}, "random policy"),
        ({"policy": "rollout"}, "rollout policy"),
        ({"policy": "tests.support.exact_policy:exact_best"}, "python policy"),
        ({"pairs": (("sweep_open", "nosuch"),)}, "unknown feature 'nosuch'"),
        ({"pairs": (("sweep", "sweep"),)}, "twice"),
        ({"pairs": (("trail", "sweep"),)}, "weight 0"),
    ],
)
def test_bad_options_are_refused(options, fragment):
    with pytest.raises(UserError, match=fragment):
        Knockout(KnockoutConfig(**{"policy": "expert", **options}).resolve(LOADER))
