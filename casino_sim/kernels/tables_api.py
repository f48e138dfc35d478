"""The research adapters' tables on the numba engine (kernels/factored.py): one table (`Table`) or many stepped
together (`Tables`), each a round played in the factored encoding. Arguments are checked here; the kernels trust
them. Neither draws a random number: the caller hands in the deal (picks or decks) and, for random play, seeds.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from casino_sim.kernels import layout as L
from casino_sim.kernels.bits import popcount
from casino_sim.kernels.factored import (
    C_CHOSEN,
    C_DEALT,
    C_FAM,
    C_N,
    C_NEED,
    C_PLAYER,
    C_SIZE,
    C_VOID,
    ILLEGAL,
    N_IDS,
    OK,
    OVERFLOW,
    SLOTS,
    _act,
    _begin,
    _commit,
    _deal,
    _random_legal,
    _side_points,
    _step_tables,
    _turn,
    new_buffers,
)
from casino_sim.kernels.tables import split_table

MOST_MOVES, MOST_BITS = 1 << 18, 22  # one table's buffers at their largest: 10 MB of moves, 64 MB of subsets
__all__ = ["ILLEGAL", "N_IDS", "OK", "OVERFLOW", "Table", "Tables", "decks_of", "new_buffers"]


class Table:
    """One round in the factored encoding: `begin(dealer)`, `deal(picks)` (cards, or indices among the undealt
    cards), `act(action)`, `commit(row)` (a move played another way, on a table past the buffers); `player`,
    `mask` (uint8), `side_points()`, `observe(...)`. OVERFLOW from deal/act/commit: the turn's moves do not fit."""

    def __init__(self, rules_arr: np.ndarray):
        self.rules = np.ascontiguousarray(rules_arr, dtype=np.int64)
        self.st = np.zeros(L.STATE_SIZE, np.int64)
        self.deck = np.zeros(52, np.int64)
        self.ctl = np.zeros(C_SIZE, np.int64)
        self.buf = new_buffers(256, 10)  # grown on a turn that needs it, up to the most below
        self.mask = self.buf[4][:N_IDS]
        self.tbl = split_table()

    def begin(self, dealer: int) -> None:
        _begin(self.st, self.rules, self.ctl, int(dealer))

    def deal(self, picks, by_index: bool) -> int:
        picks = np.ascontiguousarray(picks, dtype=np.int64)
        return self._grown(_deal(self.st, self.rules, self.deck, self.ctl, picks, bool(by_index), self.tbl, self.buf))

    def act(self, action: int) -> int:
        return self._grown(_act(self.st, self.rules, self.ctl, self.tbl, self.buf, int(action)))

    def commit(self, row) -> int:
        row = np.ascontiguousarray(row, dtype=np.int64)
        return self._grown(_commit(self.st, self.rules, self.ctl, self.tbl, self.buf, row))

    def _grown(self, status: int) -> int:
        """A turn whose moves overflow the buffers is made again in buffers as large as it needs, up to MOST_MOVES
        moves and 2**MOST_BITS subsets: OVERFLOW past those (the caller plays that turn another way)."""
        while status == OVERFLOW:
            need, cap, bits = int(self.ctl[C_NEED]), len(self.buf[0]), len(self.buf[2]).bit_length() - 1
            cap, bits = (cap, -need) if need < 0 else (1 << need.bit_length(), bits)
            if cap > MOST_MOVES or bits > MOST_BITS:
                return OVERFLOW
            self.buf = (*new_buffers(cap, bits)[:6], self.buf[6])  # the round's plays kept
            self.mask = self.buf[4][:N_IDS]
            status = _turn(self.st, self.rules, self.tbl, self.ctl, self.buf)
        return int(status)

    @property
    def player(self) -> int:
        return int(self.ctl[C_PLAYER])

    @property
    def dealt(self) -> int:
        return int(self.ctl[C_DEALT])

    @property
    def choosing(self) -> bool:
        return bool(self.ctl[C_FAM] >= 0)

    @property
    def fits(self) -> bool:
        """Whether the turn's moves are in the buffers (False: the caller plays the turn another way)."""
        return bool(self.ctl[C_N] >= 0)

    @property
    def void(self) -> bool:
        return bool(self.ctl[C_VOID])

    def side_points(self) -> list[int]:
        out = np.zeros(2 if self.rules[L.R_TEAMS] else int(self.rules[L.R_PLAYERS]), np.int64)
        _side_points(self.rules, self.buf[5], out)
        return out.tolist()

    def observe(self, player: int, totals: np.ndarray, offsets: np.ndarray, out: np.ndarray) -> None:
        """Fill `out` with research/views.py's view of `player`, fields at `offsets` (views.py field_offsets)."""
        _observe(self.st, self.rules, self.ctl, totals, int(player), offsets, self.deck, self.buf[6], out)

    def copy(self) -> Table:
        other = Table.__new__(Table)
        other.rules, other.tbl = self.rules, self.tbl
        other.st, other.deck, other.ctl = self.st.copy(), self.deck.copy(), self.ctl.copy()
        other.buf = tuple(b.copy() for b in self.buf)
        other.mask = other.buf[4][:N_IDS]
        return other


