"""Play chunk rows (deck, dealer, seating, seed) of 2, 3 or 4 players and write each round's record.

Each row seeds its own PRNG from its seed, so a row's record does not depend
on which thread plays it or on the other rows: any thread count gives the same
table. Rows are played in blocks spread over threads (buffers.on_threads); each
block owns its Scratch.
A row whose position outgrows the Scratch is replayed with larger buffers
(the replay is the same round, from the same seed).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.core.featurespec import N_FEATURES
from casino_sim.core.rules import RuleSet
from casino_sim.kernels import layout as L
from casino_sim.kernels.buffers import _new_scratch, on_threads, replay_rows
from casino_sim.kernels.check import CHECK_REASONS
from casino_sim.kernels.exact import _search_space_for
from casino_sim.kernels.play import _end_round, _note_deal
from casino_sim.kernels.search import _play_to_end, search_switch
from casino_sim.kernels.state import _start_round
from casino_sim.kernels.tables import split_table


# Inlined into _play_block (as _play_on is into it): a call that hands over arrays pays an atomic reference
# count for each of them, 2-4% of a round with the whole Scratch (measured).
@njit(cache=True, inline="always")
def _play_row(st, rules, tbl, deck, dealer, seats, buf, rng, io, check, search):
    """Play one round, player p with policy row p of `seats` (rows players + p: searching seats' bases); fill
    io's record where its layout says (io[3], layout.py record_layout)."""
    rec, tab = io[0], io[3]
    for j in range(rec.shape[0]):
        rec[j] = 0
    _start_round(st, rules, deck, dealer)
    rec[L.C_DEALER] = dealer
    for t in range(2):
        rec[tab[L.G_TRACK, 0, t] + 2] = -1  # not captured (yet)
    _note_deal(deck, rules[L.R_PLAYERS], dealer, rec, tab)
    status = _play_to_end(st, rules, tbl, deck, seats, buf, rng, io, check, search)
    if status != L.OK:
        return status
    return _end_round(st, rules, buf.score, rec, tab, check)


@njit(cache=True)
def _thread_buffers(cap, bits):
    """What a thread plays its blocks with: a Scratch, the seated policies' rows, a state, a deck and a PRNG.
    Made once a thread, not once a block: a Scratch is 115 KB to zero, and blocks are 32 rows. A row writes all
    it reads, so it plays the same round on any thread (tests/kernels/test_search.py and others, one and two
    threads)."""
    return (
        _new_scratch(cap, bits),
        np.zeros((L.MAX_PLAYERS, L.P_INTS), dtype=np.int64),
        np.zeros((2 * L.MAX_PLAYERS, N_FEATURES), dtype=np.float64),  # rows n + p: the rollout bases
        np.zeros((2 * L.MAX_PLAYERS, N_FEATURES), dtype=np.int64),
        np.zeros(L.STATE_SIZE, dtype=np.int64),
        np.zeros(52, dtype=np.int64),
        np.zeros(1, dtype=np.uint64),
    )


# _nrt=False: no reference counts in the round loop. Inlined there, _play_row and _play_on took and dropped a
# reference to every array they were handed, once a round: 9-12% of a random round in atomic counts (perf). Numba
# compiles a callee with its caller's flag unless the callee sets its own: the callees that allocate say _nrt=True
# (check.py _check_end, movegen.py _kth_move, search.py _search_index); an allocation without it fails to compile.
@njit(cache=True, _nrt=False)
def _play_block(rules, tbl, deals, policies, idx, lo, hi, own, outs, check, search):
    """Play rows idx[lo:hi] with the thread's buffers `own` (_thread_buffers), player p of row i with policy
    seating[i, p]; outs: (records, statuses, traces, the record's layout), as _play_rows."""
    decks, dealers, seeds, seating, scripts = deals
    ints_k, weights_k, wants_k = policies
    out, status, trace, tab = outs
    n, k = rules[L.R_PLAYERS], ints_k.shape[0]
    buf, ints, weights, wants, st, deck, rng = own
    no_trace, no_script = buf.quiet[1], buf.quiet[2]
    for r in range(lo, hi):
        i = idx[r]
        for p in range(n):
            who = seating[i, p]
            for f in range(L.P_INTS):
                ints[p, f] = ints_k[who, f]
            for j in range(N_FEATURES):
                weights[p, j], wants[p, j] = weights_k[who, j], wants_k[who, j]
                weights[n + p, j], wants[n + p, j] = weights_k[k + who, j], wants_k[k + who, j]
        for j in range(52):
            deck[j] = decks[i, j]
        rng[0] = seeds[i]
        io = (
            out[i],
            trace[i] if i < trace.shape[0] else no_trace,
            scripts[i] if i < scripts.shape[0] else no_script,
            tab,
        )
        status[i] = _play_row(st, rules, tbl, deck, dealers[i], (ints, weights, wants), buf, rng, io, check, search)


@njit(cache=True, nogil=True)  # nogil: on_threads plays blocks on several threads, and the caller writes meanwhile
def _play_rows(rules, tbl, deals, policies, idx, cap, bits, outs, check, search, first, step):
    """Play the rows listed in idx into outs[0][i]; outs[1][i] != 0 marks a row to replay with larger buffers.

    deals: (decks, dealers, seeds, seating, scripts); policies: (ints, weights, wants) of the k policies;
    outs: (records, statuses, traces, the record's layout); traces[i] receives the moves of row i < len(traces),
    scripts[i] the choices of a scripted row. Plays blocks first, first + step, ... of BLOCK rows
    (buffers.on_threads). search: search_switch (search.py); the thread's buffers and search arrays are kept from
    block to block (exact.py's transposition table).
    """
    search = _search_space_for(search, cap)
    own = _thread_buffers(cap, bits)
    n_blocks = (idx.shape[0] + L.BLOCK - 1) // L.BLOCK
    for b in range(first, n_blocks, step):
        lo, hi = b * L.BLOCK, min(idx.shape[0], (b + 1) * L.BLOCK)
        _play_block(rules, tbl, deals, policies, idx, lo, hi, own, outs, check, search)


def _policy_rows(ints, weights, wants) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The k policies' arrays as the kernel reads them (policies.arrays.policy_arrays makes them): ints
    (k, P_INTS), weights and wants (2k, F), rows k + j the base of a searching policy j."""
    rows = (
        np.ascontiguousarray(ints, dtype=np.int64),
        np.ascontiguousarray(weights, dtype=np.float64),
        np.ascontiguousarray(wants, dtype=np.int64),
    )
    k = len(rows[0])
    if rows[0].shape != (k, L.P_INTS) or rows[1].shape != (2 * k, N_FEATURES) or rows[2].shape != rows[1].shape:
        raise ValueError(f"policy arrays must be ({k}, {L.P_INTS}), ({2 * k}, {N_FEATURES}), ({2 * k}, {N_FEATURES})")
    kinds = rows[0][:, L.P_KIND]
    if not np.isin(kinds, (L.RANDOM, L.HEURISTIC, L.ROLLOUT, L.SEARCHER, L.ALWAYS_TRAIL, L.SCRIPTED)).all():
        raise ValueError(
            f"policy kinds {kinds.tolist()}: the engine plays random, heuristic, rollout, searcher, trail, scripted"
        )
    bases = rows[0][np.isin(kinds, (L.ROLLOUT, L.SEARCHER)), L.P_BASE_KIND]
    if not np.isin(bases, (L.RANDOM, L.HEURISTIC)).all():
        raise ValueError("a rollout's or searcher's base policy must be random or a heuristic")
    return rows


def _seating(rows, players: int, k: int) -> np.ndarray:
    """The policy of each player of each row (n, players), rows.seating checked."""
    seating = np.ascontiguousarray(rows.seating, dtype=np.int64)
    if seating.shape != (len(rows.decks), players) or ((seating < 0) | (seating >= k)).any():
        raise ValueError(f"rows.seating must name one of the {k} policies for each of the {players} players of a row")
    return seating


def check_switch(check: bool) -> bool | None:
    """The round kernels' `check`: True verifies every play, None compiles and plays a variant without the checks
    (numba prunes `check is not None` before typing, as search.py's search_switch), so a common run compiles none
    of kernels/check.py."""
    return True if check else None


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
    """One record per row (core/record.py record_columns; int8, as runner/play.py record_frame keeps them),
    bit-identical on any thread count.

    `rows` has decks, dealer, seeds and seating (runner.deals.DealRows): player p of row i plays policy
    seating[i, p] of the k policies' arrays (policies.arrays.policy_arrays: ints
    (k, P_INTS), weights and wants (2k, F)). `check` verifies every play (kernels/check.py); `trace`
    (k, PLIES, MOVE_FIELDS) receives the moves of the first k rows; `scripts` (n, PLIES) holds the choices of
    scripted seats (policy kind SCRIPTED); `search` plays on the kernel's variant with the search kernels though
    no seat searches (a warm-up for a run whose seats do).
    """
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet, got {type(rules).__name__}")
    n = len(rows.decks)
    policies = _policy_rows(ints, weights, wants)
    scripts = np.zeros((0, L.PLIES), dtype=np.int64) if scripts is None else np.ascontiguousarray(scripts, np.int64)
    if (policies[0][:, L.P_KIND] == L.SCRIPTED).any() and (scripts.shape != (n, L.PLIES) or (scripts < 0).any()):
        raise ValueError(f"scripted seats need a script of {L.PLIES} non-negative choices per row")
    trace = checked_trace(trace)
    if ((rows.dealer < 0) | (rows.dealer >= rules.players)).any():
        raise ValueError(f"each row's dealer must be one of the {rules.players} players")
    deals = (
        np.ascontiguousarray(rows.decks, dtype=np.int8),  # a deck's card codes fit a byte: no int64 copy
        rows.dealer.astype(np.int64),
        rows.seeds.astype(np.uint64),
        _seating(rows, rules.players, len(policies[0])),
        scripts,
    )
    columns, tab = L.record_layout(rules.players, rules.teams)
    out = np.zeros((n, len(columns)), dtype=np.int8)  # every record field is a small count (core/record.py)
    status = np.zeros(n, dtype=np.int64)
    rules_arr, search, checking = rules.as_array(), search_switch(policies[0], search), check_switch(check)

    def play(todo, cap, bits):
        game = (rules_arr, split_table(), deals, policies)
        on_threads(_play_rows, len(todo), *game, todo, cap, bits, (out, status, trace, tab), checking, search)
        if status.any() and check:
            _raise_broken(rows, status, out)
        if (status == L.NO_MOVES).any():
            raise RuntimeError("engine bug: a player had no legal move")

    replay_rows(play, status, "a round")
    return {c: out[:, j] for j, c in enumerate(columns)}


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
