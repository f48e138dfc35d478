"""Every registered engine under every rule set, held to the reference engine and the one list of invariants.

As pgx runs one API checker over every game and OpenSpiel holds its Python and C++ games equal state by state:
an engine or a rule set joins by registering (casino_sim.engines.register, casino_sim.core.rules.RULESETS).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from casino_sim.core.record import ANATOMY, record_columns
from casino_sim.core.rules import RULESETS
from casino_sim.engines import engine_names, get_engine
from casino_sim.kernels import move_of_row
from casino_sim.reference import IllegalMove, Position
from casino_sim.reference.invariants import check_invariants
from casino_sim.reference.moves import sort_moves
from casino_sim.reference.play import play
from casino_sim.reference.record import round_record
from casino_sim.reference.round import play_round
from casino_sim.runner.deals import chunk_rows
from tests.support.policies import get_policy
from tests.support.rounds import plausible_moves, reached_positions

pytestmark = pytest.mark.parametrize("rules", list(RULESETS))
each_engine = pytest.mark.parametrize("engine", engine_names())
APPLY_EVERY = 10  # every legal move of every 10th reached position is applied
SCRIPTED_ROUNDS = 60
POLICY_PAIRS = [("random", "random"), ("greedy", "expert"), ("rollout", "defensive")]


def test_the_reached_positions_hold_the_hard_cases(rules):
    stats = reached_positions(rules)[1]
    assert stats["positions"] >= 3500 and stats["several_builds"] >= 50
    assert stats["increase"] > 0 and stats["add"] > 0 and stats["build"] > 0
    assert stats["capture_build_and_loose"] > 0 and stats["merge"] > 0


@each_engine
def test_legal_moves_equal_the_reference(engine, rules):
    eng, bad = get_engine(engine), []
    for pos, moves, _ in reached_positions(rules)[0]:
        got = eng.legal_moves(pos)
        assert got and got == sort_moves(got), f"not distinct, canonical and non-empty: {pos.to_json()}"
        if got != moves:
            bad.append((pos, set(moves) - set(got), set(got) - set(moves)))
    assert not bad, f"{len(bad)} positions differ; first: {bad[0][0].to_json()} only ref {bad[0][1]}, here {bad[0][2]}"


@each_engine
def test_apply_equals_the_reference_and_keeps_the_invariants(engine, rules):
    eng, rng, refused = get_engine(engine), random.Random(5), 0
    for pos, moves, deck in reached_positions(rules)[0][::APPLY_EVERY]:
        p = pos.to_move
        for m in moves:
            after = eng.apply_move(pos, m)
            assert after == play(pos, m), (pos.to_json(), m)
            assert after.to_move == 1 - p and after.hands[p] == pos.hands[p] - {m.card}
            assert Position.from_json(after.to_json()) == after
            assert check_invariants(after, deck) == [], (pos.to_json(), m)
        for m in plausible_moves(pos, rng):
            if m not in moves:
                with pytest.raises(IllegalMove):
                    eng.apply_move(pos, m)
                refused += 1
    assert refused > 100


def replay(rules, deck, dealer, moves, script=None):
    """The reference's round of these moves: each must be legal (with a script, its pick), every position sound."""
    plies = iter(range(len(moves)))

    def choose(pos, legal):
        assert check_invariants(pos, deck) == [], pos.to_json()
        i = next(plies)
        assert moves[i] == legal[int(script[i]) % len(legal)] if script is not None else moves[i] in legal, i
        return moves[i]

    result = play_round(rules, deck, dealer, choose)
    assert result.void or check_invariants(result.final, deck, result.score) == []
    return result


@each_engine
def test_scripted_rounds_equal_the_reference(engine, rules):
    """Play i is legal_moves[r[i] % n] on both sides: the same 48 moves, scores and records, invariants throughout."""
    rng, ruleset = np.random.default_rng(len(rules)), RULESETS[rules]
    for _ in range(SCRIPTED_ROUNDS):
        deck, dealer, r = rng.permutation(52), int(rng.integers(2)), rng.integers(0, 2**32, 48)
        moves, record = get_engine(engine).play_scripted(ruleset, deck, dealer, r)
        assert record == round_record(replay(ruleset, deck, dealer, moves, script=r))


@each_engine
@pytest.mark.parametrize("a, b", POLICY_PAIRS)
def test_seeded_rounds_keep_the_records_of_their_moves(engine, rules, a, b):
    """play_rows (checked where the engine checks) records of each round what the reference records of its moves."""
    eng, policies = get_engine(engine), (get_policy(a), get_policy(b))
    if not all(map(eng.plays, policies)):
        pytest.skip(f"{engine} does not play {a} against {b}")
    rows = chunk_rows(11, 0, 4, mirrored=True)
    trace = np.zeros((len(rows), 48, 5), dtype=np.int64)
    got = eng.play_rows(rows, RULESETS[rules], *policies, check=True, trace=trace)
    for i in range(len(rows)):
        result = replay(RULESETS[rules], rows.decks[i], int(rows.dealer[i]), [move_of_row(t) for t in trace[i]])
        assert {k: int(v[i]) for k, v in got.items()} == round_record(result), f"row {i}"


@pytest.mark.parametrize("engine", [e for e in engine_names() if e != "reference"])
def test_the_anatomy_columns_are_recorded_like_the_reference(engine, rules):
    """The anatomy's columns are in every engine's record (so the tests above compare them too); on seeded rounds
    of random play, where every kind of play and every fate of a build occurs, they equal the reference's."""
    names = [f"s{s}_{c}" for s in (0, 1) for c in ANATOMY]
    assert set(names) <= set(record_columns())
    rows = chunk_rows(22, 0, 40, mirrored=True)  # a seed whose rounds hold an increase in every rule set
    trace = np.zeros((len(rows), 48, 5), dtype=np.int64)
    got = get_engine(engine).play_rows(rows, RULESETS[rules], get_policy("random"), get_policy("random"), trace=trace)
    for i in range(len(rows)):
        result = replay(RULESETS[rules], rows.decks[i], int(rows.dealer[i]), [move_of_row(t) for t in trace[i]])
        want = round_record(result)
        assert {c: int(got[c][i]) for c in names} == {c: want[c] for c in names}, f"row {i}"
    assert all(got[f"s0_{c}"].sum() + got[f"s1_{c}"].sum() > 0 for c in ANATOMY)
