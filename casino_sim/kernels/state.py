"""A round's state as one fixed-size int64 array (layout.py names its entries): a fresh round and the deal."""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.kernels import layout as L


def new_state() -> np.ndarray:
    st = np.zeros(L.STATE_SIZE, dtype=np.int64)
    _clear(st)
    return st


@njit(cache=True)
def _clear(st):
    for i in range(L.STATE_SIZE):
        st[i] = 0
    for v in range(1, 11):
        st[L.OWNER + v] = -1
    st[L.LAST_CAPTURER] = -1


@njit(cache=True, inline="always")
def _batch_start(n, batch):
    """Deck position of batch `batch`'s first card with n players: batch 0 is 4n + 4 cards, the others 4n."""
    return 0 if batch == 0 else 4 * n * batch + L.HAND_SIZE


@njit(cache=True, inline="always")
def _batch_of(n, i):
    """The batch that deals deck position i with n players (the inverse of _batch_start)."""
    return 0 if i < L.HAND_SIZE * (n + 1) else (i - L.HAND_SIZE) // (L.HAND_SIZE * n)


@njit("void(int64[::1], int64[::1], int64, int64)", cache=True, _nrt=False)  # one version: batch 0 is a literal
def _deal_batch(st, deck, batch, n):
    """Deal batch b to n players: 4 cards each in turn order from the dealer's left (the dealer's 4 last), then
    in batch 0 four face up to the table. Two players: the non-dealer deck[s:s+4], the dealer deck[s+4:s+8]."""
    dealer = st[L.DEALER]
    start = _batch_start(n, batch)
    for k in range(n):
        p = dealer + 1 + k
        if p >= n:
            p -= n
        h = 0
        for i in range(start + 4 * k, start + 4 * k + 4):
            h |= 1 << deck[i]
        st[L.HAND + p] = h
    if batch == 0:
        t = 0
        for i in range(4 * n, 4 * n + 4):
            t |= 1 << deck[i]
        st[L.LOOSE] = t


@njit(cache=True)
def _start_round(st, rules, deck, dealer):
    """A fresh round with batch 0 dealt; the player after the dealer moves first."""
    _clear(st)
    n = rules[L.R_PLAYERS]
    st[L.DEALER] = dealer
    st[L.TO_MOVE] = (dealer + 1) % n
    _deal_batch(st, deck, 0, n)
