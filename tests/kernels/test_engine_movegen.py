"""The numba engine's move generation and apply, held equal to the reference engine."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from casino_sim.core.limits import MOVE_LIMIT
from casino_sim.core.rules import BRAZILIAN, ITALIAN, STRICT
from casino_sim.kernels import calls
from casino_sim.kernels.movegen import _lex_less
from casino_sim.kernels.tables import RISK_CARDS, RISK_POINTS, TABLE_OFFSET, split_table
from casino_sim.reference import IllegalMove, Move, Position, PositionError
from casino_sim.reference import legal_moves as ref_legal
from casino_sim.reference.groups import splits_into_groups
from casino_sim.reference.position import Build
from tests.support.rounds import play_random_rounds

RULESETS = (STRICT, BRAZILIAN, ITALIAN)


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.name)
def test_movegen_equals_reference_many_positions(rules):
    """About a million positions over the three rule sets (pytest -m slow; ~10 minutes, the reference's time).

    tests/conformance/ holds every engine equal on ~10,000 positions at every run.
    """
    bad, count = [], [0]

    def seen(pos, moves, deck):
        count[0] += 1
        if calls.legal_moves(pos) != moves:
            bad.append(pos)

    for biased in (False, True):
        play_random_rounds(rules, 3500, 7000 + biased, seen, biased)
    assert not bad, f"{len(bad)} positions differ; first: {bad[0].to_json()}"
    assert count[0] >= 330_000


def _pos(rules=STRICT, to_move=0, hands=((), ()), loose=(), builds=(), must_act=(False, False)):
    return Position(
        rules=rules,
        to_move=to_move,
        hands=(frozenset(hands[0]), frozenset(hands[1])),
        loose=frozenset(loose),
        builds=tuple(Build(v, frozenset(cs), o) for v, cs, o in builds),
        must_act=must_act,
    )


def C(token):
    from casino_sim.core.cards import parse_card

    return parse_card(token)


def test_worked_example_of_rules_section_8():
    # Table 5C 8D; A holds 2H 7D 7S: 2H on 5C announcing 7 is legal, announcing 14 is not
    pos = _pos(hands=({C("2H"), C("7D"), C("7S")}, {C("KC"), C("3C")}), loose={C("5C"), C("8D")})
    moves = calls.legal_moves(pos)
    assert Move("build", C("2H"), (C("5C"),), (), 7) in moves
    assert all(m.value != 14 for m in moves)
    pos = calls.apply_move(pos, Move("build", C("2H"), (C("5C"),), (), 7))
    pos = calls.apply_move(pos, Move("trail", C("KC")))
    add = Move("add", C("7D"), (), (7,), 7)
    assert add in calls.legal_moves(pos)
    # strict: the owner of a build may not trail
    assert all(m.kind != "trail" for m in calls.legal_moves(pos))
    pos = calls.apply_move(pos, add)
    assert not pos.builds[0].is_simple
    # a multiple build can never be increased
    pos = calls.apply_move(pos, Move("trail", C("3C")))
    moves = calls.legal_moves(pos)
    assert moves == [Move("capture", C("7S"), (), (7,), 7)]
    pos = calls.apply_move(pos, moves[0])
    assert pos.loose == frozenset({C("8D"), C("KC"), C("3C")})
    assert pos.sweeps == (0, 0) and pos.captured[0] == frozenset({C("5C"), C("2H"), C("7D"), C("7S")})


def test_keep_a_capturing_card_and_merge_on_increase():
    # player 0 owns a simple build of 3 (A+2) and holds 4, 7: raising to 7 merges with the build of 7
    pos = _pos(
        hands=({C("4S"), C("7H"), C("KD")}, {C("9C")}),
        loose={C("7C")},
        builds=((3, {C("AS"), C("2H")}, 0), (7, {C("3D"), C("4D")}, 1)),
    )
    moves = calls.legal_moves(pos)
    assert moves == ref_legal(pos)
    inc = [m for m in moves if m.kind == "increase"]
    assert inc and all(m.builds == (3, 7) for m in inc)
    assert Move("increase", C("4S"), (C("7C"),), (3, 7), 7) in inc
    after = calls.apply_move(pos, Move("increase", C("4S"), (), (3, 7), 7))
    assert [(b.value, b.owner, len(b.cards)) for b in after.builds] == [(7, 0, 5)]
    # player 0 owns the build of 3 but holds no 3 (keep-a-capturing-card): only plays that leave
    # player 0 owning no build without a card of its value survive, i.e. the raises to 7
    assert {m.kind for m in moves} == {"increase"}


def test_italian_three_figures_and_next_turn_obligation():
    pos = _pos(
        rules=ITALIAN,
        hands=({C("QS"), C("5H")}, {C("9C")}),
        loose={C("QH"), C("QD"), C("QC"), C("5D")},
        must_act=(True, False),
    )
    moves = calls.legal_moves(pos)
    assert moves == ref_legal(pos)
    assert Move("capture", C("QS"), (C("QH"), C("QD"), C("QC"))) in moves
    assert sum(1 for m in moves if m.card == C("QS")) == 4
    assert all(m.kind != "trail" for m in moves)  # must_act: no trail
    strict = _pos(rules=STRICT, hands=({C("QS")}, {C("9C")}), loose={C("QH"), C("QD"), C("QC")})
    assert len([m for m in calls.legal_moves(strict) if m.kind == "capture"]) == 3


def test_illegal_move_raises_and_unknown_hand():
    pos = _pos(hands=({C("5H")}, {C("9C")}), loose={C("5D")})
    with pytest.raises(IllegalMove):
        calls.apply_move(pos, Move("capture", C("5H"), (C("9C"),), (), 5))
    with pytest.raises(IllegalMove):
        calls.apply_move(pos, Move("trail", C("9C")))
    unknown = Position(rules=STRICT, to_move=0, hands=(None, frozenset()))
    with pytest.raises(ValueError):
        calls.legal_moves(unknown)


def test_many_loose_cards_grow_the_scratch():
    # 14 loose number cards: more than the initial 2**12 scratch rows (SCRATCH_BITS = 12)
    loose = [c for c in range(0, 36) if c % 4 != 3][:14]
    pos = _pos(hands=({C("KS")}, {C("9C")}), loose=loose)
    assert calls.legal_moves(pos) == ref_legal(pos)
    pos = _pos(hands=({C("3C"), C("9S")}, {C("9C")}), loose=loose)
    moves = calls.legal_moves(pos)
    assert moves == ref_legal(pos)
    assert len(moves) > 100
    # 35 loose number cards: billions of captures for the 9, so both engines stop at once with the one error
    crowded = _pos(hands=({C("9S")}, {C("9C")}), loose=[c for c in range(36) if c != C("9S")])
    for legal in (calls.legal_moves, ref_legal):
        with pytest.raises(PositionError, match=f"more than {MOVE_LIMIT} legal moves"):
            legal(crowded)


def test_lex_order_of_masks_matches_tuple_order():
    rng = np.random.default_rng(3)
    masks = [int(x) for x in rng.integers(0, 1 << 12, 300)] + [0, 1, 2, 3, 1 << 11]
    for a, b in itertools.product(masks[:120], masks[:120]):
        ta = tuple(i for i in range(12) if a >> i & 1)
        tb = tuple(i for i in range(12) if b >> i & 1)
        assert _lex_less(a, b) == (ta < tb), (ta, tb)


def _count_vectors(seed, tries, p_some, most):
    """Random (target v, counts of values 1..v-1, their table index) with at most `most` cards in all."""
    rng = np.random.default_rng(seed)
    for _ in range(tries):
        v = int(rng.integers(1, 11))
        counts = [int(rng.integers(0, 5)) if rng.random() < p_some else 0 for _ in range(v - 1)]
        if sum(counts) <= most:
            yield v, counts, TABLE_OFFSET[v] + sum(k * 5**i for i, k in enumerate(counts))


def test_split_table_matches_reference_groups():
    tbl = split_table()
    checked = 0
    for v, counts, j in _count_vectors(11, 6000, 0.35, 9):
        cards = [x * 4 + s for x, k in enumerate(counts) for s in range(k)]
        assert bool(tbl[j]) == splits_into_groups(cards, v), (v, counts)
        checked += 1
    assert checked > 4000


def test_risk_regions_hold_the_best_splitting_part():
    """RISK_CARDS / RISK_POINTS: the most cards, aces, and aces plus a 2 over every splitting sub-multiset."""
    tbl = split_table()
    checked = 0
    for v, counts, j in _count_vectors(12, 1500, 0.4, 8):
        best = [0, 0, 0]  # cards, aces, aces + (a 2 among them)
        for sub in itertools.product(*(range(k + 1) for k in counts)):
            cards = [x * 4 for x, k in enumerate(sub) for _ in range(k)]
            if splits_into_groups(cards, v):
                aces, twos = (sub[0] if sub else 0), (sub[1] if len(sub) > 1 else 0)
                best = [max(best[0], len(cards)), max(best[1], aces), max(best[2], aces + (twos > 0))]
        packed = int(tbl[RISK_POINTS + j])
        assert [int(tbl[RISK_CARDS + j]), packed & 15, packed >> 4] == best, (v, counts)
        checked += 1
    assert checked > 1000
