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
from casino_sim.kernels.bits import ACE_MASK, BIG_CASINO, LITTLE_CASINO, SPADE_MASK, ctz, popcount
from casino_sim.kernels.movegen import _movegen

DEPTH = 10  # state rows: the root and up to 8 plays (one to spare)
STACK_ROWS = 8  # per depth: moves, next move, best, alpha, beta, the window searched (alpha, beta), table slot
INF = 1_000_000
# The transposition table: a position's value as bounds (lo, hi), under a key that holds the whole position (_key),
# so a hit is that very position, never a look-alike. A value depends only on the position and the rules, so entries
# stay true from play to play of a round (the next play's search finds most of its tree there) and from round to
# round; a clash of slots only replaces.
TT_BITS = 10
KEY_WORDS = 16  # hands, loose cards, piles, one word of small fields, the builds (_key)
TT_CARDS = 1


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
def _margin_of(st, rules, mine, theirs, sweeps):
    """The mover's final point difference when the piles end as mine and theirs, the mover with `sweeps` sweeps."""
    p = st[L.TO_MOVE]
    return _pile_points(mine, sweeps, rules) - _pile_points(theirs, st[L.SWEEPS + 1 - p], rules)


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
    return _margin_of(st, rules, mine, theirs, st[L.SWEEPS + p])


@njit(cache=True)
def _last_play(st, rules, mv, n, after):
    """The best final point difference of the round's last play (the mover's one card, the other hand empty)
    among its n moves in mv, without a node per move: a capture makes the mover the last capturer, who takes the
    rest, so every capture ends with the same piles and differs only in whether it sweeps (_apply's rule: it leaves
    no loose card and no build); a trail leaves the rest to the last capturer (_final_margin). Any other kind is
    played out on `after` (a state row)."""
    p = st[L.TO_MOVE]
    rest = st[L.LOOSE]
    for v in range(1, 11):
        rest |= st[L.BUILD + v]
    mine, theirs, sweeps, last = st[L.CAPTURED + p], st[L.CAPTURED + 1 - p], st[L.SWEEPS + p], st[L.LAST_CAPTURER]
    best = -INF
    for i in range(n):
        kind, took = mv[i, 0], (1 << mv[i, 1]) | rest
        if kind == L.TRAIL and last < 0:  # a void round
            value = 0
        elif kind == L.CAPTURE or kind == L.TRAIL:
            ours = kind == L.CAPTURE or last == p
            swept = 0
            if kind == L.CAPTURE:  # a sweep leaves no loose card, and no build but the one it takes
                taken_build = st[L.BUILD + ctz(mv[i, 3])] if mv[i, 3] else 0
                swept = 1 if ((st[L.LOOSE] & ~mv[i, 2]) | (rest & ~st[L.LOOSE] & ~taken_build)) == 0 else 0
            value = _margin_of(st, rules, mine | (took if ours else 0), theirs | (0 if ours else took), sweeps + swept)
        else:
            _copy(st, after)
            _apply(after, rules, kind, mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4])
            value = -_final_margin(after, rules)
        best = max(best, value)
    return best


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


@njit(cache=True)
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
    n_at, next_k, best, alpha, beta = stack[0], stack[1], stack[2], stack[3], stack[4]
    alpha0, beta0, slot_at = stack[5], stack[6], stack[7]
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
            cards = popcount(st[L.HAND] | st[L.HAND + 1])
            slot = _key(st, key_at[d]) if cards > TT_CARDS else -1
            slot_at[d] = slot
            if slot >= 0 and _holds(keys, slot, key_at[d]):  # bounds found before: a value, a cut or a narrower window
                lo, hi = bounds[slot, 0], bounds[slot, 1]
                if lo == hi or lo >= beta[d] or hi <= alpha[d]:
                    value = lo if lo == hi or lo >= beta[d] else hi
                    descending = False
                    continue
                alpha[d] = max(alpha[d], lo)
                beta[d] = min(beta[d], hi)
            alpha0[d] = alpha[d]
            beta0[d] = beta[d]
            n = _movegen(st, rules, tbl, mvs[d], sc_code, sc_mask)
            if n <= 0 or n > mvs.shape[1]:
                status[0] = L.NEED_SCRATCH if n < 0 else L.NO_MOVES if n == 0 else L.NEED_MOVES
                return 0
            if cards == 1:  # the last play: scored move by move, no node each
                value = _last_play(st, rules, mvs[d], n, states[d + 1])
                descending = False
                continue
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
        # a cut (alpha >= beta: the parent's mover will not allow this line) or no move left: node e is done
        if alpha[e] < beta[e] and _push_next(states, e, rules, mvs, n_at, next_k, alpha, beta):
            d = e + 1
            descending = True
        else:
            value = _keep(keys, bounds, slot_at[e], key_at[e], best[e], alpha0[e], beta0[e])
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


@njit(cache=True)
def _move_value(st, rules, tbl, mv, i, sc_code, sc_mask, search, ceiling):
    """The mover's final point difference after move i of mv, then best play by both sides; below 1 - ceiling
    only as a bound (the opponent's value is searched with `ceiling`: _negamax). A failure sets search[3][0]."""
    root = search[0][0]
    _copy(st, root)
    _apply(root, rules, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4])
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
