"""Raw-state tests of the n-player rules in the kernels: the italian obligation, the sides' scores, the view."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim.core.featurespec import p_holds_any
from casino_sim.core.rules import get_rules
from casino_sim.kernels import layout as L
from casino_sim.kernels.apply import _apply
from casino_sim.kernels.buffers import _new_scratch
from casino_sim.kernels.features import _chance, _view
from casino_sim.kernels.movegen import _movegen
from casino_sim.kernels.score import _score
from casino_sim.kernels.tables import split_table
from tests.support.nplayer import SPADES, cards, raw_state

FIVE, SIX = 16, 20  # the 5♠ and the 6♠ (card c: value c // 4 + 1)


def _moves(st, rules):
    buf = _new_scratch(512, 12)
    n = _movegen(st, rules, split_table(), buf.mv, buf.sc_code, buf.sc_mask)
    return buf.mv[:n]


def _after_build(spec):
    """Player 0 has just built a 6 (5♥ on a loose A♠) and holds the 6♠: its obligation stands, player 1 moves."""
    rules = get_rules(spec).as_array()
    st = raw_state(
        hands=(cards(SIX, 40, 44), cards(29, 45), cards(30, 46), cards(31, 47)),  # 8s and figures besides
        loose=cards(0, 48),
        to_move=0,
    )
    _apply(st, rules, L.BUILD_K, 17, cards(0), 0, 6)
    assert st[L.MUST_ACT] == 1 and st[L.TO_MOVE] == 1
    return st, rules


def _turn(st, rules, kind):
    """The player to move trails a figure, or captures the loose K (48) with theirs."""
    p = st[L.TO_MOVE]
    fig = next(c for c in range(44, 52) if (st[L.HAND + p] >> c) & 1 and c != 48)
    if kind == L.TRAIL:
        _apply(st, rules, L.TRAIL, fig, 0, 0, -1)
    else:
        k = next(c for c in range(48, 52) if (st[L.HAND + p] >> c) & 1)
        _apply(st, rules, L.CAPTURE, k, cards(48), 0, -1)


@pytest.mark.parametrize(
    "spec, capturer, lifted",
    [
        ("italian:players=4,teams=true", 2, False),  # the partner captured: the obligation stands
        ("italian:players=4,teams=true", 1, True),  # an opponent captured: lifted
        ("italian:players=4,teams=true", 3, True),
        ("italian:players=4", 2, True),  # no teams: player 2 is an opponent
        ("italian:players=3", 2, True),
    ],
)
def test_the_obligation_is_lifted_by_an_opponent_only(spec, capturer, lifted):
    st, rules = _after_build(spec)
    for p in range(1, rules[L.R_PLAYERS]):
        st[L.HAND + p] |= cards(48 + p) if p == capturer else 0
        _turn(st, rules, L.CAPTURE if p == capturer else L.TRAIL)
    assert st[L.TO_MOVE] == 0
    assert st[L.MUST_ACT] == (0 if lifted else 1)
    kinds = set(_moves(st, rules)[:, L.M_KIND].tolist())
    assert (L.TRAIL in kinds) == lifted and L.CAPTURE in kinds  # the build of 6 is still p's to take


def test_the_obligation_yields_when_a_partner_took_the_build():
    rules = get_rules("italian:players=4,teams=true").as_array()
    st = raw_state(hands=(cards(40, 44),), loose=cards(48), to_move=0, must_act=(0,))  # a J and a Q; a K loose
    rows = _moves(st, rules)
    assert sorted(rows[:, L.M_CARD].tolist()) == [40, 44] and set(rows[:, L.M_KIND].tolist()) == {L.TRAIL}
    st[L.LOOSE] |= cards(45)  # a Q loose: the obligation holds (the Q can capture it), no trail
    assert set(_moves(st, rules)[:, L.M_KIND].tolist()) == {L.CAPTURE}


def _scores(spec, piles, sweeps=()):
    rules = get_rules(spec).as_array()
    st = raw_state(piles=piles, last=0)
    for p, k in enumerate(sweeps):
        st[L.SWEEPS + p] = k
    out = np.zeros((L.SCORE_ROWS, L.SCORE_FIELDS), dtype=np.int64)
    _score(st, rules, out)
    return out


def _piles(counts, spades):
    """Piles of the given sizes holding the given numbers of spades (all 52 cards, non-spades dealt in order)."""
    spade_ids = [c for c in range(52) if (SPADES >> c) & 1]
    others = [c for c in range(52) if not (SPADES >> c) & 1]
    out = []
    for k, s in zip(counts, spades, strict=True):
        out.append(cards(*spade_ids[:s], *others[: k - s]))
        spade_ids, others = spade_ids[s:], others[k - s :]
    return out


def test_teams_tied_on_cards_give_nobody_the_most_cards():
    out = _scores("brazilian:players=4", _piles([13, 13, 13, 13], [4, 3, 3, 3]))  # sides 26-26, spades 7-6
    assert out[4:6, L.S_CARDS].tolist() == [0, 0] and out[4:6, L.S_SPADES].tolist() == [1, 0]
    assert out[4:6, L.S_N_CARDS].tolist() == [26, 26] and not out[:4, [L.S_CARDS, L.S_SPADES]].any()
    out = _scores("brazilian:players=4", _piles([14, 13, 13, 12], [4, 3, 3, 3]))  # sides 27-25
    assert out[4:6, L.S_CARDS].tolist() == [3, 0]
    assert out[4:6, L.S_TOTAL].tolist() == [out[[0, 2], L.S_TOTAL].sum() + 4, out[[1, 3], L.S_TOTAL].sum()]


@pytest.mark.parametrize(
    "spec, counts, spades, cards_pts, spades_pts",
    [
        ("brazilian:players=3", [20, 20, 12], [5, 4, 4], [0, 0, 0], [1, 0, 0]),  # a tie for the most: nobody
        ("brazilian:players=3", [20, 16, 16], [5, 5, 3], [3, 0, 0], [0, 0, 0]),  # the most, short of 27
        ("brazilian:players=4,teams=false", [10, 22, 10, 10], [2, 6, 3, 2], [0, 3, 0, 0], [0, 1, 0, 0]),
        ("italian:players=3", [26, 13, 13], [6, 4, 3], [0, 0, 0], [0, 0, 0]),  # the most, but below 27 / 7
        ("italian:players=3", [27, 13, 12], [7, 3, 3], [3, 0, 0], [1, 0, 0]),
        ("italian:players=4,teams=true", [14, 13, 13, 12], [4, 3, 3, 3], None, None),
    ],
)
def test_most_cards_and_spades_among_sides(spec, counts, spades, cards_pts, spades_pts):
    out = _scores(spec, _piles(counts, spades), sweeps=[1] + [0] * (len(counts) - 1))
    n = len(counts)
    if cards_pts is None:  # italian teams: 27 of 52 and 7 of 13 by the side's two piles
        assert out[n : n + 2, L.S_CARDS].tolist() == [3, 0] and out[n : n + 2, L.S_SPADES].tolist() == [1, 0]
        return
    assert out[:n, L.S_CARDS].tolist() == cards_pts and out[:n, L.S_SPADES].tolist() == spades_pts
    assert out[0, L.S_SWEEPS] == (1 if spec.startswith("italian") else 0)
    assert not out[n:].any()  # no side rows without teams


def test_the_view_counts_the_opponents_hands_not_the_partners():
    st = raw_state(hands=(cards(0), cards(1, 2, 3), cards(4, 5, 6, 7), cards(8, 9)), loose=cards(40))
    for spec, opp in (("brazilian:players=4", 5), ("brazilian:players=4,teams=false", 9)):
        unseen, n_unseen, hidden, probs = _view(st, get_rules(spec).as_array(), True)
        assert (n_unseen, hidden) == (50, 9)
        assert _chance(probs, 0) == p_holds_any(50, opp, 3)  # three aces unseen (the mover holds one)
        assert _chance(probs, 9) == p_holds_any(50, opp, 4)  # no 10 seen
        assert _chance(probs, 10) == p_holds_any(50, opp, 3)  # the J on the table (card 40) is seen
