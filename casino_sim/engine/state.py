"""The state of a round as one fixed-size int64 array (one row of a big array if need be).

Layout (indices are module constants, so kernels index with literals):
  HAND + p      hand of player p (card mask)
  LOOSE         loose cards on the table (card mask, figures included)
  CAPTURED + p  capture pile of player p (card mask)
  BUILD + v     cards of the build of value v (v = 1..10; 0 = no build)
  OWNER + v     owner of the build of value v (-1 = no build)
  SWEEPS + p    sweep count of player p
  LAST_CAPTURER -1 for nobody yet
  MUST_ACT + p  italian next-turn obligation (0/1)
  TO_MOVE, PLY  player to move; plays made so far in the round
  DEALER        dealer of the round
Copying a state is copying 36 int64s.

Rules arrive as `RuleSet.as_array()`; the R_* constants name its entries.
"""

from __future__ import annotations

import numpy as np
from numba import njit

HAND = 0
LOOSE = 2
CAPTURED = 3
BUILD = 4  # BUILD + v, v in 1..10 -> 5..14
OWNER = 14  # OWNER + v -> 15..24
SWEEPS = 25
LAST_CAPTURER = 27
MUST_ACT = 28
TO_MOVE = 30
PLY = 31
DEALER = 32
STATE_SIZE = 36

# RuleSet.as_array() order (rules.py, fields after `name`)
R_SWEEP_POINTS = 0
R_MOST_CARDS_POINTS = 1
R_MOST_CARDS_AT_LEAST = 2
R_MOST_SPADES_POINTS = 3
R_MOST_SPADES_AT_LEAST = 4
R_FIGURE_CAPTURE = 5
R_NO_TRAIL_WHILE_OWNER = 6
R_NEXT_TURN_OBLIGATION = 7
R_TARGET = 8
R_ROUND_WIN_POINTS = 9
R_SINGLE_ROUND = 10
N_RULES = 11

HAND_SIZE = 4
BATCHES = 6
PLIES = 48


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
    start = 0 if batch == 0 else 12 + (batch - 1) * 8
    h_first = 0
    h_second = 0
    for i in range(4):
        h_first |= 1 << deck[start + i]
        h_second |= 1 << deck[start + 4 + i]
    st[HAND + 1 - dealer] = h_first
    st[HAND + dealer] = h_second
    if batch == 0:
        t = 0
        for i in range(8, 12):
            t |= 1 << deck[i]
        st[LOOSE] = t


@njit(cache=True)
def _start_round(st, deck, dealer):
    """A fresh round with batch 0 dealt; the non-dealer moves first."""
    _clear(st)
    st[DEALER] = dealer
    st[TO_MOVE] = 1 - dealer
    _deal_batch(st, deck, 0)
