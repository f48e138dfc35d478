"""Legal move generation into a preallocated int64 buffer, and the canonical order.

A move is one row of `mv` (shape (cap, MOVE_FIELDS)): kind, card, loose
mask, builds mask, value (layout.py says what each holds).

`_movegen` returns the number of legal moves n. It writes rows only while
n <= cap, so a caller seeing n > cap grows the buffer and calls again; it
returns -q when the subset scratch is too small for the q loose cards it
must enumerate (the caller grows the scratch to 2**q rows and calls again).
Past layout.MAX_SCRATCH_BITS such cards the table is crowded: count vectors of
values replace the subsets (crowded.py), and n is still exact however large.
No allocation happens inside.

Tricks:
* The keep-a-capturing-card rule depends only on the played card, the kind,
  and the build values the mover owns afterwards, so it is checked once per
  (card, target) *before* any subset is enumerated: for builds, adds and
  increases only targets whose value the rest of the hand holds are tried,
  which prunes most of the ten candidate values at once.
* Number cards are 0..39 in value order, so "loose number cards of value < v"
  is a prefix of the loose cards in bit order. The scratch holds, for every
  subset j of the first q loose number cards (j as a q-bit index), its card
  mask and its count-vector code (tables.py), filled by doubling:
  row (2**i + j) = row j plus card i. A subset of values < v is then any
  j < 2**q_v, and "does it (with the played card) split into groups of v" is
  one split-table load. The table is filled lazily, only as far as the
  largest target asked for.
* Loose cards of value v itself are always groups on their own: every subset
  of them combines freely with a splitting subset of the smaller values
  (inner submask loop `s = (s - 1) & B`).
Each (kind, card, loose, builds, value) is produced exactly once, so no
deduplication pass is needed (docs/rules.md section 6, answer 5).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.kernels import layout as L
from casino_sim.kernels.bits import (
    BELOW_VALUE,
    CARD_CODE,
    CARD_VALUE,
    NUMBER_MASK,
    POW5,
    RANK_MASK,
    VALUE_MASK,
    ctz,
    popcount,
)
from casino_sim.kernels.crowded import _emit_vectors
from casino_sim.kernels.moverow import _put, _put_with_same
from casino_sim.kernels.tables import TABLE_OFFSET


# One compiled version each (a signature): callers pass constants (a kind, a 0), and numba compiles a copy
# of a function for every constant it is called with.
@njit("int64(int64[::1], int64[::1], int64, int64, int64)", cache=True, _nrt=False)
def _fill(sc_code, sc_mask, ln, filled, q):
    """Extend the subset scratch from the first `filled` to the first `q` loose number cards."""
    rem = ln
    for _ in range(filled):
        rem &= rem - 1
    for i in range(filled, q):
        low = rem & -rem
        rem ^= low
        cc = CARD_CODE[ctz(low)]
        half = np.uint64(1) << np.uint64(i)  # unsigned indices: no negative-index wraparound at each store
        for j in range(half):
            sc_code[half + j] = sc_code[j] + cc
            sc_mask[half + j] = sc_mask[j] | low
    return q if q > filled else filled


@njit(
    "int64(int64[:, ::1], int64, uint8[::1], int64[::1], int64[::1], int64, int64, int64, int64, int64, int64, int64)",
    cache=True,
    _nrt=False,
)
def _emit_groups(mv, n, tbl, sc_code, sc_mask, q, same, v, extra, kind, card, bmask):
    """Emit one move per loose subset T with (played card +) T splitting into groups of v.

    `q`: the loose number cards of value < v are scratch rows 0..2**q-1;
    `same`: mask of loose cards of value v; `extra`: code of the played card
    when it must join a group (0 when it is not part of the groups or is a
    group alone). T = {} is a move only when the play touches a build
    (capture it, add to it, increase it): a capture or a new build takes loose cards.
    """
    # unsigned: the table load needs no negative-index wraparound (3 of the loop's 10 instructions)
    base = np.uint64(TABLE_OFFSET[v] + extra)
    nonempty = bmask == 0
    for j in range(1 << q):
        if tbl[base + np.uint64(sc_code[j])]:
            n = _put_with_same(mv, n, sc_mask[j], same, nonempty, kind, card, bmask, v)
    return n


@njit(cache=True, inline="always")
def _groups(mv, n, tbl, scratch, ln, filled, crowded, v, extra, kind, card, bmask):
    """_emit_groups for target v, filling the scratch (sc_code, sc_mask) as far as v needs: (n, filled). On a
    crowded table (more loose number cards than the scratch enumerates) crowded.py's count vectors instead."""
    sc_code, sc_mask = scratch
    if crowded:
        return _emit_vectors(mv, n, tbl, ln, v, extra, kind, card, bmask), filled
    q = popcount(ln & BELOW_VALUE[v])
    if q > filled:
        filled = _fill(sc_code, sc_mask, ln, filled, q)
    return _emit_groups(mv, n, tbl, sc_code, sc_mask, q, ln & VALUE_MASK[v], v, extra, kind, card, bmask), filled


