"""Every registered engine under every rule set and player count, held to the reference engine and the one list of
invariants, position by position and round by round.

As pgx runs one API checker over every game and OpenSpiel holds its Python and C++ games equal state by state:
an engine or a rule set joins by registering (casino_sim.engines.register, casino_sim.core.rules.RULESETS).
Positions are reached by random play (half of it build-biased) from seeded deals, each engine playing its own
rounds with its own legal_moves and apply_move; every reached position is then asked of every engine. Whole
rounds: each engine's scripted round and its seeded rows against the reference playing the same moves, their
records equal. Invariants (core/invariants.py) on both checks after every play, and the italian obligation
lifted only by an opponent.
"""

from __future__ import annotations

import collections
import functools
import random

import numpy as np
import pytest

from casino_sim.core.deal import HAND_SIZE, batches
from casino_sim.core.invariants import BY_NAME
from casino_sim.core.record import ANATOMY, place_names, record_columns
from casino_sim.core.rules import RULESETS, get_rules
from casino_sim.engines import engine_names, get_engine
from casino_sim.kernels import move_of_row
from casino_sim.kernels.check import position_code
from casino_sim.reference import IllegalMove, Position
from casino_sim.reference.invariants import check_invariants
from casino_sim.reference.moves import sort_moves
from casino_sim.reference.play import play
from casino_sim.reference.record import round_record
from casino_sim.reference.round import deal_batch, play_round, start_position
from casino_sim.reference.score import Score
from casino_sim.reference.seats import opponents
from casino_sim.runner.deals import deal_rows
from casino_sim.runner.seating import seatings
from tests.conformance.test_invariants import _agree as agree
from tests.conformance.test_invariants import corruptions
from tests.support.policies import get_policy
from tests.support.rounds import BUILD_WEIGHT, plausible_moves

SPECS = (
    *RULESETS,  # two players
    "brazilian:players=3",
    "italian:players=3",
    "brazilian:players=4",  # partnerships
    "brazilian:players=4,teams=false",
    "italian:players=4",  # individual
    "italian:players=4,teams=true",
)
# rounds per engine and chooser (random, build-biased): 2 x 2 x 16 x 48 = 3072 positions a case with two players
ROUNDS = {2: 16, 3: 8, 4: 8}
HARD = {2: 50, 3: 20, 4: 20}  # reached positions with several builds at least
APPLY_EVERY = {2: 12, 3: 8, 4: 8}  # every legal move of every k-th reached position is applied by every engine
SCRIPTED_ROUNDS = {2: 48, 3: 40, 4: 40}  # per engine; the reference's own, the spec's face, a quarter of them
ANATOMY_ROWS = {2: 80, 3: 24, 4: 24}
SEEDED_DEALS = {2: 4, 3: 1, 4: 1}  # each in every seating
POLICY_PAIRS = [("random", "random"), ("greedy", "expert"), ("rollout", "defensive")]

pytestmark = pytest.mark.parametrize("spec", SPECS)
each_engine = pytest.mark.parametrize("engine", engine_names())


def _walk(engine: str, spec: str, seed: int, biased: bool):
    """(position, legal moves, deck) before every play of the rounds that `engine` plays on its own moves."""
    eng, rules, rng = get_engine(engine), get_rules(spec), np.random.default_rng(seed)
    out = []
    for _ in range(ROUNDS[rules.players]):
        deck, dealer = [int(c) for c in rng.permutation(52)], int(rng.integers(rules.players))
        pos = start_position(rules, dealer)
        for batch in range(batches(rules.players)):
            pos = deal_batch(pos, deck, batch, dealer)
            for _ in range(HAND_SIZE * rules.players):
                moves = eng.legal_moves(pos)
                out.append((pos, moves, deck))
                w = np.array([BUILD_WEIGHT[m.kind] if biased else 1.0 for m in moves])
                pos = eng.apply_move(pos, moves[rng.choice(len(moves), p=w / w.sum())])
    return out


@functools.cache
def reached(spec: str) -> tuple[list, collections.Counter]:
    """The positions every engine reaches on its own (two choosers each), and what they hold."""
    out, stats = [], collections.Counter()
    for k, engine in enumerate(engine_names()):
        for biased in (False, True):
            out += _walk(engine, spec, 100 * k + biased, biased)
    for pos, moves, _ in out:
        stats["positions"] += 1
        stats["several_builds"] += len(pos.builds) >= 2
        stats["must_act"] += any(pos.must_act)
        stats["partner_build"] += any(pos.partners(b.owner, pos.to_move) and b.owner != pos.to_move for b in pos.builds)
        for m in moves:
            stats[m.kind] += 1
            stats["merge"] += m.kind == "increase" and len(m.builds) == 2
            stats["capture_build_and_loose"] += m.kind == "capture" and bool(m.builds) and bool(m.loose)
    return out, stats


