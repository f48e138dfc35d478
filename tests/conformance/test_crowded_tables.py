"""Tables piled with loose cards (a policy that always trails): both engines agree on every move list there, and
past the one move limit (core/limits.py) both stop with the same one-line error.

Past 22 loose number cards the numba engine leaves its subset scratch for count vectors (kernels/crowded.py) and
the reference engine always counts by value (reference/groups.py); these positions hold 23 to 40 loose cards.
"""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim.core.cards import is_figure, value_of
from casino_sim.core.limits import MOVE_LIMIT, too_many_moves
from casino_sim.core.rules import RULESETS, STRICT
from casino_sim.engines import engine_names, get_engine
from casino_sim.kernels import move_of_row
from casino_sim.reference import Position, PositionError
from casino_sim.reference.movegen import count_legal_moves, first_legal_move, legal_moves
from casino_sim.reference.record import round_record
from casino_sim.reference.round import play_round
from casino_sim.runner.deals import deal_rows, rotations
from tests.support.policies import get_policy

COMPARED = 20_000  # positions with at most this many moves are compared move by move (the reference writes them)
FIGURES = [c for c in range(52) if is_figure(c)]
others = pytest.mark.parametrize("engine", [e for e in engine_names() if e != "reference"])


def crowded_positions(seed: int, count: int):
    """Positions with 23 to 40 loose cards: the mover holds low cards and figures (few moves) or any cards."""
    rng = np.random.default_rng(seed)
    for i in range(count):
        deck = [int(c) for c in rng.permutation(52)]
        if i % 2 == 0:  # a hand of an ace or two and figures: the moves stay few however crowded the table
            hand = [c for c in deck if value_of(c) <= 2][:2] + [c for c in deck if is_figure(c)][:1]
        else:
            hand = deck[:3]
        rest = [c for c in deck if c not in hand]
        n_loose = int(rng.integers(23, 41) if i % 2 == 0 else rng.integers(32, 41))  # any cards: often past the limit
        yield Position(
            rules=RULESETS[("strict", "brazilian", "italian")[i % 3]],
            to_move=0,
            hands=(frozenset(hand), frozenset(rest[:3])),
            loose=frozenset(rest[3 : 3 + n_loose]),
            captured=(frozenset(rest[3 + n_loose :]), frozenset()),
        )


def loose_numbers(pos: Position) -> int:
    return sum(1 for c in pos.loose if not is_figure(c))


@others
def test_crowded_move_lists_equal_the_reference_or_both_stop_at_the_limit(engine):
    eng, ref = get_engine(engine), get_engine("reference")
    compared = stopped = 0
    for pos in crowded_positions(15, 60):
        n = count_legal_moves(pos)
        if n <= COMPARED:
            got = eng.legal_moves(pos)
            assert got == ref.legal_moves(pos), pos.to_json()
            compared += loose_numbers(pos) > 22
        elif n > MOVE_LIMIT:
            for e in (eng, ref):
                with pytest.raises(PositionError) as err:
                    e.legal_moves(pos)
                assert str(err.value) == too_many_moves()
            stopped += 1
    assert compared >= 10 and stopped >= 5, (compared, stopped)  # both sides of the limit, past 22 loose numbers


@others
def test_the_move_count_past_the_scratch_is_exact(engine):
    """A crowded position just under the limit: every legal move once, as many as the reference counts."""
    eng = get_engine(engine)
    for pos in crowded_positions(16, 30):
        n = count_legal_moves(pos)
        if 50_000 < n <= MOVE_LIMIT // 4 and loose_numbers(pos) > 22:
            got = eng.legal_moves(pos)
            assert len(got) == len(set(got)) == n
            return
    pytest.fail("no crowded position with 50 000 to MOVE_LIMIT / 4 moves among the samples")


def trail_script(rng, dealer: int, trail_seat: int) -> list[int]:
    """Play i: the first legal move in canonical order for the trailing seat (a trail whenever one is legal:
    trails sort first), a random one for the other."""
    return [0 if (dealer + 1 + i) % 2 == trail_seat else int(rng.integers(2**40)) for i in range(48)]


@pytest.mark.parametrize("rules", list(RULESETS))
def test_always_trail_against_random_plays_whole_rounds_alike(rules):
    """Whole rounds of an always-trail seat against a random one: the same moves and records on every engine,
    the trailing seat trailing at every play where the rules let it."""
    rng, ruleset = np.random.default_rng(150 + len(rules)), RULESETS[rules]
    for k in range(8):
        deck, dealer = rng.permutation(52), int(rng.integers(2))
        script = trail_script(rng, dealer, k % 2)
        seen = []
        plays = iter(script)
        result = play_round(
            ruleset,
            deck,
            dealer,
            lambda pos, moves, seen=seen, plays=plays: seen.append(moves) or moves[next(plays) % len(moves)],
        )
        for i, (moves, move) in enumerate(zip(seen, result.moves)):
            if script[i] == 0 and any(m.kind == "trail" for m in moves):
                assert move.kind == "trail"
        for engine in engine_names():
            assert get_engine(engine).play_scripted(ruleset, deck, dealer, script) == (
                result.moves,
                round_record(result),
            ), (engine, k)


def test_always_trail_on_both_sides_stops_both_engines_with_the_same_error():
    """Both seats trailing pile up to every number card on the table: the move lists pass the limit, and every
    engine stops with the one error naming it. A deal whose move lists stay short until one passes the limit: the
    reference enumerates every list below it (0.3 million moves in all; the deal of seed 151 took 3.9 million)."""
    deck = np.random.default_rng(148).permutation(52)
    for engine in engine_names():
        with pytest.raises(PositionError) as err:
            get_engine(engine).play_scripted(STRICT, deck, 0, [0] * 48)
        assert str(err.value) == too_many_moves() and str(MOVE_LIMIT) in str(err.value)


@pytest.mark.parametrize("rules", list(RULESETS))
@pytest.mark.parametrize("other", ["random", "greedy", "trail"])
def test_the_trail_policy_plays_whole_rounds_on_every_engine(rules, other):
    """The built-in trail policy against random, greedy and itself: every engine plays whole rounds (no limit is
    reached: the trailing seat never needs its move list while it may trail), the trailing seat plays the first
    legal move (a trail whenever one is legal) at each of its turns, and each record is the reference's record
    of the traced moves. Trail against trail is the same round on every engine."""
    ruleset, trail = RULESETS[rules], get_policy("trail")
    rows = deal_rows(15, 0, 3, rotations([0, 1], True))
    records = {}
    for engine in engine_names():
        trace = np.zeros((len(rows), 48, 5), dtype=np.int64)
        got = get_engine(engine).play(rows, ruleset, (trail, get_policy(other)), trace=trace)
        for i in range(len(rows)):
            trailing = {int(np.argmin(rows.seating[i]))} if other != "trail" else {0, 1}
            moves = iter(move_of_row(t) for t in trace[i])

            def choose(pos, legal, moves=moves, trailing=trailing):
                move = next(moves)
                assert move == legal[0] if pos.to_move in trailing else move in legal, pos.to_json()
                return move

            def moves_of(pos, trailing=trailing):
                return [first_legal_move(pos)] if pos.to_move in trailing else legal_moves(pos)

            result = play_round(ruleset, rows.decks[i], int(rows.dealer[i]), choose, moves_of)
            assert {k: int(v[i]) for k, v in got.items()} == round_record(result), (engine, i)
        records[engine] = got
    if other == "trail":
        first, *rest = records.values()
        assert all(all(np.array_equal(first[k], r[k]) for k in first) for r in rest)
