"""The searcher policy on the numba engine: legal rounds in every rule set, the same on any thread count, and in
the last batch a move of the best exact value."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim import kernels as engine
from casino_sim.core.rules import RULESETS
from casino_sim.policies.arrays import policy_arrays
from casino_sim.policies.decide import choose_move
from casino_sim.reference import legal_moves
from casino_sim.reference.record import round_record
from casino_sim.reference.round import play_round
from casino_sim.runner.deals import deal_rows, rotations
from casino_sim.runner.threads import use_threads
from tests.support.policies import get_policy, policy_from_dict
from tests.support.rounds import positions_by_random_play


def searching(kind: str, worlds: int):
    """A rollout or searcher with few worlds: the same kernels as the built-ins, fast enough for a test."""
    return policy_from_dict({"name": f"{kind}-{worlds}", "kind": kind, "params": {"worlds": worlds}}, "test", "test")


@pytest.mark.parametrize("rules_name", list(RULESETS))
def test_searcher_plays_legal_rounds_in_every_rule_set(rules_name):
    """Each traced move is legal in the reference engine, and replaying them gives the kernel's record."""
    rules = RULESETS[rules_name]
    rows = deal_rows(5, 0, 1, rotations([0, 1], True))
    trace = np.zeros((len(rows), engine.PLIES, engine.MOVE_FIELDS), dtype=np.int64)
    policies = (searching("searcher", 4), get_policy("expert"))
    got = engine.play_rows(rows, rules, *policy_arrays(policies), check=True, trace=trace)
    for i in range(len(rows)):
        played = iter(trace[i])

        def choose(pos, legal, played=played):
            move = engine.move_of_row(next(played))
            assert move in legal, (pos.to_json(), move)
            return move

        record = round_record(play_round(rules, rows.decks[i], int(rows.dealer[i]), choose))
        assert record == {k: int(v[i]) for k, v in got.items()}


def test_same_seed_same_rounds_on_one_and_two_threads():
    rows = deal_rows(8, 0, 20, rotations([0, 1], True))  # 40 rows: more than one block, so two threads share them
    arrays = policy_arrays((searching("searcher", 2), searching("rollout", 2)))
    with use_threads(1):
        one = engine.play_rows(rows, RULESETS["strict"], *arrays)
    with use_threads(2):
        two = engine.play_rows(rows, RULESETS["strict"], *arrays)
    assert all(np.array_equal(one[k], two[k]) for k in one)


def test_in_the_last_batch_the_searcher_plays_a_move_of_the_best_exact_value():
    searcher, rollout = searching("searcher", 16), searching("rollout", 16)
    checked = rollout_misses = 0
    for rules in RULESETS.values():
        for k, pos in enumerate(positions_by_random_play(rules, 8, seed=5)):
            moves = legal_moves(pos)
            exact = engine.exact_values(pos, moves)
            if exact is None or exact.min() == exact.max():
                continue  # not the last batch, or nothing to choose between
            assert exact[moves.index(choose_move(pos, searcher, seed=k))] == exact.max(), pos.to_json()
            rollout_misses += exact[moves.index(choose_move(pos, rollout, seed=k))] < exact.max()
            checked += 1
    assert checked >= 30
    assert rollout_misses > 0  # the check tells the two apart: play-outs alone miss the best move at times


def racing(worlds: int, race: int, race_z: float = 2.0):
    """A searcher whose moves race: every `race` worlds the ones clearly behind stop."""
    params = {"worlds": worlds, "race": race, "race_z": race_z}
    return policy_from_dict({"name": f"race-{race}", "kind": "searcher", "params": params}, "test", "test")


def topped(top: int, worlds: int = 4):
    """A rollout on tuned's play that plays out only the `top` moves tuned scores highest (0: every move)."""
    params = {"worlds": worlds, "base": "tuned", "top": top}
    return policy_from_dict({"name": f"top-{top}", "kind": "rollout", "params": params}, "test", "test")


def test_a_rollout_with_a_top_chooses_among_its_bases_best_scored_moves():
    """top 2: the move chosen is one of the two tuned scores highest; top 1: tuned's best; with no top the
    play-outs pick a move outside tuned's two best at times (the check tells them apart)."""
    tuned = get_policy("tuned")
    checked = outside = 0
    for rules in RULESETS.values():
        for k, pos in enumerate(positions_by_random_play(rules, 5, seed=11)):
            moves = legal_moves(pos)
            if len(moves) < 4:
                continue
            best = np.sort(tuned.scores(pos, moves))[::-1]
            score = {top: tuned.scores(pos, [choose_move(pos, topped(top), seed=k)])[0] for top in (0, 1, 2)}
            assert score[2] >= best[1] and score[1] == best[0], pos.to_json()
            outside += score[0] < best[1]
            checked += 1
    assert checked >= 30 and outside > 0


def test_a_top_above_every_move_count_plays_as_no_top():
    rows = deal_rows(14, 0, 2, rotations([0, 1], True))
    plain = engine.play_rows(rows, RULESETS["strict"], *policy_arrays((topped(0), get_policy("expert"))))
    wide = engine.play_rows(rows, RULESETS["strict"], *policy_arrays((topped(500), get_policy("expert"))))
    assert all(np.array_equal(plain[k], wide[k]) for k in plain)


def test_the_searchers_cut_search_finds_the_best_moves_of_the_full_one():
    checked = 0
    for rules in RULESETS.values():
        for pos in positions_by_random_play(rules, 6, seed=9):
            moves = legal_moves(pos)
            full = engine.exact_values(pos, moves)
            if full is None:
                continue
            cut = engine.exact_values(pos, moves, best_only=True)
            best = full.max()
            assert cut.max() == best and np.array_equal(cut == best, full == best), pos.to_json()
            assert (full <= cut).all()  # every other move: a bound above its value and below the best
            checked += len(moves) > 1
    assert checked >= 30


def test_a_race_that_cuts_only_after_the_last_world_plays_as_no_race():
    rows = deal_rows(12, 0, 2, rotations([0, 1], True))
    plain = engine.play_rows(rows, RULESETS["strict"], *policy_arrays((searching("searcher", 6), get_policy("expert"))))
    raced = engine.play_rows(rows, RULESETS["strict"], *policy_arrays((racing(6, 6), get_policy("expert"))))
    assert all(np.array_equal(plain[k], raced[k]) for k in plain)


def test_racing_rounds_are_legal_and_the_same_on_one_and_two_threads():
    rows = deal_rows(13, 0, 20, rotations([0, 1], True))
    arrays = policy_arrays((racing(8, 2, 1.0), searching("rollout", 2)))
    with use_threads(1):
        one = engine.play_rows(rows, RULESETS["strict"], *arrays, check=True)
    with use_threads(2):
        two = engine.play_rows(rows, RULESETS["strict"], *arrays, check=True)
    assert all(np.array_equal(one[k], two[k]) for k in one)
