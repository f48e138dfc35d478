"""The exact value of each move in the last batch, when every card is known: minimax with alpha-beta.

With the stock empty at most 8 plays remain; both players' hands are known
(the opponent holds exactly the cards the mover has not seen), so the round's
outcome under best play by both sides is a finite game-tree search.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from casino_sim.kernels import layout as L
from casino_sim.kernels.apply import _apply
from casino_sim.kernels.bits import popcount
from casino_sim.kernels.lastplay import INF, NO_VALUE, _copy, _final_margin, _last_card, _last_play
from casino_sim.kernels.movegen import _movegen

DEPTH = 11  # state rows: the root and up to 8 plays (one to spare), then LEADER
LEADER = DEPTH - 1  # a row the search never reaches: the leader's (search.py _exact_leader) root and move order
STACK_ROWS = 8  # per depth: moves, next move, best, alpha, beta, the window searched (alpha, beta), table slot
# the stack's rows, read as stack[row, depth]: a row taken as an array of its own is a view, and each view costs
# the search call a pair of atomic reference counts (measured: a few hundred ns a call, more than a small search)
N_AT, NEXT_K, BEST, ALPHA, BETA, ALPHA0, BETA0, SLOT = range(STACK_ROWS)
# The transposition table: a position's value as bounds (lo, hi), under a key that holds the whole position (_key),
# so a hit is that very position, never a look-alike. A value depends only on the position and the rules, so entries
# stay true from play to play of a round (the next play's search finds most of its tree there) and from round to
# round; a clash of slots only replaces.
TT_BITS = 10
KEY_WORDS = 16  # hands, loose cards, piles, one word of small fields, the builds (_key)
TT_CARDS = 1


@njit(cache=True, _nrt=False)
def _push_next(states, e, rules, mvs, stack):
    """Play node e's next untried move into states[e + 1] (captures first); False when none is left."""
    n = stack[N_AT, e]
    k = stack[NEXT_K, e]
    while k < 2 * n:
        first_pass = k < n
        i = k if first_pass else k - n
        k += 1
        if (mvs[e, i, 0] == L.CAPTURE) == first_pass:
            stack[NEXT_K, e] = k
            _copy(states[e], states[e + 1])
            _apply(states[e + 1], rules, mvs[e, i, 0], mvs[e, i, 1], mvs[e, i, 2], mvs[e, i, 3], mvs[e, i, 4])
            stack[ALPHA, e + 1] = -stack[BETA, e]
            stack[BETA, e + 1] = -stack[ALPHA, e]
            return True
    stack[NEXT_K, e] = k
    return False


@njit(cache=True, inline="always")
def _key(st, key):
    """Write a two-player position's key into key and return its table row: both hands, the loose cards, both
    piles, one word of the small fields (each build's owner, the last capturer, the mover, the obligations, the
    sweeps), then the builds; the row is a multiplicative hash of the first six words."""
    key[0], key[1], key[2] = st[L.HAND], st[L.HAND + 1], st[L.LOOSE]
    key[3], key[4] = st[L.CAPTURED], st[L.CAPTURED + 1]
    small = st[L.LAST_CAPTURER] + 1 | st[L.TO_MOVE] << 2 | st[L.MUST_ACT] << 3 | st[L.MUST_ACT + 1] << 4
    small |= st[L.SWEEPS] << 5 | st[L.SWEEPS + 1] << 12  # sweeps: at most 48 each, 7 bits
    for v in range(1, 11):
        small |= (st[L.OWNER + v] + 1) << (17 + 2 * v)
        key[5 + v] = st[L.BUILD + v]
    key[5] = small
    h = np.uint64(0)
    for j in range(6):
        h = (h ^ np.uint64(key[j])) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64(h >> np.uint64(64 - TT_BITS))


@njit(cache=True, inline="always")
def _holds(keys, slot, key):
    """Whether the table's row `slot` is this very position."""
    for j in range(KEY_WORDS):
        if keys[slot, j] != key[j]:
            return False
    return True


