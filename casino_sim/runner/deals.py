"""The rows a chunk plays: decks, dealers, who sits where and per-round seeds, from the chunk seed.

Every engine plays the same rows, so the reference and numba engines can be
compared row by row, and experiments may edit decks (move the 10♦) before play.
A deal is played once in each of its seatings (`rotations`): the policies turned round the table, so that each
sits in every place, with the same deck, dealer and policy seed (common random numbers). With two players the
seatings of A against B are A at player 0, then (mirrored) A at player 1.
"""

from __future__ import annotations

import numpy as np

from casino_sim.core.rows import DealRows
from casino_sim.runner.seeding import chunk_seed


def draw_decks(rng: np.random.Generator, n_deals: int) -> np.ndarray:
    """(n_deals, 52) shuffled decks, the first draw of a chunk's stream (chunk_rows): what re-deals a run's rounds."""
    return rng.permuted(np.tile(np.arange(52, dtype=np.int8), (n_deals, 1)), axis=1)


def chunk_rows(chunk_seed: int, first_deal: int, n_deals: int, seatings) -> DealRows:
    """The rows of one chunk, a pure function of its seed, its size and the seatings.

    `seatings` (k, players) (`rotations`): each deal is played k times, row m with seating m (`mirror` is m), the
    dealer one of the players.
    """
    seatings = np.asarray(seatings, np.int8)
    rng = np.random.default_rng(chunk_seed)
    decks = draw_decks(rng, n_deals)
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
