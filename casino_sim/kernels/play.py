"""The round loop: whole rounds of every kind of seat (a rollout's play-outs play the same plays on a lean copy
of it, rollout.py _play_out, which a test holds equal).

`_play_on` plays a round on from any state to its last play, dealing each
batch when every hand is empty (48 plays with 2, 3 or 4 players), each seat choosing with
its policy row. Its
`io` bundle (record row, trace rows, script, the record's layout) says what else it does: a whole
round of simulate fills its record (and traces its moves); a round that is
only played passes empty arrays. A rollout player's choice needs play-outs, and
numba cannot cache a loop that calls itself, so `_play_on` stops at a rollout
(or scripted) player's turn and its caller (rows.py) decides; a searcher without
worlds plays here as its base until its exact plays (search.py). It is inlined
into its caller: a call that hands over the Scratch pays an atomic reference
count per array, more than a round's bookkeeping (measured).
"""

from __future__ import annotations

from numba import njit

from casino_sim.core.record import REMAINDER_PLY
from casino_sim.kernels import layout as L
from casino_sim.kernels.apply import _apply
from casino_sim.kernels.bits import ctz, popcount
from casino_sim.kernels.check import _check_end, _check_play
from casino_sim.kernels.choose import _heuristic_index
from casino_sim.kernels.movegen import _first_move, _first_trail, _movegen
from casino_sim.kernels.rng import _below
from casino_sim.kernels.score import _finish, _score
from casino_sim.kernels.state import _batch_of, _batch_start, _deal_batch


