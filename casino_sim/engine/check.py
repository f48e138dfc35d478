"""Per-play invariants of a round for `simulate --check`: a broken one is an engine bug, reported by status code.

Codes stay clear of the play-out statuses of choose.py (1..3), so the row kernel can return either.
"""

from __future__ import annotations

from numba import njit

from casino_sim.engine.bits import CARD_VALUE, FULL_MASK, NUMBER_MASK, VALUE_MASK, ctz, popcount
from casino_sim.engine.score import S_TOTAL
from casino_sim.engine.state import (
    BUILD,
    CAPTURED,
    HAND,
    LOOSE,
    OWNER,
    PLY,
    R_MOST_CARDS_POINTS,
    R_MOST_SPADES_POINTS,
    R_SWEEP_POINTS,
    SWEEPS,
)

BAD_CARDS = 10  # the 52 cards are not each in exactly one place (hands, table, capture piles, stock)
BAD_BUILD = 11  # a build is malformed, or its owner holds no card of its value
BAD_POINTS = 12  # the round's points do not add up
CHECK_REASONS = {
    BAD_CARDS: "the 52 cards are not each in exactly one place",
    BAD_BUILD: "a build is malformed or its owner holds no card to capture it",
    BAD_POINTS: "the round's points do not add up",
}
FIXED_POINTS = 4 + 2 + 1  # the four aces, the 10♦ and the 2♠ always score


@njit(cache=True)
def _check_play(st, deck):
    """After a play: every card in exactly one place, every build sound and covered by its owner's hand."""
    dealt = 12 + 8 * ((st[PLY] - 1) // 8) if st[PLY] > 0 else 12
    seen = 0
    for i in range(dealt, 52):  # the stock
        seen |= 1 << deck[i]
    if popcount(seen) != 52 - dealt:
        return BAD_CARDS
    for p in range(2):
        for m in (st[HAND + p], st[CAPTURED + p]):
            if seen & m:
                return BAD_CARDS
            seen |= m
    for v in range(11):  # v = 0 is the loose cards
        m = st[LOOSE] if v == 0 else st[BUILD + v]
        if seen & m:
            return BAD_CARDS
        seen |= m
    if seen != FULL_MASK:
        return BAD_CARDS
    for v in range(1, 11):
        b, owner = st[BUILD + v], st[OWNER + v]
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
        if total % v != 0 or st[HAND + owner] & VALUE_MASK[v] == 0:
            return BAD_BUILD
    return 0


@njit(cache=True)
def _check_end(st, rules, score):
    """After the remainder and the score: all 52 cards in the two piles, and the points add up (RULES.md 4, 6)."""
    piles = st[CAPTURED] | st[CAPTURED + 1]
    if st[CAPTURED] & st[CAPTURED + 1] or piles != FULL_MASK or st[HAND] | st[HAND + 1] | st[LOOSE]:
        return BAD_CARDS
    for v in range(1, 11):
        if st[BUILD + v]:
            return BAD_BUILD
    cards = rules[R_MOST_CARDS_POINTS] if popcount(st[CAPTURED]) != 26 else 0  # 26-26: nobody
    want = cards + rules[R_MOST_SPADES_POINTS] + FIXED_POINTS + rules[R_SWEEP_POINTS] * (st[SWEEPS] + st[SWEEPS + 1])
    if score[0, S_TOTAL] + score[1, S_TOTAL] != want:
        return BAD_POINTS
    return 0