@njit(cache=True, inline="always")
def _hand_values(h):
    """(held, twice): bit v set for each number value v in hand h, and for each held twice or more."""
    m = h & NUMBER_MASK
    held = 0
    twice = 0
    while m:
        bit = 1 << CARD_VALUE[ctz(m)]
        m &= m - 1
        twice |= held & bit
        held |= bit
    return held, twice


@njit(cache=True, inline="always")
def _values_left(held, twice, cv):
    """The values of _hand_values(h) still held once a card of value cv is played: cv stays only if held twice (a
    figure's cv, 0, is no value)."""
    return held & ~((1 << cv) & ~twice)


@njit(cache=True, inline="always")
def _build_info(st, p):
    """(present, owned by p, simple) build-value masks. Inlined: a call per move generation cost expert 2%."""
    present = 0
    owned = 0
    simple = 0
    for v in range(1, 11):
        bc = st[L.BUILD + v]
        if bc != 0:
            present |= 1 << v
            if st[L.OWNER + v] == p:
                owned |= 1 << v
            s = 0
            m = bc
            while m:
                low = m & -m
                m ^= low
                s += CARD_VALUE[ctz(low)]
            if s == v:
                simple |= 1 << v
    return present, owned, simple


@njit(cache=True, _nrt=False)
def _movegen(st, rules, tbl, mv, sc_code, sc_mask):
    p = st[L.TO_MOVE]
    h = st[L.HAND + p]
    loose = st[L.LOOSE]
    ln = loose & NUMBER_MASK
    # the largest prefix any target can need: loose number cards of value <= 9; past MAX_SCRATCH_BITS the
    # table is crowded and count vectors replace the subsets (crowded.py)
    q_all = popcount(ln & BELOW_VALUE[10])
    crowded = q_all > L.MAX_SCRATCH_BITS
    if (1 << q_all) > sc_code.shape[0] and not crowded:
        return -q_all
    present, owned, simple = _build_info(st, p)
    may_trail = True
    if rules[L.R_NO_TRAIL_WHILE_OWNER] != 0 and owned != 0:
        may_trail = False
    if rules[L.R_NEXT_TURN_OBLIGATION] != 0 and st[L.MUST_ACT + p] != 0:
        may_trail = False
    filled = 0
    sc_code[0] = 0
    sc_mask[0] = 0
    scratch = (sc_code, sc_mask)
    n = 0
    held, twice = _hand_values(h)
    hm = h
    while hm:
        low = hm & -hm
        hm ^= low
        c = ctz(low)
        cv = CARD_VALUE[c]
        rest = _values_left(held, twice, cv)
        # owned builds left without a capturing card if the play does not touch them
        lacking = owned & ~rest
        if may_trail and lacking == 0:
            n = _put(mv, n, L.TRAIL, c, 0, 0, -1)
        if cv == 0:
            # figure: one loose figure of its rank; italian: all three when exactly three are loose
            if lacking != 0:
                continue
            figs = loose & RANK_MASK[c >> 2]
            fm = figs
            while fm:
                fl = fm & -fm
                fm ^= fl
                n = _put(mv, n, L.CAPTURE, c, fl, 0, -1)
            if rules[L.R_FIGURE_CAPTURE] == 1 and popcount(figs) == 3:
                n = _put(mv, n, L.CAPTURE, c, figs, 0, -1)
            continue
        # capture with a number card: loose groups of cv, optionally the build of cv
        if lacking == 0:
            n, filled = _groups(mv, n, tbl, scratch, ln, filled, crowded, cv, 0, L.CAPTURE, c, 0)
        if (present >> cv) & 1 and (lacking & ~(1 << cv)) == 0:
            n, filled = _groups(mv, n, tbl, scratch, ln, filled, crowded, cv, 0, L.CAPTURE, c, 1 << cv)
        # build / add to value v: the mover then owns v, so the rest of the hand must hold a v
        if lacking == 0:
            targets = rest & ~((1 << cv) - 1)  # v >= cv, v held in the rest of the hand
            while targets:
                tl = targets & -targets
                targets ^= tl
                v = ctz(tl)
                extra = 0 if cv == v else POW5[cv - 1]
                if (present >> v) & 1:
                    n, filled = _groups(mv, n, tbl, scratch, ln, filled, crowded, v, extra, L.ADD, c, 1 << v)
                else:
                    n, filled = _groups(mv, n, tbl, scratch, ln, filled, crowded, v, extra, L.BUILD_K, c, 0)
        # increase a simple build b to w = b + cv (merging with the build of w if there is one)
        sm = simple
        while sm:
            bl = sm & -sm
            sm ^= bl
            b = ctz(bl)
            w = b + cv
            if w > 10:
                break
            if ((rest >> w) & 1) == 0:
                continue
            if ((owned & ~bl) & ~rest) != 0:
                continue
            bmask = bl | (present & (1 << w))
            n, filled = _groups(mv, n, tbl, scratch, ln, filled, crowded, w, 0, L.INCREASE, c, bmask)
    if n == 0:  # rare: no play at all; _obliged_trails starts afresh from st, so the loop above keeps nothing for it
        n = _obliged_trails(st, rules, mv)
    return n


