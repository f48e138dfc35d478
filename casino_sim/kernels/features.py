"""Move features in numba: the kernel twin of casino_sim/policies/features.py.

Same features, same order, same float arithmetic in the same order, so a
heuristic's scores are equal bit for bit on both sides (a test holds them so).
`want[i]` = 0 skips feature i when its weight is zero. The risk features read
the best capture of each value from the split table's risk regions and the
opponent's chances from a table of p_holds_any, so they cost a few loads a
value rather than an enumeration of the loose subsets.

The kernels a heuristic's choice calls for every move (_immediate_score,
_move_features, _risk_features, _weighted) are inlined into it (choose.py): a
call passes each array as a struct of pointers and shapes, which cost greedy 8%
and expert 15% of their plays (measured A/B, 2026-12-01). Its small helpers
(_view and _probs once a decision; _risky, _needs_after and _sure_points, one
line each) are ordinary calls: inlined, numba typed each again in the choice,
about 3 s of a first run's compile (docs/policies.md).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.core.featurespec import FEATURE_INDEX, N_FEATURES, p_holds_any
from casino_sim.kernels import layout as L
from casino_sim.kernels.apply import _apply
from casino_sim.kernels.bits import (
    ACE_MASK,
    BELOW_VALUE,
    BIG_CASINO,
    FULL_MASK,
    LITTLE_CASINO,
    POW5,
    RANK_MASK,
    SPADE_MASK,
    VALUE_MASK,
    ctz,
    popcount,
)
from casino_sim.kernels.tables import RISK_CARDS, RISK_POINTS, TABLE_OFFSET

F_CARDS, F_SPADES, F_ACES, F_BIG, F_LITTLE, F_SWEEP, F_BUILD, F_BUILD_CARDS = range(8)
F_POINTS_RISK = FEATURE_INDEX["points_at_risk"]
F_CARDS_RISK = FEATURE_INDEX["cards_at_risk"]
F_SWEEP_OPEN = FEATURE_INDEX["sweep_open"]
F_TRAIL_POINTS = FEATURE_INDEX["trail_points"]
F_CASINOS = FEATURE_INDEX["casinos_exposed"]
F_LAST = FEATURE_INDEX["last_capture_cards"]
F_TRAIL = FEATURE_INDEX["trail"]
NO_PROBS = (0, 0, 0)  # _view's chances when no risk feature is wanted: 0 for every rank
NO_VIEW = (0, 0, 0, NO_PROBS)  # stands in for _view where no feature looks at it (greedy)


@njit(cache=True)
def _sure_points(mask):
    """Aces 1 each, 10♦ 2, 2♠ 1: the points a set of cards is worth on its own."""
    return popcount(mask & ACE_MASK) + 2 * ((mask >> BIG_CASINO) & 1) + ((mask >> LITTLE_CASINO) & 1)


# P_HOLDS_ANY[unseen, hand, k]: the policies' own p_holds_any, tabled once (the same bits, no division per call)
P_HOLDS_ANY = np.array(
    [[[p_holds_any(u, h, k) if k <= u and h <= u else 0.0 for k in range(5)] for h in range(13)] for u in range(53)]
)


@njit(cache=True, inline="always")
def _best_capture(st, tbl, v, code):
    """(most sure points, most cards) one capture with a card of value v can take from the table.

    code: the count-vector code of the loose cards below v. The build of v and the loose cards of
    value v go with any such capture; the rest is the best splitting part of the cards below v, read
    from the split table's risk regions (tables.py): the same maxima as enumerating every subset.
    """
    free = (st[L.LOOSE] & VALUE_MASK[v]) | st[L.BUILD + v]
    j = TABLE_OFFSET[v] + code
    below = np.int64(tbl[RISK_POINTS + j])  # uint8 shifted by an int64 would be uint64
    if v > 2 and (st[L.LOOSE] >> LITTLE_CASINO) & 1:  # the 2♠ can be in the part below v
        pts = _sure_points(free) + (below >> 4)
    else:
        pts = _sure_points(free) + (below & 15)
    return pts, popcount(free) + np.int64(tbl[RISK_CARDS + j])


@njit(cache=True)
def _probs(unseen, n, opp):
    """The chances _chance reads: that some of opp hand cards, drawn from n unseen, is of a given rank."""
    return n, opp, unseen


@njit(cache=True, inline="always")
def _chance(probs, r):
    """p_holds_any(n unseen, opp cards, how many of rank index r are unseen): a value v is rank index v - 1 (an
    ace's rank is its value), a figure its rank 10..12. 0 where none is unseen (probs of _probs, or NO_PROBS)."""
    n, opp, unseen = probs
    return P_HOLDS_ANY[n, opp, popcount(unseen & RANK_MASK[r])]


@njit(cache=True)
def _view(st, rules, risky):
    """What the mover cannot see: (unseen mask, how many, the other players' hand cards, probs). Same every move.

    probs (_probs, read by _chance): the chance that some opponent holds a card of each value or figure rank (0
    throughout unless risky). The opponents' hands together are a uniform draw from the unseen cards, so that is
    p_holds_any(unseen, the opponents' hand cards, how many of them are unseen); a partner's hand counts as
    unseen but not as an opponent's (docs/policies.md). Two players: the opponent's hand.
    """
    p = st[L.TO_MOVE]
    seen = st[L.HAND + p] | st[L.LOOSE] | st[L.CAPTURED] | st[L.CAPTURED + 1] | st[L.CAPTURED + 2] | st[L.CAPTURED + 3]
    for v in range(1, 11):
        seen |= st[L.BUILD + v]
    unseen = FULL_MASK & ~seen
    n = popcount(unseen)
    # the other hands (absent players' slots are empty, the hands disjoint), less the partner's with teams
    others = popcount((st[L.HAND] | st[L.HAND + 1] | st[L.HAND + 2] | st[L.HAND + 3]) & ~st[L.HAND + p])
    opp = others
    if rules[L.R_TEAMS] != 0:
        opp -= popcount(st[L.HAND + ((p + 2) & 3)])
    if not risky:
        return unseen, n, others, NO_PROBS
    return unseen, n, others, _probs(unseen, n, opp)


@njit(cache=True)
def _risky(want):
    return want[F_POINTS_RISK] or want[F_CARDS_RISK] or want[F_SWEEP_OPEN]


@njit(cache=True)
def _needs_after(want):
    return want[F_BUILD_CARDS] or _risky(want) or want[F_CASINOS] or want[F_LAST]


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


@njit(cache=True, inline="always")
def _immediate_score(st, rules, kind, card, tmask, bmask, value, last_batch, w):
    """A heuristic's score without the risk features, from the move record alone: no after-state, no feature row.

    Adds feature times weight in FEATURES order, skipping zero weights and the risk features, exactly as
    _weighted over _move_features would: greedy's whole score, and expert's bound (choose.py). last_batch:
    the stock is empty.
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
    if w[F_BUILD_CARDS] != 0.0:  # the build of `value` after the play: an increase merges its old build into it
        grown = 0
        if is_build:
            grown = st[L.BUILD + value] | (1 << card) | tmask
            if kind == L.INCREASE:
                grown |= st[L.BUILD + ctz(bmask)]
        total += popcount(grown) * w[F_BUILD_CARDS]
    if w[F_TRAIL_POINTS] != 0.0:
        total += (_sure_points(1 << card) if kind == L.TRAIL else 0) * w[F_TRAIL_POINTS]
    loose = st[L.LOOSE] | (1 << card) if kind == L.TRAIL else st[L.LOOSE] & ~tmask  # loose cards after the play
    if w[F_CASINOS] != 0.0:
        total += (2 * ((loose >> BIG_CASINO) & 1) + ((loose >> LITTLE_CASINO) & 1)) * w[F_CASINOS]
    if w[F_LAST] != 0.0:
        total += (popcount(loose) if kind == L.CAPTURE and last_batch else 0) * w[F_LAST]
    if w[F_TRAIL] != 0.0:
        total += (1.0 if kind == L.TRAIL else 0.0) * w[F_TRAIL]
    return total


@njit(cache=True, inline="always")
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
    n_unseen, hidden = view[1], view[2]
    table = after[L.LOOSE]
    for v in range(1, 11):
        table |= after[L.BUILD + v]
    if table != 0 and _risky(want):
        _risk_features(after, rules, tbl, table, view[3], f)
    f[F_CASINOS] = 2 * ((after[L.LOOSE] >> BIG_CASINO) & 1) + ((after[L.LOOSE] >> LITTLE_CASINO) & 1)
    if kind == L.CAPTURE and n_unseen - hidden == 0:  # the stock is empty: the last batch
        f[F_LAST] = popcount(after[L.LOOSE])


@njit(cache=True, inline="always")
def _risk_features(after, rules, tbl, table, probs, f):
    """points_at_risk, cards_at_risk and sweep_open of the position after a play, the table not empty.

    Summed over values then figure ranks in that order, as the Python side does (the same bits).
    """
    loose = after[L.LOOSE]
    others = 0  # bit v: a build of value v stands
    for v in range(1, 11):
        if after[L.BUILD + v] != 0:
            others |= 1 << v
    code = 0  # count-vector code of the loose cards below v, grown value by value
    for v in range(1, 11):
        if v > 1:
            code += popcount(loose & VALUE_MASK[v - 1]) * POW5[v - 2]
        prob = _chance(probs, v - 1)
        if prob == 0.0:
            continue
        pts, cards = _best_capture(after, tbl, v, code)
        f[F_POINTS_RISK] += prob * pts
        f[F_CARDS_RISK] += prob * cards
        # the whole table in one capture: nothing loose above v or a figure, no other build, the rest splits
        if (
            loose & ~BELOW_VALUE[v + 1] == 0
            and others & ~(1 << v) == 0
            and tbl[TABLE_OFFSET[v] + code] != 0
            and prob > f[F_SWEEP_OPEN]
        ):
            f[F_SWEEP_OPEN] = prob
    for r in range(10, 13):
        prob = _chance(probs, r)
        if prob == 0.0:
            continue
        same = loose & RANK_MASK[r]
        f[F_POINTS_RISK] += prob * 0
        f[F_CARDS_RISK] += prob * (1 if same else 0)
        if same != 0 and loose == (same & -same) and table == loose and prob > f[F_SWEEP_OPEN]:
            f[F_SWEEP_OPEN] = prob
    f[F_SWEEP_OPEN] *= rules[L.R_SWEEP_POINTS]  # priced as the opponent's sweep (x1 in strict: the same bits)


@njit(cache=True, inline="always")
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
