"""One table of the research adapters' factored encoding (research/encoding.py) on the numba engine, in place.

A table is its round state `st`, its deck (in deal order), a control row `ctl` (the C_* entries below) and a
bundle `buf` = (mv, fam, sc_code, sc_mask, mask, score, hist): the legal moves of the player to move, the first
action (play id) of each, movegen's subset scratch, the legal-action mask (uint8, NUM_ACTIONS wide, padded), the
score rows and the round's plays (mover and move record each).
The legal first actions are the play ids of movegen's moves; a play with several sets of loose cards is chosen
card by card in ascending order (a card may be named when some set of the play has the cards named so far below
it and that card next), DONE when the named cards are a set, and a step with one option is taken for the player:
research/choice.py's rule, here on movegen's card masks. Deterministic; the randomness is the caller's (the deal
comes as picks: the index of each card among the undealt ones, ascending).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.kernels import layout as L
from casino_sim.kernels.apply import _apply
from casino_sim.kernels.bits import ctz
from casino_sim.kernels.movegen import _movegen
from casino_sim.kernels.score import _finish, _score
from casino_sim.kernels.state import _clear, _deal_batch

SLOTS, VALUES = 33, 10  # research/encoding.py's layout of a play id: card * SLOTS + slot
LOOSE_ID = 52 * SLOTS  # LOOSE_ID + c names loose card c
DONE_ID = LOOSE_ID + 52
N_IDS = DONE_ID + 1
MASK_WIDTH = (N_IDS + 7) // 8 * 8  # whole 8-byte words, so a scan reads the mask a word at a time
CHANCE, TERMINAL = -1, -4  # OpenSpiel's player ids
# the control row
C_PLAYER = 0  # the player to move, CHANCE while a card is due, TERMINAL once the round is over
C_FAM = 1  # the play being chosen (its first action), -1 between plays
C_CHOSEN = 2  # the loose cards named so far (card mask)
C_N = 3  # the legal moves in buf's mv, -1 when they do not fit (the caller plays that turn another way)
C_DEALT = 4  # cards of the deck dealt so far
C_DEALT_MASK = 5  # the same as a card mask
C_VOID = 6  # 1 for a finished void round
C_NEED = 7  # after an OVERFLOW: the moves movegen counted, or minus the subset bits it needs
C_SIZE = 8
OK, OVERFLOW, ILLEGAL = 0, 1, -1


@njit(cache=True, inline="always")
def _play_id(kind, card, builds, value):
    """research/encoding.py play_action on a move record's fields."""
    if kind == L.TRAIL:
        slot = 0
    elif kind == L.CAPTURE:
        slot = 2 if builds != 0 else 1
    elif kind == L.BUILD_K:
        slot = 2 + value
    elif kind == L.INCREASE:
        slot = 2 + VALUES + value
    else:
        slot = 2 + 2 * VALUES + value
    return card * SLOTS + slot


@njit(cache=True, inline="always")
def _deal_end(n, batch):
    return 4 * n + 4 + 4 * n * batch


@njit(cache=True)
def _begin(st, rules, ctl, dealer):
    """A fresh round with nothing dealt: the first card is due."""
    _clear(st)
    st[L.DEALER] = dealer
    st[L.TO_MOVE] = (dealer + 1) % rules[L.R_PLAYERS]
    for i in range(C_SIZE):
        ctl[i] = 0
    ctl[C_PLAYER] = CHANCE
    ctl[C_FAM] = -1


@njit(cache=True)
def _turn(st, rules, tbl, ctl, buf):
    """The player to move's legal moves and first actions; OVERFLOW when they do not fit the buffers."""
    mv, fam, sc_code, sc_mask, mask = buf[0], buf[1], buf[2], buf[3], buf[4]
    ctl[C_PLAYER] = st[L.TO_MOVE]
    ctl[C_FAM] = -1
    ctl[C_CHOSEN] = 0
    mask[:] = 0
    n = _movegen(st, rules, tbl, mv, sc_code, sc_mask)
    if n < 0 or n > mv.shape[0]:
        ctl[C_N] = -1
        ctl[C_NEED] = n
        return OVERFLOW
    ctl[C_N] = n
    for r in range(n):
        fam[r] = _play_id(mv[r, 0], mv[r, 1], mv[r, 3], mv[r, 4])
        mask[fam[r]] = 1
    return OK


@njit(cache=True)
def _deal(st, rules, deck, ctl, picks, by_index, tbl, buf):
    """Deal the cards `picks` names (cards, or with by_index their indices among the undealt cards, ascending)
    until the batch is complete; then the player to move's turn. Returns OK or _turn's status."""
    if _dealt(st, rules, deck, ctl, picks, by_index):
        return _turn(st, rules, tbl, ctl, buf)
    return OK


