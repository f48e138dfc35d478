"""Play-outs cut at a batch's end (param `horizon`): where they stop, and the value estimate they stop with."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim import kernels as engine
from casino_sim.core.rules import RULESETS, STRICT, get_rules
from casino_sim.kernels import layout as L
from casino_sim.kernels.buffers import _new_scratch
from casino_sim.kernels.rollout import _base_seats, _play_out, _stop
from casino_sim.kernels.score import _finish, _score
from casino_sim.kernels.state import _start_round, new_state
from casino_sim.kernels.tables import split_table
from casino_sim.kernels.value import _features, _value
from casino_sim.policies.arrays import policy_arrays
from casino_sim.runner.deals import deal_rows, rotations
from casino_sim.runner.threads import use_threads
from tests.support.nplayer import seated_round
from tests.support.policies import get_policy, policy_from_dict


def cut(horizon: int, worlds: int = 3, kind: str = "searcher"):
    params = {"worlds": worlds, "base": "tuned", "top": 2, "horizon": horizon}
    return policy_from_dict({"name": f"cut-{horizon}", "kind": kind, "params": params}, "test", "test")


def test_a_play_out_stops_at_the_batch_end_its_horizon_names_but_never_at_the_last_batchs_start():
    st, two, three = new_state(), STRICT.as_array(), get_rules("italian:players=3").as_array()
    for ply, horizon, stop in ((0, 0, 48), (0, 1, 8), (7, 1, 8), (8, 1, 16), (9, 2, 24), (31, 1, 32), (32, 1, 48)):
        st[L.PLY] = ply
        assert _stop(st, two, horizon) == stop, (ply, horizon)
    st[L.PLY] = 3
    assert _stop(st, three, 1) == L.PLIES  # two players only: the estimate is of a two-player round


def batch_ends(n_rounds: int, seed: int):
    """(the state at the end of each of the first four batches, player 0's final margin) of rounds of tuned
    against itself."""
    rules, tbl, buf = STRICT.as_array(), split_table(), _new_scratch(L.MOVE_CAP * 8, L.SCRATCH_BITS + 6)
    weights = get_policy("tuned").weights
    _base_seats(L.HEURISTIC, weights, (weights != 0).astype(np.int64), buf.base)
    rng = np.random.default_rng(seed)
    for r in range(n_rounds):
        deck, st, stream = rng.permutation(52).astype(np.int64), new_state(), np.array([r + 1], np.uint64)
        _start_round(st, rules, deck, r % 2)
        ends = []
        for b in range(1, 5):
            assert _play_out(st, rules, tbl, deck, buf, stream, b * L.PLIES_PER_BATCH) == L.OK
            ends.append(st.copy())
        assert _play_out(st, rules, tbl, deck, buf, stream, L.PLIES) == L.OK
        _finish(st)
        _score(st, rules, buf.score)
        yield ends, buf.score[0, L.S_TOTAL] - buf.score[1, L.S_TOTAL]


def test_the_estimate_is_zero_sum_and_follows_the_margin_of_fresh_rounds():
    """Each player's estimate is the other's negated; over rounds the fit never saw, its error averages out at
    each batch end and leaves less of the margin unexplained than the sure points alone."""
    rules, tbl, f = STRICT.as_array(), split_table(), np.zeros(len(get_policy("tuned").weights))
    errors, unexplained = [[] for _ in range(4)], [[] for _ in range(4)]
    for ends, final in batch_ends(3000, 5150):
        for b, st in enumerate(ends):
            value = _value(st, rules, tbl, 0, f)
            assert _value(st, rules, tbl, 1, f) == -value
            errors[b].append(final - value)
            unexplained[b].append(final - _features(st, rules, tbl, 0, f)[0])
    for b in range(4):
        err = np.array(errors[b])
        assert abs(err.mean()) < 4 * err.std() / np.sqrt(len(err)), b
        assert err.var() < np.var(unexplained[b]), b


@pytest.mark.parametrize("rules_name", list(RULESETS))
def test_cut_searchers_play_legal_rounds_the_same_on_one_and_two_threads(rules_name):
    rows = deal_rows(31, 0, 20, rotations([0, 1], True))  # more than one block: two threads share them
    arrays = policy_arrays((cut(1), cut(2, kind="rollout")))
    with use_threads(1):
        one = engine.play_rows(rows, RULESETS[rules_name], *arrays, check=True)
    with use_threads(2):
        two = engine.play_rows(rows, RULESETS[rules_name], *arrays, check=True)
    assert all(np.array_equal(one[k], two[k]) for k in one)


def rounds(spec: str, policy, n_rounds: int = 4) -> list[np.ndarray]:
    rules = get_rules(spec)
    policies = (policy,) + (get_policy("greedy"),) * (rules.players - 1)
    rng = np.random.default_rng(22)
    decks = [rng.permutation(52) for _ in range(n_rounds)]
    return [seated_round(rules, d, 1, policies, 3 + i)[0] for i, d in enumerate(decks)]


def test_the_cut_changes_two_player_play_and_no_play_of_three_or_four():
    assert any(not np.array_equal(a, b) for a, b in zip(rounds("strict", cut(1)), rounds("strict", cut(0))))
    for spec in ("italian:players=3", "brazilian:players=4"):
        assert all(np.array_equal(a, b) for a, b in zip(rounds(spec, cut(1)), rounds(spec, cut(0))))