def test_the_reached_positions_hold_the_hard_cases(spec):
    rules, stats = get_rules(spec), reached(spec)[1]
    assert stats["positions"] == len(engine_names()) * 2 * ROUNDS[rules.players] * 48
    assert stats["several_builds"] >= HARD[rules.players] and stats["merge"] > 0
    assert stats["increase"] > 0 and stats["add"] > 0 and stats["build"] > 0
    assert stats["capture_build_and_loose"] > 0
    assert (stats["must_act"] > 0) == rules.next_turn_obligation
    assert (stats["partner_build"] > 0) == rules.teams


@each_engine
def test_legal_moves_equal_the_reference(engine, spec):
    eng, bad = get_engine(engine), []
    for pos, moves, _ in reached(spec)[0]:
        ref = get_engine("reference").legal_moves(pos) if engine != "reference" else moves
        got = eng.legal_moves(pos)
        assert got and got == sort_moves(got), f"not distinct, canonical and non-empty: {pos.to_json()}"
        if got != ref:
            bad.append((pos, set(ref) - set(got), set(got) - set(ref)))
    assert not bad, f"{len(bad)} positions differ; first: {bad[0][0].to_json()} only ref {bad[0][1]}, here {bad[0][2]}"


@each_engine
def test_apply_equals_the_reference_and_keeps_the_invariants(engine, spec):
    eng, rng, refused = get_engine(engine), random.Random(7), 0
    for pos, moves, deck in reached(spec)[0][:: APPLY_EVERY[get_rules(spec).players]]:
        p = pos.to_move
        for m in moves:
            after = eng.apply_move(pos, m)
            assert after == play(pos, m), (pos.to_json(), m)
            assert after.to_move == pos.next_player(p) and after.dealer == pos.dealer
            assert after.hands[p] == pos.hands[p] - {m.card}
            assert Position.from_json(after.to_json()) == after
            assert check_invariants(after, deck) == [] and position_code(after, deck) == 0, (pos.to_json(), m)
        for m in plausible_moves(pos, rng):
            if m not in moves:
                with pytest.raises(IllegalMove):
                    eng.apply_move(pos, m)
                refused += 1
    assert refused > 50


def test_every_reached_position_keeps_the_invariants_on_both_checks(spec):
    """52 cards accounted for (hands, table, builds, piles, stock), builds sound and covered, after every play."""
    for pos, _, deck in reached(spec)[0]:
        assert check_invariants(pos, deck) == [], pos.to_json()
        assert position_code(pos, deck) == 0, pos.to_json()


def test_both_checks_name_the_same_break_in_corrupted_positions(spec):
    rng, hit = random.Random(3), set()
    for pos, _, deck in reached(spec)[0][::9]:
        hit.update(agree(bad, deck) for bad in corruptions(pos, deck, rng))
    assert hit == {"cards", "builds", "owners"}


def test_the_italian_obligation_is_lifted_by_an_opponent_only(spec):
    """After each reached play: the mover is bound exactly when they built; another player's obligation ends
    exactly when an opponent of theirs captured or built (a partner's play, or a trail, leaves it)."""
    rules, kept_by_partner = get_rules(spec), 0
    for pos, moves, _ in reached(spec)[0][::3]:
        p = pos.to_move
        for m in moves:
            after = play(pos, m)
            if not rules.next_turn_obligation:
                assert after.must_act == pos.must_act
                continue
            assert after.must_act[p] == (m.kind in ("build", "increase", "add"))
            for q in range(pos.players):
                if q != p and pos.must_act[q]:
                    assert after.must_act[q] == (m.kind == "trail" or not opponents(rules, p, q)), (pos.to_json(), m)
                    kept_by_partner += m.kind != "trail" and not opponents(rules, p, q)
    assert (kept_by_partner > 0) == (rules.next_turn_obligation and rules.teams)


def replay(rules, deck, dealer, moves, script=None):
    """The reference's round of these moves: each must be legal (with a script, its pick), every position sound
    on both checks, and so the final one with its score."""
    plies = iter(range(len(moves)))

    def choose(pos, legal):
        assert check_invariants(pos, deck) == [], pos.to_json()
        i = next(plies)
        assert moves[i] == legal[int(script[i]) % len(legal)] if script is not None else moves[i] in legal, i
        return moves[i]

    result = play_round(rules, deck, dealer, choose)
    if not result.void:
        assert check_invariants(result.final, deck, result.score) == []
        assert position_code(result.final, deck, result.score) == 0
    return result


