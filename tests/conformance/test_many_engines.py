"""Three and four players: every registered engine held to the reference, position by position and round by round.

Positions are reached by random play (half of it build-biased) from seeded deals, each engine playing its own
rounds with its own legal_moves and apply_move; every reached position is then asked of every engine. Whole
rounds: the numba kernel's scripted round (engine.api.play_round_n_scripted) against the reference playing the
same script. Invariants (core/invariants.py) on both sides after every play, and the italian obligation lifted
only by an opponent.
"""

from __future__ import annotations

import collections
import functools
import random

import numpy as np
import pytest

from casino_sim.core.invariants import BY_NAME
from casino_sim.core.rules import get_rules
from casino_sim.engines import engine_names, get_engine
from casino_sim.kernels import move_of_row
from casino_sim.kernels.api import play_round_n_scripted
from casino_sim.kernels.check import position_code
from casino_sim.kernels.codec import score_rows
from casino_sim.reference import IllegalMove, Position
from casino_sim.reference.invariants import check_invariants
from casino_sim.reference.moves import sort_moves
from casino_sim.reference.play import play
from casino_sim.reference.round import deal_batch, play_round, start_position
from casino_sim.reference.score import Score
from casino_sim.reference.seats import batches, opponents
from tests.conformance.test_invariants import _agree as agree
from tests.conformance.test_invariants import corruptions
from tests.support.rounds import BUILD_WEIGHT, plausible_moves

SPECS = (
    "brazilian:players=3",
    "italian:players=3",
    "brazilian:players=4",  # partnerships
    "brazilian:players=4,teams=false",
    "italian:players=4",  # individual
    "italian:players=4,teams=true",
)
ROUNDS = 8  # per engine and chooser (random, build-biased): 2 x 2 x 8 x 48 = 1536 positions a case
APPLY_EVERY = 7  # every legal move of every 7th reached position is applied by every engine
SCRIPTED_ROUNDS = 40

pytestmark = pytest.mark.parametrize("spec", SPECS)


def _walk(engine: str, spec: str, seed: int, biased: bool):
    """(position, legal moves, deck) before every play of ROUNDS rounds that `engine` plays on its own moves."""
    eng, rules, rng = get_engine(engine), get_rules(spec), np.random.default_rng(seed)
    out = []
    for _ in range(ROUNDS):
        deck, dealer = [int(c) for c in rng.permutation(52)], int(rng.integers(rules.players))
        pos = start_position(rules, dealer)
        for batch in range(batches(rules.players)):
            pos = deal_batch(pos, deck, batch, dealer)
            for _ in range(4 * rules.players):
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
        stats["several_builds"] += len(pos.builds) >= 2
        stats["must_act"] += any(pos.must_act)
        stats["partner_build"] += any(pos.partners(b.owner, pos.to_move) and b.owner != pos.to_move for b in pos.builds)
        for m in moves:
            stats[m.kind] += 1
            stats["merge"] += m.kind == "increase" and len(m.builds) == 2
    return out, stats


def test_the_reached_positions_hold_the_hard_cases(spec):
    rules, stats = get_rules(spec), reached(spec)[1]
    assert stats["several_builds"] >= 20 and stats["merge"] > 0
    assert stats["increase"] > 0 and stats["add"] > 0 and stats["build"] > 0
    assert (stats["must_act"] > 0) == rules.next_turn_obligation
    assert (stats["partner_build"] > 0) == rules.teams


@pytest.mark.parametrize("engine", engine_names())
def test_legal_moves_equal_the_reference(engine, spec):
    eng, bad = get_engine(engine), []
    for pos, moves, _ in reached(spec)[0]:
        ref = get_engine("reference").legal_moves(pos) if engine != "reference" else moves
        got = eng.legal_moves(pos)
        assert got and got == sort_moves(got), f"not distinct, canonical and non-empty: {pos.to_json()}"
        if got != ref:
            bad.append((pos, set(ref) - set(got), set(got) - set(ref)))
    assert not bad, f"{len(bad)} positions differ; first: {bad[0][0].to_json()} only ref {bad[0][1]}, here {bad[0][2]}"


@pytest.mark.parametrize("engine", engine_names())
def test_apply_equals_the_reference_and_keeps_the_invariants(engine, spec):
    eng, rng, refused = get_engine(engine), random.Random(7), 0
    for pos, moves, deck in reached(spec)[0][::APPLY_EVERY]:
        p = pos.to_move
        for m in moves:
            after = eng.apply_move(pos, m)
            assert after == play(pos, m), (pos.to_json(), m)
            assert after.to_move == pos.next_player(p) and after.dealer == pos.dealer
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


def _reference_round(rules, deck, dealer, script):
    """The reference's round where play i is legal_moves[script[i] % count], invariants checked before each play."""
    plies = iter(script)

    def choose(pos, legal):
        assert check_invariants(pos, deck) == [], pos.to_json()
        return legal[int(next(plies)) % len(legal)]

    return play_round(rules, deck, dealer, choose)


def test_scripted_rounds_equal_the_reference(spec):
    """The same 48 moves, score rows per player and per team, piles, last capturer and remainder; both checks pass."""
    rules, rng = get_rules(spec), np.random.default_rng(len(spec))
    voids = 0
    for _ in range(SCRIPTED_ROUNDS):
        deck, dealer, script = rng.permutation(52), int(rng.integers(rules.players)), rng.integers(0, 2**31, 48)
        got = play_round_n_scripted(rules, deck, dealer, script)
        ref = _reference_round(rules, deck, dealer, script)
        assert [move_of_row(row) for row in got.moves] == ref.moves
        final = ref.final
        assert got.last_capturer == (-1 if final.last_capturer is None else final.last_capturer)
        assert [sum(1 << c for c in pile) for pile in final.captured] == got.piles.tolist()
        assert got.remainder == sum(len(e.cards) for e in ref.events if e.kind == "remainder")
        if ref.void:
            voids += 1
            assert not got.scores.any()
            continue
        assert np.array_equal(got.scores, score_rows(final, ref.score)), (got.scores, ref.score)
        assert check_invariants(final, deck, ref.score) == [] and position_code(final, deck, ref.score) == 0
        for bad in _miscounted(ref.score, rules.teams):
            assert check_invariants(final, deck, bad) == ["points"]
            assert position_code(final, deck, bad) == BY_NAME["points"].code
    assert voids < SCRIPTED_ROUNDS // 4


def _miscounted(score: Score, teams: bool) -> list[Score]:
    """Scores off by an ace: one more for side 0; with teams also one moved from side 0 to side 1 (the total
    right, but a side's points no longer its players' plus its prizes)."""
    more = [dict(side) for side in score.points]
    more[0]["aces"] += 1
    moved = [dict(side) for side in score.points]
    moved[0]["aces"] -= 1
    moved[1]["aces"] += 1
    return [Score(tuple(more))] + ([Score(tuple(moved))] if teams else [])
