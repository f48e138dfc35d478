"""Whole rounds in one kernel call: the random-policy round and the scripted round."""

from __future__ import annotations

from numba import njit

from casino_sim.engine.apply import _apply
from casino_sim.engine.movegen import MAX_SCRATCH_BITS, _movegen, _sort_moves
from casino_sim.engine.rng import _below
from casino_sim.engine.score import _finish, _score
from casino_sim.engine.state import BATCHES, HAND_SIZE, PLY, _deal_batch, _start_round

# status codes of a round kernel
OK = 0
NEED_MOVES = 1  # aux = rows the move buffer needs
NEED_SCRATCH = 2  # aux = bits the subset scratch needs
NO_MOVES = 3  # a player had no legal move (cannot happen under RULES.md; reported, never hidden)
VOID = 4  # the round was played out but nobody captured
TOO_BIG = 5  # more loose number cards than the subset enumeration takes (2**MAX_SCRATCH_BITS)


@njit(cache=True)
def _play_round_random(st, rules, tbl, deck, dealer, rng, mv, sc_code, sc_mask, score):
    """One round, every play drawn uniformly from the legal moves (in generation order).

    Returns (status, aux). On NEED_* the caller grows the buffer and replays the
    round from the same rng state, so results never depend on buffer sizes.
    """
    _start_round(st, deck, dealer)
    for batch in range(BATCHES):
        if batch > 0:
            _deal_batch(st, deck, batch)
        for _ in range(2 * HAND_SIZE):
            n = _movegen(st, rules, tbl, mv, sc_code, sc_mask)
            if n < 0:
                if -n > MAX_SCRATCH_BITS:
                    return TOO_BIG, -n
                return NEED_SCRATCH, -n
            if n > mv.shape[0]:
                return NEED_MOVES, n
            if n == 0:
                return NO_MOVES, st[PLY]
            i = _below(rng, n)
            _apply(st, rules, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4])
    void = not _finish(st)
    _score(st, rules, score)
    return (VOID if void else OK), st[PLY]


@njit(cache=True)
def _play_round_scripted(st, rules, tbl, deck, dealer, r, mv, sc_code, sc_mask, order, transcript, nmoves, score):
    """One round where ply i plays the (r[i] % n)-th legal move in canonical order.

    transcript[i] gets the move record played at ply i, nmoves[i] the number of
    legal moves there. Returns (status, aux) like _play_round_random.
    """
    _start_round(st, deck, dealer)
    ply = 0
    for batch in range(BATCHES):
        if batch > 0:
            _deal_batch(st, deck, batch)
        for _ in range(2 * HAND_SIZE):
            n = _movegen(st, rules, tbl, mv, sc_code, sc_mask)
            if n < 0:
                if -n > MAX_SCRATCH_BITS:
                    return TOO_BIG, -n
                return NEED_SCRATCH, -n
            if n > mv.shape[0] or n > order.shape[0]:
                return NEED_MOVES, n
            if n == 0:
                return NO_MOVES, ply
            _sort_moves(mv, n, order)
            i = order[r[ply] % n]
            for f in range(5):
                transcript[ply, f] = mv[i, f]
            nmoves[ply] = n
            _apply(st, rules, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4])
            ply += 1
    void = not _finish(st)
    _score(st, rules, score)
    return (VOID if void else OK), ply
