"""The one bundle of buffers every round kernel works in, and the one helper that grows it and replays.

A kernel never allocates per play: it is handed a Scratch sized for `cap` moves
and a subset scratch of 2**bits rows. A position that needs more makes the
kernel stop with NEED_MOVES or NEED_SCRATCH; the kernels are deterministic, so
the caller replays the same work with larger buffers and gets the same result.
"""

from __future__ import annotations

from collections import namedtuple
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
from numba import njit

from casino_sim.core.featurespec import N_FEATURES
from casino_sim.core.limits import too_many_moves
from casino_sim.kernels import layout as L
from casino_sim.kernels.codec import PositionError

Scratch = namedtuple(
    "Scratch",
    [
        "mv",  # (cap, MOVE_FIELDS): the moves of the player to move
        "work_mv",  # (cap, MOVE_FIELDS): the moves inside a rollout's play-outs
        "scores",  # (cap,): a heuristic's score per move
        "means",  # (cap,): a rollout's summed point difference per move
        "sc_code",  # (2**bits,): subset scratch of movegen, count-vector codes
        "sc_mask",  # (2**bits,): subset scratch of movegen, card masks
        "after",  # a state: the position after a move (features)
        "sim",  # a state: a rollout's play-out
        "f",  # (N_FEATURES,): one move's features
        "world_deck",  # (52,): a sampled world's deck
        "sorted_unseen",  # (52,): the cards the mover has not seen, ascending
        "unseen_cards",  # (52,): the same, shuffled into a world
        "score",  # (SCORE_ROWS, SCORE_FIELDS): a round's score rows (score.py)
        "stream",  # (1,) uint64: a play-out's own PRNG
        "base",  # seats of a play-out: (ints (2, P_INTS), weights (4, F), wants (4, F)), both the base policy
        "quiet",  # the io of a play-out: no record, no trace, no script, no record layout (empty arrays)
    ],
)


@njit(cache=True)
def _new_seats():
    """Policy rows: (ints (4, P_INTS), weights (4, F), wants (4, F)). Two seats: weights rows 2, 3 are the
    rollout bases; a play-out's seats: all four rows play the base policy (any number of players)."""
    return (
        np.zeros((L.MAX_PLAYERS, L.P_INTS), dtype=np.int64),
        np.zeros((4, N_FEATURES), dtype=np.float64),
        np.zeros((4, N_FEATURES), dtype=np.int64),
    )


@njit(cache=True)
def _new_scratch(cap, bits):
    """A Scratch for `cap` moves and 2**bits subsets (a kernel's or a Python caller's: the same types)."""
    return Scratch(
        np.zeros((cap, L.MOVE_FIELDS), dtype=np.int64),
        np.zeros((cap, L.MOVE_FIELDS), dtype=np.int64),
        np.zeros(cap, dtype=np.float64),
        np.zeros(cap, dtype=np.float64),
        np.zeros(1 << bits, dtype=np.int64),
        np.zeros(1 << bits, dtype=np.int64),
        np.zeros(L.STATE_SIZE, dtype=np.int64),
        np.zeros(L.STATE_SIZE, dtype=np.int64),
        np.zeros(N_FEATURES, dtype=np.float64),
        np.zeros(52, dtype=np.int64),
        np.zeros(52, dtype=np.int64),
        np.zeros(52, dtype=np.int64),
        np.zeros((L.SCORE_ROWS, L.SCORE_FIELDS), dtype=np.int64),
        np.zeros(1, dtype=np.uint64),
        _new_seats(),
        (
            np.zeros(0, dtype=np.int8),
            np.zeros((0, L.MOVE_FIELDS), dtype=np.int64),
            np.zeros(0, dtype=np.int64),
            np.zeros((0, 0, 0), dtype=np.int64),
        ),
    )


def grow_and_replay(run, what: str, cap: int = L.MOVE_CAP, bits: int = L.SCRATCH_BITS):
    """run(cap, bits) -> (status, result), replayed with larger buffers until no status asks for more.

    `status` is one code or an array of codes (one per row: every buffer some row needs grows at once). Any
    other code is a failure: run reports the ones it can explain before returning them.
    """
    while True:
        status, result = run(cap, bits)
        codes = set(np.unique(status).tolist()) - {L.OK}
        if not codes:
            return result
        if codes - {L.NEED_MOVES, L.NEED_SCRATCH}:
            raise RuntimeError(f"engine: {what} failed with status {max(codes)}")
        if L.NEED_SCRATCH in codes:
            if bits >= L.MAX_SCRATCH_BITS:  # movegen counts by value past it (crowded.py): never asks for more
                raise RuntimeError(f"engine: {what}: asked for a subset scratch past {L.MAX_SCRATCH_BITS} bits")
            bits = min(bits + 4, L.MAX_SCRATCH_BITS)
        if L.NEED_MOVES in codes:
            if cap >= L.MAX_MOVE_CAP:  # the one limit both engines share (the reference says the same)
                raise PositionError(too_many_moves())
            cap = min(4 * cap, L.MAX_MOVE_CAP)


def replay_rows(play, status: np.ndarray, what: str) -> None:
    """play(todo, cap, bits) runs a row kernel over rows `todo`, setting status[i] for each; the rows that ask for
    larger buffers are replayed alone with them until none does. Rows are deterministic, so a replay is the same."""
    todo = np.arange(len(status), dtype=np.int64)

    def run(cap, bits):
        nonlocal todo
        play(todo, cap, bits)
        todo = np.flatnonzero(status).astype(np.int64)  # rare rows with a crowded table: replayed alone
        codes = status[todo].copy()
        status[todo] = L.OK
        return codes, None

    grow_and_replay(run, what, L.MOVE_CAP, L.SCRATCH_BITS)


def on_threads(kernel, rows: int, *args) -> None:
    """kernel(*args, first, step) plays blocks first, first + step, ... of BLOCK rows each; run it on as many threads
    as numba may use here (runner/threads.py), one block per thread at most.

    Python threads over a nogil kernel rather than numba's prange: the same blocks on the same buffers, so the same
    records on any thread count, without the parallel loop's compile (about 4 s of a first run, docs/policies.md).
    """
    blocks = -(-rows // L.BLOCK)
    threads = max(1, min(numba.get_num_threads(), blocks))
    if threads == 1:  # one block, or one thread: no pool to wake
        kernel(*args, 0, 1)
        return
    with ThreadPoolExecutor(threads, thread_name_prefix="casino-rows") as pool:
        for done in [pool.submit(kernel, *args, t, threads) for t in range(threads)]:
            done.result()
