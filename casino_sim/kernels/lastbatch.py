"""Played rounds judged by the exact solver: every last-batch play's value against the best play's.

A traced round (its deck, dealer and 48 move records) is replayed to the last
batch, where every card is known; at each of its 8 plays the exact solver
(exact.py) values every legal move, and the move that was played is found among
them. Rows are independent and nothing is random, so any thread count gives the
same table; a row that outgrows its buffers is replayed with larger ones.
Two players only: with three or four the mover cannot know how the unseen cards
are split among the other hands, so no exact value is the truth there.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.core.rules import RuleSet
from casino_sim.kernels import layout as L
from casino_sim.kernels.apply import _apply
from casino_sim.kernels.buffers import _new_scratch, on_threads, replay_rows
from casino_sim.kernels.exact import _exact_values, _search_space
from casino_sim.kernels.movegen import _movegen
from casino_sim.kernels.state import _deal_batch, _start_round
from casino_sim.kernels.tables import split_table

LAST_BATCH = L.PLIES - L.PLIES_PER_BATCH  # the ply at which the last batch is dealt
# columns of one judged play
J_MOVER, J_MOVES, J_BEST, J_PLAYED = range(4)
J_FIELDS = 4
NOT_LEGAL = 9  # status: a traced move is not among the legal moves (an engine bug, never hidden)


@njit(cache=True)
def _replay_to_last_batch(st, rules, deck, dealer, moves):
    """The state of the round just before its last batch is dealt, from its first plays' move records."""
    _start_round(st, rules, deck, dealer)
    for ply in range(LAST_BATCH):
        if st[L.HAND] == 0 and st[L.HAND + 1] == 0:
            _deal_batch(st, deck, ply // L.PLIES_PER_BATCH, 2)  # two players (the record's)
        m = moves[ply]
        _apply(st, rules, m[0], m[1], m[2], m[3], m[4])


@njit(cache=True)
def _played_index(mv, n, m):
    """The row of mv[:n] equal to move record m, or -1."""
    for i in range(n):
        same = True
        for k in range(L.MOVE_FIELDS):
            if mv[i, k] != m[k]:
                same = False
                break
        if same:
            return i
    return -1


@njit(cache=True)
def _judge_row(st, rules, tbl, deck, dealer, moves, buf, search, values, out):
    """out[k] for the k-th last-batch play: mover, legal moves, best exact value, the played move's exact value.

    Values are the mover's final point difference under best play afterwards. Returns a status.
    """
    status = search[3]
    _replay_to_last_batch(st, rules, deck, dealer, moves)
    _deal_batch(st, deck, LAST_BATCH // L.PLIES_PER_BATCH, 2)
    for k in range(L.PLIES_PER_BATCH):
        m = moves[LAST_BATCH + k]
        n = _movegen(st, rules, tbl, buf.mv, buf.sc_code, buf.sc_mask)
        if n < 0:
            return L.NEED_SCRATCH
        if n > buf.mv.shape[0] or n > values.shape[0]:
            return L.NEED_MOVES
        status[0] = 0
        code = _exact_values(st, rules, tbl, n, buf.mv, buf.sc_code, buf.sc_mask, search, values, False)
        if code != L.OK:
            return code
        i = _played_index(buf.mv, n, m)
        if i < 0:
            return NOT_LEGAL
        best = values[0]
        for j in range(1, n):
            best = max(best, values[j])
        out[k, J_MOVER] = st[L.TO_MOVE]
        out[k, J_MOVES] = n
        out[k, J_BEST] = best
        out[k, J_PLAYED] = values[i]
        _apply(st, rules, m[0], m[1], m[2], m[3], m[4])
    return L.OK


@njit(cache=True, nogil=True)
def _judge_rows(rules, tbl, decks, dealers, traces, idx, cap, bits, out, status, first, step):
    """Judge rows idx in blocks first, first + step, ... of BLOCK rows, each with its own buffers
    (buffers.on_threads); status[i] != 0: replay row i."""
    n_rows = idx.shape[0]
    n_blocks = (n_rows + L.BLOCK - 1) // L.BLOCK
    for b in range(first, n_blocks, step):
        buf = _new_scratch(cap, bits)
        search = _search_space(cap)
        values = np.zeros(cap, np.int64)
        st = np.zeros(L.STATE_SIZE, np.int64)
        for r in range(b * L.BLOCK, min(n_rows, (b + 1) * L.BLOCK)):
            i = idx[r]
            status[i] = _judge_row(st, rules, tbl, decks[i], dealers[i], traces[i], buf, search, values, out[i])


def judge_last_batch(rules: RuleSet, decks: np.ndarray, dealers: np.ndarray, traces: np.ndarray) -> np.ndarray:
    """(n, 8, 4) int64: for each traced round's last-batch plays, the mover, the number of legal moves, the best
    move's exact value and the played move's, both as the mover's final point difference under best play.

    decks (n, 52) in deal order, dealers (n,), traces (n, PLIES, MOVE_FIELDS) as the engines' `trace` fills them.
    """
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet, got {type(rules).__name__}")
    if rules.players != 2:  # the rule: the hidden split (docs/rules.md 11)
        raise ValueError(f"the last batch is exact with two players only (the hidden split), not {rules.name}")
    decks = np.ascontiguousarray(decks, dtype=np.int64)
    dealers = np.ascontiguousarray(dealers, dtype=np.int64)
    traces = np.ascontiguousarray(traces, dtype=np.int64)
    n = len(decks)
    if decks.shape != (n, 52) or dealers.shape != (n,) or traces.shape != (n, L.PLIES, L.MOVE_FIELDS):
        raise ValueError(f"decks (n, 52), dealers (n,) and traces (n, {L.PLIES}, {L.MOVE_FIELDS}) must agree")
    out = np.zeros((n, L.PLIES_PER_BATCH, J_FIELDS), dtype=np.int64)
    status = np.zeros(n, dtype=np.int64)
    rules_arr = rules.as_array()

    def judge(todo, cap, bits):
        game = (rules_arr, split_table(), decks, dealers, traces)
        on_threads(_judge_rows, len(todo), *game, todo, cap, bits, out, status)
        if (status == NOT_LEGAL).any():
            i = int(np.flatnonzero(status == NOT_LEGAL)[0])
            raise RuntimeError(f"engine bug: traced round {i} plays a move the engine does not list as legal")

    replay_rows(judge, status, "exact search")
    return out
