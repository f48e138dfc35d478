"""The one list of invariants every engine keeps: the numba check reports their codes, the Python checker their names.

kernels/check.py verifies them inside the kernels (`simulate --check`); reference/invariants.py verifies them on
Positions; the conformance suite (tests/conformance/) applies both to every position every engine reaches.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Invariant:
    """One property of every position reached in a round; `code` is the numba check's status when it breaks."""

    name: str
    code: int  # clear of the round statuses of kernels/layout.py (1..4): the row kernel returns either
    holds: str  # what every position reached in a round satisfies
    broken: str  # what an engine bug report says when it does not


INVARIANTS = (
    Invariant(
        "cards",
        10,
        "each of the 52 cards is in exactly one place: a hand, the table, a build, a capture pile or the stock "
        "(12 cards dealt, then 8 a batch; with n players 4n + 4, then 4n); at the end of the round all 52 are in "
        "the capture piles",
        "the 52 cards are not each in exactly one place",
    ),
    Invariant(
        "builds",
        11,
        "a build is one per value 1..10, owned by a player, of two or more number cards that split into groups "
        "of its value (the numba check tests their sum)",
        "a build is malformed",
    ),
    Invariant(
        "owners",
        13,
        "a build's owner holds a card of its value (keep a capturing card), so no build outlives the round",
        "a build's owner holds no card to capture it",
    ),
    Invariant(
        "points",
        12,
        "at the end of the round the points add up: most cards and most spades where a side takes them (none "
        "on a 26-26 tie), 4 aces, the 10♦ 2 and the 2♠ 1, plus the sweep points; a team's points are its "
        "players' (their piles and sweeps) plus its majority prizes",
        "the round's points do not add up",
    ),
)
BY_NAME = {inv.name: inv for inv in INVARIANTS}
FIXED_POINTS = 4 + 2 + 1  # the four aces, the 10♦ and the 2♠ always score


def dealt(players: int = 2) -> range:
    """Cards out of the stock in a round: 4 a hand and 4 on the table, then 4 a hand each batch."""
    return range(4 * players + 4, 53, 4 * players)
