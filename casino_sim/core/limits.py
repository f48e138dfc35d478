"""The one limit both engines share on the size of a legal move list, and the error they both give past it.

A table piled with loose cards (a policy that always trails) makes the number of legal captures and builds
grow combinatorially: every distinct card set is a distinct move (docs/rules.md section 6, answer 5), so 36 loose number
cards give a 10 about 1.9 billion captures. Both engines count a position's legal moves first, by count
vectors of values, and stop with the same one-line error when there are more than MOVE_LIMIT.
"""

from __future__ import annotations

MOVE_LIMIT = 1 << 21  # the most legal moves of one position either engine enumerates (the numba move buffer)


def too_many_moves() -> str:
    """The one-line error both engines give for a position with more than MOVE_LIMIT legal moves."""
    return f"a position has more than {MOVE_LIMIT} legal moves, the most the engines enumerate (a table piled high)"
