"""Played rounds judged by the exact solver: the same values as the analyser's exact search, on any thread count."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from casino_sim import kernels as engine
from casino_sim.core.rules import BRAZILIAN, ITALIAN, STRICT
from casino_sim.reference.round import play_round
from casino_sim.runner.deals import deal_rows, rotations
from casino_sim.runner.play import play
from casino_sim.runner.recording import new_trace
from casino_sim.runner.threads import use_threads
from tests.support.policies import get_policy

LAST = engine.PLIES - 8


def _traced(rules, policy: str, n: int, seed: int):
    rows = deal_rows(seed, 0, n, rotations([0, 1], False))
    trace = new_trace(n)
    pol = get_policy(policy)
    play("numba", rows, rules, (pol, pol), trace=trace)
    return rows, trace


def _last_batch_positions(rules, deck, dealer, moves):
    """(position, legal moves, the played move) of each last-batch play, replayed on the reference engine."""
    out = []

    def choose(pos, legal):
        played = engine.move_of_row(moves[len(seen)])
        seen.append(played)
        if len(seen) > LAST:
            out.append((pos, legal, played))
        return played

    seen: list = []
    play_round(rules, [int(c) for c in deck], int(dealer), choose)
    return out


@pytest.mark.parametrize("rules, policy", [(STRICT, "expert"), (ITALIAN, "random"), (BRAZILIAN, "greedy")])
def test_the_judged_values_are_the_exact_values_of_the_analyser(rules, policy):
    rows, trace = _traced(rules, policy, 12, seed=5)
    judged = engine.judge_last_batch(rules, rows.decks, rows.dealer, trace)
    for i in range(len(rows)):
        for k, (pos, legal, played) in enumerate(_last_batch_positions(rules, rows.decks[i], rows.dealer[i], trace[i])):
            exact = engine.exact_values(pos, legal)
            mover, n, best, value = judged[i, k]
            assert (mover, n) == (pos.to_move, len(legal))
            assert best == exact.max()
            assert value == exact[legal.index(played)]


def test_the_played_value_is_never_above_the_best_and_equal_for_a_best_move():
    rows, trace = _traced(STRICT, "random", 300, seed=9)
    judged = engine.judge_last_batch(STRICT, rows.decks, rows.dealer, trace)
    moves, best, played = judged[..., 1], judged[..., 2], judged[..., 3]
    assert (moves >= 1).all()
    assert (played <= best).all()
    assert (played[moves == 1] == best[moves == 1]).all()  # a forced play is the best play
    assert ((played < best) & (moves > 1)).any()  # random play does lose points somewhere
    assert (judged[:, 1:, 0] != judged[:, :-1, 0]).all()  # the two seats alternate


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 numba threads")
def test_judging_is_the_same_on_one_and_two_threads():
    rows, trace = _traced(STRICT, "greedy", 200, seed=3)
    with use_threads(1):
        one = engine.judge_last_batch(STRICT, rows.decks, rows.dealer, trace)
    with use_threads(2):
        two = engine.judge_last_batch(STRICT, rows.decks, rows.dealer, trace)
    assert np.array_equal(one, two)


def test_bad_arrays_are_refused():
    rows, trace = _traced(STRICT, "random", 2, seed=1)
    with pytest.raises(ValueError):
        engine.judge_last_batch(STRICT, rows.decks, rows.dealer, trace[:1])
    with pytest.raises(TypeError):
        engine.judge_last_batch("strict", rows.decks, rows.dealer, trace)
