"""A round's state as one fixed-size int64 array (layout.py names its entries): a fresh round and the deal."""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.engine import layout as L


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


@njit("void(int64[::1], int64[::1], int64)", cache=True)  # one version: batch 0 is a constant (movegen.py)
def _deal_batch(st, deck, batch):
    """Deal batch 0..5: non-dealer deck[s:s+4], dealer deck[s+4:s+8]; batch 0 also the table deck[8:12]."""
    dealer = st[L.DEALER]
    start = L.BATCH_START[batch]
    h_first = 0
    h_second = 0
    for i in range(4):
        h_first |= 1 << deck[start + i]
        h_second |= 1 << deck[start + 4 + i]
    st[L.HAND + 1 - dealer] = h_first
    st[L.HAND + dealer] = h_second
    if batch == 0:
        t = 0
        for i in range(L.TABLE_START, L.BATCH_START[1]):
            t |= 1 << deck[i]
        st[L.LOOSE] = t


@njit(cache=True)
def _start_round(st, deck, dealer):
    """A fresh round with batch 0 dealt; the non-dealer moves first."""
    _clear(st)
    st[L.DEALER] = dealer
    st[L.TO_MOVE] = 1 - dealer
    _deal_batch(st, deck, 0)