@njit(cache=True)
def _dealt(st, rules, deck, ctl, picks, by_index):
    """_deal without the turn: whether the batch is complete (the batched kernel makes its turn its own way)."""
    n = rules[L.R_PLAYERS]
    for k in range(picks.shape[0]):
        card = picks[k]
        if by_index:
            left = picks[k]
            for c in range(52):
                if (ctl[C_DEALT_MASK] >> c) & 1 == 0:
                    if left == 0:
                        card = c
                        break
                    left -= 1
        deck[ctl[C_DEALT]] = card
        ctl[C_DEALT] += 1
        ctl[C_DEALT_MASK] |= 1 << card
        batch = 0 if ctl[C_DEALT] <= 4 * n + 4 else (ctl[C_DEALT] - 4 * n - 5) // (4 * n) + 1
        if ctl[C_DEALT] == _deal_end(n, batch):
            _deal_batch(st, deck, batch, n)
            return True
    return False


@njit(cache=True)
def _options(ctl, buf, fam_id, chosen):
    """Mark the actions that may follow `chosen` in play fam_id; returns (count, the last option, the row of the
    move when DONE is one)."""
    mv, fam, mask = buf[0], buf[1], buf[4]
    mask[:] = 0
    low = 0
    if chosen != 0:
        top = 63
        while (chosen >> top) & 1 == 0:
            top -= 1
        low = (2 << top) - 1  # the cards at or below the last one named
    count, last, done = 0, -1, -1
    for r in range(ctl[C_N]):
        if fam[r] != fam_id:
            continue
        s = mv[r, 2]
        if s & low != chosen:
            continue
        if s == chosen:
            opt = DONE_ID
            done = r
        else:
            opt = LOOSE_ID + ctz(s & ~low)
        if mask[opt] == 0:
            mask[opt] = 1
            count += 1
            last = opt
    return count, last, done


@njit(cache=True)
def _take(ctl, buf, action):
    """The legal action taken, with every one-option step after it: the row of the move it completes, or -1
    (the player chooses on; the mask holds the options)."""
    if ctl[C_FAM] < 0:
        fam_id, chosen = action, 0
    else:
        fam_id, chosen = ctl[C_FAM], ctl[C_CHOSEN]
        if action == DONE_ID:
            return _options(ctl, buf, fam_id, chosen)[2]
        chosen |= 1 << (action - LOOSE_ID)
    while True:
        count, last, done = _options(ctl, buf, fam_id, chosen)
        if count != 1:
            ctl[C_FAM], ctl[C_CHOSEN] = fam_id, chosen
            return -1
        if last == DONE_ID:
            return done
        chosen |= 1 << (last - LOOSE_ID)


@njit(cache=True)
def _commit(st, rules, ctl, tbl, buf, row):
    """Play the move record `row` and move on: the next player's turn, the next batch's deal, or the round's end
    (the remainder taken and the score rows written)."""
    if _played(st, rules, ctl, buf, row):
        return _turn(st, rules, tbl, ctl, buf)
    return OK


@njit(cache=True)
def _played(st, rules, ctl, buf, row):
    """_commit without the turn: whether the next player's turn is due (the batched kernel makes it its own way)."""
    hist = buf[6]  # the round's plays so far: mover, then the move record (the recall view's)
    hist[st[L.PLY], 0] = st[L.TO_MOVE]
    for f in range(L.MOVE_FIELDS):
        hist[st[L.PLY], 1 + f] = row[f]
    _apply(st, rules, row[0], row[1], row[2], row[3], row[4])
    ctl[C_FAM] = -1
    ctl[C_CHOSEN] = 0
    n = rules[L.R_PLAYERS]
    if st[L.PLY] == L.PLIES:
        buf[4][:] = 0
        ctl[C_PLAYER] = TERMINAL
        ctl[C_VOID] = 0 if _finish(st) else 1
        _score(st, rules, buf[5])
        return False
    if st[L.PLY] % (4 * n) == 0:
        buf[4][:] = 0
        ctl[C_PLAYER] = CHANCE
        return False
    return True


@njit(cache=True)
def _act(st, rules, ctl, tbl, buf, action):
    """The player's action: ILLEGAL when the mask does not hold it, else OK or the next turn's OVERFLOW."""
    if ctl[C_PLAYER] < 0 or ctl[C_N] < 0 or action < 0 or action >= N_IDS or buf[4][action] == 0:
        return ILLEGAL
    r = _take(ctl, buf, action)
    if r < 0:
        return OK
    return _commit(st, rules, ctl, tbl, buf, buf[0][r])


@njit(cache=True)
def _side_points(rules, score, out):
    """Each side's round points from the score rows (a player each, or the two teams' rows)."""
    n = rules[L.R_PLAYERS]
    if rules[L.R_TEAMS] != 0:
        out[0] = score[n, L.S_TOTAL]
        out[1] = score[n + 1, L.S_TOTAL]
    else:
        for p in range(n):
            out[p] = score[p, L.S_TOTAL]


def new_buffers(cap: int = 4096, bits: int = 12) -> tuple:
    """A table's buf: room for `cap` legal moves and 2**bits subsets (a turn past them is an OVERFLOW)."""
    return (
        np.zeros((cap, L.MOVE_FIELDS), np.int64),
        np.zeros(cap, np.int64),
        np.zeros(1 << bits, np.int64),
        np.zeros(1 << bits, np.int64),
        np.zeros(MASK_WIDTH, np.uint8),
        np.zeros((L.SCORE_ROWS, L.SCORE_FIELDS), np.int64),
        np.zeros((L.PLIES, 1 + L.MOVE_FIELDS), np.int64),
    )