@njit(cache=True, _nrt=False)
def _obliged_trails(st, rules, mv):
    """The trails allowed when trailing was barred and no play is left: only with 3 or 4 players, a partner
    took the mover's build and the italian obligation yields (docs/rules.md section 11). 0 when trailing was allowed.

    Kept out of _movegen and recomputing what it needs: holding the hand and the owned builds alive to the end
    of _movegen's loop cost every two-player move generation 5-8% (measured)."""
    p = st[L.TO_MOVE]
    h = st[L.HAND + p]
    owned = _build_info(st, p)[1]
    barred = rules[L.R_NO_TRAIL_WHILE_OWNER] != 0 and owned != 0
    if not barred and not (rules[L.R_NEXT_TURN_OBLIGATION] != 0 and st[L.MUST_ACT + p] != 0):
        return 0
    n = 0
    held, twice = _hand_values(h)
    for c in range(52):  # rare: a plain scan of the hand
        if (h >> c) & 1 and owned & ~_values_left(held, twice, CARD_VALUE[c]) == 0:
            n = _put(mv, n, L.TRAIL, c, 0, 0, -1)
    return n


@njit(cache=True, _nrt=False)
def _first_trail(st, rules, mv):
    """The trail policy's shortcut: write the trail of the lowest card the mover may trail into mv[0] and
    return 1, or return 0 when no trail is legal under _movegen's own test (then the caller generates the moves).

    A trail is the first legal move in canonical order when there is one, so an always-trailing seat on a table
    piled high never needs the (combinatorially many) captures and builds written out."""
    p = st[L.TO_MOVE]
    h = st[L.HAND + p]
    owned = _build_info(st, p)[1]
    if rules[L.R_NO_TRAIL_WHILE_OWNER] != 0 and owned != 0:
        return 0
    if rules[L.R_NEXT_TURN_OBLIGATION] != 0 and st[L.MUST_ACT + p] != 0:
        return 0
    held, twice = _hand_values(h)
    hm = h
    while hm:
        c = ctz(hm)
        hm &= hm - 1
        if owned & ~_values_left(held, twice, CARD_VALUE[c]) == 0:
            return _put(mv, 0, L.TRAIL, c, 0, 0, -1)
    return 0


@njit(cache=True)
def _first_move(mv, n):
    """The row of the first of mv's n moves in canonical order (one pass)."""
    best = 0
    for i in range(1, n):
        if _move_less(mv, i, best):
            best = i
    return best


@njit(cache=True)
def _lex_less(a, b):
    """Compare two masks as ascending tuples of their bit indices (a prefix sorts first)."""
    d = a ^ b
    if d == 0:
        return False
    low = d & -d
    if a & low:
        # a has the smaller element here unless b has no elements left (b is a prefix of a)
        return (b & ~(low - 1)) != 0
    return (a & ~(low - 1)) == 0


# One version: _first_move's first comparison is with a literal 0, which numba would compile a second version for.
@njit("boolean(int64[:, ::1], int64, int64)", cache=True)
def _move_less(mv, i, j):
    """Canonical order of docs/notation.md (`casino-sim moves`): kind, card, value (null first), loose, builds."""
    for f in (L.M_KIND, L.M_CARD, L.M_VALUE):
        if mv[i, f] != mv[j, f]:
            return mv[i, f] < mv[j, f]
    if mv[i, L.M_LOOSE] != mv[j, L.M_LOOSE]:
        return _lex_less(mv[i, L.M_LOOSE], mv[j, L.M_LOOSE])
    return _lex_less(mv[i, L.M_BUILDS], mv[j, L.M_BUILDS])


# _nrt=True: it allocates, and as a callee of rows.py's _play_block it would inherit that kernel's _nrt=False
@njit(cache=True, _nrt=True)
def _kth_move(mv, n, k):
    """The row of mv holding the k-th of its n moves in canonical order (moves are distinct: ranks are too)."""
    order = np.empty(n, dtype=np.int64)
    _sort_moves(mv, n, order)
    return order[k]


@njit(cache=True)
def _sort_moves(mv, n, order):
    """Row indices 0..n-1 into `order` by the canonical order: a bottom-up merge sort, O(n log n) for the
    millions of moves of a crowded table (crowded.py)."""
    for i in range(n):
        order[i] = i
    other = np.empty(n, dtype=np.int64)
    src, dst = order, other
    in_other = False  # where the sorted run is after the last pass
    width = 1
    while width < n:
        for lo in range(0, n, 2 * width):
            mid, hi = min(lo + width, n), min(lo + 2 * width, n)
            i, j = lo, mid
            for k in range(lo, hi):
                if i < mid and (j >= hi or not _move_less(mv, src[j], src[i])):
                    dst[k] = src[i]
                    i += 1
                else:
                    dst[k] = src[j]
                    j += 1
        src, dst = dst, src
        in_other = not in_other
        width *= 2
    if in_other:  # a loop, not order[:n] = other[:n]: a slice assignment compiles numba's error text (~10 s cold)
        for i in range(n):
            order[i] = other[i]
