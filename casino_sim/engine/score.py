"""End of round (the remainder to the last capturer) and the score breakdown."""

from __future__ import annotations

from numba import njit

from casino_sim.engine.bits import ACE_MASK, BIG_CASINO, LITTLE_CASINO, SPADE_MASK, popcount
from casino_sim.engine.layout import (
    BUILD,
    CAPTURED,
    LAST_CAPTURER,
    LOOSE,
    OWNER,
    R_MOST_CARDS_AT_LEAST,
    R_MOST_CARDS_POINTS,
    R_MOST_SPADES_AT_LEAST,
    R_MOST_SPADES_POINTS,
    R_SWEEP_POINTS,
    S_ACES,
    S_CARDS,
    S_N_CARDS,
    S_N_SPADES,
    S_N_SWEEPS,
    S_SPADES,
    S_SWEEPS,
    S_TEN_DIAMONDS,
    S_TOTAL,
    S_TWO_SPADES,
    SCORE_FIELDS,
    SWEEPS,
)


@njit(cache=True)
def _finish(st):
    """The last capturer takes what is left on the table. Returns False for a void round."""
    lc = st[LAST_CAPTURER]
    if lc < 0:
        return False
    rest = st[LOOSE]
    for v in range(1, 11):  # never happens under the keep-a-capturing-card rule
        rest |= st[BUILD + v]
        st[BUILD + v] = 0
        st[OWNER + v] = -1
    st[CAPTURED + lc] |= rest
    st[LOOSE] = 0
    return True


@njit(cache=True)
def _score(st, rules, out):
    """Write the two players' score rows into out[2, SCORE_FIELDS] (all zero for a void round)."""
    for p in range(2):
        for f in range(SCORE_FIELDS):
            out[p, f] = 0
    if st[LAST_CAPTURER] < 0:
        return
    for p in range(2):
        pile = st[CAPTURED + p]
        n_cards = popcount(pile)
        n_spades = popcount(pile & SPADE_MASK)
        out[p, S_CARDS] = rules[R_MOST_CARDS_POINTS] if n_cards >= rules[R_MOST_CARDS_AT_LEAST] else 0
        out[p, S_SPADES] = rules[R_MOST_SPADES_POINTS] if n_spades >= rules[R_MOST_SPADES_AT_LEAST] else 0
        out[p, S_ACES] = popcount(pile & ACE_MASK)
        out[p, S_TEN_DIAMONDS] = 2 if (pile >> BIG_CASINO) & 1 else 0
        out[p, S_TWO_SPADES] = 1 if (pile >> LITTLE_CASINO) & 1 else 0
        out[p, S_SWEEPS] = st[SWEEPS + p] * rules[R_SWEEP_POINTS]
        out[p, S_TOTAL] = (
            out[p, S_CARDS]
            + out[p, S_SPADES]
            + out[p, S_ACES]
            + out[p, S_TEN_DIAMONDS]
            + out[p, S_TWO_SPADES]
            + out[p, S_SWEEPS]
        )
        out[p, S_N_CARDS] = n_cards
        out[p, S_N_SPADES] = n_spades
        out[p, S_N_SWEEPS] = st[SWEEPS + p]