@njit("void(int64[::1], int64, int64, int8[::1], int64[:, :, ::1])", cache=True)
def _note_deal(deck, n, dealer, rec, tab):
    """Where the 10♦ and 2♠ are dealt (state.py _deal_batch's order): to a player, or n for the table, and in which
    batch (1..). Read from the deck at the round's start, once, not at each batch's deal: the deck fixes it."""
    for i in range(52):
        for t in range(2):
            if deck[i] == L.TRACK_CARDS[t]:
                col = tab[L.G_TRACK, 0, t]
                batch = _batch_of(n, i)
                at = i - _batch_start(n, batch)  # the card's place in its batch: the hands first, then the table
                rec[col] = (dealer + 1 + at // L.HAND_SIZE) % n if at < L.HAND_SIZE * n else n
                rec[col + 1] = batch + 1


@njit(cache=True, inline="always")
def _exact_from(rules, skip):
    """The first play a searcher searches exactly: `skip` (its P_EXACT_SKIP) plays into a two-player round's last
    batch; never (PLIES) with three or four players, whose hidden split is unknown."""
    if rules[L.R_PLAYERS] != 2:  # the rule: the last batch's hidden split is unknown (docs/rules.md 11)
        return L.PLIES
    return L.PLIES - L.PLIES_PER_BATCH + skip


@njit(cache=True, inline="always")
def _note_builds(st, s, kind, bmask, rec, tab):
    """The fates of the builds a play names (bmask != 0), read before it is applied: their owners (tab: where
    each player's builds_made column is, layout.py record_layout).

    A capture ends the build of its value: counted for its owner as captured by themselves or lost. An
    increase or add makes a build when none of the builds it names was the mover's (another's taken over).
    """
    if kind == L.CAPTURE:  # a capture takes at most the one build of its value
        owner = st[L.OWNER + ctz(bmask)]
        rec[tab[L.G_FATES, st[L.DEALER], owner] + (L.OWN if owner == s else L.LOST)] += 1
        return
    while bmask != 0:
        if st[L.OWNER + ctz(bmask)] == s:
            return
        bmask &= bmask - 1
    rec[tab[L.G_FATES, st[L.DEALER], s]] += 1


@njit(cache=True, inline="always")
def _note_taken(cards, who, ply, rec, tab):
    """Record which tracked cards (10♦, 2♠) are among `cards`: taken by `who` at play `ply` (the remainder's:
    REMAINDER_PLY). Both may go in one capture."""
    if cards & L.TRACK_MASK:
        for t in range(2):
            if (cards >> L.TRACK_CARDS[t]) & 1:
                rec[tab[L.G_TRACK, 0, t] + 2] = who
                rec[tab[L.G_TRACK, 0, t] + 3] = ply


@njit(cache=True, inline="always")
def _play_on(st, rules, tbl, deck, seats, buf, mv, rng, io, check, pick):
    """Play on from `st` to the round's last play, seat s choosing with row s of `seats`. Returns (status, n).

    (CALLER_CHOOSES, n): a rollout, searcher or scripted seat is to choose among the n moves now in mv; the caller
    calls again with `pick`, the chosen row of mv (-1: choose here). With a record (io[0]), each play is
    traced (io[1]), checked (`check`: True, or None for no check, rows.py check_switch) and counted.
    """
    ints, weights, wants = seats
    rec, trace, _script, tab = io
    sc_code, sc_mask, after, f, scores = buf.sc_code, buf.sc_mask, buf.after, buf.f, buf.scores
    while st[L.PLY] < L.PLIES:
        s = st[L.TO_MOVE]
        if pick >= 0:  # the caller chose among the moves in mv
            i = pick
            pick = -1
        else:
            if (st[L.HAND] | st[L.HAND + 1] | st[L.HAND + 2] | st[L.HAND + 3]) == 0:  # every hand is empty
                batch = st[L.PLY] // (L.HAND_SIZE * rules[L.R_PLAYERS])
                _deal_batch(st, deck, batch, rules[L.R_PLAYERS])
            kind = ints[s, L.P_KIND]
            if kind == L.ALWAYS_TRAIL and _first_trail(st, rules, mv):  # a legal trail: no move list needed
                i = 0
            else:
                n = _movegen(st, rules, tbl, mv, sc_code, sc_mask)
                if n < 0:
                    return L.NEED_SCRATCH, 0
                if n > mv.shape[0]:  # the per-move arrays of the Scratch are all as long as mv
                    return L.NEED_MOVES, 0
                if n == 0:
                    return L.NO_MOVES, 0
                if kind == L.ALWAYS_TRAIL:  # no trail is legal: the first move in canonical order
                    i = _first_move(mv, n)
                else:
                    row = s  # the row of seats whose weights choose
                    if kind > L.HEURISTIC:  # a rollout, searcher or scripted seat: the caller chooses, unless...
                        if (
                            kind != L.SEARCHER
                            or ints[s, L.P_WORLDS] != 0
                            or st[L.PLY] >= _exact_from(rules, ints[s, L.P_EXACT_SKIP])
                        ):
                            return L.CALLER_CHOOSES, n
                        # ...a searcher without worlds before its exact plays: its base, at row players + s
                        kind, row = ints[s, L.P_BASE_KIND], rules[L.R_PLAYERS] + s
                    if kind == L.HEURISTIC:
                        i = _heuristic_index(st, rules, tbl, mv, n, weights[row], wants[row], rng, after, f, scores)
                    else:  # random
                        i = _below(rng, n)
        if trace.shape[0]:
            for k in range(L.MOVE_FIELDS):
                trace[st[L.PLY], k] = mv[i, k]
        pile, sweeps = st[L.CAPTURED + s], st[L.SWEEPS + s]
        if rec.shape[0] and mv[i, 3] != 0:  # a play naming builds (rare): their owners before it
            _note_builds(st, s, mv[i, 0], mv[i, 3], rec, tab)
        _apply(st, rules, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4])
        if check is not None:  # None (check_switch): pruned before typing, the common variant compiles no check
            broken = _check_play(st, rules, deck)
            if broken:
                rec[L.C_PLIES] = st[L.PLY]
                return broken, 0
        if rec.shape[0]:
            d = st[L.DEALER]
            played = mv[i, 0]
            rec[tab[L.G_PLAYS, d, s] + played] += 1  # the anatomy: plays by kind; a new build is one made
            if played == L.BUILD_K:
                rec[tab[L.G_FATES, d, s]] += 1
            _note_taken(st[L.CAPTURED + s] & ~pile, s, st[L.PLY], rec, tab)
            if st[L.SWEEPS + s] > sweeps:  # by batch (n_sweeps is the score row's)
                rec[tab[L.G_SWEEPS, d, s] + (st[L.PLY] - 1) // (L.HAND_SIZE * rules[L.R_PLAYERS])] += 1
    return L.OK, 0


@njit(cache=True)
def _end_round(st, rules, score, rec, tab, check):
    """The remainder to the last capturer, the score, and the rest of the record (tab: where, record_layout).
    Returns a status."""
    n, d = rules[L.R_PLAYERS], st[L.DEALER]
    rec[L.C_PLIES] = st[L.PLY]
    for p in range(n):
        if tab[L.G_SEAT, d, p] >= 0:
            rec[tab[L.G_SEAT, d, p]] = p
    rest = st[L.LOOSE]
    for v in range(1, 11):
        rest |= st[L.BUILD + v]
    last = st[L.LAST_CAPTURER]
    if not _finish(st):  # a void round scores 0 everywhere (score.py)
        rec[L.C_VOID] = 1
        rec[L.C_LAST] = -1
        return L.OK
    rec[L.C_LAST] = last
    rec[L.C_REMAINDER] = popcount(rest)
    _note_taken(rest, last, REMAINDER_PLY, rec, tab)
    _score(st, rules, score)
    if check is not None:
        broken = _check_end(st, rules, score)
        if broken:
            return broken
    for p in range(n):
        for f in range(L.SCORE_FIELDS):  # the score row's fields in their order (record_layout)
            rec[tab[L.G_SCORE, d, p] + f] = score[p, f]
    for side in range(2):
        if tab[L.G_TEAM, d, side] >= 0:
            for f in range(L.TEAM_SCORE.shape[0]):
                rec[tab[L.G_TEAM, d, side] + f] = score[n + side, L.TEAM_SCORE[f]]
    return L.OK
