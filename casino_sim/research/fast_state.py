"""GameState on the numba engine (engine="numba"): the same actions, players, returns and views, played by the
kernels (kernels/tables_api.py) in the factored encoding.

Every action is the reference core's (research/game_state.py), so the numba state and a GameState fed the same
actions agree at every step (tests/research/test_fast_state.py), and what the numba state does not compute itself
(the position as a Position, the play being chosen, text, recall views, resampling) it asks of a reference
GameState brought up to date on demand by replaying the actions (`reference()`). A turn whose moves overflow the
kernels' buffers (a table piled high) is played on that GameState too, and its move handed back to the kernels.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from casino_sim.core.rules import RuleSet
from casino_sim.kernels import ILLEGAL, OVERFLOW, Table, row_of_move
from casino_sim.reference.seats import side_of
from casino_sim.research.choice import describe_legal
from casino_sim.research.game_state import CHANCE, TERMINAL, GameState, round_scored
from casino_sim.research.round_state import IllegalAction
from casino_sim.research.views import View, field_offsets

# what the numba state reads from its reference GameState (none of these changes it)
_DELEGATED = frozenset({"round", "choice", "turn", "legal_moves", "move_of", "actions_for", "turn_start"})


@lru_cache(maxsize=64)
def _fresh_table(rules: RuleSet) -> Table:
    """A table with nothing dealt, the first dealer the last player, shared by every new state of these rules until
    it first changes (OpenSpiel makes a new state for every tensor it reads, to learn the tensor's size)."""
    table = Table(rules.as_array())
    table.begin(rules.players - 1)
    return table


def new_core(rules: RuleSet, whole_game: bool, engine: str, encoding: str) -> GameState | FastState:
    """The research core on the engine named (research/options.py check_modes has checked it): a FastState for
    the factored encoding on the numba engine, else a GameState (legal-move indices list the engine's moves)."""
    if engine == "numba" and encoding == "factored":
        return FastState(rules, whole_game)
    return GameState(rules, whole_game, engine=engine, encoding=encoding)


class FastState:
    """A round, or whole games to the target, on the numba engine: GameState's interface (player, over,
    legal_actions, apply, deal_random, chance_outcomes, returns, differences, clone, and the reference-only
    reads of _DELEGATED through `reference()`)."""

    engine = "numba"
    encoding = "factored"

    def __init__(self, rules: RuleSet, whole_game: bool = False):
        self.rules, self.whole_game = rules, whole_game
        self.table = _fresh_table(rules)  # shared: copied before its first change (_own)
        self._own = False
        self.totals = [0] * rules.n_sides
        self.rounds = 0
        self.winner: int | None = None
        self.actions: list[int] = []
        self.movers: list[int] = []
        self.round_start = 0
        self._shadow: GameState | None = None
        self._synced = 0  # actions the shadow has played
        self._slow = False  # this turn overflows the kernels' buffers: the shadow plays it
        self._player = CHANCE  # the table's player, kept as a Python int (read at every step)

    def __getattr__(self, name):
        if name in _DELEGATED:
            return getattr(self.reference(), name)
        raise AttributeError(name)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def over(self) -> bool:
        return self._player == TERMINAL  # a whole game's next round begins as the last one ends

    @property
    def player(self) -> int:
        return self._player

    def reference(self) -> GameState:
        """The reference GameState of the same actions (made, or brought up to date, by replaying them)."""
        if self._shadow is None:
            self._shadow, self._synced = GameState(self.rules, self.whole_game), 0
        for action in self.actions[self._synced :]:
            self._shadow.apply(action)
        self._synced = len(self.actions)
        return self._shadow

    def _mutable(self) -> None:
        """A table of this state's own, before it first changes (new states share one with nothing dealt)."""
        if not self._own:
            self.table, self._own = self.table.copy(), True

    def undealt(self) -> list[int]:
        taken = int(self.table.ctl[5])
        return [c for c in range(52) if not taken >> c & 1]

    def legal_actions(self) -> list[int]:
        if self._player == TERMINAL:
            return []
        if self._player == CHANCE:
            return self.undealt()
        if self._slow:
            return self.reference().legal_actions()
        return np.flatnonzero(self.table.mask).tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        cards = self.undealt()
        return [(c, 1.0 / len(cards)) for c in cards]

    def apply(self, action: int) -> None:
        """GameState.apply on the kernels: a card dealt, or a factored action (IllegalAction when not legal)."""
        action = int(action)
        mover = self._player
        self._mutable()
        if mover == TERMINAL:
            raise IllegalAction("the game is over: no action applies")
        if mover == CHANCE:
            if not 0 <= action < 52 or int(self.table.ctl[5]) >> action & 1:
                raise IllegalAction(f"{action!r} is not a card to deal here")
            status = self.table.deal([action], False)
        elif self._slow:
            shadow = self.reference()
            shadow.apply(action)
            self._synced += 1
            status = self.table.commit(row_of_move(shadow.round.plays[-1][1])) if shadow.choice is None else OVERFLOW
        else:
            status = self.table.act(action)
            if status == ILLEGAL:
                raise IllegalAction(f"action {action!r} is not legal here ({describe_legal(self.legal_actions())})")
        self._slow = status == OVERFLOW
        self.actions.append(action)
        self.movers.append(mover)
        self._player = self.table.player
        if self._player == TERMINAL and self.whole_game:
            self._next_round()

    def deal_random(self, rng: np.random.Generator) -> None:
        """Deal the cards due now from rng, drawn as GameState.deal_random draws them (the index of each card
        among the undealt ones, one bounded integer a card: one call for the batch gives the same numbers)."""
        n = self.players
        self._mutable()
        while self._player == CHANCE:
            d = self.table.dealt
            due = 4 * n + 4 if d < 4 * n + 4 else 4 * n * ((d - 4) // (4 * n) + 1) + 4
            picks = rng.integers(0, np.arange(52 - d, 52 - due, -1))
            self._slow = self.table.deal(picks, True) == OVERFLOW
            self.actions += self.table.deck[d:due].tolist()
            self.movers += [CHANCE] * (due - d)
            self._player = self.table.player

    def _next_round(self) -> None:
        """GameState._next_round: the round's points into the totals, the winner, or the next round's dealer."""
        self.rounds += 1
        points = None if self.table.void else self.table.side_points()
        self.totals, self.winner, dealer = round_scored(self, points, int(self.table.st[40]))
        if self.winner is not None:
            return
        self.table.begin(dealer)
        self._player = CHANCE
        self.round_start = len(self.actions)

    def side_points(self) -> list[int]:
        """The round's points of each side: all 0 before its end and for a void round."""
        if self.table.player != TERMINAL or self.table.void:  # the round's end, whole games' last one too
            return [0] * self.rules.n_sides
        return self.table.side_points()

    def returns(self) -> list[float]:
        if not self.whole_game:
            sides = self.side_points()
            return [float(sides[side_of(self.rules, p)]) for p in range(self.players)]
        if self.winner is None:
            return [0.0] * self.players
        lose = -1.0 / (self.rules.n_sides - 1)
        return [1.0 if side_of(self.rules, p) == self.winner else lose for p in range(self.players)]

    def differences(self) -> list[float]:
        sides = self.side_points()
        return [float(sides[side_of(self.rules, p)] - sides[1 - side_of(self.rules, p)]) for p in range(self.players)]

    def clone(self) -> FastState:
        other = FastState.__new__(FastState)
        other.__dict__.update(self.__dict__)
        other.table, other._own = self.table.copy(), True
        other.totals, other.actions, other.movers = list(self.totals), list(self.actions), list(self.movers)
        other._shadow = None if self._shadow is None else self._shadow.clone()
        return other

    def __deepcopy__(self, memo) -> FastState:
        return self.clone()


def fill_view(view: View, state: GameState | FastState, player: int) -> None:
    """view.set_from(state, player), by the kernels when the state is numba's."""
    if not isinstance(state, FastState):
        view.set_from(state, player)
    elif state._slow:  # a turn past the buffers is the reference state's, its choice too
        view.set_from(reference_of(state), player)
    else:
        state.table.observe(player, totals_of(state), view_offsets(view), view.tensor)


def observation_of(view: View, state: GameState | FastState, player: int) -> np.ndarray:
    """A new array of what fill_view writes: the kernels write it in place, with no copy of the view's tensor
    (PettingZoo hands each observation out as an array of its own)."""
    if type(state) is not FastState or state._slow:
        fill_view(view, state, player)
        return view.tensor.copy()
    out = np.empty(len(view.tensor), np.float32)  # the kernel writes every float
    state.table.observe(player, totals_of(state), view_offsets(view), out)
    return out


_NO_TOTALS = np.zeros(4, np.int64)


def totals_of(state: FastState) -> np.ndarray:
    """The totals of a whole game's finished rounds for the kernels (one round: none, so no array is made)."""
    return np.asarray(state.totals, np.int64) if state.whole_game else _NO_TOTALS[: len(state.totals)]


def view_offsets(view: View) -> np.ndarray:
    """views.py field_offsets of the view's layout (cached on the view)."""
    if getattr(view, "offsets", None) is None:
        view.offsets = field_offsets(view.layout)
    return view.offsets


def reference_of(state: GameState | FastState) -> GameState:
    """The reference GameState of a core: itself, or a numba state's."""
    return state.reference() if isinstance(state, FastState) else state


def action_mask(state: GameState | FastState, player: int, size: int) -> np.ndarray:
    """The player's legal actions as int8 (1 legal) of `size` entries: none unless the player is to move."""
    if isinstance(state, FastState) and not state._slow:
        mask = state.table.mask
        return mask.view(np.int8).copy() if state.player == player else np.zeros(size, np.int8)
    mask = np.zeros(size, np.int8)
    if state.player == player:
        mask[state.legal_actions()] = 1
    return mask
