"""The research adapters' views written by the kernels: research/views.py View.set_from for one table, its fields
placed at the offsets views.py field_offsets gives (a single table's view, and each of a batch's in batch_step.py).
"""

from __future__ import annotations

from numba import njit

from casino_sim.kernels import layout as L
from casino_sim.kernels.bits import popcount
from casino_sim.kernels.factored import C_DEALT, C_FAM, C_PLAYER, SLOTS


@njit(cache=True, inline="always")
def _cards(out, at, mask):
    while mask:
        low = mask & -mask
        mask ^= low
        out[at + popcount(low - 1)] = 1.0


@njit(cache=True)
def _observe(st, rules, ctl, totals, player, offsets, deck, hist, out):
    """research/views.py View.set_from: offsets[k] is where field k of views.FIELDS starts (-1: not in the view)."""
    out[:] = 0.0
    _write(st, rules, ctl, totals, player, offsets, deck, hist, out)


@njit(cache=True)
def _observe_over(st, rules, ctl, totals, player, offsets, deck, hist, out):
    """_observe over a view it wrote before (or zeros): the builds' cards, most of a view and mostly clear, are
    cleared only for the values the last view's build owners name (a batch's views are its memory traffic)."""
    o = offsets
    if o[17] >= 0:  # with recall: all of it
        out[:] = 0.0
    else:
        n = rules[L.R_PLAYERS]
        out[: o[6]] = 0.0
        for v in range(10):  # views.py's layout: the builds' cards (10 x 52), then their owners (10 x n)
            for p in range(n):
                if out[o[7] + n * v + p] != 0.0:
                    out[o[6] + 52 * v : o[6] + 52 * (v + 1)] = 0.0
        out[o[7] :] = 0.0
    _write(st, rules, ctl, totals, player, offsets, deck, hist, out)


@njit(cache=True)
def _write(st, rules, ctl, totals, player, offsets, deck, hist, out):
    """The view's nonzero entries into a clear `out` (_observe)."""
    n = rules[L.R_PLAYERS]
    o = offsets
    out[o[0] + player] = 1.0
    if ctl[C_PLAYER] >= 0:
        out[o[1] + ctl[C_PLAYER]] = 1.0
    out[o[2] + st[L.DEALER]] = 1.0
    _cards(out, o[3], st[L.HAND + player])
    for p in range(n):
        out[o[4] + p] = popcount(st[L.HAND + p])
        _cards(out, o[8] + 52 * p, st[L.CAPTURED + p])
        out[o[9] + p] = st[L.SWEEPS + p]
        out[o[11] + p] = st[L.MUST_ACT + p]
    _cards(out, o[5], st[L.LOOSE])
    for v in range(1, 11):
        if st[L.BUILD + v] != 0:
            _cards(out, o[6] + 52 * (v - 1), st[L.BUILD + v])
            out[o[7] + n * (v - 1) + st[L.OWNER + v]] = 1.0
    if st[L.LAST_CAPTURER] >= 0:
        out[o[10] + st[L.LAST_CAPTURER]] = 1.0
    out[o[12] + min(st[L.PLY] // (4 * n), L.PLIES // (4 * n) - 1)] = 1.0
    for s in range(totals.shape[0]):
        out[o[13] + s] = totals[s]
    if o[14] >= 0 and ctl[C_FAM] >= 0 and ctl[C_PLAYER] == player:
        out[o[14] + ctl[C_FAM] // SLOTS] = 1.0
        out[o[15] + ctl[C_FAM] % SLOTS] = 1.0
        _cards(out, o[16], ctl[2])
    if o[17] >= 0:
        _recall(st, n, ctl, player, o, deck, hist, out)


@njit(cache=True)
def _recall(st, n, ctl, player, o, deck, hist, out):
    """The information state's fields: the player's hands as dealt, the table's first cards, every play so far."""
    seat = (player - st[L.DEALER] - 1) % n  # the place in the deal's turn order
    for b in range(L.PLIES // (4 * n)):
        end = 4 * n + 4 + 4 * n * b
        if ctl[C_DEALT] >= end:
            start = 0 if b == 0 else end - 4 * n
            for j in range(4):
                out[o[17] + 52 * b + deck[start + 4 * seat + j]] = 1.0
    if ctl[C_DEALT] >= 4 * n + 4:
        for j in range(4):
            out[o[18] + deck[4 * n + j]] = 1.0
    width = n + 5 + 52 + 52 + 10 + 10  # views.py play_width: mover, kind, card, loose, builds, value
    for ply in range(st[L.PLY]):
        at = o[19] + ply * width
        out[at + hist[ply, 0]] = 1.0
        out[at + n + hist[ply, 1]] = 1.0
        out[at + n + 5 + hist[ply, 2]] = 1.0
        _cards(out, at + n + 57, hist[ply, 3])
        for v in range(1, 11):
            if (hist[ply, 4] >> v) & 1:
                out[at + n + 109 + v - 1] = 1.0
        if hist[ply, 5] > 0:
            out[at + n + 119 + hist[ply, 5] - 1] = 1.0
