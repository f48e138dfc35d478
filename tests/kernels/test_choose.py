"""The heuristic's branch and bound (kernels/choose.py) picks exactly what scoring every move in full picks."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim import kernels as engine
from casino_sim.core.rules import RULESETS
from casino_sim.kernels.buffers import _new_scratch
from casino_sim.kernels.choose import _heuristic_index
from casino_sim.kernels.features import _move_features, _view, _weighted, features_scratch
from casino_sim.kernels.rng import _below
from casino_sim.kernels.tables import split_table
from casino_sim.policies.features import FEATURE_INDEX
from tests.kernels.test_engine_policies import engine_order_moves
from tests.support.policies import get_policy
from tests.support.rounds import positions_by_random_play


def _weight_sets():
    """The built-in heuristics, one whose risk weights are positive (no bound: the plain path), one risk-only."""
    out = {name: get_policy(name).weights for name in ("greedy", "builder", "defensive", "hold-casinos", "expert")}
    rash = get_policy("expert").weights.copy()
    rash[FEATURE_INDEX["cards_at_risk"]] = 0.3
    out["rash"] = rash
    risk_only = np.zeros_like(rash)
    risk_only[FEATURE_INDEX["points_at_risk"]] = -1.0
    risk_only[FEATURE_INDEX["sweep_open"]] = -2.0
    out["risk only"] = risk_only
    return out


def _full_choice(st, rules, tbl, rows, w, want, rng):
    """Every move scored in full, then the kernel's tie rule: the best index and the draws it makes."""
    after, f = features_scratch()
    view = _view(st, rules, True)
    scores = []
    for kind, card, loose, builds, value in rows:
        _move_features(st, rules, tbl, kind, card, loose, builds, value, view, after, want, f)
        scores.append(_weighted(f, w))
    scores = np.array(scores)
    ties = np.flatnonzero(scores >= scores.max() - 1e-9)
    return int(ties[0] if len(ties) == 1 else ties[_below(rng, len(ties))])


@pytest.mark.parametrize("rules_name", list(RULESETS))
def test_branch_and_bound_picks_what_full_scoring_picks(rules_name):
    rules = RULESETS[rules_name]
    rules_arr, tbl = rules.as_array(), split_table()
    buf = _new_scratch(4096, 16)
    checked = pruned = 0
    for k, pos in enumerate(positions_by_random_play(rules, 6, seed=21)):
        st = engine.position_to_state(pos)
        rows = np.array([engine.row_of_move(m) for m in engine_order_moves(pos)], dtype=np.int64)
        buf.mv[: len(rows)] = rows
        for name, w in _weight_sets().items():
            want = (w != 0).astype(np.int64)
            rng_a, rng_b = np.array([k], np.uint64), np.array([k], np.uint64)
            got = _heuristic_index(st, rules_arr, tbl, buf.mv, len(rows), w, want, rng_a, buf.after, buf.f, buf.scores)
            assert got == _full_choice(st, rules_arr, tbl, rows, w, want, rng_b), (name, pos.to_json())
            assert rng_a[0] == rng_b[0], (name, "the same draws")
            checked += 1
            pruned += name == "expert" and len(rows) > 1 and int(np.isneginf(buf.scores[: len(rows)]).sum())
    assert checked > 1000
    assert pruned > 100  # the bound did skip moves: the test saw the branch and bound at work
