"""Per-play invariants of a round for `simulate --check`: a broken one is an engine bug, reported by status code.

The invariants and their codes are core/invariants.py's one list (reference/invariants.py is the Python twin);
codes stay clear of the round statuses of layout.py (1..4), so the row kernel can return either.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.core.invariants import BY_NAME, DEALT, FIXED_POINTS, INVARIANTS
from casino_sim.engine import layout as L
from casino_sim.engine.bits import CARD_VALUE, FULL_MASK, NUMBER_MASK, VALUE_MASK, ctz, popcount

BAD_CARDS = BY_NAME["cards"].code  # the 52 cards are not each in exactly one place (hands, table, piles, stock)
BAD_BUILD = BY_NAME["builds"].code  # a build is malformed
BAD_OWNER = BY_NAME["owners"].code  # a build's owner holds no card of its value
BAD_POINTS = BY_NAME["points"].code  # the round's points do not add up
CHECK_REASONS = {inv.code: inv.broken for inv in INVARIANTS}


@njit(cache=True)
def _check_play(st, deck):
    """After play PLY, before the next batch is dealt: the cards, the builds and their owners."""
    dealt = L.BATCH_START[(st[L.PLY] - 1) // L.PLIES_PER_BATCH + 1] if st[L.PLY] > 0 else L.BATCH_START[1]
    return _check_position(st, deck, dealt)


@njit(cache=True)
def _check_position(st, deck, dealt):
    """With `dealt` cards out of the deck: every card in exactly one place, every build sound, then covered."""
    seen = 0
    for i in range(dealt, 52):  # the stock
        seen |= 1 << deck[i]
    if popcount(seen) != 52 - dealt:
        return BAD_CARDS
    for p in range(2):
        for m in (st[L.HAND + p], st[L.CAPTURED + p]):
            if seen & m:
                return BAD_CARDS
            seen |= m
    for v in range(11):  # v = 0 is the loose cards
        m = st[L.LOOSE] if v == 0 else st[L.BUILD + v]
        if seen & m:
            return BAD_CARDS
        seen |= m
    if seen != FULL_MASK:
        return BAD_CARDS
    for v in range(1, 11):
        b, owner = st[L.BUILD + v], st[L.OWNER + v]
        if b == 0:
            if owner != -1:
                return BAD_BUILD
            continue
        if owner < 0 or owner > 1 or b & ~NUMBER_MASK or popcount(b) < 2:
            return BAD_BUILD
        total, rest = 0, b
        while rest:
            total += CARD_VALUE[ctz(rest)]
            rest &= rest - 1
        if total % v != 0:
            return BAD_BUILD
    for v in range(1, 11):  # a second pass: a malformed build is reported first, as the list orders them
        if st[L.BUILD + v] and st[L.HAND + st[L.OWNER + v]] & VALUE_MASK[v] == 0:
            return BAD_OWNER
    return 0


@njit(cache=True)
def _check_end(st, rules, score):
    """After the remainder and the score: all 52 cards in the two piles, and the points add up (RULES.md 4, 6)."""
    piles = st[L.CAPTURED] | st[L.CAPTURED + 1]
    if st[L.CAPTURED] & st[L.CAPTURED + 1] or piles != FULL_MASK or st[L.HAND] | st[L.HAND + 1] | st[L.LOOSE]:
        return BAD_CARDS
    for v in range(1, 11):
        if st[L.BUILD + v]:  # its owner holds no card now
            return BAD_OWNER
    cards = rules[L.R_MOST_CARDS_POINTS] if popcount(st[L.CAPTURED]) != 26 else 0  # 26-26: nobody
    want = (
        cards
        + rules[L.R_MOST_SPADES_POINTS]
        + FIXED_POINTS
        + rules[L.R_SWEEP_POINTS] * (st[L.SWEEPS] + st[L.SWEEPS + 1])
    )
    if score[0, L.S_TOTAL] + score[1, L.S_TOTAL] != want:
        return BAD_POINTS
    return 0


def position_code(pos, deck, score=None) -> int:
    """The numba check of a Position (hands known) of the round dealt from `deck`: the first broken code, or 0.

    With the `score` (a reference Score) of a played round, `pos` is its final position: the end-of-round check.
    Holds the numba check to the Python checker, position by position.
    """
    from casino_sim.engine.codec import position_to_state

    st, deck = position_to_state(pos), np.asarray(deck, dtype=np.int64)
    if score is None:
        placed = min(len(pos.all_cards()), 52)
        return int(_check_position(st, deck, min(d for d in DEALT if d >= placed)))  # rounded up: a stray card shows
    totals = np.zeros((2, L.SCORE_FIELDS), dtype=np.int64)
    totals[:, L.S_TOTAL] = score.totals
    return int(_check_end(st, pos.rules.as_array(), totals))
