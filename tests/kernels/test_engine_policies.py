"""Policies in the numba engine held equal to the Python spec: features, choices, round records."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim import kernels as engine
from casino_sim.core.rules import RULESETS
from casino_sim.kernels.calls import _generate
from casino_sim.kernels.features import _immediate_score, _move_features, _view, features_scratch
from casino_sim.kernels.rng import _below
from casino_sim.kernels.tables import split_table
from casino_sim.policies import move_features
from casino_sim.policies.arrays import policy_arrays
from casino_sim.policies.features import FEATURE_INDEX, weighted_sum
from casino_sim.reference.record import round_record
from casino_sim.reference.round import play_round
from casino_sim.runner.deals import deal_rows, rotations
from casino_sim.runner.threads import use_threads
from tests.support.policies import get_policy
from tests.support.rounds import positions_by_random_play


def engine_order_moves(pos):
    """The legal moves in the numba engine's generation order (the order its policies index)."""
    rows = _generate(engine.position_to_state(pos), pos.rules.as_array())
    return [engine.move_of_row(r) for r in rows]


@pytest.mark.parametrize("rules", list(RULESETS.values()), ids=list(RULESETS))
@pytest.mark.parametrize("weights_of", ["every feature", "greedy"])
def test_numba_features_equal_python_features_bit_for_bit(rules, weights_of):
    """Every wanted feature equal; with greedy's weights the kernel takes its short path."""
    after, f = features_scratch()
    want = (
        np.ones(len(f), dtype=np.int64)
        if weights_of == "every feature"
        else (get_policy("greedy").weights != 0).astype(np.int64)
    )
    tbl = split_table()
    checked = 0
    for pos in positions_by_random_play(rules, 12, seed=7)[::3]:
        st = engine.position_to_state(pos)
        view = _view(st, rules.as_array(), True)
        for move in engine_order_moves(pos):
            kind, card, loose, builds, value = engine.row_of_move(move)
            _move_features(st, rules.as_array(), tbl, kind, card, loose, builds, value, view, after, want, f)
            expected = move_features(pos, move) * want
            assert np.array_equal(f * want, expected), (pos.to_json(), move)
            checked += 1
    assert checked > 500


@pytest.mark.parametrize("rules", list(RULESETS.values()), ids=list(RULESETS))
@pytest.mark.parametrize("weights_of", ["greedy", "expert without risk"])
def test_immediate_scores_equal_the_weighted_python_features(rules, weights_of):
    """The score from the move record alone: greedy's whole score, and expert's bound (no risk features)."""
    if weights_of == "greedy":
        w = get_policy("greedy").weights.copy()
        w[FEATURE_INDEX["trail_points"]], w[FEATURE_INDEX["build_made"]] = -0.5, 0.3
    else:
        w = get_policy("expert").weights.copy()
        for name in ("points_at_risk", "cards_at_risk", "sweep_open"):
            w[FEATURE_INDEX[name]] = 0.0
    checked, r = 0, rules.as_array()
    for pos in positions_by_random_play(rules, 8, seed=11)[::2]:
        st = engine.position_to_state(pos)
        _unseen, n_unseen, opp_hand, _probs = _view(st, r, False)
        for move in engine_order_moves(pos):
            kind, card, loose, builds, value = engine.row_of_move(move)
            got = _immediate_score(st, r, kind, card, loose, builds, value, n_unseen == opp_hand, w)
            assert got == weighted_sum(move_features(pos, move), w), (pos.to_json(), move)
            checked += 1
    assert checked > 300


def replay_like_engine(rules, rows, i, policies):
    """Replay row i in the reference engine, choosing exactly as the numba kernel does."""
    state = np.array([rows.seeds[i]], dtype=np.uint64)
    seat = tuple(policies[int(w)] for w in rows.seating[i])

    def choose(pos, legal):
        moves = engine_order_moves(pos)
        assert set(moves) == set(legal)
        pol = seat[pos.to_move]
        if pol.kind == "random":
            return moves[_below(state, len(moves))]
        scores = pol.scores(pos, moves)
        ties = np.flatnonzero(scores >= scores.max() - 1e-9)
        return moves[ties[0] if len(ties) == 1 else ties[_below(state, len(ties))]]

    return round_record(play_round(rules, rows.decks[i], int(rows.dealer[i]), choose))


@pytest.mark.parametrize("rules_name", list(RULESETS))
@pytest.mark.parametrize("a, b", [("random", "random"), ("greedy", "random"), ("defensive", "expert")])
def test_round_records_equal_a_reference_replay(rules_name, a, b):
    rules = RULESETS[rules_name]
    policies = (get_policy(a), get_policy(b))
    rows = deal_rows(2024, 0, 6, rotations([0, 1], True))
    got = engine.play_rows(rows, rules, *policy_arrays(policies))
    for i in range(len(rows)):
        want = replay_like_engine(rules, rows, i, policies)
        assert {k: int(v[i]) for k, v in got.items()} == want, f"row {i}"


def test_rows_are_the_same_on_one_and_two_threads():
    rows = deal_rows(99, 0, 300, rotations([0, 1], True))
    policies = (get_policy("expert"), get_policy("random"))
    with use_threads(1):
        one = engine.play_rows(rows, RULESETS["strict"], *policy_arrays(policies))
    with use_threads(2):
        two = engine.play_rows(rows, RULESETS["strict"], *policy_arrays(policies))
    assert all(np.array_equal(one[k], two[k]) for k in one)
