"""The exact value of each move in the last batch, when every card is known: minimax with alpha-beta.

With the stock empty at most 8 plays remain; both players' hands are known
(the opponent holds exactly the cards the mover has not seen), so the round's
outcome under best play by both sides is a finite game-tree search.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.kernels import layout as L
from casino_sim.kernels.apply import _apply
from casino_sim.kernels.bits import ACE_MASK, BIG_CASINO, LITTLE_CASINO, SPADE_MASK, popcount
from casino_sim.kernels.movegen import _movegen

DEPTH = 10  # state rows: the root and up to 8 plays (one to spare)
STACK_ROWS = 5  # per depth: moves, next move, best, alpha, beta
INF = 1_000_000


@njit(cache=True)
def _copy(src, dst):
    for j in range(L.STATE_SIZE):
        dst[j] = src[j]


@njit(cache=True, inline="always")
def _pile_points(pile, sweeps, rules):
    """A two-player round's points of one player's final pile and sweeps: score.py _score's total, summed at once."""
    points = popcount(pile & ACE_MASK) + 2 * ((pile >> BIG_CASINO) & 1) + ((pile >> LITTLE_CASINO) & 1)
    if popcount(pile) >= rules[L.R_MOST_CARDS_AT_LEAST]:
        points += rules[L.R_MOST_CARDS_POINTS]
    if popcount(pile & SPADE_MASK) >= rules[L.R_MOST_SPADES_AT_LEAST]:
        points += rules[L.R_MOST_SPADES_POINTS]
    return points + sweeps * rules[L.R_SWEEP_POINTS]


@njit(cache=True, inline="always")
def _final_margin(st, rules):
    """The player to move's final point difference in a two-player round whose plays are over: what is left on the
    table goes to the last capturer (_finish), then _score's totals; read from st without changing it (a leaf of
    the search, where copying the state and writing the score rows cost more than this sum). A void round: 0."""
    last = st[L.LAST_CAPTURER]
    if last < 0:
        return 0
    rest = st[L.LOOSE]
    for v in range(1, 11):
        rest |= st[L.BUILD + v]
    p = st[L.TO_MOVE]
    mine = st[L.CAPTURED + p] | (rest if last == p else 0)
    theirs = st[L.CAPTURED + 1 - p] | (rest if last != p else 0)
    return _pile_points(mine, st[L.SWEEPS + p], rules) - _pile_points(theirs, st[L.SWEEPS + 1 - p], rules)


@njit(cache=True)
def _push_next(states, e, rules, mvs, n_at, next_k, alpha, beta):
    """Play node e's next untried move into states[e + 1] (captures first); False when none is left."""
    n = n_at[e]
    mv = mvs[e]
    k = next_k[e]
    while k < 2 * n:
        first_pass = k < n
        i = k if first_pass else k - n
        k += 1
        if (mv[i, 0] == L.CAPTURE) == first_pass:
            next_k[e] = k
            _copy(states[e], states[e + 1])
            _apply(states[e + 1], rules, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4])
            alpha[e + 1] = -beta[e]
            beta[e + 1] = -alpha[e]
            return True
    next_k[e] = k
    return False


@njit(cache=True)
def _negamax(states, rules, tbl, mvs, sc_code, sc_mask, status, stack, ceiling):
    """The round's final point difference for the player to move in states[0], both sides playing best; a value
    of `ceiling` or more only as a bound (some value >= ceiling: INF asks for the value whatever it is).

    Negamax (the game is zero-sum in the point difference) with alpha-beta
    cuts; captures are searched first because they settle the value soonest.
    The search keeps its own stack (column d of each row is depth d; the rows:
    moves, next move, best, alpha, beta): numba cannot cache recursive
    functions (numba issue 6061). On a buffer or rule failure it sets
    status[0] and returns 0.
    """
    n_at, next_k, best, alpha, beta = stack[0], stack[1], stack[2], stack[3], stack[4]
    d = 0
    alpha[0] = -INF
    beta[0] = ceiling
    descending = True
    value = 0
    while True:
        if descending:
            st = states[d]
            if st[L.HAND] == 0 and st[L.HAND + 1] == 0:  # the round is over: score it
                value = _final_margin(st, rules)
                descending = False
                continue
            n = _movegen(st, rules, tbl, mvs[d], sc_code, sc_mask)
            if n <= 0 or n > mvs.shape[1]:
                status[0] = L.NEED_SCRATCH if n < 0 else L.NO_MOVES if n == 0 else L.NEED_MOVES
                return 0
            n_at[d] = n
            next_k[d] = 0
            best[d] = -INF
            e = d
        else:  # node d is worth `value` to its mover: fold it into its parent
            if d == 0:
                return value
            e = d - 1
            v = -value
            if v > best[e]:
                best[e] = v
                if v > alpha[e]:
                    alpha[e] = v
            if alpha[e] >= beta[e]:  # cut: the parent's mover will not allow this line
                value = best[e]
                d = e
                continue
        if _push_next(states, e, rules, mvs, n_at, next_k, alpha, beta):
            d = e + 1
            descending = True
        else:
            value = best[e]
            d = e
            descending = False


@njit(cache=True)
def _exact_values(st, rules, tbl, n, mv, sc_code, sc_mask, search, out, cut):
    """out[i]: the mover's exact final point difference after move i of buf.mv, then best play by both sides.

    With `cut` only the best moves' values are exact: any other move gets a bound below the best of the moves
    tried before it (alpha-beta at the root, captures tried first), which finds the best moves in a fraction of
    the work (the searcher's). Without, every value is exact (the analyser's, the last-batch judge's).
    mv holds the n moves; sc_code and sc_mask are the Scratch's (passed alone: a call handing over the whole
    Scratch pays a reference count per array). search: (states (DEPTH, STATE_SIZE), mvs (DEPTH, cap, MOVE_FIELDS),
    stack (STACK_ROWS, DEPTH), status (1,)), the search's own (_search_space).
    """
    states, mvs, stack, status = search
    best = -INF
    for k in range(2 * n):  # captures first, as in the search: a high best early cuts the most
        i = k if k < n else k - n
        if (mv[i, 0] == L.CAPTURE) != (k < n):
            continue
        _copy(st, states[0])
        _apply(states[0], rules, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4])
        ceiling = 1 - best if cut and best > -INF else INF  # the opponent's: this move's value >= best, or a bound
        out[i] = -_negamax(states, rules, tbl, mvs, sc_code, sc_mask, status, stack, ceiling)
        if status[0] != 0:
            return status[0]
        best = max(best, out[i])
    return 0


@njit(cache=True)
def _search_space(cap):
    """_exact_values' search arrays for move buffers of cap rows: (states, mvs, stack, status)."""
    return (
        np.empty((DEPTH, L.STATE_SIZE), np.int64),
        np.empty((DEPTH, cap, L.MOVE_FIELDS), np.int64),
        np.empty((STACK_ROWS, DEPTH), np.int64),
        np.zeros(1, np.int64),
    )