@each_engine
def test_scripted_rounds_equal_the_reference(engine, spec):
    """Play i is legal_moves[r[i] % n] on both sides: the same 48 moves and records (each place's points, counts,
    plays and sweeps by batch, the teams', the last capturer, the remainder, the tracked cards), invariants
    throughout, and a score miscounted by an ace refused by both checks."""
    rules, rng = get_rules(spec), np.random.default_rng(len(spec))
    voids, rounds = 0, SCRIPTED_ROUNDS[rules.players] // (4 if engine == "reference" else 1)
    for _ in range(rounds):
        deck, dealer, r = rng.permutation(52), int(rng.integers(rules.players)), rng.integers(0, 2**31, 48)
        moves, record = get_engine(engine).play_scripted(rules, deck, dealer, r)
        ref = replay(rules, deck, dealer, moves, script=r)
        assert record == round_record(ref)
        voids += ref.void
        for bad in [] if ref.void else _miscounted(ref.score, rules.teams):
            assert check_invariants(ref.final, deck, bad) == ["points"]
            assert position_code(ref.final, deck, bad) == BY_NAME["points"].code
    assert voids < rounds // 4


def _miscounted(score: Score, teams: bool) -> list[Score]:
    """Scores off by an ace: one more for side 0; with teams also one moved from side 0 to side 1 (the total
    right, but a side's points no longer its players' plus its prizes)."""
    more = [dict(side) for side in score.points]
    more[0]["aces"] += 1
    moved = [dict(side) for side in score.points]
    moved[0]["aces"] -= 1
    moved[1]["aces"] += 1
    return [Score(tuple(more))] + ([Score(tuple(moved))] if teams else [])


def _traced(engine: str, spec: str, lineup: tuple, seed: int, deals: int, check: bool = False):
    """Rows of A against B in every seating (runner/seating.py), played by `engine`: (rows, records, traces)."""
    rules = get_rules(spec)
    rows = deal_rows(seed, 0, deals, seatings(rules))
    trace = np.zeros((len(rows), 48, 5), dtype=np.int64)
    return rows, get_engine(engine).play(rows, rules, lineup, check=check, trace=trace), trace


@each_engine
@pytest.mark.parametrize("a, b", POLICY_PAIRS)
def test_seeded_rounds_keep_the_records_of_their_moves(engine, spec, a, b):
    """Engine.play (checked where the engine checks) records of each round what the reference records of its
    moves."""
    eng, policies = get_engine(engine), (get_policy(a), get_policy(b))
    if not all(map(eng.plays, policies)):
        pytest.skip(f"{engine} does not play {a} against {b}")
    rules = get_rules(spec)
    rows, got, trace = _traced(engine, spec, policies, 11, SEEDED_DEALS[rules.players], check=True)
    for i in range(len(rows)):
        result = replay(rules, rows.decks[i], int(rows.dealer[i]), [move_of_row(t) for t in trace[i]])
        assert {k: int(v[i]) for k, v in got.items()} == round_record(result), f"row {i}"


@pytest.mark.parametrize("engine", [e for e in engine_names() if e != "reference"])
def test_the_anatomy_columns_are_recorded_like_the_reference(engine, spec):
    """The anatomy's columns are in every engine's record (so the tests above compare them too); on seeded rounds
    of random play, where every kind of play and every fate of a build occurs, they equal the reference's."""
    rules = get_rules(spec)
    places = place_names(rules.players)
    names = [f"{q}_{c}" for q in places for c in ANATOMY]
    assert set(names) <= set(record_columns(rules.players, rules.teams))
    random_ = get_policy("random")
    deals = ANATOMY_ROWS[rules.players] // rules.n_sides  # a seed whose rounds hold an increase in every rule set
    rows, got, trace = _traced(engine, spec, (random_, random_), 23, deals)
    for i in range(len(rows)):
        result = replay(rules, rows.decks[i], int(rows.dealer[i]), [move_of_row(t) for t in trace[i]])
        want = round_record(result)
        assert {c: int(got[c][i]) for c in names} == {c: want[c] for c in names}, f"row {i}"
    assert all(sum(got[f"{q}_{c}"].sum() for q in places) > 0 for c in ANATOMY)
