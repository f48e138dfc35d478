"""The chunk seeding of earlier versions (seeding version 1: a manifest without `seeding`), kept so that their runs
resume and re-deal as they were seeded; new runs seed per deal (runner/seeding.py).

Chunk c drew from the c-th SeedSequence child of the run seed: its decks (one `permuted` over the chunk), then its
dealers and policy seeds, so a deal's draws depended on the chunk size. A whole game's round k drew from the child
at spawn key k of its chunk's seed (`wave_seed`), as the rows of two players' deals.
"""

from __future__ import annotations

import numpy as np

from casino_sim.core.rows import DealRows
from casino_sim.reference.game import MAX_ROUNDS
from casino_sim.runner.seeding import stream_seed

WAVE_DRAWS = np.array([[0, 1]], np.int8)  # a wave's draws: the rows of two players' deals, one seating


def chunk_seed(seed: int, chunk: int) -> int:
    """The 64-bit seed of chunk `chunk`: the chunk-th child that SeedSequence(seed).spawn() would give."""
    return stream_seed(seed, chunk)


def wave_seed(chunk_seed: int, wave: int) -> int:
    """The seed of wave `wave`'s rows of a chunk seeded `chunk_seed` (wave 0 also drew the first dealers)."""
    return stream_seed(chunk_seed, wave)


def chunk_rows(seed: int, first_deal: int, n_deals: int, seatings) -> DealRows:
    """The rows of one chunk seeded `seed` (chunk_seed), each deal in every seating (runner/deals.py rotations)."""
    seatings = np.asarray(seatings, np.int8)
    rng = np.random.default_rng(seed)
    decks = rng.permuted(np.tile(np.arange(52, dtype=np.int8), (n_deals, 1)), axis=1)
    dealer = rng.integers(0, seatings.shape[1], size=n_deals, dtype=np.int8)
    seeds = rng.integers(0, 2**63, size=n_deals, dtype=np.int64).astype(np.uint64)
    deal_id = np.arange(first_deal, first_deal + n_deals, dtype=np.int64)
    once = DealRows(deal_id, np.zeros(n_deals, np.int8), decks, dealer, seeds, np.tile(seatings[0], (n_deals, 1)))
    return once.seated(seatings)


class ChunkSeeding:
    """The draws of a version-1 run of `deals` deals (or games) cut into chunks of `chunk_deals` (runner/deals.py
    Seeding's methods); a chunk's first deal is a multiple of the chunk size."""

    def __init__(self, seed: int, chunk_deals: int, deals: int):
        self.seed, self.size, self.deals = seed, chunk_deals, deals

    def _chunk(self, first: int) -> int:
        return chunk_seed(self.seed, first // self.size)

    def rows(self, first: int, n: int, seatings) -> DealRows:
        return chunk_rows(self._chunk(first), first, n, seatings)

    def round_draws(self, first: int, n: int, wave: int) -> tuple[np.ndarray, np.ndarray]:
        rows = chunk_rows(wave_seed(self._chunk(first), wave), first, n, WAVE_DRAWS)
        return rows.decks, rows.seeds

    def first_dealers(self, first: int, n: int, players: int) -> np.ndarray:
        """Two players took wave 0's rows' own dealer; three or four drew from a stream of their own."""
        if players == 2:
            return chunk_rows(wave_seed(self._chunk(first), 0), first, n, WAVE_DRAWS).dealer
        return np.random.default_rng(wave_seed(self._chunk(first), MAX_ROUNDS)).integers(0, players, n)

    def pair_rngs(self, deal_id: np.ndarray, mirror: np.ndarray) -> list[np.random.Generator]:
        """One stream for the chunk's replays (they start at its first deal), drawn row after row."""
        rng = np.random.default_rng(self._chunk(int(deal_id[0])) ^ 0x5EED)
        return [rng] * len(deal_id)

    def decks(self, deal_id: np.ndarray, round_no: np.ndarray | None = None) -> np.ndarray:
        """The deck of each deal (of a whole game's round `round_no`): its chunk's (and wave's) draws again."""
        wave = np.zeros(len(deal_id), np.int64) if round_no is None else np.asarray(round_no, np.int64)
        out = np.empty((len(deal_id), 52), np.int8)
        chunk = deal_id // self.size
        for c, w in {(int(c), int(w)) for c, w in zip(chunk, wave)}:
            rows = np.flatnonzero((chunk == c) & (wave == w))
            first, n = c * self.size, min(self.size, self.deals - c * self.size)
            draws = self.round_draws(first, n, w)[0] if round_no is not None else self.rows(first, n, WAVE_DRAWS).decks
            out[rows] = draws[deal_id[rows] - first]
        return out