@njit(cache=True, _nrt=False)
def _negamax(search, rules, tbl, sc_code, sc_mask, ceiling):
    """The round's final point difference for the player to move in states[0], both sides playing best; a value
    of `ceiling` or more only as a bound (some value >= ceiling: INF asks for the value whatever it is).

    Negamax (the game is zero-sum in the point difference) with alpha-beta
    cuts and a transposition table (bounds kept per position); captures are
    searched first because they settle the value soonest. The search keeps
    its own stack (column d of each row is depth d): numba cannot cache
    recursive functions (numba issue 6061). On a buffer or rule failure it
    sets status[0] and returns 0.
    """
    states, mvs, stack, status, keys, bounds, key_at = search
    d = 0
    stack[ALPHA, 0] = -INF
    stack[BETA, 0] = ceiling
    descending = True
    value = 0
    while True:
        if descending:
            st = states[d]
            if st[L.HAND] == 0 and st[L.HAND + 1] == 0:  # the round is over: score it
                value = _final_margin(st, rules)
                descending = False
                continue
            cards = popcount(st[L.HAND] | st[L.HAND + 1])
            slot = _key(st, key_at[d]) if cards > TT_CARDS else -1
            stack[SLOT, d] = slot
            if slot >= 0 and _holds(keys, slot, key_at[d]):  # bounds found before: a value, a cut or a narrower window
                lo, hi = bounds[slot, 0], bounds[slot, 1]
                if lo == hi or lo >= stack[BETA, d] or hi <= stack[ALPHA, d]:
                    value = lo if lo == hi or lo >= stack[BETA, d] else hi
                    descending = False
                    continue
                stack[ALPHA, d] = max(stack[ALPHA, d], lo)
                stack[BETA, d] = min(stack[BETA, d], hi)
            stack[ALPHA0, d] = stack[ALPHA, d]
            stack[BETA0, d] = stack[BETA, d]
            if cards == 1:  # the last play: its value read from the position (_last_card) ...
                value = _last_card(st, rules, tbl)
                if value != NO_VALUE:
                    descending = False
                    continue
            n = _movegen(st, rules, tbl, mvs[d], sc_code, sc_mask)
            if n <= 0 or n > mvs.shape[1]:
                status[0] = L.NEED_SCRATCH if n < 0 else L.NO_MOVES if n == 0 else L.NEED_MOVES
                return 0
            if cards == 1:  # ... or, when that finds no play, its moves say why (a status) or are scored
                value = _last_play(st, rules, mvs[d], n, states[d + 1])
                descending = False
                continue
            stack[N_AT, d] = n
            stack[NEXT_K, d] = 0
            stack[BEST, d] = -INF
            e = d
        else:  # node d is worth `value` to its mover: fold it into its parent
            if d == 0:
                return value
            e = d - 1
            v = -value
            if v > stack[BEST, e]:
                stack[BEST, e] = v
                if v > stack[ALPHA, e]:
                    stack[ALPHA, e] = v
        # a cut (alpha >= beta: the parent's mover will not allow this line) or no move left: node e is done
        if stack[ALPHA, e] < stack[BETA, e] and _push_next(states, e, rules, mvs, stack):
            d = e + 1
            descending = True
        else:
            value = _keep(keys, bounds, stack[SLOT, e], key_at[e], stack[BEST, e], stack[ALPHA0, e], stack[BETA0, e])
            d = e
            descending = False


@njit(cache=True, inline="always")
def _keep(keys, bounds, slot, key, value, alpha, beta):
    """Record what a search of window (alpha, beta) found of the position `key` (fail-soft: at most alpha an upper
    bound, at least beta a lower one, else exact), narrowing the bounds already kept for it; returns value."""
    if slot < 0:
        return value
    lo, hi = (value, INF) if value >= beta else (-INF, value) if value <= alpha else (value, value)
    if _holds(keys, slot, key):
        lo, hi = max(lo, bounds[slot, 0]), min(hi, bounds[slot, 1])
    else:
        for j in range(KEY_WORDS):
            keys[slot, j] = key[j]
    bounds[slot, 0] = lo
    bounds[slot, 1] = hi
    return value


