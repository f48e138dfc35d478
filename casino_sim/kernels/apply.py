"""Apply one move record to a state, in place (no legality check: movegen's job)."""

from __future__ import annotations

from numba import njit

from casino_sim.kernels import layout as L
from casino_sim.kernels.bits import ctz


@njit(cache=True, _nrt=False)
def _apply(st, rules, kind, card, tmask, bmask, value):
    """Play move (kind, card, loose mask, builds mask, value) for the player to move."""
    p = st[L.TO_MOVE]
    bit = 1 << card
    st[L.HAND + p] &= ~bit
    if kind == L.TRAIL:
        st[L.LOOSE] |= bit
    elif kind == L.CAPTURE:
        st[L.LOOSE] &= ~tmask
        took = bit | tmask
        if bmask != 0:
            v = ctz(bmask)
            took |= st[L.BUILD + v]
            st[L.BUILD + v] = 0
            st[L.OWNER + v] = -1
        st[L.CAPTURED + p] |= took
        st[L.LAST_CAPTURER] = p
        if st[L.LOOSE] == 0:
            empty = True
            for v in range(1, 11):
                if st[L.BUILD + v] != 0:
                    empty = False
                    break
            if empty:
                st[L.SWEEPS + p] += 1
    elif kind == L.BUILD_K or kind == L.ADD:
        st[L.LOOSE] &= ~tmask
        st[L.BUILD + value] |= bit | tmask
        st[L.OWNER + value] = p
    else:  # INCREASE: the simple build b becomes w (= value), merging with the build of w if any
        st[L.LOOSE] &= ~tmask
        b = ctz(bmask)
        cards = st[L.BUILD + b] | bit | tmask
        st[L.BUILD + b] = 0
        st[L.OWNER + b] = -1
        st[L.BUILD + value] |= cards
        st[L.OWNER + value] = p
    # italian next-turn obligation (docs/rules.md 11): set by p's build, increase or add; a capture or build by p
    # lifts it from every player p is an opponent of. Without the rule there is none to lift, and no call to pay.
    obliged = rules[L.R_NEXT_TURN_OBLIGATION] != 0
    made = kind == L.BUILD_K or kind == L.INCREASE or kind == L.ADD
    st[L.MUST_ACT + p] = 1 if (made and obliged) else 0
    if obliged and kind != L.TRAIL:
        _lift_obligations(st, rules, p)
    st[L.TO_MOVE] = p + 1 if p + 1 < rules[L.R_PLAYERS] else 0
    st[L.PLY] += 1


@njit(cache=True, _nrt=False)
def _lift_obligations(st, rules, p):
    """p captured or built, which lifts the obligation of each player p is an opponent of (everyone but p, save
    p's partner with teams). Kept out of _apply, whose size every play pays."""
    for q in range(rules[L.R_PLAYERS]):
        if q != p and not (rules[L.R_TEAMS] != 0 and q == (p + 2) % 4):
            st[L.MUST_ACT + q] = 0
