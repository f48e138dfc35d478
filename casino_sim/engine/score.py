"""End of round (the remainder to the last capturer) and the score breakdown."""

from __future__ import annotations

from numba import njit

from casino_sim.engine import layout as L
from casino_sim.engine.bits import ACE_MASK, BIG_CASINO, LITTLE_CASINO, SPADE_MASK, popcount


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
    """Write the two players' score rows into out[2, SCORE_FIELDS] (all zero for a void round)."""
    for p in range(2):
        for f in range(L.SCORE_FIELDS):
            out[p, f] = 0
    if st[L.LAST_CAPTURER] < 0:
        return
    for p in range(2):
        pile = st[L.CAPTURED + p]
        n_cards = popcount(pile)
        n_spades = popcount(pile & SPADE_MASK)
        out[p, L.S_CARDS] = rules[L.R_MOST_CARDS_POINTS] if n_cards >= rules[L.R_MOST_CARDS_AT_LEAST] else 0
        out[p, L.S_SPADES] = rules[L.R_MOST_SPADES_POINTS] if n_spades >= rules[L.R_MOST_SPADES_AT_LEAST] else 0
        out[p, L.S_ACES] = popcount(pile & ACE_MASK)
        out[p, L.S_TEN_DIAMONDS] = 2 if (pile >> BIG_CASINO) & 1 else 0
        out[p, L.S_TWO_SPADES] = 1 if (pile >> LITTLE_CASINO) & 1 else 0
        out[p, L.S_SWEEPS] = st[L.SWEEPS + p] * rules[L.R_SWEEP_POINTS]
        out[p, L.S_TOTAL] = (
            out[p, L.S_CARDS]
            + out[p, L.S_SPADES]
            + out[p, L.S_ACES]
            + out[p, L.S_TEN_DIAMONDS]
            + out[p, L.S_TWO_SPADES]
            + out[p, L.S_SWEEPS]
        )
        out[p, L.S_N_CARDS] = n_cards
        out[p, L.S_N_SPADES] = n_spades
        out[p, L.S_N_SWEEPS] = st[L.SWEEPS + p]
