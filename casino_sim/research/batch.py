"""N tables of Casino stepped together on the numba engine, for learners (docs/research.md): pgx's shape.

`BatchEnv(n, rules=..., players=...)` plays one round per table in the factored encoding (research/encoding.py).
`reset(seed)` deals every table and `step(actions)` takes one action per table; both leave the arrays `player`
(who is to move at each table), `observation` (that player's view: research/views.py's fields, no recall, float32),
`legal_action_mask` (bool, NUM_ACTIONS wide), `rewards` (each player's, at the step a round ends; else 0) and
`terminated`. A table whose round ended at one step starts its next round at the next step (its action then is
ignored), as Gymnasium's vector environments reset by default. Table i's deals come from
`numpy.random.default_rng(seeds[i])` exactly as casino_v0's `reset(seed=seeds[i])` draws them (ROUNDS_AHEAD deals
at a time, which one kernel call a step then deals from: kernels/batch_step.py), so a table's trajectory is the
single environment's (tests/research/test_batch.py). `random_actions()` gives a uniform legal action per table,
drawn in that kernel (random play without a Python loop).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from casino_sim.core.errors import InputError, UserError
from casino_sim.kernels import ILLEGAL, OK, OVERFLOW, Table, Tables, decks_of, row_of_move, state_to_position
from casino_sim.reference.seats import side_of
from casino_sim.research.choice import Turn
from casino_sim.research.encoding import NUM_ACTIONS
from casino_sim.research.game_state import CHANCE, TERMINAL
from casino_sim.research.options import check_modes, table_rules
from casino_sim.research.round_state import IllegalAction
from casino_sim.research.views import field_offsets, view_layout

NAME = "casino_batch"
ROUNDS_AHEAD = 16  # deals drawn at a time for a table


class BatchEnv:
    """`n` tables of one round each (rules, players, teams and the game options as casino_v0 takes them; zero_sum:
    the rewards as the point difference of two sides)."""

    def __init__(self, n: int, rules: str = "strict", players: int = 2, teams: bool = False, zero_sum=False, **opts):
        try:
            self.rules = table_rules(rules, players, teams, **opts)
            check_modes(self.rules, False, bool(zero_sum), "factored", "numba")
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                raise UserError(f"the number of tables must be a whole number from 1, got {n!r}")
        except UserError as e:
            raise InputError(f"{NAME}: {e}") from None
        self.n, self.zero_sum, self.players = n, bool(zero_sum), self.rules.players
        layout = view_layout(self.players, self.rules.n_sides, recall=False)
        width = sum(int(np.prod(shape)) for _, shape in layout)
        side = [side_of(self.rules, p) for p in range(self.players)]
        self.tables = Tables(
            self.rules.as_array(), n, field_offsets(layout), width, side, self.zero_sum, ahead=ROUNDS_AHEAD
        )
        self._rngs: list[np.random.Generator] = []
        self._big: dict[int, tuple] = {}  # tables whose turn overflows the batch's buffers: (Table, Turn or None)
        self._skip = np.zeros(n, bool)  # the tables in _big, which the batch's kernel leaves alone
        self._counter = 0  # steps since the reset: with the seeds, the key of random_actions' draws
        self._bounds = np.tile(np.arange(52, 0, -1), ROUNDS_AHEAD)

    @property
    def player(self) -> np.ndarray:
        return self.tables.player

    @property
    def legal_action_mask(self) -> np.ndarray:
        return self.tables.legal[:, :NUM_ACTIONS].view(bool)

    @property
    def observation(self) -> np.ndarray:
        return self.tables.observation

    @property
    def rewards(self) -> np.ndarray:
        return self.tables.rewards

    @property
    def terminated(self) -> np.ndarray:
        return self.tables.terminated

    def reset(self, seed: int | Sequence[int]) -> None:
        """Deal every table a round: table i from default_rng(seeds[i]) (an int seed: seed + i)."""
        seeds = [seed + i for i in range(self.n)] if isinstance(seed, int) else [int(s) for s in seed]
        if len(seeds) != self.n:
            raise InputError(f"{NAME}: reset takes one seed per table ({self.n}), got {len(seeds)}")
        self._rngs = [np.random.default_rng(s) for s in seeds]
        self._big.clear()
        self._skip[:] = False
        self._refill(range(self.n))
        self._counter = 0
        self.tables.legal[:] = 0  # the kernels clear only what they set (kernels/first_actions.py)
        draw_seeds = np.random.SeedSequence(seeds).generate_state(self.n, np.uint64)
        self.tables.start(np.full(self.n, self.players - 1), draw_seeds)
        self._after()

    def step(self, actions) -> None:
        """One action per table (ignored where a round ended at the step before: that table starts its next)."""
        if not self._rngs:
            raise InputError(f"{NAME}: reset before the first step")
        actions = np.asarray(actions)
        if actions.shape != (self.n,) or not np.issubdtype(actions.dtype, np.integer):
            raise InputError(f"{NAME}: step takes {self.n} whole numbers (one action per table), got {actions.shape}")
        self._counter += 1
        status = self.tables.play(actions, self._skip, self._counter)
        for i in np.flatnonzero(status == OVERFLOW):  # the chosen play's moves outgrow the batch's: played apart
            self._detach(int(i))
        apart = list(self._big)
        for i in apart:
            status[i] = self._step_big(i, int(actions[i]))
        if apart:
            self._skip[apart] = [i in self._big for i in apart]
            self.tables.finish(apart, self._counter)
        if status.any():  # ILLEGAL is negative (the tables played apart have their OK or ILLEGAL)
            bad = np.flatnonzero(status == ILLEGAL)
            if bad.size:
                raise InputError(
                    f"{NAME}: illegal action at table(s) {bad[:8].tolist()} (legal_action_mask says which)"
                )
        self._after()

    def random_actions(self) -> np.ndarray:
        """A uniform legal action per table, drawn in the kernels (at the step before) from the reset's seeds and the
        number of steps since it: random play without a Python loop."""
        return self.tables.drawn.copy()

    def _refill(self, tables) -> None:
        """The next ROUNDS_AHEAD deals of each of `tables`, drawn as casino_v0 draws them (each card's index among
        the undealt ones): numpy draws an array of bounds as it draws them one by one, so they are the same."""
        tables = list(tables)
        picks = np.stack([self._rngs[i].integers(0, self._bounds).reshape(ROUNDS_AHEAD, 52) for i in tables])
        self.tables.upcoming[tables] = decks_of(picks.reshape(-1, 52)).reshape(len(tables), ROUNDS_AHEAD, 52)
        self.tables.ahead[tables] = 0

    def _step_big(self, i: int, action: int) -> int:
        """Table i apart from the batch (a turn past its buffers): its action on the table's own buffers, or on the
        reference engine's decisions (research/choice.py Turn) past the largest."""
        table, turn = self._big[i]
        if turn is None:
            status = table.act(action)
            if status == ILLEGAL:
                return status
        else:
            try:
                move = turn.step(action)
            except IllegalAction:
                return ILLEGAL
            if move is None:
                self._show(i, turn)
                return OK
            status = table.commit(row_of_move(move))
        return self._settle(i, table, status)

    def _settle(self, i: int, table: Table, status: int) -> int:
        """After table i's move or deal apart from the batch: the deal due, its legal actions, and its return to the
        batch once its moves fit the batch's buffers again or the round is over."""
        if status == OK and table.player == CHANCE:
            start = table.dealt
            status = table.deal(table.deck[start : start + 4 * self.players], False)
        turn = Turn(state_to_position(table.st, self.rules)) if status == OVERFLOW else None
        self._big[i] = (table, turn)
        if turn is None:
            self.tables.legal[i, :NUM_ACTIONS] = table.mask
        else:
            self._show(i, turn)
        if table.player == TERMINAL:
            self.tables.bufs[5][i] = table.buf[5]
            del self._big[i]
        elif turn is None and self.tables.attach(i, table):  # a turn that fits again: back to the batch
            del self._big[i]
        return OK

    def _show(self, i: int, turn: Turn) -> None:
        """Table i's legal actions and the play being chosen, from the reference engine's decisions."""
        chosen = turn.choice
        play, named = (-1, ()) if chosen is None else (chosen.action, chosen.chosen)
        self.tables.show_choice(i, turn.legal_actions(), play, named)

    def _detach(self, i: int) -> None:
        """Table i apart from the batch at its turn, nothing played yet: the turn's moves in the table's own buffers,
        or the reference engine's decisions past the largest."""
        table = self.tables.detach(i)
        turn = Turn(state_to_position(table.st, self.rules)) if table._grown(OVERFLOW) == OVERFLOW else None
        self._big[i] = (table, turn)

    def _after(self) -> None:
        """Tables whose round ended with their decks used up get more (the batch's turns never outgrow its buffers:
        only a chosen play's moves can, kernels/first_actions.py, and step plays those apart)."""
        used_up = np.flatnonzero(self.tables.ahead == ROUNDS_AHEAD)
        if used_up.size:
            self._refill(used_up)
