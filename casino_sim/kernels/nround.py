"""A whole round for 2, 3 or 4 players on the one round loop: its moves and score rows, and simulate's rows.

_play_round_n is the raw entry point for n players (api.py's play_round_n_*): seats play random, a heuristic,
a rollout, the searcher, or a script (play i is the canonical move script[i] % count). The searcher's exact last
batch is two-player (kernels/search.py). play_rows_n plays simulate's rows of three or four players in parallel and
writes each round's record (core/record.py many_record_columns), as rows.py does for two.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from casino_sim.core.featurespec import N_FEATURES
from casino_sim.core.record import REMAINDER_PLY
from casino_sim.core.rules import RuleSet
from casino_sim.kernels import layout as L
from casino_sim.kernels.apply import _apply
from casino_sim.kernels.bits import ctz, popcount
from casino_sim.kernels.buffers import _new_scratch, replay_rows
from casino_sim.kernels.rows import checked_trace
from casino_sim.kernels.score import _finish, _score
from casino_sim.kernels.search import _play_to_end, search_switch
from casino_sim.kernels.state import _deal_batch, _start_round
from casino_sim.kernels.tables import split_table


@njit(cache=True)
def _play_round_n(st, rules, tbl, deck, dealer, seats, buf, rng, script, trace, search):
    """Play the round dealt from `deck` by `dealer` into st, its moves into trace (PLIES, MOVE_FIELDS) and its
    score rows into buf.score. Returns (status, how many cards the last capturer took as the remainder).
    search: search.py's search_switch of the seats."""
    _start_round(st, rules, deck, dealer)
    status = _play_to_end(st, rules, tbl, deck, seats, buf, rng, (buf.quiet[0], trace, script), False, search)
    if status != L.OK:
        return status, 0
    rest = st[L.LOOSE]
    for v in range(1, 11):
        rest |= st[L.BUILD + v]
    _finish(st)
    _score(st, rules, buf.score)
    return L.OK, popcount(rest) if st[L.LAST_CAPTURER] >= 0 else 0


