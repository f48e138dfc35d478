"""A round's state as one fixed-size int64 array (layout.py names its entries): a fresh round and the deal."""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.engine.layout import (
    BATCH_START,
    DEALER,
    HAND,
    LAST_CAPTURER,
    LOOSE,
    OWNER,
    STATE_SIZE,
    TABLE_START,
    TO_MOVE,
)


def new_state() -> np.ndarray:
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    _clear(st)
    return st


@njit(cache=True)
def _clear(st):
    for i in range(STATE_SIZE):
        st[i] = 0
    for v in range(1, 11):
        st[OWNER + v] = -1
    st[LAST_CAPTURER] = -1


@njit(cache=True)
def _deal_batch(st, deck, batch):
    """Deal batch 0..5: non-dealer deck[s:s+4], dealer deck[s+4:s+8]; batch 0 also the table deck[8:12]."""
    dealer = st[DEALER]
    start = BATCH_START[batch]
    h_first = 0
    h_second = 0
    for i in range(4):
        h_first |= 1 << deck[start + i]
        h_second |= 1 << deck[start + 4 + i]
    st[HAND + 1 - dealer] = h_first
    st[HAND + dealer] = h_second
    if batch == 0:
        t = 0
        for i in range(TABLE_START, BATCH_START[1]):
            t |= 1 << deck[i]
        st[LOOSE] = t


@njit(cache=True)
def _start_round(st, deck, dealer):
    """A fresh round with batch 0 dealt; the non-dealer moves first."""
    _clear(st)
    st[DEALER] = dealer
    st[TO_MOVE] = 1 - dealer
    _deal_batch(st, deck, 0)
