"""Play chunk rows (deck, dealer, seats, seed) with two policies and write each round's record.

Each row seeds its own PRNG from its seed, so a row's record does not depend
on which thread plays it or on the other rows: any thread count gives the same
table. Rows are played in blocks under prange; each block owns its scratch.
A row whose position outgrows the scratch is replayed by the wrapper with
larger buffers (the replay is the same round, from the same seed).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from casino_sim.core.featurespec import N_FEATURES
from casino_sim.core.rules import RuleSet
from casino_sim.engine.apply import _apply
from casino_sim.engine.bits import BIG_CASINO, LITTLE_CASINO, popcount
from casino_sim.engine.check import CHECK_REASONS, _check_end, _check_play
from casino_sim.engine.choose import (
    NEED_MOVES,
    NEED_SCRATCH,
    NO_MOVES,
    P_INTS,
    P_KIND,
    ROLLOUT,
    _rollout_index,
    _simple_index,
)
from casino_sim.engine.movegen import MAX_SCRATCH_BITS, MOVE_FIELDS, _movegen
from casino_sim.engine.score import S_N_CARDS, S_N_SPADES, SCORE_FIELDS, _finish, _score
from casino_sim.engine.state import (
    BUILD,
    CAPTURED,
    HAND,
    LAST_CAPTURER,
    LOOSE,
    PLIES,
    PLY,
    STATE_SIZE,
    SWEEPS,
    TO_MOVE,
    _deal_batch,
    _start_round,
)
from casino_sim.engine.tables import split_table
from casino_sim.reference.record import REMAINDER_PLY, TABLE, record_columns
from casino_sim.reference.score import CATEGORIES

COLUMNS = record_columns()
_C = {name: i for i, name in enumerate(COLUMNS)}
C_DEALER, C_VOID, C_PLIES, C_LAST, C_REMAINDER = (
    _C[k] for k in ("dealer", "void", "plies", "last_capturer", "remainder")
)
C_SEAT = np.array([_C["s0_cards"], _C["s1_cards"]], dtype=np.int64)  # categories, total, n_cards, n_spades, ...
OFF_TOTAL = len(CATEGORIES)
OFF_N_CARDS, OFF_N_SPADES, OFF_N_SWEEPS, OFF_SWEEPS_B1 = OFF_TOTAL + 1, OFF_TOTAL + 2, OFF_TOTAL + 3, OFF_TOTAL + 4
C_TRACK = np.array([_C["ten_diamonds_dealt_to"], _C["two_spades_dealt_to"]], dtype=np.int64)
TRACK_CARDS = np.array([BIG_CASINO, LITTLE_CASINO], dtype=np.int64)
BLOCK = 32
MOVE_CAP = 512
SCRATCH_BITS = 12
MAX_MOVE_CAP = 1 << 21


@njit(cache=True)
def _note_deal(st, deck, batch, dealer, rec):
    """Where the 10♦ and 2♠ were dealt: to a seat or the table, and in which batch (1..6)."""
    start = 0 if batch == 0 else 12 + (batch - 1) * 8
    for t in range(2):
        c = TRACK_CARDS[t]
        for i in range(start, start + 8 if batch > 0 else 12):
            if deck[i] == c:
                rec[C_TRACK[t]] = (1 - dealer) if i < start + 4 else dealer if i < start + 8 else TABLE
                rec[C_TRACK[t] + 1] = batch + 1


@njit(cache=True)
def _play_row(
    st,
    rules,
    tbl,
    deck,
    dealer,
    ints,
    weights,
    wants,
    rng,
    mv,
    work_mv,
    sc_code,
    sc_mask,
    after,
    f,
    scores,
    sim,
    world_deck,
    sorted_unseen,
    unseen_cards,
    kinds2,
    weights2,
    wants2,
    means,
    score,
    stream,
    rec,
    check,
    trace,
    t_row,
):
    """Play one round with seat s's policy (ints[s], weights[s]) and fill its record. Returns a status.

    With `check`, the invariants of engine/check.py are verified after every play; row t_row < len(trace)
    writes its moves to trace[t_row].
    """
    for j in range(rec.shape[0]):
        rec[j] = 0
    _start_round(st, deck, dealer)
    rec[C_DEALER] = dealer
    _note_deal(st, deck, 0, dealer, rec)
    for t in range(2):
        rec[C_TRACK[t] + 2] = -1
    while st[PLY] < PLIES:
        if st[HAND] == 0 and st[HAND + 1] == 0:
            _deal_batch(st, deck, st[PLY] // 8)
            _note_deal(st, deck, st[PLY] // 8, dealer, rec)
        n = _movegen(st, rules, tbl, mv, sc_code, sc_mask)
        if n < 0:
            return NEED_SCRATCH
        if n > mv.shape[0] or n > scores.shape[0]:
            return NEED_MOVES
        if n == 0:
            return NO_MOVES
        s = st[TO_MOVE]
        if ints[s, P_KIND] == ROLLOUT:
            i, status = _rollout_index(
                st,
                rules,
                tbl,
                mv,
                n,
                ints[s],
                weights[2 + s],
                wants[2 + s],
                rng,
                work_mv,
                sc_code,
                sc_mask,
                after,
                f,
                scores,
                sim,
                world_deck,
                sorted_unseen,
                unseen_cards,
                kinds2,
                weights2,
                wants2,
                means,
                score,
                stream,
            )
            if status != 0:
                return status
        else:
            i = _simple_index(st, rules, tbl, mv, n, ints[s, P_KIND], weights[s], wants[s], rng, after, f, scores)
        if t_row < trace.shape[0]:
            for k in range(MOVE_FIELDS):
                trace[t_row, st[PLY], k] = mv[i, k]
        pile, sweeps = st[CAPTURED + s], st[SWEEPS + s]
        _apply(st, rules, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4])
        if check:
            broken = _check_play(st, deck)
            if broken:
                rec[C_PLIES] = st[PLY]
                return broken
        taken = st[CAPTURED + s] & ~pile
        for t in range(2):
            if (taken >> TRACK_CARDS[t]) & 1:
                rec[C_TRACK[t] + 2] = s
                rec[C_TRACK[t] + 3] = st[PLY]
        if st[SWEEPS + s] > sweeps:
            rec[C_SEAT[s] + OFF_N_SWEEPS] += 1
            rec[C_SEAT[s] + OFF_SWEEPS_B1 + (st[PLY] - 1) // 8] += 1
    rec[C_PLIES] = st[PLY]
    rest = st[LOOSE]
    for v in range(1, 11):
        rest |= st[BUILD + v]
    last = st[LAST_CAPTURER]
    if not _finish(st):
        rec[C_VOID] = 1
        rec[C_LAST] = -1
        return 0
    rec[C_LAST] = last
    rec[C_REMAINDER] = popcount(rest)
    for t in range(2):
        if (rest >> TRACK_CARDS[t]) & 1:
            rec[C_TRACK[t] + 2] = last
            rec[C_TRACK[t] + 3] = REMAINDER_PLY
    _score(st, rules, score)
    if check:
        broken = _check_end(st, rules, score)
        if broken:
            return broken
    for p in range(2):
        for k in range(OFF_TOTAL + 1):  # the categories and the total, in the same order
            rec[C_SEAT[p] + k] = score[p, k]
        rec[C_SEAT[p] + OFF_N_CARDS] = score[p, S_N_CARDS]
        rec[C_SEAT[p] + OFF_N_SPADES] = score[p, S_N_SPADES]
    return 0


@njit(cache=True, parallel=True)
def _play_rows(
    rules,
    tbl,
    decks,
    dealers,
    seeds,
    a_seat0,
    ints_ab,
    weights_ab,
    wants_ab,
    move_cap,
    scratch_bits,
    idx,
    out,
    status,
    check,
    trace,
):
    """Play the rows listed in idx into out[i]; status[i] != 0 marks a row to replay with larger buffers."""
    n_rows = idx.shape[0]
    n_blocks = (n_rows + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        st = np.zeros(STATE_SIZE, dtype=np.int64)
        mv = np.zeros((move_cap, MOVE_FIELDS), dtype=np.int64)
        work_mv = np.zeros((move_cap, MOVE_FIELDS), dtype=np.int64)
        sc_code = np.zeros(1 << scratch_bits, dtype=np.int64)
        sc_mask = np.zeros(1 << scratch_bits, dtype=np.int64)
        after = np.zeros(STATE_SIZE, dtype=np.int64)
        sim = np.zeros(STATE_SIZE, dtype=np.int64)
        f = np.zeros(N_FEATURES, dtype=np.float64)
        scores = np.zeros(move_cap, dtype=np.float64)
        means = np.zeros(move_cap, dtype=np.float64)
        world_deck = np.zeros(52, dtype=np.int64)
        sorted_unseen = np.zeros(52, dtype=np.int64)
        unseen_cards = np.zeros(52, dtype=np.int64)
        kinds2 = np.zeros(2, dtype=np.int64)
        weights2 = np.zeros((2, N_FEATURES), dtype=np.float64)
        wants2 = np.zeros((2, N_FEATURES), dtype=np.int64)
        score = np.zeros((2, SCORE_FIELDS), dtype=np.int64)
        rng = np.zeros(1, dtype=np.uint64)
        stream = np.zeros(1, dtype=np.uint64)
        ints = np.zeros((2, P_INTS), dtype=np.int64)
        weights = np.zeros((4, N_FEATURES), dtype=np.float64)
        wants = np.zeros((4, N_FEATURES), dtype=np.int64)
        deck = np.zeros(52, dtype=np.int64)
        for r in range(b * BLOCK, min(n_rows, (b + 1) * BLOCK)):
            i = idx[r]
            for s in range(2):  # seat s plays policy A (index 0) when a_seat0 says so
                who = s if a_seat0[i] else 1 - s
                for k in range(P_INTS):
                    ints[s, k] = ints_ab[who, k]
                for j in range(N_FEATURES):
                    weights[s, j] = weights_ab[who, j]
                    wants[s, j] = wants_ab[who, j]
                    weights[2 + s, j] = weights_ab[2 + who, j]  # rollout base weights
                    wants[2 + s, j] = wants_ab[2 + who, j]
            for j in range(52):
                deck[j] = decks[i, j]
            rng[0] = seeds[i]
            status[i] = _play_row(
                st,
                rules,
                tbl,
                deck,
                dealers[i],
                ints,
                weights,
                wants,
                rng,
                mv,
                work_mv,
                sc_code,
                sc_mask,
                after,
                f,
                scores,
                sim,
                world_deck,
                sorted_unseen,
                unseen_cards,
                kinds2,
                weights2,
                wants2,
                means,
                score,
                stream,
                out[i],
                check,
                trace,
                i,
            )


def play_rows_numba(
    rows,
    rules: RuleSet,
    ints: np.ndarray,
    weights: np.ndarray,
    wants: np.ndarray,
    check: bool = False,
    trace: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """One record per row (the columns of record_columns()), bit-identical on any thread count.

    `rows` has decks, dealer, seeds and a_seat0 (runner.deals.DealRows); the two
    policies come as arrays (policies.arrays.policy_arrays). `check` verifies every
    play (engine/check.py); `trace` (k, PLIES, MOVE_FIELDS) receives the moves of the first k rows.
    """
    n = len(rows.decks)
    out = np.zeros((n, len(COLUMNS)), dtype=np.int64)
    status = np.zeros(n, dtype=np.int64)
    args = (
        rules.as_array(),
        split_table(),
        rows.decks.astype(np.int64),
        rows.dealer.astype(np.int64),
        rows.seeds.astype(np.uint64),
        rows.a_seat0.astype(np.bool_),
        ints,
        weights,
        wants,
    )
    if trace is None:
        trace = np.zeros((0, PLIES, MOVE_FIELDS), dtype=np.int64)
    _play_rows(*args, MOVE_CAP, SCRATCH_BITS, np.arange(n, dtype=np.int64), out, status, bool(check), trace)
    cap, bits = MOVE_CAP, SCRATCH_BITS
    while status.any():  # rare rounds with a crowded table: replay just those, with larger buffers
        _raise_broken(rows, status, out)
        if (status == NO_MOVES).any():
            raise RuntimeError("engine bug: a player had no legal move")
        if (status == NEED_MOVES).any():
            cap *= 4
        if (status == NEED_SCRATCH).any():
            bits += 4
        if cap > MAX_MOVE_CAP or bits > MAX_SCRATCH_BITS:
            raise RuntimeError("a round's table outgrew the engine's move buffers")
        retry = np.flatnonzero(status).astype(np.int64)
        status[:] = 0
        _play_rows(*args, cap, bits, retry, out, status, bool(check), trace)
    return {c: out[:, j] for j, c in enumerate(COLUMNS)}


def _raise_broken(rows, status: np.ndarray, out: np.ndarray) -> None:
    """An engine bug found by --check: name the first broken round so it can be replayed."""
    broken = np.flatnonzero(np.isin(status, list(CHECK_REASONS)))
    if len(broken):
        i = int(broken[0])
        raise RuntimeError(
            f"engine bug: {CHECK_REASONS[int(status[i])]} after play {out[i, C_PLIES]} of deal "
            f"{int(rows.deal_id[i])} (mirror {int(rows.mirror[i])}, round seed {int(rows.seeds[i])}); "
            f"{len(broken)} round(s) of this chunk broke an invariant"
        )
