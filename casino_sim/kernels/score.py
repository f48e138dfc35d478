"""End of round (the remainder to the last capturer) and the score breakdown."""

from __future__ import annotations

from numba import njit

from casino_sim.kernels import layout as L
from casino_sim.kernels.bits import ACE_MASK, BIG_CASINO, LITTLE_CASINO, SPADE_MASK, popcount


@njit(cache=True, _nrt=False)
def _finish(st):
    """The last capturer takes what is left on the table. Returns False for a void round."""
    lc = st[L.LAST_CAPTURER]
    if lc < 0:
        return False
    rest = st[L.LOOSE]
    for v in range(1, 11):  # never happens under the keep-a-capturing-card rule
        rest |= st[L.BUILD + v]
        st[L.BUILD + v] = 0
        st[L.OWNER + v] = -1
    st[L.CAPTURED + lc] |= rest
    st[L.LOOSE] = 0
    return True


@njit(cache=True, _nrt=False)
def _score(st, rules, out):
    """Write the score rows into out (SCORE_ROWS, SCORE_FIELDS): one per player, then with teams one per side.

    Two players: a player takes most cards / most spades reaching *_AT_LEAST (27 of 52, 7 of 13: the strict
    majority). Three or four: score.py's _score_sides. A void round leaves every row 0.
    """
    n = rules[L.R_PLAYERS]
    for p in range(out.shape[0]):
        for f in range(L.SCORE_FIELDS):
            out[p, f] = 0
    if st[L.LAST_CAPTURER] < 0:
        return
    for p in range(n):
        pile = st[L.CAPTURED + p]
        n_cards = popcount(pile)
        n_spades = popcount(pile & SPADE_MASK)
        if n == 2:  # the rule: two sides take a majority prize at the threshold (docs/rules.md 7 and 11, Scoring)
            out[p, L.S_CARDS] = rules[L.R_MOST_CARDS_POINTS] if n_cards >= rules[L.R_MOST_CARDS_AT_LEAST] else 0
            out[p, L.S_SPADES] = rules[L.R_MOST_SPADES_POINTS] if n_spades >= rules[L.R_MOST_SPADES_AT_LEAST] else 0
        out[p, L.S_ACES] = popcount(pile & ACE_MASK)
        out[p, L.S_TEN_DIAMONDS] = 2 if (pile >> BIG_CASINO) & 1 else 0
        out[p, L.S_TWO_SPADES] = 1 if (pile >> LITTLE_CASINO) & 1 else 0
        out[p, L.S_SWEEPS] = st[L.SWEEPS + p] * rules[L.R_SWEEP_POINTS]
        out[p, L.S_N_CARDS] = n_cards
        out[p, L.S_N_SPADES] = n_spades
        out[p, L.S_N_SWEEPS] = st[L.SWEEPS + p]
    if n != 2:  # the rule: three or four players, or teams, score by side (docs/rules.md 11, Scoring)
        _score_sides(rules, out)
    for p in range(out.shape[0]):
        out[p, L.S_TOTAL] = (
            out[p, L.S_CARDS]
            + out[p, L.S_SPADES]
            + out[p, L.S_ACES]
            + out[p, L.S_TEN_DIAMONDS]
            + out[p, L.S_TWO_SPADES]
            + out[p, L.S_SWEEPS]
        )


@njit(cache=True, _nrt=False)
def _score_sides(rules, out):
    """Most cards and most spades among 3 or 4 sides (players) or 2 (teams), from the rows' raw counts.

    With teams, rows n and n+1 become the sides' rows: each the field-wise sum of its two players' rows, and
    most cards / spades go to those rows only (a player's row keeps what their own pile and sweeps earn).
    """
    n = rules[L.R_PLAYERS]
    first, sides = 0, n
    if rules[L.R_TEAMS] != 0:
        first, sides = n, 2
        for p in range(n):
            for f in range(L.SCORE_FIELDS):
                out[n + L.SIDE_OF[p], f] += out[p, f]
    _award_most(rules, out, first, sides, L.S_N_CARDS, L.S_CARDS, L.R_MOST_CARDS_POINTS, L.R_MOST_CARDS_AT_LEAST)
    _award_most(rules, out, first, sides, L.S_N_SPADES, L.S_SPADES, L.R_MOST_SPADES_POINTS, L.R_MOST_SPADES_AT_LEAST)


@njit(cache=True, _nrt=False)
def _award_most(rules, out, first, sides, count, to, points, at_least):
    """The points of one "most" category to rows first..first+sides-1: italian (R_MOST_BY_COUNT) to each row
    whose count reaches rules[at_least]; brazilian to the one row with strictly the most (a tie: nobody)."""
    best, top, tied = -1, -1, False
    for r in range(first, first + sides):
        if rules[L.R_MOST_BY_COUNT] != 0:
            if out[r, count] >= rules[at_least]:
                out[r, to] = rules[points]
        elif out[r, count] > best:
            best, top, tied = out[r, count], r, False
        elif out[r, count] == best:
            tied = True
    if top >= 0 and not tied:
        out[top, to] = rules[points]
