"""Casino as an OpenSpiel game: `import casino_sim.openspiel` registers `python_casino` (docs/research.md).

`pyspiel.load_game("python_casino", {"rules": "italian", "players": 3})` gives the game of the research core
(casino_sim/research): the deal as chance nodes (one card each, outcomes 0 to 51), the plays in the factored
encoding (research/encoding.py: a play's card, kind and value, then its loose cards where it has a choice; or, with
encoding=index, the index of a legal move), each player's view as strings and tensors, the round's points as
returns (or their difference, zero_sum; or, with `game`, 1 for the winners of a whole game to the target), and
`resample_from_infostate` for IS-MCTS. Needs the `research` extra (`pip install 'casino-sim[research]'`).
"""

from __future__ import annotations

import json

import numpy as np
import pyspiel

from casino_sim.core.cards import pretty_card
from casino_sim.core.errors import UserError
from casino_sim.core.limits import MOVE_LIMIT
from casino_sim.reference.game import MAX_ROUNDS
from casino_sim.reference.moves import PLAYER_NAMES
from casino_sim.research import CHANCE, GameState, View, resample
from casino_sim.research.encoding import NUM_ACTIONS, describe, most_round_actions
from casino_sim.research.fast_state import fill_view, new_core, reference_of
from casino_sim.research.options import GAME_OPTIONS, check_modes, game_options, most_round_points, table_rules
from casino_sim.research.views import own_choice, where

PARAMETERS = {
    "rules": "strict",
    "players": 2,
    "teams": False,
    "game": False,
    **GAME_OPTIONS,
    "zero_sum": False,
    "encoding": "factored",
    "engine": "numba",
}


def game_type(utility: pyspiel.GameType.Utility) -> pyspiel.GameType:
    """python_casino's type: registered general-sum (a round's points); whole games are zero-sum."""
    return pyspiel.GameType(
        short_name="python_casino",
        long_name="Python Casino",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS,
    )


GAME_TYPE = game_type(pyspiel.GameType.Utility.GENERAL_SUM)


