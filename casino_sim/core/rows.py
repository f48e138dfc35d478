"""Rows of deals, what every engine plays (engines/registry.py Engine.play): made by runner/deals.py, read by every
engine, so they live below both."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class DealRows:
    """Row i: deck[i] (52 card codes), dealer[i], the policy of each player (seating[i]), seed[i]."""

    deal_id: np.ndarray  # int64: the deal's index in the whole run
    mirror: np.ndarray  # int8: the deal's seating m (rotations: the base seating's first policy sits at player m)
    decks: np.ndarray  # (n, 52) int8
    dealer: np.ndarray  # int8
    seeds: np.ndarray  # uint64: the round's own random stream (policy choices)
    seating: np.ndarray  # (n, players) int8: the policy (an index into the lineup) of each player

    def __len__(self) -> int:
        return len(self.deal_id)

    def take(self, idx: np.ndarray, dealer: np.ndarray | None = None) -> DealRows:
        """Rows idx, optionally dealt by other dealers (a game's next round)."""
        return DealRows(
            self.deal_id[idx],
            self.mirror[idx],
            self.decks[idx],
            self.dealer[idx] if dealer is None else dealer.astype(np.int8),
            self.seeds[idx],
            self.seating[idx],
        )

    def seated(self, seatings: np.ndarray) -> DealRows:
        """These rows' deals, each played once in each of `seatings` (k, players), row m of a deal with seating m
        (`mirror` m): same deck, dealer and seed."""
        k = len(seatings)
        each, mirror = np.repeat(np.arange(len(self)), k), np.tile(np.arange(k, dtype=np.int8), len(self))
        picked = self.take(each)
        return DealRows(
            picked.deal_id, mirror, picked.decks, picked.dealer, picked.seeds, np.asarray(seatings, np.int8)[mirror]
        )
