"""The row kernel (simulate's path, every player count) with random play: reproducible by row, bit-identical on 1
and 2 threads, sound."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from casino_sim import kernels as engine
from casino_sim.core.rules import BRAZILIAN, ITALIAN, STRICT, get_rules
from casino_sim.kernels.layout import SCRIPTED
from casino_sim.policies.arrays import policy_arrays
from casino_sim.runner.deals import deal_rows, rotations
from casino_sim.runner.threads import use_threads
from tests.support.policies import get_policy

RULESETS = (STRICT, BRAZILIAN, ITALIAN)
EVERY_COUNT = (*RULESETS, get_rules("brazilian:players=3"), get_rules("italian:players=4,teams=true"))
RANDOM = policy_arrays((get_policy("random"), get_policy("random")))
two_threads = pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 numba threads")


def _equal(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def _rows(seed: int, deals: int, rules):
    """Seeded rows of random play, each deal in every seating of one policy against the others."""
    return deal_rows(seed, 0, deals, rotations([0] + [1] * (rules.players - 1), True))


@two_threads
@pytest.mark.parametrize("rules", EVERY_COUNT, ids=lambda r: r.name)
def test_random_rows_are_bit_identical_on_one_and_two_threads(rules):
    rows = _rows(42, 2000 // rules.players, rules)
    with use_threads(1):
        one = engine.play_rows(rows, rules, *RANDOM)
    with use_threads(2):
        two = engine.play_rows(rows, rules, *RANDOM)
    assert _equal(one, two)
    other = engine.play_rows(_rows(43, 2000 // rules.players, rules), rules, *RANDOM)
    total = next(c for c in one if c.endswith("_total"))
    assert not np.array_equal(one[total], other[total])


@pytest.mark.parametrize("rules", EVERY_COUNT, ids=lambda r: r.name)
def test_a_row_depends_only_on_itself(rules):
    rows = _rows(7, 999 // rules.players, rules)
    every = engine.play_rows(rows, rules, *RANDOM)
    picked = np.arange(3, len(rows), 7)
    some = engine.play_rows(rows.take(picked), rules, *RANDOM)
    assert _equal({k: v[picked] for k, v in every.items()}, some)


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.name)
def test_random_rounds_are_sound(rules):
    out = engine.play_rows(deal_rows(1, 0, 10_000, rotations([0, 1], False)), rules, *RANDOM)
    ok = out["void"] == 0
    assert ok.mean() > 0.99
    assert (out["plies"] == 48).all()

    def both(k):
        return out[f"first_{k}"][ok] + out[f"dealer_{k}"][ok]

    assert (both("n_cards") == 52).all()
    assert (both("aces") == 4).all()
    assert (both("ten_diamonds") == 2).all()
    assert (both("two_spades") == 1).all()
    assert set(np.unique(both("cards"))) <= {0, 3}  # a 26-26 tie gives nobody the 3 points
    assert (both("spades") == 1).all()  # 13 spades: never a tie
    for q in ("first", "dealer"):
        parts = sum(out[f"{q}_{k}"] for k in ("cards", "spades", "aces", "ten_diamonds", "two_spades", "sweeps"))
        assert np.array_equal(parts, out[f"{q}_total"])
    if rules.sweep_points == 0:
        assert (out["first_sweeps"] + out["dealer_sweeps"] == 0).all()
    else:
        assert both("n_sweeps").sum() > 0
    assert (out["void"] <= (out["first_total"] + out["dealer_total"] == 0)).all()
    assert set(np.unique(out["dealer"])) == {0, 1}
    assert np.array_equal(out["dealer_seat"], out["dealer"]) and np.array_equal(out["first_seat"], 1 - out["dealer"])
    # random play is symmetric up to the dealer; both seats score ~half the points
    player_0 = np.where(out["first_seat"] == 0, out["first_total"], out["dealer_total"]).astype(np.int64)
    share = player_0.sum() / (out["first_total"].astype(np.int64).sum() + out["dealer_total"].astype(np.int64).sum())
    assert 0.45 < share < 0.55


def test_play_rows_rejects_bad_arguments():
    rows = deal_rows(1, 0, 3, rotations([0, 1], False))
    ints, weights, wants = RANDOM
    with pytest.raises(TypeError):
        engine.play_rows(rows, "strict", ints, weights, wants)
    with pytest.raises(ValueError):
        engine.play_rows(rows, STRICT, ints[:1], weights, wants)
    with pytest.raises(ValueError):
        engine.play_rows(rows, STRICT, ints, weights, wants, trace=np.zeros((2, 48, 4), np.int64))
    python = ints.copy()
    python[0, engine.P_KIND] = 3  # a Python-callable policy never enters a kernel
    with pytest.raises(ValueError, match="policy kinds"):
        engine.play_rows(rows, STRICT, python, weights, wants)
    scripted = ints.copy()
    scripted[:, engine.P_KIND] = SCRIPTED  # a scripted player wants a script per row
    with pytest.raises(ValueError):
        engine.play_rows(rows, STRICT, scripted, weights, wants)
