"""A searcher without worlds (the built-in `endgame`): its base's play until its exact plays, then only moves of the
best exact value; with three or four players its base's play throughout (docs/policies.md, "endgame")."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim import kernels as engine
from casino_sim.core.rules import RULESETS, get_rules
from casino_sim.kernels.api import play_round_n_policies
from casino_sim.kernels.lastbatch import J_BEST, J_MOVER, J_MOVES, J_PLAYED, judge_last_batch
from casino_sim.policies import get_policy
from casino_sim.policies.arrays import policy_arrays
from casino_sim.policies.decide import choose_move
from casino_sim.policies.files import policy_from_dict
from casino_sim.reference import legal_moves
from casino_sim.runner.deals import chunk_rows
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
    rows = chunk_rows(31, 0, 12, mirrored=True)
    tuned = get_policy("tuned")
    ours, base = traced(rows, rules, endgame(), tuned), traced(rows, rules, tuned, tuned)
    assert np.array_equal(ours[:, :EXACT_FROM], base[:, :EXACT_FROM])
    judged = judge_last_batch(rules, rows.decks, rows.dealer, ours)
    seat = np.where(rows.a_seat0, 0, 1)
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
    rows = chunk_rows(32, 0, 6, mirrored=True)
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
        ours = play_round_n_policies(rules, deck, 0, *policy_arrays((endgame(), *[tuned] * (players - 1)))[:2], seed)
        base = play_round_n_policies(rules, deck, 0, *policy_arrays([tuned] * players)[:2], seed)
        assert np.array_equal(ours.moves, base.moves)


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
