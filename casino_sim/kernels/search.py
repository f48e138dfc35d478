"""The choice of a seat that searches (rollout, searcher): play-outs everywhere, the exact solver in the last batch.

The searcher is the rollout policy with one change: in the last batch the stock
is empty, so the opponent holds exactly the cards the mover has not seen, and
the exact values of exact.py are the round's outcome under best play by both
sides. The searcher keeps only the moves of the best exact value (its regret
there is zero by construction) and lets the rollout's play-outs choose among
them (the one that does best against the base policy's play). Both the
play-outs and the exact search score with the rule set being played.
With three or four players the cards the mover has not seen are split among
several hands in a way the mover cannot know, so there is no exact last batch:
the searcher plays as its rollout there too.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.kernels import layout as L
from casino_sim.kernels.exact import DEPTH, STACK_ROWS, _exact_values
from casino_sim.kernels.features import _view
from casino_sim.kernels.movegen import _kth_move
from casino_sim.kernels.play import _play_on
from casino_sim.kernels.rollout import _rollout_index


@njit(cache=True)
def _exact_best(st, rules, tbl, n, buf):
    """Keep the moves of the best exact value at the front of buf.mv, in their order: (how many, status).

    Last batch only: the opponent's hand is set to the cards the mover has not seen (what the mover knows).
    """
    root = st.copy()
    root[L.HAND + 1 - st[L.TO_MOVE]] = _view(st, rules, False)[0]  # the opponent's: the exact batch is two-player
    cap = buf.mv.shape[0]
    states = np.empty((DEPTH, L.STATE_SIZE), np.int64)
    mvs = np.empty((DEPTH, cap, L.MOVE_FIELDS), np.int64)
    stack = np.empty((STACK_ROWS, DEPTH), np.int64)
    status = np.zeros(1, np.int64)
    values = np.empty(n, np.int64)
    if _exact_values(root, rules, tbl, n, buf, states, mvs, stack, status, values, True) != L.OK:  # best only
        return 0, status[0]
    best = values.max()
    kept = 0
    for i in range(n):
        if values[i] == best:
            for j in range(L.MOVE_FIELDS):
                buf.mv[kept, j] = buf.mv[i, j]
            kept += 1
    return kept, L.OK


@njit(cache=True)
def _search_index(st, rules, tbl, n, ints, base_w, base_want, rng, buf):
    """A rollout or searcher seat's choice (policy row `ints`) among the n moves of buf.mv: (index, status)."""
    if ints[L.P_KIND] == L.SEARCHER and n > 1 and st[L.PLY] >= L.PLIES - L.PLIES_PER_BATCH and rules[L.R_PLAYERS] == 2:
        n, status = _exact_best(st, rules, tbl, n, buf)
        if status != L.OK:
            return -1, status
    return _rollout_index(st, rules, tbl, n, ints, base_w, base_want, rng, buf)


def search_switch(ints, force: bool = False) -> bool | None:
    """The round kernels' `search` for these policy rows (ints, policy_arrays): True when a seat searches (a
    rollout or searcher) or `force` (a warm-up for such seats), else None: the variant without the search
    kernels (_play_to_end)."""
    return True if force or np.isin(np.asarray(ints)[:, L.P_KIND], (L.ROLLOUT, L.SEARCHER)).any() else None


# Inlined into its callers (rows.py's _play_row, nround.py's _play_round_n), as _play_on is into it.
@njit(cache=True, inline="always")
def _play_to_end(st, rules, tbl, deck, seats, buf, rng, io, check, search):
    """Play on to the round's last play, choosing here for the seats _play_on hands back: a script's move
    (io[2][ply] % n of the canonical order), a rollout's or searcher's (base policy at row players + s of
    seats, as policy_arrays lays them out). Returns the round's status.

    `search` None (search_switch: no seat searches) prunes the call of the search kernels before numba types it:
    that variant compiles without them (docs/policies.md); a searching seat there stops the round."""
    ints, weights, wants = seats
    players = rules[L.R_PLAYERS]
    pick = -1
    while True:
        status, n = _play_on(st, rules, tbl, deck, seats, buf, buf.mv, rng, io, check, pick)
        if status != L.CALLER_CHOOSES:
            return status
        s = st[L.TO_MOVE]
        if ints[s, L.P_KIND] == L.SCRIPTED:
            pick = _kth_move(buf.mv, n, io[2][st[L.PLY]] % n)
            continue
        if search is None:  # a variant compiled without the search kernels: the caller chose it wrongly
            return status
        pick, status = _search_index(st, rules, tbl, n, ints[s], weights[players + s], wants[players + s], rng, buf)
        if status != L.OK:
            return status