@njit(cache=True, _nrt=False)
def _move_value(st, rules, tbl, mv, i, sc_code, sc_mask, search, ceiling):
    """The mover's final point difference after move i of mv, then best play by both sides; below 1 - ceiling
    only as a bound (the opponent's value is searched with `ceiling`: _negamax). A failure sets search[3][0]."""
    root = search[0][0]
    _copy(st, root)
    _apply(root, rules, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4])
    cards = popcount(root[L.HAND] | root[L.HAND + 1])
    if cards <= 1:  # the last play or none: read here, without the search's call (~0.1 µs, more than the work)
        value = _final_margin(root, rules) if cards == 0 else _last_card(root, rules, tbl)
        if value != NO_VALUE:
            return -value
    return -_negamax(search, rules, tbl, sc_code, sc_mask, ceiling)


@njit(cache=True)
def _exact_values(st, rules, tbl, n, mv, sc_code, sc_mask, search, out, cut):
    """out[i]: the mover's exact final point difference after move i of buf.mv, then best play by both sides.

    With `cut` only the best moves' values are exact: any other move gets a bound below the best of the moves
    tried before it (alpha-beta at the root, captures tried first), which finds the best moves in a fraction of
    the work (the searcher's). Without, every value is exact (the analyser's, the last-batch judge's).
    mv holds the n moves; sc_code and sc_mask are the Scratch's (passed alone: a call handing over the whole
    Scratch pays a reference count per array). search: the search's own arrays (_search_space).
    """
    status = search[3]
    best = -INF
    for k in range(2 * n):  # captures first, as in the search: a high best early cuts the most
        i = k if k < n else k - n
        if (mv[i, 0] == L.CAPTURE) != (k < n):
            continue
        ceiling = 1 - best if cut and best > -INF else INF  # the opponent's: this move's value >= best, or a bound
        out[i] = _move_value(st, rules, tbl, mv, i, sc_code, sc_mask, search, ceiling)
        if status[0] != 0:
            return status[0]
        best = max(best, out[i])
    return 0


@njit(cache=True)
def _search_space(cap):
    """_exact_values' search arrays for move buffers of cap rows: (states, mvs, stack, status, the transposition
    table's keys and bounds); keep one for every search of a round, so that each reuses its predecessors' table."""
    keys = np.empty((1 << TT_BITS, KEY_WORDS), np.int64)
    keys[:, 0] = -1  # no position: every row empty (a hand is never every card)
    return (
        np.empty((DEPTH, L.STATE_SIZE), np.int64),
        np.empty((DEPTH, cap, L.MOVE_FIELDS), np.int64),
        np.empty((STACK_ROWS, DEPTH), np.int64),
        np.zeros(1, np.int64),
        keys,
        np.empty((1 << TT_BITS, 2), np.int64),
        np.empty((DEPTH, KEY_WORDS), np.int64),
    )


def _search_space_for(search, cap):
    """A round kernel's search arrays: _search_space(cap) for a variant with searching seats (search: search.py's
    search_switch, True), None for one without (None), decided when numba types the call (the overload below)."""
    return None if search is None else _search_space(cap)


_search_space_for.search_kernels = (_search_space,)  # what it compiles in a searching variant (compiled.py counts)


@overload(_search_space_for)
def _search_space_for_kernel(search, cap):
    """Inside a kernel, by the switch's type: an `is None` test on a True would not be pruned, and an optional
    tuple cannot be indexed."""
    if isinstance(search, types.NoneType):
        return lambda search, cap: None
    return lambda search, cap: _search_space(cap)
