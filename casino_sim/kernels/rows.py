"""Play chunk rows (deck, dealer, seats, seed) with two policies and write each round's record.

Each row seeds its own PRNG from its seed, so a row's record does not depend
on which thread plays it or on the other rows: any thread count gives the same
table. Rows are played in blocks under prange; each block owns its Scratch.
A row whose position outgrows the Scratch is replayed with larger buffers
(the replay is the same round, from the same seed).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from casino_sim.core.featurespec import N_FEATURES
from casino_sim.core.rules import RuleSet
from casino_sim.kernels import layout as L
from casino_sim.kernels.buffers import _new_scratch, _new_seats, replay_rows
from casino_sim.kernels.check import CHECK_REASONS
from casino_sim.kernels.play import _end_round, _note_deal
from casino_sim.kernels.search import _play_to_end, search_switch
from casino_sim.kernels.state import _start_round
from casino_sim.kernels.tables import split_table


# Inlined into _play_block (as _play_on is into it): a call that hands over arrays pays an atomic reference
# count for each of them, 2-4% of a round with the whole Scratch (measured).
@njit(cache=True, inline="always")
def _play_row(st, rules, tbl, deck, dealer, seats, buf, rng, io, check, search):
    """Play one round, seat s with policy row s of `seats` (rows 2 + s: searching seats' bases); fill io's record."""
    rec = io[0]
    for j in range(rec.shape[0]):
        rec[j] = 0
    _start_round(st, rules, deck, dealer)
    rec[L.C_DEALER] = dealer
    _note_deal(deck, st[L.PLY] // L.PLIES_PER_BATCH, st[L.DEALER], rec)  # batch 0 (as _play_on notes the others)
    for t in range(2):
        rec[L.C_TRACK[t] + 2] = -1
    status = _play_to_end(st, rules, tbl, deck, seats, buf, rng, io, check, search)
    if status != L.OK:
        return status
    return _end_round(st, rules, buf.score, rec, check)


@njit(cache=True)
def _play_block(rules, tbl, deals, policies, idx, lo, hi, cap, bits, outs, check, search):
    """Play rows idx[lo:hi] with one Scratch; outs: (records, statuses, traces), as _play_rows."""
    decks, dealers, seeds, a_seat0, scripts = deals
    ints_ab, weights_ab, wants_ab = policies
    out, status, trace = outs
    buf = _new_scratch(cap, bits)
    seats = _new_seats()
    ints, weights, wants = seats
    no_trace, no_script = buf.quiet[1], buf.quiet[2]
    st = np.zeros(L.STATE_SIZE, dtype=np.int64)
    deck = np.zeros(52, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    for r in range(lo, hi):
        i = idx[r]
        for s in range(2):  # seat s plays policy A (index 0) when a_seat0 says so
            who = s if a_seat0[i] else 1 - s  # the other policy of the pair
            for k in range(L.P_INTS):
                ints[s, k] = ints_ab[who, k]
            for j in range(N_FEATURES):
                weights[s, j] = weights_ab[who, j]
                wants[s, j] = wants_ab[who, j]
                weights[2 + s, j] = weights_ab[2 + who, j]  # rollout base weights
                wants[2 + s, j] = wants_ab[2 + who, j]
        for j in range(52):
            deck[j] = decks[i, j]
        rng[0] = seeds[i]
        io = (
            out[i],
            trace[i] if i < trace.shape[0] else no_trace,
            scripts[i] if i < scripts.shape[0] else no_script,
        )
        status[i] = _play_row(st, rules, tbl, deck, dealers[i], seats, buf, rng, io, check, search)


@njit(cache=True, parallel=True, nogil=True)  # nogil: the caller writes the last chunk while this one plays
def _play_rows(rules, tbl, deals, policies, idx, cap, bits, out, status, trace, check, search):
    """Play the rows listed in idx into out[i]; status[i] != 0 marks a row to replay with larger buffers.

    deals: (decks, dealers, seeds, a_seat0, scripts); policies: (ints, weights, wants) of policies A and B;
    trace[i] receives the moves of row i < len(trace), scripts[i] the choices of a scripted row. Blocks of
    BLOCK rows go to the threads one at a time, each with its own Scratch. search: search_switch (search.py).
    """
    n_rows = idx.shape[0]
    n_blocks = (n_rows + L.BLOCK - 1) // L.BLOCK
    for b in prange(n_blocks):
        lo, hi = b * L.BLOCK, min(n_rows, (b + 1) * L.BLOCK)
        _play_block(rules, tbl, deals, policies, idx, lo, hi, cap, bits, (out, status, trace), check, search)


def _policy_rows(ints, weights, wants) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The two policies' arrays as the kernel reads them (policies.arrays.policy_arrays makes them)."""
    rows = (
        np.ascontiguousarray(ints, dtype=np.int64),
        np.ascontiguousarray(weights, dtype=np.float64),
        np.ascontiguousarray(wants, dtype=np.int64),
    )
    if rows[0].shape != (2, L.P_INTS) or rows[1].shape != (4, N_FEATURES) or rows[2].shape != (4, N_FEATURES):
        raise ValueError(f"policy arrays must be (2, {L.P_INTS}), (4, {N_FEATURES}), (4, {N_FEATURES})")
    kinds = rows[0][:, L.P_KIND]
    if not np.isin(kinds, (L.RANDOM, L.HEURISTIC, L.ROLLOUT, L.SEARCHER, L.ALWAYS_TRAIL, L.SCRIPTED)).all():
        raise ValueError(
            f"policy kinds {kinds.tolist()}: the engine plays random, heuristic, rollout, searcher, trail, scripted"
        )
    bases = rows[0][np.isin(kinds, (L.ROLLOUT, L.SEARCHER)), L.P_BASE_KIND]
    if not np.isin(bases, (L.RANDOM, L.HEURISTIC)).all():
        raise ValueError("a rollout's or searcher's base policy must be random or a heuristic")
    return rows


def checked_trace(trace):
    """The trace array a row kernel writes moves into (none: an empty one), refused unless the kernel can."""
    if trace is None:
        return np.zeros((0, L.PLIES, L.MOVE_FIELDS), dtype=np.int64)
    if trace.dtype != np.int64 or trace.shape[1:] != (L.PLIES, L.MOVE_FIELDS) or not trace.flags.c_contiguous:
        raise ValueError(f"trace must be a C-contiguous int64 array (k, {L.PLIES}, {L.MOVE_FIELDS})")
    return trace


def play_rows(
    rows,
    rules: RuleSet,
    ints: np.ndarray,
    weights: np.ndarray,
    wants: np.ndarray,
    check: bool = False,
    trace: np.ndarray | None = None,
    scripts: np.ndarray | None = None,
    search: bool = False,
) -> dict[str, np.ndarray]:
    """One record per row (the columns of core/record.py), bit-identical on any thread count.

    `rows` has decks, dealer, seeds and a_seat0 (runner.deals.DealRows); the two
    policies come as arrays (policies.arrays.policy_arrays). `check` verifies every
    play (kernels/check.py); `trace` (k, PLIES, MOVE_FIELDS) receives the moves of the first k rows;
    `scripts` (n, PLIES) holds the choices of scripted seats (policy kind SCRIPTED); `search` plays on the
    kernel's variant with the search kernels though no seat searches (a warm-up for a run whose seats do).
    """
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet, got {type(rules).__name__}")
    n = len(rows.decks)
    policies = _policy_rows(ints, weights, wants)
    scripts = np.zeros((0, L.PLIES), dtype=np.int64) if scripts is None else np.ascontiguousarray(scripts, np.int64)
    if (policies[0][:, L.P_KIND] == L.SCRIPTED).any() and (scripts.shape != (n, L.PLIES) or (scripts < 0).any()):
        raise ValueError(f"scripted seats need a script of {L.PLIES} non-negative choices per row")
    trace = checked_trace(trace)
    deals = (
        rows.decks.astype(np.int64),
        rows.dealer.astype(np.int64),
        rows.seeds.astype(np.uint64),
        rows.a_seat0.astype(np.bool_),
        scripts,
    )
    out = np.zeros((n, len(L.COLUMNS)), dtype=np.int64)
    status = np.zeros(n, dtype=np.int64)
    rules_arr, search = rules.as_array(), search_switch(policies[0], search)

    def play(todo, cap, bits):
        _play_rows(rules_arr, split_table(), deals, policies, todo, cap, bits, out, status, trace, bool(check), search)
        if status.any() and check:
            _raise_broken(rows, status, out)
        if (status == L.NO_MOVES).any():
            raise RuntimeError("engine bug: a player had no legal move")

    replay_rows(play, status, "a round")
    return {c: out[:, j] for j, c in enumerate(L.COLUMNS)}


def _raise_broken(rows, status: np.ndarray, out: np.ndarray) -> None:
    """An engine bug found by --check: name the first broken round so it can be replayed."""
    broken = np.flatnonzero(np.isin(status, list(CHECK_REASONS)))
    if len(broken):
        i = int(broken[0])
        raise RuntimeError(
            f"engine bug: {CHECK_REASONS[int(status[i])]} after play {out[i, L.C_PLIES]} of deal "
            f"{int(rows.deal_id[i])} (mirror {int(rows.mirror[i])}, round seed {int(rows.seeds[i])}); "
            f"{len(broken)} round(s) of this chunk broke an invariant"
        )
