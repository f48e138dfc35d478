"""Casino as an OpenSpiel game: `import casino_sim.openspiel` registers `python_casino` (docs/research.md).

`pyspiel.load_game("python_casino", {"rules": "italian", "players": 3})` gives the game of the research core
(casino_sim/research): the deal as chance nodes (one card each, outcomes 0 to 51), one action per legal move (its
index in the canonical order of `casino-sim moves`), each player's view as strings and tensors, the round's
points as returns (or, with `game`, 1 for the winners of a whole game to the target), and
`resample_from_infostate` for IS-MCTS. Needs the `research` extra (`pip install 'casino-sim[research]'`).
"""

from __future__ import annotations

import json

import numpy as np
import pyspiel

from casino_sim.core.cards import pretty_card
from casino_sim.core.deal import PLIES
from casino_sim.core.errors import UserError
from casino_sim.core.limits import MOVE_LIMIT
from casino_sim.reference.game import MAX_ROUNDS
from casino_sim.reference.moves import PLAYER_NAMES
from casino_sim.research import CHANCE, GameState, View, resample
from casino_sim.research.options import most_round_points, table_rules
from casino_sim.research.views import where

PARAMETERS = {"rules": "strict", "players": 2, "teams": False, "game": False}


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
    """python_casino with parameters rules (strict, brazilian, italian, with options as in --rules), players (2 to
    4), teams (four players as two partnerships) and game (whole games to the target instead of one round)."""

    def __init__(self, params=None):
        given = {**PARAMETERS, **(params or {})}
        try:
            self.rules = table_rules(given["rules"], given["players"], given["teams"])
        except UserError as e:
            raise ValueError(f"python_casino: {e}") from None
        self.whole_game = bool(given["game"])
        kind = game_type(pyspiel.GameType.Utility.ZERO_SUM) if self.whole_game else GAME_TYPE
        super().__init__(kind, _game_info(self.rules, self.whole_game), given)

    def new_initial_state(self):
        """The start: the first card of the deal is a chance node."""
        return CasinoState(self, GameState(self.rules, self.whole_game))

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observation (perfect_recall False) or information state (True) of one player."""
        return CasinoObserver(self.rules, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


def _game_info(rules, whole_game: bool) -> pyspiel.GameInfo:
    """Actions, chance outcomes, utilities and length: a round's points lie between 0 and every category plus
    a sweep at each play; a whole game pays 1 to the winners and shares -1 among the other sides."""
    most = most_round_points(rules)
    return pyspiel.GameInfo(
        num_distinct_actions=MOVE_LIMIT,
        max_chance_outcomes=52,
        num_players=rules.players,
        min_utility=-1.0 if whole_game else 0.0,
        max_utility=1.0 if whole_game else float(most),
        utility_sum=0.0 if whole_game else None,
        max_game_length=PLIES * (MAX_ROUNDS if whole_game else 1),
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
        """A card dealt (`deal 7♣`), or the move in the words of `casino-sim moves` (`A plays 7♥ and captures
        3♠ 4♦`); an action that is not legal here by its number."""
        if player == CHANCE:
            return f"deal {pretty_card(action)}"
        moves = self.core.legal_moves() if player == self.core.player else []
        return moves[action].describe(player) if 0 <= action < len(moves) else f"{PLAYER_NAMES[player]} move {action}"

    def is_terminal(self):
        return self.core.over

    def returns(self):
        return self.core.returns()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one (research/resample.py), drawn with the sampler's numbers."""
        world = resample(self.core, player_id, np.random.default_rng(int(probability_sampler() * 2**53)))
        state = CasinoState(self.get_game(), world)
        state._script = world.movers
        for action in world.actions:  # OpenSpiel's history, the world already played
            state.apply_action(action)
        state._script = None
        return state

    def __str__(self):
        """Every hand shown: the dealer, the totals of whole games, and the position of docs/notation.md."""
        return f"{where(self.core)}\n{json.dumps(self.core.round.position.to_json())}"


class CasinoObserver:
    """OpenSpiel's PyObserver over the core's View: `tensor` and `dict` filled for one player at a time."""

    def __init__(self, rules, iig_obs_type, params):
        if params:
            raise ValueError(f"python_casino observers take no parameters, got {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("python_casino observes one player's view only (public and their own private cards)")
        self._view = View(rules.players, rules.n_sides, recall=iig_obs_type.perfect_recall)
        self.tensor, self.dict = self._view.tensor, self._view.dict

    def set_from(self, state, player):
        self._view.set_from(state.core, player)

    def string_from(self, state, player):
        return self._view.string_from(state.core, player)


pyspiel.register_game(GAME_TYPE, CasinoGame)
