"""One SeedSequence child per chunk, addressable by index, so any backend gets the same seeds."""

from __future__ import annotations

import numpy as np


def stream_seed(seed: int, *key: int) -> int:
    """The 64-bit seed of the SeedSequence child at spawn key `key`: streams of one run seed that never overlap."""
    child = np.random.SeedSequence(seed, spawn_key=tuple(key))
    lo, hi = child.generate_state(2, np.uint32)
    return int(lo) | (int(hi) << 32)


def chunk_seed(seed: int, chunk: int) -> int:
    """The 64-bit seed of chunk `chunk`: the chunk-th child that SeedSequence(seed).spawn() would give."""
    return stream_seed(seed, chunk)


def chunk_seeds(seed: int, chunks) -> np.ndarray:
    """Seeds of the given chunk indices as uint64."""
    return np.array([chunk_seed(seed, int(c)) for c in chunks], dtype=np.uint64)
