"""Writing move records into a move buffer: the writers movegen.py and crowded.py share."""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always")
def _put(mv, n, kind, card, loose, builds, value):
    """Write move n into mv while it fits (a caller seeing n > cap grows the buffer); returns n + 1."""
    if n < mv.shape[0]:
        mv[n, 0] = kind
        mv[n, 1] = card
        mv[n, 2] = loose
        mv[n, 3] = builds
        mv[n, 4] = value
    return n + 1


@njit(cache=True, inline="always")
def _put_with_same(mv, n, a, same, nonempty, kind, card, bmask, value):
    """One move per subset s of `same` (loose cards of the target value, each a group alone) taking a | s;
    the empty set only when not `nonempty`. Returns the new n."""
    s = same
    while True:
        t = a | s
        if t != 0 or not nonempty:
            n = _put(mv, n, kind, card, t, bmask, value)
        if s == 0:
            return n
        s = (s - 1) & same
