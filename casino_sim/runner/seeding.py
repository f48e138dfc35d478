"""Per-deal seeding (seeding version 2): every deal draws from a key of its own, a hash of the run's seed and the
deal's index, so no chunk size, thread count or backend can change a number (docs/reports.md, "Seeding").

A deal's key is the SplitMix64 output of (run key, deal index); its draws are the outputs of (deal key, counter):
counters 0..50 shuffle its deck (Fisher-Yates), 51 picks its dealer, 52 its policy seed; a whole game's round k
draws from the sub-key at counter ROUND + k, and a card-value replay's swaps from PAIRS + its seating. All of it is
vectorised over a chunk's deals. Runs of earlier versions (no `seeding` in their manifest) keep the chunk seeding
of runner/chunk_seeding.py.
"""

from __future__ import annotations

import numpy as np

SEEDING = 2  # the version new runs record in their manifest's config
CHUNK_SEEDING = 1  # a manifest without `seeding`: the chunk seeding of earlier versions (runner/chunk_seeding.py)
DEALER, POLICY_SEED, ROUND, PAIRS = 51, 52, 64, 1 << 20  # counters of a deal key (see above)

_GAMMA = np.uint64(0x9E3779B97F4A7C15)  # SplitMix64's increment: the golden ratio's 64 bits
_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_S = (np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11), np.uint64(53))


def seeding_in(config: dict) -> int:
    """The seeding version a run's manifest config records: CHUNK_SEEDING when it has none (an earlier version's)."""
    return int(config.get("seeding", CHUNK_SEEDING))


def stream_seed(seed: int, *key: int) -> int:
    """The 64-bit seed of the SeedSequence child at spawn key `key`: streams of one run seed that never overlap."""
    child = np.random.SeedSequence(seed, spawn_key=tuple(key))
    lo, hi = child.generate_state(2, np.uint32)
    return int(lo) | (int(hi) << 32)


def hashed(key, counter) -> np.ndarray:
    """SplitMix64's output for state `key` at step `counter` (uint64 arrays, broadcast): a counter-based draw, the
    same whatever else is drawn. The products wrap round 2**64, as the hash wants; done in place."""
    with np.errstate(over="ignore"):  # numpy warns of the wrap on 0-d arrays only
        return _scattered(np.asarray(key, np.uint64) + (np.asarray(counter, np.uint64) + np.uint64(1)) * _GAMMA)


def _scattered(z: np.ndarray) -> np.ndarray:
    """SplitMix64's output function, in place on `z`."""
    t = np.empty_like(z)
    np.right_shift(z, _S[0], out=t)
    z ^= t
    z *= _M1
    np.right_shift(z, _S[1], out=t)
    z ^= t
    z *= _M2
    np.right_shift(z, _S[2], out=t)
    z ^= t
    return z


def deal_keys(seed: int, deal_id) -> np.ndarray:
    """The key of each deal `deal_id` of a run seeded `seed` (the run key: the seed's SeedSequence state)."""
    return hashed(np.uint64(stream_seed(seed)), np.asarray(deal_id, np.int64).astype(np.uint64))


def below(draws: np.ndarray, n) -> np.ndarray:
    """Integers in [0, n) from uint64 `draws`: the top 53 bits times n, shifted down (a bias under 2**-46)."""
    return ((draws >> _S[3]) * np.asarray(n, np.uint64)) >> _S[4]


def shuffled(keys: np.ndarray) -> np.ndarray:
    """(len(keys), 52) int8 decks, each a Fisher-Yates shuffle from its key's counters 0..50.

    Held card-major (52, n), so that position p of every deck is one contiguous row and the swap with the drawn
    position is one gather and one scatter over the flat array.
    """
    n = len(keys)
    top = np.arange(51, 0, -1)  # step k swaps position 51 - k with one of 0..51 - k
    picks = below(hashed(keys[None, :], np.arange(51)[:, None]), (top + 1)[:, None]).astype(np.intp)
    deck = np.repeat(np.arange(52, dtype=np.int8)[:, None], n, axis=1)
    flat, cols = deck.reshape(-1), np.arange(n)
    for k, p in enumerate(top):
        at = picks[k] * n + cols
        held = deck[p].copy()
        deck[p] = flat[at]
        flat[at] = held
    return np.ascontiguousarray(deck.T)


def policy_seeds(keys: np.ndarray) -> np.ndarray:
    """Each key's policy seed (uint64 below 2**63, as the engines take them)."""
    return hashed(keys, POLICY_SEED) >> np.uint64(1)


def dealers(keys: np.ndarray, players: int) -> np.ndarray:
    """Each key's dealer among `players` (int8)."""
    return below(hashed(keys, DEALER), players).astype(np.int8)
