"""The rows a chunk plays: decks, dealers, who sits where and per-round seeds, from the chunk seed.

Every engine plays the same rows, so the reference and numba engines can be
compared row by row, and experiments may edit decks (move the 10♦) before play.
A deal is played once in each of its seatings (`rotations`): the policies turned round the table, so that each
sits in every place, with the same deck, dealer and policy seed (common random numbers). With two players the
seatings of A against B are A at player 0, then (mirrored) A at player 1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from casino_sim.runner.seeding import chunk_seed


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


def chunk_rows(chunk_seed: int, first_deal: int, n_deals: int, seatings) -> DealRows:
    """The rows of one chunk, a pure function of its seed, its size and the seatings.

    `seatings` (k, players) (`rotations`): each deal is played k times, row m with seating m (`mirror` is m), the
    dealer one of the players.
    """
    seatings = np.asarray(seatings, np.int8)
    rng = np.random.default_rng(chunk_seed)
    decks = rng.permuted(np.tile(np.arange(52, dtype=np.int8), (n_deals, 1)), axis=1)
    dealer = rng.integers(0, seatings.shape[1], size=n_deals, dtype=np.int8)
    seeds = rng.integers(0, 2**63, size=n_deals, dtype=np.int64).astype(np.uint64)
    deal_id = np.arange(first_deal, first_deal + n_deals, dtype=np.int64)
    once = DealRows(deal_id, np.zeros(n_deals, np.int8), decks, dealer, seeds, np.tile(seatings[0], (n_deals, 1)))
    return once.seated(seatings)


def rotations(base, mirrored: bool) -> np.ndarray:
    """The seatings of a deal: `base` (the policy index of each player) turned round the table by 0, 1, ...
    places, each distinct seating once (A against B: A in every place; A's team against B's: the teams swapped),
    so that every policy plays every place; not mirrored: `base` alone.

    Seating m puts base[0]'s policy at player m.
    """
    base = np.asarray(base, np.int8)
    out = []
    for m in range(len(base) if mirrored else 1):
        turned = np.roll(base, m)
        if not any(np.array_equal(turned, s) for s in out):
            out.append(turned)
    return np.array(out, np.int8)


def chunked_rows(seed: int, deals: int, chunk_deals: int, seatings):
    """Yield (chunk index, its rows) for `deals` deals cut into chunks, seeded as simulate seeds them."""
    for chunk in range(-(-deals // chunk_deals)):
        n = min(chunk_deals, deals - chunk * chunk_deals)
        yield chunk, chunk_rows(chunk_seed(seed, chunk), chunk * chunk_deals, n, seatings)