class CasinoGame(pyspiel.Game):
    """python_casino with parameters rules (strict, brazilian, italian), players (2 to 4), teams (four players as
    two partnerships), game (whole games to the target instead of one round), the game options target,
    round_win_points and single_round (docs/rules.md section 8; also accepted after the name, as --rules takes
    them, and then moved to their parameters so that str(game) loads again), zero_sum (a round's returns as the
    point difference of two sides), encoding (factored or index) and engine (numba or reference: the same game)."""

    def __init__(self, params=None):
        given = {**PARAMETERS, **(params or {})}
        try:
            options = {key: given[key] for key in GAME_OPTIONS}
            self.rules = table_rules(given["rules"], given["players"], given["teams"], **options)
            self.whole_game, self.zero_sum, self.encoding = (
                bool(given["game"]),
                bool(given["zero_sum"]),
                given["encoding"],
            )
            self.engine = given["engine"]
            self._observers: dict[bool, CasinoObserver] = {}  # tensor_of's, one of each kind
            check_modes(self.rules, self.whole_game, self.zero_sum, self.encoding, self.engine)
        except UserError as e:
            raise ValueError(f"python_casino: {e}") from None
        zero_sum = self.whole_game or self.zero_sum
        kind = game_type(pyspiel.GameType.Utility.ZERO_SUM) if zero_sum else GAME_TYPE
        canonical = {**given, **game_options(self.rules), "teams": self.rules.teams}
        super().__init__(kind, _game_info(self), canonical)

    def new_initial_state(self):
        """The start: the first card of the deal is a chance node."""
        return CasinoState(self, new_core(self.rules, self.whole_game, self.engine, self.encoding))

    def tensor_of(self, state, player: int, recall: bool) -> list[float]:
        """The player's observation (or with recall information state) tensor of the state, from one observer of
        each kind kept by the game (CasinoState.observation_tensor)."""
        if recall not in self._observers:
            self._observers[recall] = self.make_py_observer(pyspiel.IIGObservationType(perfect_recall=recall))
        observer = self._observers[recall]
        observer.set_from(state, player)
        return observer.tensor.tolist()

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observation (perfect_recall False) or information state (True) of one player."""
        iig_obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return CasinoObserver(self.rules, iig_obs_type, params, choosing=self.encoding == "factored")


def _game_info(game: CasinoGame) -> pyspiel.GameInfo:
    """Actions, chance outcomes, utilities and length: a round's points lie between 0 and every category plus a
    sweep at each play (their difference between minus and plus that); a whole game pays 1 to the winners and
    shares -1 among the other sides. The length bounds every action, chance outcomes included, plus one: OpenSpiel
    asks for a bound on the decisions and makes twice it the history's bound, and Shimmy's wrapper counts the chance
    nodes too, from 1, and truncates past it (docs/research.md)."""
    most = float(most_round_points(game.rules))
    low, high = (-1.0, 1.0) if game.whole_game else (-most, most) if game.zero_sum else (0.0, most)
    rounds = MAX_ROUNDS if game.whole_game else 1
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS if game.encoding == "factored" else MOVE_LIMIT,
        max_chance_outcomes=52,
        num_players=game.rules.players,
        min_utility=low,
        max_utility=high,
        utility_sum=0.0 if game.whole_game or game.zero_sum else None,
        max_game_length=1 + rounds * most_round_actions(game.encoding),
    )


class CasinoState(pyspiel.State):
    """A state of python_casino: a research GameState (`core`) behind OpenSpiel's State interface."""

    def __init__(self, game, core: GameState):
        super().__init__(game)
        self.core = core
        self._script: list[int] | None = None  # while set, apply_action only writes OpenSpiel's history

    def current_player(self):
        if self._script is not None:
            return self._script[self.move_number()]
        return self.core.player

    def _legal_actions(self, player):
        return self.core.legal_actions()

    def chance_outcomes(self):
        return self.core.chance_outcomes()

    def _apply_action(self, action):
        if self._script is None:
            self.core.apply(action)

    def _action_to_string(self, player, action):
        """A card dealt (`deal 7♣`); a legal action that completes a move, in the words of `casino-sim moves` (`A
        plays 7♥ and captures 3♠ 4♦`); any other factored id as it reads alone (`A plays 7♥ and builds 9`); an
        index that is not legal here by its number."""
        if player == CHANCE:
            return f"deal {pretty_card(action)}"
        legal = player == self.core.player and action in self.core.legal_actions()
        move = self.core.move_of(action) if legal else None
        if move is not None:
            return move.describe(player)
        if self.core.encoding == "factored" and 0 <= action < NUM_ACTIONS:
            return describe(player, action)
        return f"{PLAYER_NAMES[player]} move {action}"

    def is_terminal(self):
        return self.core.over

    # OpenSpiel's own tensors of a Python game make a new initial state for each read, to learn the tensor's size, and
    # copy the view field by field through its bindings: a fifth of rl_environment's step. The same floats, direct.
    def observation_tensor(self, player=None):
        if player is None or not 0 <= player < self.num_players():
            return super().observation_tensor(*(() if player is None else (player,)))
        return self.get_game().tensor_of(self, player, False)

    def information_state_tensor(self, player=None):
        if player is None or not 0 <= player < self.num_players():
            return super().information_state_tensor(*(() if player is None else (player,)))
        return self.get_game().tensor_of(self, player, True)

    def returns(self):
        return self.core.differences() if self.get_game().zero_sum else self.core.returns()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one (research/resample.py), drawn with the sampler's numbers."""
        world = resample(reference_of(self.core), player_id, np.random.default_rng(int(probability_sampler() * 2**53)))
        state = CasinoState(self.get_game(), world)
        state._script = world.movers
        for action in world.actions:  # OpenSpiel's history, the world already played
            state.apply_action(action)
        state._script = None
        return state

    def __str__(self):
        """Every hand shown: the dealer, the totals of whole games, the position of docs/notation.md, and the play
        being chosen (the factored encoding)."""
        text = f"{where(self.core)}\n{json.dumps(self.core.round.position.to_json())}"
        choice = own_choice(self.core, self.core.player)
        return text if choice is None else f"{text}\n{View.choice_line(choice, self.core.player)}"


class CasinoObserver:
    """OpenSpiel's PyObserver over the core's View: `tensor` and `dict` filled for one player at a time."""

    def __init__(self, rules, iig_obs_type, params, choosing: bool):
        if params:
            raise ValueError(f"python_casino observers take no parameters, got {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("python_casino observes one player's view only (public and their own private cards)")
        self._view = View(rules.players, rules.n_sides, recall=iig_obs_type.perfect_recall, choosing=choosing)
        self.tensor, self.dict = self._view.tensor, self._view.dict

    def set_from(self, state, player):
        fill_view(self._view, state.core, player)

    def string_from(self, state, player):
        return self._view.string_from(state.core, player)


pyspiel.register_game(GAME_TYPE, CasinoGame)
