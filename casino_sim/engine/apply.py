"""Apply one move record to a state, in place (no legality check: movegen's job)."""

from __future__ import annotations

from numba import njit

from casino_sim.engine.bits import ctz
from casino_sim.engine.layout import (
    ADD,
    BUILD,
    BUILD_K,
    CAPTURE,
    CAPTURED,
    HAND,
    INCREASE,
    LAST_CAPTURER,
    LOOSE,
    MUST_ACT,
    OWNER,
    PLY,
    R_NEXT_TURN_OBLIGATION,
    SWEEPS,
    TO_MOVE,
    TRAIL,
)


@njit(cache=True)
def _apply(st, rules, kind, card, tmask, bmask, value):
    """Play move (kind, card, loose mask, builds mask, value) for the player to move."""
    p = st[TO_MOVE]
    bit = 1 << card
    st[HAND + p] &= ~bit
    if kind == TRAIL:
        st[LOOSE] |= bit
    elif kind == CAPTURE:
        st[LOOSE] &= ~tmask
        took = bit | tmask
        if bmask != 0:
            v = ctz(bmask)
            took |= st[BUILD + v]
            st[BUILD + v] = 0
            st[OWNER + v] = -1
        st[CAPTURED + p] |= took
        st[LAST_CAPTURER] = p
        if st[LOOSE] == 0:
            empty = True
            for v in range(1, 11):
                if st[BUILD + v] != 0:
                    empty = False
                    break
            if empty:
                st[SWEEPS + p] += 1
    elif kind == BUILD_K or kind == ADD:
        st[LOOSE] &= ~tmask
        st[BUILD + value] |= bit | tmask
        st[OWNER + value] = p
    else:  # INCREASE: the simple build b becomes w (= value), merging with the build of w if any
        st[LOOSE] &= ~tmask
        b = ctz(bmask)
        cards = st[BUILD + b] | bit | tmask
        st[BUILD + b] = 0
        st[OWNER + b] = -1
        st[BUILD + value] |= cards
        st[OWNER + value] = p
    # italian next-turn obligation
    other = 1 - p
    made = kind == BUILD_K or kind == INCREASE or kind == ADD
    st[MUST_ACT + p] = 1 if (made and rules[R_NEXT_TURN_OBLIGATION] != 0) else 0
    if kind != TRAIL:
        st[MUST_ACT + other] = 0
    st[TO_MOVE] = other
    st[PLY] += 1
