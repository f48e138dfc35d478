"""The rows a run plays: decks, dealers, who sits where and per-round seeds, each deal's from its own key.

Every engine plays the same rows, so the reference and numba engines can be
compared row by row, and experiments may edit decks (move the 10♦) before play.
A deal is played once in each of its seatings (`rotations`): the policies turned round the table, so that each
sits in every place, with the same deck, dealer and policy seed (common random numbers). With two players the
seatings of A against B are A at player 0, then (mirrored) A at player 1.

A deal's draws are a function of the run's seed and the deal's index alone (runner/seeding.py), so chunks of any
size give the same rows; a run of an earlier version (seeding 1) is dealt by its chunks (runner/chunk_seeding.py).
"""

from __future__ import annotations

import numpy as np

from casino_sim.core.rows import DealRows
from casino_sim.runner.chunk_seeding import ChunkSeeding
from casino_sim.runner.seeding import (
    CHUNK_SEEDING,
    PAIRS,
    ROUND,
    SEEDING,
    deal_keys,
    dealers,
    hashed,
    policy_seeds,
    shuffled,
)


def deal_rows(seed: int, first_deal: int, n_deals: int, seatings) -> DealRows:
    """The rows of deals first_deal .. first_deal + n_deals - 1 of a run seeded `seed`, a pure function of the
    seed, the deals and the seatings: `seatings` (k, players) (`rotations`): each deal is played k times, row m with
    seating m (`mirror` is m), the dealer one of the players."""
    seatings = np.asarray(seatings, np.int8)
    deal_id = np.arange(first_deal, first_deal + n_deals, dtype=np.int64)
    keys = deal_keys(seed, deal_id)
    once = DealRows(
        deal_id,
        np.zeros(n_deals, np.int8),
        shuffled(keys),
        dealers(keys, seatings.shape[1]),
        policy_seeds(keys),
        np.tile(seatings[0], (n_deals, 1)),
    )
    return once.seated(seatings)


class Seeding:
    """The draws of a run seeded `seed` (seeding version 2), by deal: its rows, a whole game's rounds, the card
    replays' swaps and the decks again for a report. ChunkSeeding answers the same for version 1."""

    def __init__(self, seed: int):
        self.seed = seed

    def rows(self, first: int, n: int, seatings) -> DealRows:
        return deal_rows(self.seed, first, n, seatings)

    def round_draws(self, first: int, n: int, wave: int) -> tuple[np.ndarray, np.ndarray]:
        """(decks, policy seeds) of round `wave` of games first .. first + n - 1: from game g's key at ROUND + wave."""
        keys = hashed(deal_keys(self.seed, np.arange(first, first + n)), ROUND + wave)
        return shuffled(keys), policy_seeds(keys)

    def first_dealers(self, first: int, n: int, players: int) -> np.ndarray:
        """The first dealer of games first .. first + n - 1: each game's own deal key's dealer."""
        return dealers(deal_keys(self.seed, np.arange(first, first + n)), players)

    def pair_rngs(self, deal_id: np.ndarray, mirror: np.ndarray) -> list[np.random.Generator]:
        """A stream per row (deal and seating) for the swaps of its card-value replays."""
        keys = hashed(deal_keys(self.seed, deal_id), PAIRS + np.asarray(mirror, np.int64))
        return [np.random.default_rng(int(k)) for k in keys]

    def decks(self, deal_id: np.ndarray, round_no: np.ndarray | None = None) -> np.ndarray:
        """The deck of each deal (of a whole game's round `round_no`), drawn again from its key."""
        keys = deal_keys(self.seed, deal_id)
        return shuffled(keys if round_no is None else hashed(keys, ROUND + np.asarray(round_no, np.int64)))


def seeding_of(seed: int, version: int = SEEDING, chunk_deals: int = 1, deals: int = 0) -> Seeding | ChunkSeeding:
    """The draws of a run by its seeding `version` (version 1 also needs its chunk size and deals)."""
    if version == SEEDING:
        return Seeding(seed)
    if version == CHUNK_SEEDING:
        return ChunkSeeding(seed, chunk_deals, deals)
    raise ValueError(f"unknown seeding version {version!r}")


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


def chunked_rows(seed: int, deals: int, chunk_deals: int, seatings, version: int = SEEDING):
    """Yield (chunk index, its rows) for `deals` deals cut into chunks, seeded as simulate seeds them."""
    seeding = seeding_of(seed, version, chunk_deals, deals)
    for chunk in range(-(-deals // chunk_deals)):
        n = min(chunk_deals, deals - chunk * chunk_deals)
        yield chunk, seeding.rows(chunk * chunk_deals, n, seatings)
