"""The per-round record of a simulation: its integer columns, shared by both engines' recorders.

Seats are 0 and 1. Cards 10♦ and 2♠ are tracked from the deal to their capture;
sweeps are counted by the batch (1..6) in which they fell. The anatomy columns
count each seat's plays by kind and the fates of its builds (docs/reports.md).
"""

from __future__ import annotations

from casino_sim.core.cards import BIG_CASINO, LITTLE_CASINO

CATEGORIES = ("cards", "spades", "aces", "ten_diamonds", "two_spades", "sweeps")  # the points of a round, in order
BATCHES = 6  # a round deals six batches
TABLE = 2  # "dealt to" code for a card dealt face up to the table
REMAINDER_PLY = 49  # "captured at ply" code for a card taken with the remainder
TRACKED = {"ten_diamonds": BIG_CASINO, "two_spades": LITTLE_CASINO}
PLAY_KINDS = ("trail", "capture", "build", "increase", "add")  # RULES.md section 2, in NOTATION.md order
# Per seat: builds made (created, or the opponent's increased or added to: the seat becomes their owner), its
# builds captured by itself, and its builds captured by the opponent; the owner is the one at the capture.
BUILD_FATES = ("builds_made", "builds_captured_own", "builds_lost")
ANATOMY = tuple(f"plays_{k}" for k in PLAY_KINDS) + BUILD_FATES  # per-seat columns, after the tracked cards


def record_columns() -> list[str]:
    """Every integer column of a round record, in a fixed order."""
    cols = ["dealer", "void", "plies", "last_capturer", "remainder"]
    for s in (0, 1):
        cols += [f"s{s}_{cat}" for cat in CATEGORIES] + [
            f"s{s}_total",
            f"s{s}_n_cards",
            f"s{s}_n_spades",
            f"s{s}_n_sweeps",
        ]
        cols += [f"s{s}_sweeps_b{b}" for b in range(1, BATCHES + 1)]
    for name in TRACKED:
        cols += [f"{name}_dealt_to", f"{name}_dealt_batch", f"{name}_captured_by", f"{name}_captured_ply"]
    for s in (0, 1):  # last, so that the columns above keep their places
        cols += [f"s{s}_{c}" for c in ANATOMY]
    return cols
