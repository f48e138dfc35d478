"""A whole round for 2, 3 or 4 players on the one round loop, without a record: its moves and score rows.

Simulate's record is two-player (core/record.py); this kernel is the raw entry point for n players (api.py's
play_round_n_*): seats play random, a heuristic, or a script (play i is the canonical move script[i] % count).
"""

from __future__ import annotations

from numba import njit

from casino_sim.engine import layout as L
from casino_sim.engine.bits import popcount
from casino_sim.engine.movegen import _kth_move
from casino_sim.engine.play import _play_on
from casino_sim.engine.score import _finish, _score
from casino_sim.engine.state import _start_round


@njit(cache=True)
def _play_round_n(st, rules, tbl, deck, dealer, seats, buf, rng, script, trace):
    """Play the round dealt from `deck` by `dealer` into st, its moves into trace (PLIES, MOVE_FIELDS) and its
    score rows into buf.score. Returns (status, how many cards the last capturer took as the remainder)."""
    _start_round(st, rules, deck, dealer)
    ints = seats[0]
    io = (buf.quiet[0], trace, script)
    pick = -1
    while True:
        status, n = _play_on(st, rules, tbl, deck, seats, buf, buf.mv, rng, io, False, pick)
        if status != L.CALLER_CHOOSES:
            break
        if ints[st[L.TO_MOVE], L.P_KIND] != L.SCRIPTED:
            return L.NOT_PLAYED, 0
        pick = _kth_move(buf.mv, n, script[st[L.PLY]] % n)
    if status != L.OK:
        return status, 0
    rest = st[L.LOOSE]
    for v in range(1, 11):
        rest |= st[L.BUILD + v]
    _finish(st)
    _score(st, rules, buf.score)
    return L.OK, popcount(rest) if st[L.LAST_CAPTURER] >= 0 else 0
