"""A searcher without worlds (the built-in `endgame`): its base's play until its exact plays, then only moves of the
best exact value; with three or four players its base's play throughout (docs/policies.md, "endgame")."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim import kernels as engine
from casino_sim.core.rules import RULESETS, get_rules
from casino_sim.kernels import layout as L
from casino_sim.kernels.buffers import _new_scratch
from casino_sim.kernels.calls import legal_move_rows
from casino_sim.kernels.choose import _heuristic_index
from casino_sim.kernels.codec import world_state
from casino_sim.kernels.exact import _search_space
from casino_sim.kernels.lastbatch import J_BEST, J_MOVER, J_MOVES, J_PLAYED, judge_last_batch
from casino_sim.kernels.search import _exact_best, _exact_leader
from casino_sim.kernels.tables import split_table
from casino_sim.policies.arrays import policy_arrays
from casino_sim.policies.decide import choose_move
from casino_sim.reference import legal_moves
from casino_sim.runner.deals import deal_rows, rotations
from tests.support.nplayer import seated_round
from tests.support.policies import get_policy, policy_from_dict
from tests.support.rounds import positions_by_random_play

EXACT_FROM = engine.PLIES - 6  # the built-in endgame searches its last six plays


def endgame(exact_plies: int = 6, base: str = "tuned"):
    params = {"worlds": 0, "base": base, "exact_plies": exact_plies}
    return policy_from_dict({"name": f"end{exact_plies}", "kind": "searcher", "params": params}, "test", "test")


def traced(rows, rules, a, b):
    trace = np.zeros((len(rows), engine.PLIES, engine.MOVE_FIELDS), dtype=np.int64)
    engine.play_rows(rows, rules, *policy_arrays((a, b)), check=True, trace=trace)
    return trace


def test_the_built_in_endgame_is_tuned_with_its_last_six_plays_exact():
    policy = get_policy("endgame")
    assert policy.kind == "searcher" and policy.base.plays_like(get_policy("tuned"))
    assert policy.params["worlds"] == 0 and policy.params["exact_plies"] == 6
    assert policy.plays_like(endgame())


@pytest.mark.parametrize("rules_name", list(RULESETS))
def test_endgame_plays_as_its_base_then_only_best_exact_moves(rules_name):
    """Against tuned: the same plays as tuned against tuned until its exact plays (the same random stream for
    ties); from there every play of its seat has the best exact value, where tuned's own plays miss it at times."""
    rules = RULESETS[rules_name]
    rows = deal_rows(31, 0, 12, rotations([0, 1], True))
    tuned = get_policy("tuned")
    ours, base = traced(rows, rules, endgame(), tuned), traced(rows, rules, tuned, tuned)
    assert np.array_equal(ours[:, :EXACT_FROM], base[:, :EXACT_FROM])
    judged = judge_last_batch(rules, rows.decks, rows.dealer, ours)
    seat = np.argmin(rows.seating, axis=1)  # the player of policy A (endgame)
    checked = tuned_misses = 0
    for i in range(len(rows)):
        for k in range(EXACT_FROM - (engine.PLIES - 8), 8):  # the last batch's plays from the first exact one
            mover, n, best, played = judged[i, k, [J_MOVER, J_MOVES, J_BEST, J_PLAYED]]
            if mover == seat[i]:
                assert played == best, (i, k)
                checked += n > 1
            else:
                tuned_misses += played < best
    assert checked >= 20
    assert tuned_misses > 0  # the check tells the two apart


def test_fewer_exact_plays_leave_more_of_the_round_to_the_base():
    rows = deal_rows(32, 0, 6, rotations([0, 1], True))
    tuned, rules = get_policy("tuned"), RULESETS["strict"]
    two, six = traced(rows, rules, endgame(2), tuned), traced(rows, rules, endgame(6), tuned)
    base = traced(rows, rules, tuned, tuned)
    assert np.array_equal(two[:, : engine.PLIES - 2], base[:, : engine.PLIES - 2])
    assert not np.array_equal(six, base)  # its exact plays change some of the last plays


@pytest.mark.parametrize("players", [3, 4])
def test_with_three_or_four_players_endgame_plays_as_tuned(players):
    rules = get_rules(f"italian:players={players}")
    tuned = get_policy("tuned")
    for seed in range(3):
        deck = np.random.default_rng(seed).permutation(52)
        ours, _ = seated_round(rules, deck, 0, (endgame(), *[tuned] * (players - 1)), seed)
        base, _ = seated_round(rules, deck, 0, [tuned] * players, seed)
        assert np.array_equal(ours, base)


def test_its_choice_in_a_position_is_a_move_of_the_best_exact_value():
    checked = 0
    for pos in positions_by_random_play(RULESETS["strict"], 10, seed=33):
        moves = legal_moves(pos)
        exact = engine.exact_values(pos, moves)
        if exact is None or len(moves) < 2 or sum(len(h) for h in pos.hands) > 6:
            continue  # before its exact plays (the last six), or nothing to choose
        assert exact[moves.index(choose_move(pos, endgame(), seed=checked))] == exact.max(), pos.to_json()
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("rules_name", list(RULESETS))
def test_its_exact_plays_choose_as_its_base_would_among_the_best_moves(rules_name):
    """search.py _exact_leader (tries the moves in the base's order, proving no tie it need not) picks the move,
    and draws the random numbers, of the plain way: every best-valued move kept (_exact_best), then the base's
    choice among them (_heuristic_index)."""
    rules = RULESETS[rules_name]
    ra, tbl = rules.as_array(), split_table()
    _ints, weights, wants = policy_arrays((get_policy("tuned"),))
    checked = tied = 0
    for pos in positions_by_random_play(rules, 40, seed=17):
        st, rows = world_state(pos)[0], legal_move_rows(pos)
        if st[L.PLY] < EXACT_FROM or len(rows) < 2:
            continue
        plain, ours = _new_scratch(L.MOVE_CAP, L.SCRATCH_BITS), _new_scratch(L.MOVE_CAP, L.SCRATCH_BITS)
        plain.mv[: len(rows)], ours.mv[: len(rows)] = rows, rows
        rng_plain, rng_ours = np.array([checked], np.uint64), np.array([checked], np.uint64)
        n, w, want = len(rows), weights[0], wants[0]
        kept, status = _exact_best(st, ra, tbl, n, plain.mv, plain.sc_code, plain.sc_mask, _search_space(L.MOVE_CAP))
        i = _heuristic_index(st, ra, tbl, plain.mv, kept, w, want, rng_plain, plain.after, plain.f, plain.scores)
        j, code = _exact_leader(st, ra, tbl, n, w, want, rng_ours, ours, _search_space(L.MOVE_CAP))
        assert status == code == L.OK
        assert np.array_equal(plain.mv[i], ours.mv[j]) and rng_plain[0] == rng_ours[0], pos.to_json()
        checked += 1
        tied += kept > 1
    assert checked >= 40 and tied >= 10  # and enough positions with several best moves for the base to choose among
