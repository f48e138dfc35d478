"""Move emission for a crowded table: more loose number cards than movegen's subset scratch enumerates.

Beyond layout.MAX_SCRATCH_BITS loose number cards the 2**q subsets are too many, but cards of equal value
are interchangeable for sums: whether a set splits into groups of v depends only on its count vector (how
many cards of each value 1..v-1, tables.py), and there are at most 5**9 of those. So this walks the count
vectors within the loose counts (an odometer on the vector's base-5 code), asks the split table once per
vector, and writes out the card sets of each splitting vector: one choice of c cards among the a loose cards
of each value, times every subset of the loose cards of value v. A vector's card sets are counted before
they are written; once the moves pass the buffer they are only counted, so the work is bounded by the count
vectors plus the buffer, and the caller learns the exact number of moves.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.kernels.bits import POW5, VALUE_MASK, popcount
from casino_sim.kernels.moverow import _put_with_same
from casino_sim.kernels.tables import TABLE_OFFSET

# BINOM[a, c]: the ways to choose c of a cards (a, c <= 4)
BINOM = np.array([[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 2, 1, 0, 0], [1, 3, 3, 1, 0], [1, 4, 6, 4, 1]], np.int64)


@njit(cache=True, inline="always")
def _next_of_size(a, s, c):
    """The next submask of a after s (ascending) with c bits; 0 when there is none (c > 0)."""
    while True:
        s = ((s | ~a) + 1) & a
        if s == 0 or popcount(s) == c:
            return s


@njit(cache=True, inline="always")
def _first_of_size(a, c):
    """The lowest submask of a with c bits (0 for c = 0)."""
    return 0 if c == 0 else _next_of_size(a, 0, c)


@njit(cache=True, _nrt=False)
def _put_sets(mv, n, ln, v, code, same, nonempty, kind, card, bmask, value):
    """Write every card set of count vector `code` (values below v) with every subset of `same`."""
    a = 0  # the current choice: for each value x < v, code's digit x of the loose cards of x
    for x in range(1, v):
        a |= _first_of_size(ln & VALUE_MASK[x], (code // POW5[x - 1]) % 5)
    while True:
        n = _put_with_same(mv, n, a, same, nonempty, kind, card, bmask, value)
        # the next choice: an odometer over the values, each digit the next submask of its size
        x = 1
        while x < v:
            c = (code // POW5[x - 1]) % 5
            field = ln & VALUE_MASK[x]
            cur = a & VALUE_MASK[x]
            nxt = _next_of_size(field, cur, c) if c > 0 else 0
            if nxt != 0:
                a = (a & ~VALUE_MASK[x]) | nxt
                break
            a = (a & ~VALUE_MASK[x]) | _first_of_size(field, c)
            x += 1
        if x == v:
            return n


@njit("int64(int64[:, ::1], int64, uint8[::1], int64, int64, int64, int64, int64, int64)", cache=True, _nrt=False)
def _emit_vectors(mv, n, tbl, ln, v, extra, kind, card, bmask):
    """_emit_groups (movegen.py) over count vectors: one move per loose set T splitting into groups of v.

    `ln`: the loose number cards; `extra` as in _emit_groups. Returns n plus the number of such moves, with
    the moves written while they fit in mv.
    """
    base = TABLE_OFFSET[v] + extra
    nonempty = bmask == 0
    same = ln & VALUE_MASK[v]
    free = 1 << popcount(same)  # any subset of the cards of value v joins as groups of their own
    code = 0
    while True:
        if tbl[base + code]:
            count = free - 1 if (code == 0 and nonempty) else free
            x = 1
            while x < v:
                count *= BINOM[popcount(ln & VALUE_MASK[x]), (code // POW5[x - 1]) % 5]
                x += 1
            if n + count <= mv.shape[0]:
                n = _put_sets(mv, n, ln, v, code, same, nonempty, kind, card, bmask, v)
            else:
                n += count
        # the next count vector within the loose counts
        x = 1
        while x < v:
            if (code // POW5[x - 1]) % 5 < popcount(ln & VALUE_MASK[x]):
                code += POW5[x - 1]
                break
            code -= ((code // POW5[x - 1]) % 5) * POW5[x - 1]
            x += 1
        if x == v:
            return n
