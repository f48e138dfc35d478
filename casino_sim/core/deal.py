"""The shape of a round's deal (docs/rules.md sections 2 and 11): four cards a hand, 48 plays whatever the count.

Both engines, the record's columns and the research adapters read these; nothing else defines them.
"""

from __future__ import annotations

HAND_SIZE = 4  # cards dealt to each hand in every batch
PLIES = 48  # every round: the 52 cards less the 4 dealt to the table, one play each


def batches(players: int) -> int:
    """Batches in a round: 6 with two players, 4 with three, 3 with four (48 plays each time)."""
    return PLIES // (HAND_SIZE * players)
