"""Many rounds and whole games in parallel: prange over fixed-size chunks.

Each chunk owns its rows of the output arrays, its own buffers and its own
PRNG seeded from one SeedSequence child, so its rows depend only on that seed:
1 thread, 2 threads or any scheduling give bit-identical arrays. Nothing is
shared between chunks (no += across threads).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from casino_sim.engine.movegen import MOVE_CAP, MOVE_FIELDS, SCRATCH_BITS
from casino_sim.engine.rng import _below, _shuffle_new_deck
from casino_sim.engine.rounds import NEED_MOVES, NEED_SCRATCH, NO_MOVES, TOO_BIG, VOID, _play_round_random
from casino_sim.engine.score import S_TOTAL, SCORE_FIELDS
from casino_sim.engine.state import R_ROUND_WIN_POINTS, R_SINGLE_ROUND, R_TARGET, STATE_SIZE

MAX_GAME_ROUNDS = 1000  # a safety stop for games (never reached in practice)


@njit(cache=True)
def _round_with_growth(st, rules, tbl, deck, dealer, rng, bufs, score):
    """Play one random round; grow the buffers and replay from the same rng state when needed."""
    saved = rng[0]
    while True:
        status, aux = _play_round_random(st, rules, tbl, deck, dealer, rng, bufs[0], bufs[1], bufs[2], score)
        if status == NEED_MOVES:
            bufs = (np.zeros((2 * aux, MOVE_FIELDS), dtype=np.int64), bufs[1], bufs[2])
        elif status == NEED_SCRATCH:
            bufs = (bufs[0], np.zeros(1 << aux, dtype=np.int64), np.zeros(1 << aux, dtype=np.int64))
        else:
            return status, aux, bufs
        rng[0] = saved


@njit(cache=True)
def _chunk_buffers(seed):
    """A chunk's own PRNG (seeded), state, deck, score and move/scratch buffers at their starting sizes."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    bufs = (
        np.zeros((MOVE_CAP, MOVE_FIELDS), dtype=np.int64),
        np.zeros(1 << SCRATCH_BITS, dtype=np.int64),
        np.zeros(1 << SCRATCH_BITS, dtype=np.int64),
    )
    return (
        rng,
        np.empty(STATE_SIZE, dtype=np.int64),
        np.empty(52, dtype=np.int64),
        np.zeros((2, SCORE_FIELDS), dtype=np.int64),
        bufs,
    )


@njit(cache=True)
def _rounds_chunk(rules, tbl, seed, start, stop, scores, plies, void, dealers):
    rng, st, deck, score, bufs = _chunk_buffers(seed)
    worst = 0
    for row in range(start, stop):
        dealer = _below(rng, 2)
        _shuffle_new_deck(rng, deck)
        code, aux, bufs = _round_with_growth(st, rules, tbl, deck, dealer, rng, bufs, score)
        if code == NO_MOVES or code == TOO_BIG:
            worst = code
        for f in range(SCORE_FIELDS):
            scores[f, row, 0] = score[0, f]
            scores[f, row, 1] = score[1, f]
        plies[row] = aux
        void[row] = code == VOID
        dealers[row] = dealer
    return worst


@njit(cache=True, parallel=True)
def _simulate_rounds(rules, tbl, seeds, n_rounds, chunk_size, scores, plies, void, dealers, status):
    """Rows [k*chunk_size, (k+1)*chunk_size) come from seeds[k]."""
    for k in prange(seeds.shape[0]):
        start = k * chunk_size
        stop = min(n_rounds, start + chunk_size)
        status[k] = _rounds_chunk(rules, tbl, seeds[k], start, stop, scores, plies, void, dealers)


@njit(cache=True)
def _games_chunk(rules, tbl, seed, start, stop, winner, final, rounds, voids, first_dealer):
    rng, st, deck, score, bufs = _chunk_buffers(seed)
    target = rules[R_TARGET]
    rwp = rules[R_ROUND_WIN_POINTS]
    single = rules[R_SINGLE_ROUND] != 0
    worst = 0
    for row in range(start, stop):
        dealer = _below(rng, 2)
        first_dealer[row] = dealer
        t0 = 0
        t1 = 0
        n_rounds = 0
        n_void = 0
        win = -1
        while n_rounds + n_void < MAX_GAME_ROUNDS:
            _shuffle_new_deck(rng, deck)
            code, aux, bufs = _round_with_growth(st, rules, tbl, deck, dealer, rng, bufs, score)
            if code == NO_MOVES or code == TOO_BIG:
                worst = code
                break
            if code == VOID:  # replayed with the same dealer
                n_void += 1
                continue
            n_rounds += 1
            r0 = score[0, S_TOTAL]
            r1 = score[1, S_TOTAL]
            t0 += r0
            t1 += r1
            dealer = 1 - dealer
            if single:  # one round decides; a tied round is a draw
                win = 0 if r0 > r1 else (1 if r1 > r0 else 2)
                break
            if rwp > 0 and (r0 >= rwp or r1 >= rwp) and r0 != r1:
                win = 0 if r0 > r1 else 1
                break
            if (t0 >= target or t1 >= target) and t0 != t1:
                win = 0 if t0 > t1 else 1
                break
        winner[row] = win
        final[row, 0] = t0
        final[row, 1] = t1
        rounds[row] = n_rounds
        voids[row] = n_void
    return worst


@njit(cache=True, parallel=True)
def _simulate_games(rules, tbl, seeds, n_games, chunk_size, winner, final, rounds, voids, first_dealer, status):
    for k in prange(seeds.shape[0]):
        start = k * chunk_size
        stop = min(n_games, start + chunk_size)
        status[k] = _games_chunk(rules, tbl, seeds[k], start, stop, winner, final, rounds, voids, first_dealer)
