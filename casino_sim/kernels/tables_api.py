"""The research adapters' tables on the numba engine (kernels/factored.py): one table (`Table`) or many stepped
together (`Tables`), each a round played in the factored encoding. Arguments are checked here; the kernels trust
them. Neither draws a random number: the caller hands in the deal (picks or decks) and, for random play, seeds.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

from casino_sim.kernels import layout as L
from casino_sim.kernels.batch_step import _finish_rows, _play_tables
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
    TERMINAL,
    _act,
    _begin,
    _commit,
    _deal,
    _side_points,
    _turn,
    new_buffers,
)
from casino_sim.kernels.observe import _observe
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
    """N tables stepped together, in one parallel kernel a step (kernels/batch_step.py). `start(dealers, seeds)` deals
    each table a round from its first deck in `upcoming`; `play(actions, skip, counter)` plays each table's action,
    deals what is due, and starts a fresh round from the table's next deck in `upcoming` where its round ended at the
    step before (`ahead[i]`: how many of table i's decks are used; the caller refills them before they run out).
    Each call leaves `status`, `terminated`, `rewards` (each player's, where a round ended; `zero_sum`: the difference
    of the two sides), `observation` (the view of the player to move, research/views.py's fields at `offsets`),
    `drawn` (a uniform legal action a table, from its seed and `counter`) and `legal` (N, N_IDS)."""

    def __init__(self, rules_arr, n, offsets, width, side, zero_sum, ahead=16, cap=512, bits=16, chunks=16):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"the number of tables must be a whole number from 1, got {n!r}")
        self.rules = np.ascontiguousarray(rules_arr, dtype=np.int64)
        self.n = n
        self.sts = np.zeros((n, L.STATE_SIZE), np.int64)
        self.ctls = np.zeros((n, C_SIZE), np.int64)
        self.decks = np.zeros((n, 52), np.int64)
        self.upcoming = np.zeros((n, ahead, 52), np.int64)
        self.ahead = np.full(n, ahead, np.int64)
        one = new_buffers(cap, bits)
        per_chunk = (2, 3)  # movegen's subset scratch, one a chunk of tables (batch_step.py _play_tables)
        self.bufs = tuple(np.stack([b] * (min(chunks, n) if k in per_chunk else n)) for k, b in enumerate(one))
        self.legal = self.bufs[4]
        self.status = np.zeros(n, np.int64)
        self.terminated = np.zeros(n, np.bool_)
        self.rewards = np.zeros((n, len(side)), np.float32)
        self.observation = np.zeros((n, width), np.float32)
        self.drawn = np.zeros(n, np.int64)
        self.seeds = np.zeros(n, np.uint64)
        totals = np.zeros(2 if self.rules[L.R_TEAMS] else int(self.rules[L.R_PLAYERS]), np.int64)  # one round: none
        side = np.ascontiguousarray(side, dtype=np.int64)
        self._view = (np.ascontiguousarray(offsets, dtype=np.int64), totals, side, self.seeds, bool(zero_sum))
        self._out = (self.status, self.observation, self.rewards, self.terminated, self.drawn)
        self.tbl = split_table()

    def start(self, dealers, seeds) -> np.ndarray:
        """Each table's round from its first deck in `upcoming`, dealer `dealers[i]`, its draws from `seeds[i]`."""
        self.sts[:, L.DEALER] = np.asarray(dealers, np.int64)
        self.seeds[:] = np.asarray(seeds, np.uint64)
        self.ctls[:, C_PLAYER] = TERMINAL  # a step from "over" starts the round from the next deck
        self.ahead[:] = 0
        return self.play(np.zeros(self.n, np.int64), np.zeros(self.n, np.bool_), 0)

    def play(self, actions: np.ndarray, skip: np.ndarray, counter: int) -> np.ndarray:
        """Each table's action, but for those `skip` marks (played by their caller); returns each one's status."""
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        skip = np.ascontiguousarray(skip, dtype=np.bool_)
        if actions.shape != (self.n,) or skip.shape != (self.n,):
            raise ValueError(f"step takes one action and one skip flag per table: ({self.n},), got {actions.shape}")
        stock = (self.ahead, self.upcoming)
        before = numba.set_parallel_chunksize(1)  # each thread takes the next chunk of tables when it is free
        try:
            _play_tables(
                self.sts, self.rules, self.ctls, self.decks, self.tbl, self.bufs, stock, actions, skip, self._out,
                self._view, int(counter),
            )  # fmt: skip
        finally:
            numba.set_parallel_chunksize(before)
        return self.status

    def finish(self, rows, counter: int) -> None:
        """The learner's arrays (terminated to drawn) of the tables `rows`, played apart from the batch."""
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        _finish_rows(rows, self.sts, self.rules, self.ctls, self.decks, self.bufs, self._out, self._view, int(counter))

    @property
    def player(self) -> np.ndarray:
        return self.ctls[:, C_PLAYER]

    def detach(self, i: int) -> Table:
        """Table i as a Table of its own buffers over the batch's state, control row and deck (the caller steps it,
        and skips it in `play`, while its turns outgrow the batch's buffers)."""
        table = Table.__new__(Table)
        table.rules, table.tbl = self.rules, self.tbl
        table.st, table.ctl, table.deck = self.sts[i], self.ctls[i], self.decks[i]
        table.buf = (*new_buffers(1024, 12)[:6], self.bufs[6][i])
        table.mask = table.buf[4][:N_IDS]
        return table

    def attach(self, i: int, table: Table) -> bool:
        """Table i (detached) back on the batch's buffers, when its turn's moves fit them: its moves, their first
        actions and its mask copied in (its state, control row, deck and plays are the batch's already)."""
        n = int(table.ctl[C_N])
        if not 0 <= n <= self.bufs[0].shape[1]:
            return False
        self.bufs[0][i, :n] = table.buf[0][:n]
        self.bufs[1][i, :n] = table.buf[1][:n]
        self.legal[i] = table.buf[4]
        return True

    def show_choice(self, i: int, legal, play: int, chosen) -> None:
        """Table i's legal actions and the play being chosen (-1: none) with its loose cards named so far, as a
        caller playing its turn another way decided them."""
        self.legal[i] = 0
        self.legal[i, legal] = 1
        self.ctls[i, C_FAM] = play
        self.ctls[i, C_CHOSEN] = sum(1 << int(c) for c in chosen)


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
