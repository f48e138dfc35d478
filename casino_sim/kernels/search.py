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
the searcher plays by its play-outs there too.

A searcher's file may search fewer of the last batch's plays exactly (exact_plies: P_EXACT_SKIP plays of the
batch are left out) and have no worlds: its base policy then chooses, among the exact best moves in its exact
plays and as it would alone before them (the built-in endgame; play.py plays those turns in the round loop).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.kernels import layout as L
from casino_sim.kernels.choose import TIE, _by_score, _full_scores, _heuristic_index
from casino_sim.kernels.exact import INF, LEADER, _exact_values, _move_value
from casino_sim.kernels.features import _view
from casino_sim.kernels.lastplay import _copy
from casino_sim.kernels.movegen import _kth_move
from casino_sim.kernels.play import _exact_from, _play_on
from casino_sim.kernels.rng import _below
from casino_sim.kernels.rollout import _rollout_index


@njit(cache=True, inline="always")
def _known_root(st, rules, root):
    """root: st with the opponent's hand set to the cards the mover has not seen: in the last batch that is what
    the mover knows (the exact batch is two-player)."""
    _copy(st, root)
    root[L.HAND + 1 - st[L.TO_MOVE]] = _view(st, rules, False)[0]
    return root


# No reference counting (_nrt=False, so nothing allocated): a decision's call would count a pair for each of the
# Scratch's and the search's arrays, more than its small searches cost (measured).
@njit(cache=True, _nrt=False)
def _exact_leader(st, rules, tbl, n, base_w, base_want, rng, buf, search):
    """A worlds-0 searcher's exact play with a heuristic base: the move the base would choose among the moves of
    the best exact value (_exact_best then _base_index), found without proving every tie: (index in buf.mv, status).

    The moves are tried in the base's order (its full scores, best first, ties in move order), each asking only
    whether it beats the best so far, which a move merely equal to it refutes at once. The last move to beat it is
    the best-valued move the base scores highest; of the others, only those tied with its score (the base draws
    among them, as _heuristic_index does) are asked whether they reach its value.
    """
    mv, scores, sc_code, sc_mask = buf.mv, buf.scores, buf.sc_code, buf.sc_mask
    _full_scores(st, rules, tbl, mv, n, base_w, base_want, buf.after, buf.f, scores)
    states, mvs = search[0], search[1]
    order, tied = mvs[LEADER, :, 0], mvs[LEADER, :, 1]  # (tied: 1 for a move the base may draw)
    _by_score(scores, n, order)
    root = _known_root(st, rules, states[LEADER])
    best, leader = -INF, -1
    for t in range(n):
        i = order[t]
        v = _move_value(root, rules, tbl, mv, i, sc_code, sc_mask, search, INF if leader < 0 else -best)
        if search[3][0] != L.OK:
            return -1, search[3][0]
        if v > best:  # a value, not a bound: it beat the ceiling
            best, leader = v, i
    ties = 0
    for i in range(n):
        tied[i] = 0
        if scores[i] >= scores[leader] - TIE:
            tied[i] = i == leader or _move_value(root, rules, tbl, mv, i, sc_code, sc_mask, search, 1 - best) >= best
            if search[3][0] != L.OK:
                return -1, search[3][0]
            ties += tied[i]
    k = 0 if ties == 1 else _below(rng, ties)
    for i in range(n):
        if tied[i]:
            if k == 0:
                return i, L.OK
            k -= 1
    return leader, L.OK  # not reached: the leader is tied with itself


@njit(cache=True)
def _exact_best(st, rules, tbl, n, mv, sc_code, sc_mask, search):
    """Keep the moves of the best exact value at the front of mv, in their order: (how many, status).

    Last batch only: the opponent's hand is set to the cards the mover has not seen (what the mover knows).
    mv, sc_code and sc_mask are the Scratch's, passed alone (exact.py _exact_values says why); search: the search
    arrays (_search_space), kept for the round's next searches.
    """
    root = _known_root(st, rules, np.empty_like(st))
    values = np.empty(n, np.int64)
    if _exact_values(root, rules, tbl, n, mv, sc_code, sc_mask, search, values, True) != L.OK:  # best only
        return 0, search[3][0]
    best = values.max()
    kept = 0
    for i in range(n):
        if values[i] == best:
            for j in range(L.MOVE_FIELDS):
                mv[kept, j] = mv[i, j]
            kept += 1
    return kept, L.OK


# _nrt=True: the search allocates, and as a callee of rows.py's _play_block it would inherit that kernel's _nrt=False
@njit(cache=True, _nrt=True)
def _search_index(st, rules, tbl, n, ints, base_w, base_want, rng, buf, search):
    """A rollout or searcher seat's choice (policy row `ints`) among the n moves of buf.mv: (index, status).

    The searcher searches exactly from play.py's _exact_from on; with no worlds (P_WORLDS 0) its base policy
    chooses among the moves left, with no play-outs. search: the search arrays (exact.py _search_space).
    """
    if ints[L.P_KIND] == L.SEARCHER and n > 1 and st[L.PLY] >= _exact_from(rules, ints[L.P_EXACT_SKIP]):
        if ints[L.P_WORLDS] == 0 and ints[L.P_BASE_KIND] == L.HEURISTIC:
            return _exact_leader(st, rules, tbl, n, base_w, base_want, rng, buf, search)
        n, status = _exact_best(st, rules, tbl, n, buf.mv, buf.sc_code, buf.sc_mask, search)
        if status != L.OK:
            return -1, status
    if ints[L.P_WORLDS] == 0:
        return _base_index(st, rules, tbl, n, ints, base_w, base_want, rng, buf), L.OK
    return _rollout_index(st, rules, tbl, n, ints, base_w, base_want, rng, buf)


@njit(cache=True, inline="always")  # inlined: a call handing over the Scratch pays a reference count per array
def _base_index(st, rules, tbl, n, ints, base_w, base_want, rng, buf):
    """The base policy's own choice among the n moves of buf.mv (random or a heuristic), as it plays a seat (the
    round loop, play.py, makes this choice itself before a worlds-0 searcher's exact plays)."""
    if ints[L.P_BASE_KIND] == L.HEURISTIC:
        return _heuristic_index(st, rules, tbl, buf.mv, n, base_w, base_want, rng, buf.after, buf.f, buf.scores)
    return _below(rng, n)


def search_switch(ints, force: bool = False) -> bool | None:
    """The round kernels' `search` for these policy rows (ints, policy_arrays): True when a seat searches (a
    rollout or searcher) or `force` (a warm-up for such seats), else None: the variant without the search
    kernels (_play_to_end)."""
    return True if force or np.isin(np.asarray(ints)[:, L.P_KIND], (L.ROLLOUT, L.SEARCHER)).any() else None


# Inlined into its caller (rows.py's _play_row), as _play_on is into it.
@njit(cache=True, inline="always")
def _play_to_end(st, rules, tbl, deck, seats, buf, rng, io, check, search):
    """Play on to the round's last play, choosing here for the seats _play_on hands back: a script's move
    (io[2][ply] % n of the canonical order), a rollout's or searcher's (base policy at row players + s of
    seats, as policy_arrays lays them out). Returns the round's status.

    `search`: the search arrays (exact.py _search_space_for), or None (search_switch: no seat searches), which
    prunes the call of the search kernels before numba types it: that variant compiles without them
    (docs/policies.md); a searching seat there stops the round."""
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
        pick, status = _search_index(
            st, rules, tbl, n, ints[s], weights[players + s], wants[players + s], rng, buf, search
        )
        if status != L.OK:
            return status