class Tables:
    """N tables stepped together (parallel over the tables): `start(decks, dealers)` deals each a round from its
    deck; `step(actions)` plays each table's action, deals what is due, and starts a fresh round (from the deck
    `decks` then holds for it) on a table whose round ended at the step before. `player`, `legal` (N, N_IDS)."""

    def __init__(self, rules_arr: np.ndarray, n: int, cap: int = 512, bits: int = 16, chunks: int = 16):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"the number of tables must be a whole number from 1, got {n!r}")
        self.rules = np.ascontiguousarray(rules_arr, dtype=np.int64)
        self.n = n
        self.sts = np.zeros((n, L.STATE_SIZE), np.int64)
        self.ctls = np.zeros((n, C_SIZE), np.int64)
        self.decks = np.zeros((n, 52), np.int64)
        one = new_buffers(cap, bits)
        per_chunk = (2, 3)  # movegen's subset scratch, one a chunk of tables (factored.py _step_tables)
        self.bufs = tuple(np.stack([b] * (min(chunks, n) if k in per_chunk else n)) for k, b in enumerate(one))
        self.legal = self.bufs[4]
        self.status = np.zeros(n, np.int64)
        self.tbl = split_table()

    def start(self, dealers) -> None:
        """Each table's round from its deck (`decks`), dealer `dealers[i]`."""
        for i, d in enumerate(np.asarray(dealers, np.int64)):
            self.sts[i, L.DEALER] = d
        self.ctls[:, C_PLAYER] = -4  # a step from "over" starts the round from the deck
        self.step(np.zeros(self.n, np.int64), np.zeros(self.n, bool))

    def step(self, actions: np.ndarray, skip: np.ndarray) -> np.ndarray:
        """Each table's action, but for those `skip` marks (played by their caller); returns each one's status."""
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        skip = np.ascontiguousarray(skip, dtype=np.bool_)
        if actions.shape != (self.n,) or skip.shape != (self.n,):
            raise ValueError(f"step takes one action and one skip flag per table: ({self.n},), got {actions.shape}")
        sts, ctls, decks, bufs = self.sts, self.ctls, self.decks, self.bufs
        _step_tables(sts, self.rules, ctls, decks, self.tbl, bufs, actions, skip, self.status)
        return self.status

    @property
    def player(self) -> np.ndarray:
        return self.ctls[:, C_PLAYER]

    def detach(self, i: int) -> Table:
        """Table i as a Table of its own buffers over the batch's state, control row and deck (the caller steps it,
        and skips it in `step`, while its turns outgrow the batch's buffers)."""
        table = Table.__new__(Table)
        table.rules, table.tbl = self.rules, self.tbl
        table.st, table.ctl, table.deck = self.sts[i], self.ctls[i], self.decks[i]
        table.buf = (*new_buffers(1024, 12)[:6], self.bufs[6][i])
        table.mask = table.buf[4][:N_IDS]
        return table

    def show_choice(self, i: int, legal, play: int, chosen) -> None:
        """Table i's legal actions and the play being chosen (-1: none) with its loose cards named so far, as a
        caller playing its turn another way decided them."""
        self.legal[i] = 0
        self.legal[i, legal] = 1
        self.ctls[i, C_FAM] = play
        self.ctls[i, C_CHOSEN] = sum(1 << int(c) for c in chosen)

    def random_actions(self, seeds: np.ndarray, counter: int, out: np.ndarray) -> np.ndarray:
        """A uniform legal action per table from (seed, counter) (splitmix64): random play without Python."""
        _random_legal(self.legal, seeds, int(counter), out)
        return out

    def side_points(self, out: np.ndarray) -> np.ndarray:
        """(N, sides): each table's round points by side (meaningful where its round is over)."""
        _all_side_points(self.rules, self.bufs[5], out)
        return out

    def observe(self, totals: np.ndarray, offsets: np.ndarray, out: np.ndarray) -> np.ndarray:
        """(N, width): each table's view of its player to move (research/views.py's fields at `offsets`)."""
        _observe_all(self.sts, self.rules, self.ctls, totals, offsets, self.decks, self.bufs[6], out)
        return out


