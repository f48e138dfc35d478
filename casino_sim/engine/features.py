"""Move features in numba: the kernel twin of casino_sim/policies/features.py.

Same features, same order, same float arithmetic in the same order, so a
heuristic's scores are equal bit for bit on both sides (a test holds them so).
`want[i]` = 0 skips feature i when its weight is zero: the risk features
enumerate loose subsets and greedy does not need them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.core.featurespec import FEATURE_INDEX, N_FEATURES, p_holds_any
from casino_sim.engine import layout as L
from casino_sim.engine.apply import _apply
from casino_sim.engine.bits import (
    ACE_MASK,
    BELOW_VALUE,
    BIG_CASINO,
    CARD_CODE,
    FULL_MASK,
    LITTLE_CASINO,
    RANK_MASK,
    SPADE_MASK,
    VALUE_MASK,
    ctz,
    popcount,
)
from casino_sim.engine.tables import TABLE_OFFSET

F_CARDS, F_SPADES, F_ACES, F_BIG, F_LITTLE, F_SWEEP, F_BUILD, F_BUILD_CARDS = range(8)
F_POINTS_RISK = FEATURE_INDEX["points_at_risk"]
F_CARDS_RISK = FEATURE_INDEX["cards_at_risk"]
F_SWEEP_OPEN = FEATURE_INDEX["sweep_open"]
F_TRAIL_POINTS = FEATURE_INDEX["trail_points"]
F_CASINOS = FEATURE_INDEX["casinos_exposed"]
F_LAST = FEATURE_INDEX["last_capture_cards"]
F_TRAIL = FEATURE_INDEX["trail"]


@njit(cache=True, inline="always")
def _sure_points(mask):
    """Aces 1 each, 10♦ 2, 2♠ 1: the points a set of cards is worth on its own."""
    return popcount(mask & ACE_MASK) + 2 * ((mask >> BIG_CASINO) & 1) + ((mask >> LITTLE_CASINO) & 1)


_p_holds_any = njit(cache=True)(p_holds_any)  # the policies' own function, compiled: same bits


@njit(cache=True)
def _code(mask):
    """Count-vector code of a set of number cards (tables.py)."""
    c = 0
    while mask:
        c += CARD_CODE[ctz(mask)]
        mask &= mask - 1
    return c


@njit(cache=True)
def _best_capture(st, tbl, v):
    """(most sure points, most cards) one capture with a card of value v can take from the table."""
    build = st[L.BUILD + v]
    pool = st[L.LOOSE] & BELOW_VALUE[v + 1]  # loose number cards of value <= v
    best_pts = _sure_points(build) if build else 0
    best_cards = popcount(build) if build else 0
    s = pool
    while True:  # every subset of the pool, the empty one last
        if (s != 0 or build != 0) and tbl[TABLE_OFFSET[v] + _code(s & BELOW_VALUE[v])]:
            pts = _sure_points(s | build)
            if pts > best_pts:
                best_pts = pts
            cards = popcount(s | build)
            if cards > best_cards:
                best_cards = cards
        if s == 0:
            break
        s = (s - 1) & pool
    return best_pts, best_cards


@njit(cache=True)
def _table_capturable(st, tbl, v):
    """Whether one capture with value v takes every loose card and every build."""
    loose = st[L.LOOSE]
    if loose & ~BELOW_VALUE[v + 1]:  # a figure, or a number above v
        return False
    for u in range(1, 11):
        if u != v and st[L.BUILD + u] != 0:
            return False
    return tbl[TABLE_OFFSET[v] + _code(loose & BELOW_VALUE[v])] != 0


@njit(cache=True)
def _view(st):
    """What the mover cannot see: (unseen mask, how many, the opponent's hand size). Same for every move."""
    p = st[L.TO_MOVE]
    seen = st[L.HAND + p] | st[L.LOOSE] | st[L.CAPTURED] | st[L.CAPTURED + 1]
    for v in range(1, 11):
        seen |= st[L.BUILD + v]
    unseen = FULL_MASK & ~seen
    return unseen, popcount(unseen), popcount(st[L.HAND + 1 - p])


@njit(cache=True, inline="always")
def _needs_after(want):
    return (
        want[F_BUILD_CARDS]
        or want[F_POINTS_RISK]
        or want[F_CARDS_RISK]
        or want[F_SWEEP_OPEN]
        or want[F_CASINOS]
        or want[F_LAST]
    )


@njit(cache=True, inline="always")
def _taken_swept(st, kind, card, tmask, bmask):
    """What a play puts in the mover's pile and whether it sweeps, from the move record alone."""
    if kind != L.CAPTURE:
        return 0, False
    taken = (1 << card) | tmask
    left = st[L.LOOSE] & ~tmask
    for v in range(1, 11):
        if (bmask >> v) & 1:
            taken |= st[L.BUILD + v]
        else:
            left |= st[L.BUILD + v]
    return taken, left == 0


@njit(cache=True)
def _immediate_score(st, rules, kind, card, tmask, bmask, w):
    """A heuristic's score when only immediate features carry weight (greedy): no feature row.

    Adds feature times weight in FEATURES order, skipping zero weights, exactly as
    _weighted over _move_features would, so the scores are the same numbers.
    """
    taken, swept = _taken_swept(st, kind, card, tmask, bmask)
    is_build = kind == L.BUILD_K or kind == L.INCREASE or kind == L.ADD
    total = 0.0
    if w[F_CARDS] != 0.0:
        total += popcount(taken) * w[F_CARDS]
    if w[F_SPADES] != 0.0:
        total += popcount(taken & SPADE_MASK) * w[F_SPADES]
    if w[F_ACES] != 0.0:
        total += popcount(taken & ACE_MASK) * w[F_ACES]
    if w[F_BIG] != 0.0:
        total += ((taken >> BIG_CASINO) & 1) * w[F_BIG]
    if w[F_LITTLE] != 0.0:
        total += ((taken >> LITTLE_CASINO) & 1) * w[F_LITTLE]
    if w[F_SWEEP] != 0.0:
        total += (rules[L.R_SWEEP_POINTS] if swept else 0) * w[F_SWEEP]
    if w[F_BUILD] != 0.0:
        total += (1.0 if is_build else 0.0) * w[F_BUILD]
    if w[F_TRAIL_POINTS] != 0.0:
        total += (_sure_points(1 << card) if kind == L.TRAIL else 0) * w[F_TRAIL_POINTS]
    if w[F_TRAIL] != 0.0:
        total += (1.0 if kind == L.TRAIL else 0.0) * w[F_TRAIL]
    return total


@njit(cache=True)
def _move_features(st, rules, tbl, kind, card, tmask, bmask, value, view, after, want, f):
    """Fill f with the features of one move of the player to move; `after` is scratch state.

    Features whose weight is zero may be left at 0. When only the immediate ones
    are wanted (greedy), the position after the play is never built: what the
    play takes and whether it sweeps follow from the move record alone.
    """
    p = st[L.TO_MOVE]
    for i in range(f.shape[0]):
        f[i] = 0.0
    full = _needs_after(want)
    if full:
        for i in range(L.STATE_SIZE):
            after[i] = st[i]
        _apply(after, rules, kind, card, tmask, bmask, value)
        taken = after[L.CAPTURED + p] & ~st[L.CAPTURED + p]
        swept = after[L.SWEEPS + p] > st[L.SWEEPS + p]
    else:
        taken, swept = _taken_swept(st, kind, card, tmask, bmask)
    f[F_CARDS] = popcount(taken)
    f[F_SPADES] = popcount(taken & SPADE_MASK)
    f[F_ACES] = popcount(taken & ACE_MASK)
    f[F_BIG] = (taken >> BIG_CASINO) & 1
    f[F_LITTLE] = (taken >> LITTLE_CASINO) & 1
    f[F_SWEEP] = rules[L.R_SWEEP_POINTS] if swept else 0  # a sweep is priced by the rule set (brazilian: 0)
    if kind == L.BUILD_K or kind == L.INCREASE or kind == L.ADD:
        f[F_BUILD] = 1.0
        if full:
            f[F_BUILD_CARDS] = popcount(after[L.BUILD + value])
    if kind == L.TRAIL:
        f[F_TRAIL_POINTS] = _sure_points(1 << card)
        f[F_TRAIL] = 1.0
    if not full:
        return
    unseen, n_unseen, opp_hand = view
    table = after[L.LOOSE]
    for v in range(1, 11):
        table |= after[L.BUILD + v]
    if table != 0 and (want[F_POINTS_RISK] or want[F_CARDS_RISK] or want[F_SWEEP_OPEN]):
        for v in range(1, 11):
            prob = _p_holds_any(n_unseen, opp_hand, popcount(unseen & VALUE_MASK[v]))
            if prob == 0.0:
                continue
            pts, cards = _best_capture(after, tbl, v)
            f[F_POINTS_RISK] += prob * pts
            f[F_CARDS_RISK] += prob * cards
            if _table_capturable(after, tbl, v) and prob > f[F_SWEEP_OPEN]:
                f[F_SWEEP_OPEN] = prob
        for r in range(10, 13):
            prob = _p_holds_any(n_unseen, opp_hand, popcount(unseen & RANK_MASK[r]))
            if prob == 0.0:
                continue
            same = after[L.LOOSE] & RANK_MASK[r]
            f[F_POINTS_RISK] += prob * 0
            f[F_CARDS_RISK] += prob * (1 if same else 0)
            if same != 0 and after[L.LOOSE] == (same & -same) and table == after[L.LOOSE] and prob > f[F_SWEEP_OPEN]:
                f[F_SWEEP_OPEN] = prob
        f[F_SWEEP_OPEN] *= rules[L.R_SWEEP_POINTS]  # priced as the opponent's sweep (x1 in strict: the same bits)
    f[F_CASINOS] = 2 * ((after[L.LOOSE] >> BIG_CASINO) & 1) + ((after[L.LOOSE] >> LITTLE_CASINO) & 1)
    if kind == L.CAPTURE and n_unseen - opp_hand == 0:
        f[F_LAST] = popcount(after[L.LOOSE])


@njit(cache=True)
def _weighted(f, w):
    """Sum of feature times weight, left to right, skipping zero weights (as the Python side)."""
    total = 0.0
    for i in range(w.shape[0]):
        if w[i] != 0.0:
            total += f[i] * w[i]
    return total


def features_scratch():
    """Scratch arrays for _move_features: the after-state and one feature row."""
    return np.zeros(L.STATE_SIZE, dtype=np.int64), np.zeros(N_FEATURES, dtype=np.float64)