@njit(cache=True)
def _play_rounds_n(rules, tbl, deals, seats, idx, cap, bits, totals, status, search):
    """Play rounds idx (deals: decks (k, 52), dealers, seeds) one after another with one Scratch: totals[i, r]
    is score row r's total of round i; status[i] != 0 marks a round to replay with larger buffers."""
    decks, dealers, seeds = deals
    buf = _new_scratch(cap, bits)
    st = np.zeros(L.STATE_SIZE, dtype=np.int64)
    deck = np.zeros(52, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    no_script = np.zeros(0, dtype=np.int64)
    for r in range(idx.shape[0]):
        i = idx[r]
        for j in range(52):
            deck[j] = decks[i, j]
        rng[0] = seeds[i]
        status[i], _ = _play_round_n(st, rules, tbl, deck, dealers[i], seats, buf, rng, no_script, buf.quiet[1], search)
        for k in range(totals.shape[1]):
            totals[i, k] = buf.score[k, L.S_TOTAL]


@njit(cache=True)
def _write_record(st, rules, moves, score, remainder, rec, cols):
    """The record of the round just played into st (its moves, score rows and remainder): core/record.py
    many_record_columns, a place's columns from cols[0][place], a team's from cols[1] (first, dealer)."""
    place_col, team_col = cols[0], cols[1]
    n, dealer, last = rules[L.R_PLAYERS], st[L.DEALER], st[L.LAST_CAPTURER]
    rec[L.C_DEALER], rec[L.C_VOID], rec[L.C_PLIES] = dealer, 1 if last < 0 else 0, st[L.PLY]
    rec[L.C_LAST], rec[L.C_REMAINDER] = last, remainder
    for q in range(n):  # place q (0: first) is player dealer + 1 + q
        p = (dealer + 1 + q) % n
        rec[place_col[q]] = p
        for f in range(L.SCORE_FIELDS):
            rec[place_col[q] + L.NR_SCORE + f] = score[p, f]
    for ply in range(L.PLIES):  # turns pass in order: play ply is made by place ply % n
        rec[place_col[ply % n] + L.NR_PLAYS + moves[ply, L.M_KIND]] += 1
    for t in range(team_col.shape[0]):  # team_first holds the first place, team_dealer the dealer
        side = L.SIDE_OF[(dealer + 1) % n if t == 0 else dealer]
        for f in range(L.TEAM_SCORE.shape[0]):
            rec[team_col[t] + f] = score[n + side, L.TEAM_SCORE[f]]


@njit(cache=True)
def _note_tracked_deal(rules, deck, dealer, rec, track_col):
    """Where the 10♦ and 2♠ were dealt: a player, or n for the table, and the batch (1..); not yet captured."""
    n = rules[L.R_PLAYERS]
    first, per_batch = (n + 1) * L.HAND_SIZE, n * L.HAND_SIZE
    for i in range(52):
        for t in range(2):
            if deck[i] == L.TRACK_CARDS[t]:
                q, b = i // L.HAND_SIZE, 1
                if i >= first:
                    q, b = ((i - first) % per_batch) // L.HAND_SIZE, 2 + (i - first) // per_batch
                rec[track_col[t]] = (dealer + 1 + q) % n if q < n else n
                rec[track_col[t] + 1] = b
                rec[track_col[t] + 2] = -1


@njit(cache=True)
def _write_anatomy(rules, deck, dealer, moves, sim, rec, cols):
    """Replay the round's moves in `sim` for what the score rows do not say: each place's builds made, captured
    by itself and lost, its sweeps by batch, and who captured the 10♦ and 2♠ at which play (REMAINDER_PLY: with
    the remainder). cols[2][place]: its builds_made column; cols[3][t]: tracked card t's dealt_to."""
    fates, track_col = cols[2], cols[3]
    n = rules[L.R_PLAYERS]
    per_batch = n * L.HAND_SIZE
    _note_tracked_deal(rules, deck, dealer, rec, track_col)
    _start_round(sim, rules, deck, dealer)
    for ply in range(L.PLIES):
        if ply > 0 and ply % per_batch == 0:  # every hand is empty
            _deal_batch(sim, deck, ply // per_batch, n)
        s = sim[L.TO_MOVE]
        kind, bmask = moves[ply, L.M_KIND], moves[ply, L.M_BUILDS]
        if kind == L.CAPTURE:  # a capture takes at most the one build of its value
            if bmask != 0:
                owner = sim[L.OWNER + ctz(bmask)]
                rec[fates[(owner - dealer - 1 + n) % n] + (L.NR_OWN if owner == s else L.NR_LOST)] += 1
        elif kind != L.TRAIL:  # a new build, or another player's taken over
            mine, m = False, bmask
            while m != 0:
                mine |= sim[L.OWNER + ctz(m)] == s
                m &= m - 1
            if not mine:
                rec[fates[(s - dealer - 1 + n) % n]] += 1
        pile, sweeps = sim[L.CAPTURED + s], sim[L.SWEEPS + s]
        _apply(sim, rules, kind, moves[ply, 1], moves[ply, 2], bmask, moves[ply, 4])
        taken = sim[L.CAPTURED + s] & ~pile
        for t in range(2):
            if (taken >> L.TRACK_CARDS[t]) & 1:
                rec[track_col[t] + 2], rec[track_col[t] + 3] = s, ply + 1
        if sim[L.SWEEPS + s] > sweeps:
            rec[fates[(s - dealer - 1 + n) % n] + L.NR_SWEEPS_B + ply // per_batch] += 1
    rest = sim[L.LOOSE]
    for v in range(1, 11):
        rest |= sim[L.BUILD + v]
    for t in range(2):
        if sim[L.LAST_CAPTURER] >= 0 and (rest >> L.TRACK_CARDS[t]) & 1:
            rec[track_col[t] + 2], rec[track_col[t] + 3] = sim[L.LAST_CAPTURER], REMAINDER_PLY


@njit(cache=True)
def _record_block(rules, tbl, deals, policies, idx, lo, hi, cap, bits, outs, cols, search):
    """Play rows idx[lo:hi] with one Scratch, player p of row i with policy seating[i, p]; outs as _record_rows."""
    decks, dealers, seeds, seating, scripts = deals
    ints_k, weights_k, wants_k = policies
    out, status, trace = outs
    n, k = rules[L.R_PLAYERS], ints_k.shape[0]
    buf = _new_scratch(cap, bits)
    ints = np.zeros((L.MAX_PLAYERS, L.P_INTS), dtype=np.int64)
    weights = np.zeros((2 * L.MAX_PLAYERS, N_FEATURES), dtype=np.float64)  # rows n + p: the rollout bases
    wants = np.zeros((2 * L.MAX_PLAYERS, N_FEATURES), dtype=np.int64)
    st = np.zeros(L.STATE_SIZE, dtype=np.int64)
    deck = np.zeros(52, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    moves = np.zeros((L.PLIES, L.MOVE_FIELDS), dtype=np.int64)
    sim = np.zeros(L.STATE_SIZE, dtype=np.int64)
    no_script = buf.quiet[2]
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
        script = scripts[i] if i < scripts.shape[0] else no_script
        played = trace[i] if i < trace.shape[0] else moves
        status[i], remainder = _play_round_n(
            st, rules, tbl, deck, dealers[i], (ints, weights, wants), buf, rng, script, played, search
        )
        if status[i] == L.OK:
            for j in range(out.shape[1]):
                out[i, j] = 0
            _write_record(st, rules, played, buf.score, remainder, out[i], cols)
            _write_anatomy(rules, deck, dealers[i], played, sim, out[i], cols)


@njit(cache=True, parallel=True)
def _record_rows(rules, tbl, deals, policies, idx, cap, bits, out, status, trace, cols, search):
    """Play the rows listed in idx into out[i] (blocks of BLOCK rows per thread, each with its own Scratch);
    status[i] != 0 marks a row to replay with larger buffers. deals: (decks, dealers, seeds, seating, scripts)."""
    n_rows = idx.shape[0]
    n_blocks = (n_rows + L.BLOCK - 1) // L.BLOCK
    for b in prange(n_blocks):
        lo, hi = b * L.BLOCK, min(n_rows, (b + 1) * L.BLOCK)
        _record_block(rules, tbl, deals, policies, idx, lo, hi, cap, bits, (out, status, trace), cols, search)


def play_rows_n(
    rows,
    rules: RuleSet,
    ints,
    weights,
    wants,
    trace: np.ndarray | None = None,
    scripts: np.ndarray | None = None,
    search: bool = False,
) -> dict[str, np.ndarray]:
    """One record per row of a three- or four-player run (core/record.py many_record_columns), the same on any
    thread count: player p of row i plays policy rows.seating[i, p] of the k policies' arrays (policy_arrays:
    ints (k, P_INTS), weights and wants (2k, F)). trace[i] receives row i's moves, scripts[i] a scripted row's
    choices (kind SCRIPTED); `search` as rows.py's play_rows."""
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet, got {type(rules).__name__}")
    n, k = rules.players, len(ints)
    policies = (
        np.ascontiguousarray(ints, dtype=np.int64),
        np.ascontiguousarray(weights, dtype=np.float64),
        np.ascontiguousarray(wants, dtype=np.int64),
    )
    if policies[0].shape != (k, L.P_INTS) or policies[1].shape != (2 * k, N_FEATURES) != policies[2].shape:
        raise ValueError(f"policy arrays must be ({k}, {L.P_INTS}) and ({2 * k}, {N_FEATURES})")
    kinds = (L.RANDOM, L.HEURISTIC, L.ROLLOUT, L.SEARCHER, L.ALWAYS_TRAIL, L.SCRIPTED)
    if not np.isin(policies[0][:, L.P_KIND], kinds).all():
        raise ValueError("the n-player rows play random, heuristic, rollout, searcher, trail and scripted seats")
    seating = np.ascontiguousarray(rows.seating, dtype=np.int64)
    if seating.shape != (len(rows.decks), n) or ((seating < 0) | (seating >= k)).any():
        raise ValueError(f"rows.seating must name one of the {k} policies for each of the {n} players of a row")
    scripts = np.zeros((0, L.PLIES), np.int64) if scripts is None else np.ascontiguousarray(scripts, np.int64)
    trace = checked_trace(trace)
    deals = (
        rows.decks.astype(np.int64),
        rows.dealer.astype(np.int64),
        rows.seeds.astype(np.uint64),
        seating,
        scripts,
    )
    columns, cols = L.many_record_layout(n, rules.teams)
    out = np.zeros((len(seating), len(columns)), dtype=np.int64)
    status = np.zeros(len(seating), dtype=np.int64)
    rules_arr, tbl, search = rules.as_array(), split_table(), search_switch(policies[0], search)

    def play(todo, cap, bits):
        _record_rows(rules_arr, tbl, deals, policies, todo, cap, bits, out, status, trace, cols, search)
        if (status == L.NO_MOVES).any():
            raise RuntimeError("engine bug: a player had no legal move")

    replay_rows(play, status, "an n-player round")
    return {c: out[:, j] for j, c in enumerate(columns)}
