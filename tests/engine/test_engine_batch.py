"""Batch simulation: reproducible by seed, bit-identical on 1 and 2 threads, plausible results."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from casino_sim.core.rules import BRAZILIAN, ITALIAN, STRICT
from casino_sim.engine import api

RULESETS = (STRICT, BRAZILIAN, ITALIAN)
two_threads = pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 numba threads")


def _equal(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@two_threads
@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.name)
def test_rounds_bit_identical_on_one_and_two_threads(rules):
    one = api.simulate_rounds(rules, 5000, seed=42, threads=1, chunk_size=256)
    two = api.simulate_rounds(rules, 5000, seed=42, threads=2, chunk_size=256)
    assert _equal(one, two)
    other = api.simulate_rounds(rules, 5000, seed=43, threads=2, chunk_size=256)
    assert not np.array_equal(one["totals"], other["totals"])


@two_threads
def test_games_bit_identical_on_one_and_two_threads():
    for rules in (STRICT, BRAZILIAN.with_options(round_win_points=6), ITALIAN.with_options(single_round=True)):
        one = api.simulate_games(rules, 300, seed=5, threads=1, chunk_size=16)
        two = api.simulate_games(rules, 300, seed=5, threads=2, chunk_size=16)
        assert _equal(one, two)


def test_rows_depend_only_on_their_chunk():
    a = api.simulate_rounds(STRICT, 1000, seed=7, chunk_size=100)
    b = api.simulate_rounds(STRICT, 450, seed=7, chunk_size=100)
    assert _equal({k: v[:450] for k, v in a.items()}, b)


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.name)
def test_round_results_are_consistent(rules):
    out = api.simulate_rounds(rules, 20000, seed=1)
    ok = ~out["void"]
    assert ok.mean() > 0.99
    assert (out["plies"] == 48).all()
    assert (out["n_cards"][ok].sum(axis=1) == 52).all()
    assert (out["aces"][ok].sum(axis=1) == 4).all()
    assert (out["ten_diamonds"][ok].sum(axis=1) == 2).all()
    assert (out["two_spades"][ok].sum(axis=1) == 1).all()
    cards_pts = out["cards"][ok].sum(axis=1)
    assert set(np.unique(cards_pts)) <= {0, 3}  # a 26-26 tie gives nobody the 3 points
    assert (out["spades"][ok].sum(axis=1) == 1).all()  # 13 spades: never a tie
    parts = sum(out[k] for k in ("cards", "spades", "aces", "ten_diamonds", "two_spades", "sweeps"))
    assert np.array_equal(parts, out["totals"])
    if rules.sweep_points == 0:
        assert (out["sweeps"] == 0).all()
    else:
        assert out["n_sweeps"].sum() > 0
    assert (out["void"] <= (out["totals"].sum(axis=1) == 0)).all()
    assert set(np.unique(out["dealer"])) == {0, 1}
    # random play is symmetric up to the dealer; both seats score ~half the points
    share = out["totals"][:, 0].sum() / out["totals"].sum()
    assert 0.45 < share < 0.55


def test_games_reach_the_target():
    out = api.simulate_games(STRICT, 400, seed=3)
    fin = out["final"]
    assert set(np.unique(out["winner"])) == {0, 1}
    w = out["winner"].astype(int)
    assert (fin.max(axis=1) >= 21).all()
    assert (fin[np.arange(len(w)), w] > fin[np.arange(len(w)), 1 - w]).all()
    assert (out["rounds"] >= 2).all()
    single = api.simulate_games(ITALIAN.with_options(single_round=True), 400, seed=3)
    assert (single["rounds"] == 1).all()
    quick = api.simulate_games(BRAZILIAN.with_options(round_win_points=6), 400, seed=3)
    # 11 points a round and no sweeps: someone has 6+ unless the most-cards prize ties (26-26)
    assert (quick["rounds"] == 1).mean() > 0.8
    one = quick["rounds"] == 1
    assert (quick["final"][one].max(axis=1) >= 6).all()


def test_simulate_rejects_bad_arguments():
    with pytest.raises(ValueError):
        api.simulate_rounds(STRICT, -1)
    with pytest.raises(ValueError):
        api.simulate_rounds(STRICT, 10, chunk_size=0)
    with pytest.raises(ValueError):
        api.simulate_rounds(STRICT, 10, threads=0)
    with pytest.raises(TypeError):
        api.simulate_rounds("strict", 10)
