"""Per-play invariants of a round for `simulate --check`: a broken one is an engine bug, reported by status code.

The invariants and their codes are core/invariants.py's one list (reference/invariants.py is the Python twin);
codes stay clear of the round statuses of layout.py (1..4), so the row kernel can return either.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.core.invariants import BY_NAME, FIXED_POINTS, INVARIANTS, dealt
from casino_sim.kernels import layout as L
from casino_sim.kernels.bits import CARD_VALUE, FULL_MASK, NUMBER_MASK, SPADE_MASK, VALUE_MASK, ctz, popcount
from casino_sim.kernels.codec import position_to_state, score_rows
from casino_sim.kernels.state import _batch_start

BAD_CARDS = BY_NAME["cards"].code  # the 52 cards are not each in exactly one place (hands, table, piles, stock)
BAD_BUILD = BY_NAME["builds"].code  # a build is malformed
BAD_OWNER = BY_NAME["owners"].code  # a build's owner holds no card of its value
BAD_POINTS = BY_NAME["points"].code  # the round's points do not add up
CHECK_REASONS = {inv.code: inv.broken for inv in INVARIANTS}


@njit(cache=True)
def _check_play(st, rules, deck):
    """After play PLY, before the next batch is dealt: the cards, the builds and their owners."""
    n = rules[L.R_PLAYERS]
    batch = (st[L.PLY] - 1) // (L.HAND_SIZE * n) if st[L.PLY] > 0 else 0
    return _check_position(st, rules, deck, _batch_start(n, batch + 1))


@njit(cache=True)
def _check_position(st, rules, deck, dealt):
    """With `dealt` cards out of the deck: every card in exactly one place, every build sound, then covered."""
    n = rules[L.R_PLAYERS]
    seen = 0
    for i in range(dealt, 52):  # the stock
        seen |= 1 << deck[i]
    if popcount(seen) != 52 - dealt:
        return BAD_CARDS
    for p in range(n):
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
        if owner < 0 or owner >= n or b & ~NUMBER_MASK or popcount(b) < 2:
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
def _prizes(rules, counts, points, at_least):
    """The points one majority prize adds to the round, from the sides' counts (score.py's rule, counted apart):
    italian (or two sides) to each side reaching at_least; brazilian to the one side with strictly the most."""
    if rules[L.R_MOST_BY_COUNT] != 0 or counts.shape[0] == 2:  # the majority rule (docs/rules.md 11, Scoring)
        return points * (counts >= at_least).sum()
    return points if (counts == counts.max()).sum() == 1 else 0


# _nrt=True: it allocates, and as a callee of rows.py's _play_block it would inherit that kernel's _nrt=False
@njit(cache=True, _nrt=True)
def _check_end(st, rules, score):
    """After the remainder and the score: all 52 cards in the piles, and the points add up (docs/rules.md sections
    5, 7 and 11): the sides' totals to the prizes, the fixed points and the sweeps; with teams, each side's total to its
    players' totals (their piles and sweeps) plus its prizes."""
    n = rules[L.R_PLAYERS]
    piles, sweeps = 0, 0
    for p in range(n):
        if piles & st[L.CAPTURED + p] or st[L.HAND + p]:
            return BAD_CARDS
        piles |= st[L.CAPTURED + p]
        sweeps += st[L.SWEEPS + p]
    if piles != FULL_MASK or st[L.LOOSE]:
        return BAD_CARDS
    for v in range(1, 11):
        if st[L.BUILD + v]:  # its owner holds no card now
            return BAD_OWNER
    teams = rules[L.R_TEAMS] != 0
    sides = 2 if teams else n
    first = n if teams else 0
    cards = np.zeros(sides, np.int64)
    spades = np.zeros(sides, np.int64)
    for p in range(n):
        side = L.SIDE_OF[p] if teams else p
        cards[side] += popcount(st[L.CAPTURED + p])
        spades[side] += popcount(st[L.CAPTURED + p] & SPADE_MASK)
    want = (
        _prizes(rules, cards, rules[L.R_MOST_CARDS_POINTS], rules[L.R_MOST_CARDS_AT_LEAST])
        + _prizes(rules, spades, rules[L.R_MOST_SPADES_POINTS], rules[L.R_MOST_SPADES_AT_LEAST])
        + FIXED_POINTS
        + rules[L.R_SWEEP_POINTS] * sweeps
    )
    got = 0
    for s in range(first, first + sides):
        got += score[s, L.S_TOTAL]
        if teams:
            members = score[s, L.S_CARDS] + score[s, L.S_SPADES]
            for p in range(n):
                if L.SIDE_OF[p] == s - n:
                    members += score[p, L.S_TOTAL]
            if members != score[s, L.S_TOTAL]:
                return BAD_POINTS
    if got != want:
        return BAD_POINTS
    return 0


def position_code(pos, deck, score=None) -> int:
    """The numba check of a Position (hands known) of the round dealt from `deck`: the first broken code, or 0.

    With the `score` (a reference Score) of a played round, `pos` is its final position: the end-of-round check.
    Holds the numba check to the Python checker, position by position.
    """
    st, deck, rules = position_to_state(pos), np.asarray(deck, dtype=np.int64), pos.rules.as_array()
    if score is None:
        placed = min(len(pos.all_cards()), 52)
        dealt_now = min(d for d in dealt(pos.players) if d >= placed)  # rounded up: a stray card shows
        return int(_check_position(st, rules, deck, dealt_now))
    return int(_check_end(st, rules, score_rows(pos, score)))
