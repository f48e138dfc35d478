"""The shape of a round's deal (docs/rules.md sections 2 and 11): four cards a hand, 48 plays whatever the count.

Both engines, the record's columns and the research adapters read these; nothing else defines them.
"""

from __future__ import annotations

import numpy as np

HAND_SIZE = 4  # cards dealt to each hand in every batch
PLIES = 48  # every round: the 52 cards less the 4 dealt to the table, one play each


def batches(players: int) -> int:
    """Batches in a round: 6 with two players, 4 with three, 3 with four (48 plays each time)."""
    return PLIES // (HAND_SIZE * players)


def deck_slots(players: int) -> tuple[np.ndarray, np.ndarray]:
    """(place, batch) of each of the 52 deck positions: the place in the turn order (0 first .. players - 1 the
    dealer; `players` the table) that position deals to, and its batch (1..). In the deal's order: 4 to each
    place from the first to the dealer, then in batch 1 four to the table; the same whoever deals."""
    first = (players + 1) * HAND_SIZE
    index = np.arange(52)
    later = np.maximum(index - first, 0)
    place = np.where(index < first, index // HAND_SIZE, (later % (players * HAND_SIZE)) // HAND_SIZE)
    batch = np.where(index < first, 1, 2 + later // (players * HAND_SIZE))
    return place.astype(np.int64), batch.astype(np.int64)
