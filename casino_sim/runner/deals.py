"""The rows a chunk plays: decks, dealers, seats' policies and per-round seeds, from the chunk seed.

Every engine plays the same rows, so the reference and numba engines can be
compared row by row, and experiments may edit decks (move the 10♦) before play.
A mirrored chunk plays each deal twice, the second time with the seats' policies
swapped and the same deck, dealer seat and policy seed (common random numbers).
With three or four players a deal is played once in each of its seatings (`rotations`): the policies
turned round the table, so that each sits in every place.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from casino_sim.runner.seeding import chunk_seed


@dataclass(frozen=True)
class DealRows:
    """Row i: deck[i] (52 card codes), dealer[i], which policy sits in seat 0 (a_seat0[i]), seed[i]."""

    deal_id: np.ndarray  # int64: the deal's index in the whole run
    mirror: np.ndarray  # int8: 0 = policy A in seat 0, 1 = seats swapped
    decks: np.ndarray  # (n, 52) int8
    dealer: np.ndarray  # int8
    a_seat0: np.ndarray  # bool: policy A plays seat 0
    seeds: np.ndarray  # uint64: the round's own random stream (policy choices)
    seating: np.ndarray | None = None  # (n, players) int8, three or four players: the policy of each player

    def __len__(self) -> int:
        return len(self.deal_id)

    def take(self, idx: np.ndarray, dealer: np.ndarray | None = None) -> DealRows:
        """Rows idx, optionally dealt by other dealers (a game's next round)."""
        return DealRows(
            self.deal_id[idx],
            self.mirror[idx],
            self.decks[idx],
            self.dealer[idx] if dealer is None else dealer.astype(np.int8),
            self.a_seat0[idx],
            self.seeds[idx],
            None if self.seating is None else self.seating[idx],
        )


def chunk_rows(chunk_seed: int, first_deal: int, n_deals: int, mirrored: bool, seatings=None) -> DealRows:
    """The rows of one chunk, a pure function of its seed and size.

    `seatings` (k, players), three or four players: each deal is played k times, row m with seating m (`mirror`
    is m), the dealer one of the players; `mirrored` is then already in the seatings (`rotations`).
    """
    rng = np.random.default_rng(chunk_seed)
    decks = rng.permuted(np.tile(np.arange(52, dtype=np.int8), (n_deals, 1)), axis=1)
    players = 2 if seatings is None else seatings.shape[1]
    dealer = rng.integers(0, players, size=n_deals, dtype=np.int8)
    seeds = rng.integers(0, 2**63, size=n_deals, dtype=np.int64).astype(np.uint64)
    deal_id = np.arange(first_deal, first_deal + n_deals, dtype=np.int64)
    if seatings is not None:
        k = len(seatings)
        each, mirror = np.repeat(np.arange(n_deals), k), np.tile(np.arange(k, dtype=np.int8), n_deals)
        seating = np.asarray(seatings, np.int8)[mirror]
        return DealRows(deal_id[each], mirror, decks[each], dealer[each], seating[:, 0] == 0, seeds[each], seating)
    if not mirrored:
        return DealRows(deal_id, np.zeros(n_deals, np.int8), decks, dealer, np.ones(n_deals, bool), seeds)
    twice = np.repeat(np.arange(n_deals), 2)
    mirror = np.tile(np.array([0, 1], np.int8), n_deals)
    return DealRows(deal_id[twice], mirror, decks[twice], dealer[twice], mirror == 0, seeds[twice])


def rotations(base, mirrored: bool) -> np.ndarray:
    """The seatings of a deal with three or four players: `base` (the policy index of each player) turned round
    the table by 0, 1, ... places, each distinct seating once (A against B: A in every place; A's team against
    B's: the teams swapped), so that every policy plays every place; not mirrored: `base` alone.

    Seating m puts base[0]'s policy at player m.
    """
    base = np.asarray(base, np.int8)
    out = []
    for m in range(len(base) if mirrored else 1):
        turned = np.roll(base, m)
        if not any(np.array_equal(turned, s) for s in out):
            out.append(turned)
    return np.array(out, np.int8)


def chunked_rows(seed: int, deals: int, chunk_deals: int, mirrored: bool, seatings=None):
    """Yield (chunk index, its rows) for `deals` deals cut into chunks, seeded as simulate seeds them."""
    for chunk in range(-(-deals // chunk_deals)):
        n = min(chunk_deals, deals - chunk * chunk_deals)
        yield chunk, chunk_rows(chunk_seed(seed, chunk), chunk * chunk_deals, n, mirrored, seatings)