@njit(cache=True, parallel=True)
def _all_side_points(rules, scores, out):
    for i in prange(scores.shape[0]):
        _side_points(rules, scores[i], out[i])


@njit(cache=True, parallel=True)
def _observe_all(sts, rules, ctls, totals, offsets, decks, hists, out):
    for i in prange(sts.shape[0]):
        _observe(sts[i], rules, ctls[i], totals, max(ctls[i, C_PLAYER], 0), offsets, decks[i], hists[i], out[i])


@njit(cache=True, inline="always")
def _cards(out, at, mask):
    while mask:
        low = mask & -mask
        mask ^= low
        out[at + popcount(low - 1)] = 1.0


@njit(cache=True)
def _observe(st, rules, ctl, totals, player, offsets, deck, hist, out):
    """research/views.py View.set_from: offsets[k] is where field k of views.FIELDS starts (-1: not in the view)."""
    n = rules[L.R_PLAYERS]
    out[:] = 0.0
    o = offsets
    out[o[0] + player] = 1.0
    if ctl[C_PLAYER] >= 0:
        out[o[1] + ctl[C_PLAYER]] = 1.0
    out[o[2] + st[L.DEALER]] = 1.0
    _cards(out, o[3], st[L.HAND + player])
    for p in range(n):
        out[o[4] + p] = popcount(st[L.HAND + p])
        _cards(out, o[8] + 52 * p, st[L.CAPTURED + p])
        out[o[9] + p] = st[L.SWEEPS + p]
        out[o[11] + p] = st[L.MUST_ACT + p]
    _cards(out, o[5], st[L.LOOSE])
    for v in range(1, 11):
        if st[L.BUILD + v] != 0:
            _cards(out, o[6] + 52 * (v - 1), st[L.BUILD + v])
            out[o[7] + n * (v - 1) + st[L.OWNER + v]] = 1.0
    if st[L.LAST_CAPTURER] >= 0:
        out[o[10] + st[L.LAST_CAPTURER]] = 1.0
    out[o[12] + min(st[L.PLY] // (4 * n), L.PLIES // (4 * n) - 1)] = 1.0
    for s in range(totals.shape[0]):
        out[o[13] + s] = totals[s]
    if o[14] >= 0 and ctl[C_FAM] >= 0 and ctl[C_PLAYER] == player:
        out[o[14] + ctl[C_FAM] // SLOTS] = 1.0
        out[o[15] + ctl[C_FAM] % SLOTS] = 1.0
        _cards(out, o[16], ctl[2])
    if o[17] >= 0:
        _recall(st, n, ctl, player, o, deck, hist, out)


@njit(cache=True)
def _recall(st, n, ctl, player, o, deck, hist, out):
    """The information state's fields: the player's hands as dealt, the table's first cards, every play so far."""
    seat = (player - st[L.DEALER] - 1) % n  # the place in the deal's turn order
    for b in range(L.PLIES // (4 * n)):
        end = 4 * n + 4 + 4 * n * b
        if ctl[C_DEALT] >= end:
            start = 0 if b == 0 else end - 4 * n
            for j in range(4):
                out[o[17] + 52 * b + deck[start + 4 * seat + j]] = 1.0
    if ctl[C_DEALT] >= 4 * n + 4:
        for j in range(4):
            out[o[18] + deck[4 * n + j]] = 1.0
    width = n + 5 + 52 + 52 + 10 + 10  # views.py play_width: mover, kind, card, loose, builds, value
    for ply in range(st[L.PLY]):
        at = o[19] + ply * width
        out[at + hist[ply, 0]] = 1.0
        out[at + n + hist[ply, 1]] = 1.0
        out[at + n + 5 + hist[ply, 2]] = 1.0
        _cards(out, at + n + 57, hist[ply, 3])
        for v in range(1, 11):
            if (hist[ply, 4] >> v) & 1:
                out[at + n + 109 + v - 1] = 1.0
        if hist[ply, 5] > 0:
            out[at + n + 119 + hist[ply, 5] - 1] = 1.0


@njit(cache=True)
def _decks_of(picks, out):
    """Decks from picks: each card the picks[i, k]-th (0-based) of the cards not dealt before it, ascending."""
    for i in range(picks.shape[0]):
        taken = 0
        for k in range(52):
            left = picks[i, k]
            for c in range(52):
                if (taken >> c) & 1 == 0:
                    if left == 0:
                        out[i, k] = c
                        taken |= 1 << c
                        break
                    left -= 1


def decks_of(picks: np.ndarray) -> np.ndarray:
    """(m, 52) picks (row k's entry k below 52 - k) to the decks they deal."""
    picks = np.ascontiguousarray(picks, dtype=np.int64)
    out = np.zeros_like(picks)
    _decks_of(picks, out)
    return out
