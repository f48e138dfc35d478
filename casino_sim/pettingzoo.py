"""Casino as a PettingZoo AEC environment, in the style of PettingZoo's classic card games (docs/research.md).

`casino_sim.pettingzoo.env(rules="italian", players=3)` plays one round (or, with `game=True`, whole games to the
target) of the research core (casino_sim/research): agents `player_0`.., each observing a dict of `observation`
(their view as a float vector: docs/research.md lists its fields) and `action_mask` (1 for each legal action);
an action is the index of a legal move in the canonical order of `casino-sim moves` (the same ids as
casino_sim.openspiel's). The deal is drawn inside the environment from the generator `reset(seed=...)` seeds.
Rewards come at the end: each player's round points, or 1 for the winners of a whole game. Needs the `research`
extra (`pip install 'casino-sim[research]'`).
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from casino_sim.core.cards import pretty_cards
from casino_sim.core.deal import HAND_SIZE, PLIES
from casino_sim.core.errors import InputError, UserError
from casino_sim.core.limits import MOVE_LIMIT
from casino_sim.core.rules import RuleSet
from casino_sim.reference.game import MAX_ROUNDS
from casino_sim.reference.moves import PLAYER_NAMES
from casino_sim.research import GameState, View
from casino_sim.research.options import most_round_points, table_rules
from casino_sim.research.views import where

NAME = "casino_v0"
MAX_MOVES = 4096  # the default size of the action space (see raw_env)


def env(**kwargs) -> AECEnv:
    """raw_env with PettingZoo's classic wrappers: an illegal action ends the episode with -1 to its maker (and 0
    to the others), an action outside the action space is refused, and the AEC call order is enforced."""
    game = raw_env(**kwargs)
    game = wrappers.TerminateIllegalWrapper(game, illegal_reward=-1)
    game = wrappers.AssertOutOfBoundsWrapper(game)
    return wrappers.OrderEnforcingWrapper(game)


class TooManyMoves(UserError):
    """A position with more legal moves than the environment's action space holds."""


class raw_env(AECEnv, EzPickle):
    """Casino for 2 to 4 agents: `rules` (strict, brazilian, italian, with options as in --rules), `players`,
    `teams` (four players as two partnerships), `game` (whole games instead of one round), `recall` (observe the
    information state: the view and the round so far, play by play), `max_moves` and `render_mode` ("ansi").

    The action space is Discrete(max_moves). OpenSpiel's python_casino numbers the same actions up to the engines'
    MOVE_LIMIT (2**21), but a mask of 2**21 bytes at every step would dwarf the rest of the observation, while a
    round of random play rarely offers more than a few hundred moves; a position with more than `max_moves` legal
    moves (a table piled high with loose cards) raises TooManyMoves, which names the option to raise.
    """

    metadata = {"render_modes": ["ansi"], "name": NAME, "is_parallelizable": False, "render_fps": 1}

    def __init__(
        self,
        rules: str = "strict",
        players: int = 2,
        teams: bool = False,
        game: bool = False,
        recall: bool = False,
        max_moves: int = MAX_MOVES,
        render_mode: str | None = None,
    ):
        EzPickle.__init__(self, rules, players, teams, game, recall, max_moves, render_mode)
        super().__init__()
        try:
            self.rules = table_rules(rules, players, teams)
        except UserError as e:
            raise InputError(f"{NAME}: {e}") from None
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) or not 1 <= max_moves <= MOVE_LIMIT:
            raise InputError(f"{NAME}: max_moves must be a whole number from 1 to {MOVE_LIMIT}, got {max_moves!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise InputError(f"{NAME}: render_mode must be None or 'ansi', got {render_mode!r}")
        self.whole_game, self.max_moves, self.render_mode = bool(game), max_moves, render_mode
        self.possible_agents = [f"player_{p}" for p in range(self.rules.players)]
        self.agents = self.possible_agents[:]
        self._view = View(self.rules.players, self.rules.n_sides, recall=bool(recall))
        high = view_highs(self._view, self.rules)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (max_moves,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(max_moves) for a in self.possible_agents}
        self.core = GameState(self.rules, self.whole_game)  # the research core's round or game
        self._rng: np.random.Generator | None = None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new round (or game), dealt from the generator: seeded anew when `seed` is given, else the one before."""
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.core = GameState(self.rules, self.whole_game)
        self._deal()

    def step(self, action) -> None:
        """Play the legal move of index `action` for the agent to move, deal what is due, and at the end give
        every agent its reward (a finished agent steps with None, as in every AEC environment)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.core.apply(int(action))
        self._deal()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.core.over:
            self.rewards = dict(zip(self.agents, self.core.returns()))
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._deads_step_first()

    def _deal(self) -> None:
        """Deal the cards due (chance, from the env's generator) and hand the turn to the player to move."""
        self.core.deal_random(self._rng)
        if self.core.over:
            return
        self.agent_selection = self.possible_agents[self.core.player]
        count = len(self.core.legal_moves())
        if count > self.max_moves:
            raise TooManyMoves(
                f"{NAME}: a position has {count} legal moves, more than max_moves={self.max_moves} "
                f"(make the environment with a larger max_moves, up to {MOVE_LIMIT})"
            )

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's view (a copy) and its action mask: the first len(legal moves) actions on its turn, none
        otherwise."""
        player = self.possible_agents.index(agent)
        self._view.set_from(self.core, player)
        mask = np.zeros(self.max_moves, np.int8)
        if self.core.player == player:
            mask[: len(self.core.legal_moves())] = 1
        return {"observation": self._view.tensor.copy(), "action_mask": mask}

    def render(self) -> str | None:
        """The whole table as text (every hand shown), as classic environments render for an onlooker."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        return table_text(self.core)

    def close(self) -> None:
        """Nothing to release: no window, no process."""


def view_highs(view: View, rules: RuleSet) -> np.ndarray:
    """The upper bound of each float of the view: 1 for the one-hot and card-set fields, the hand size, a sweep
    at every play, and for the totals a whole game of MAX_ROUNDS rounds of the most points a round can give."""
    bound = {"hand_sizes": HAND_SIZE, "sweeps": PLIES, "totals": MAX_ROUNDS * most_round_points(rules)}
    return np.concatenate([np.full(int(np.prod(shape)), bound.get(name, 1), np.float32) for name, shape in view.layout])


def table_text(state: GameState) -> str:
    """Where the round is, the loose cards and builds, each player's hand, pile size and sweeps, the last play,
    and once it is over each player's return."""
    r = state.round
    pos = r.position
    lines = [where(state), f"table: {pretty_cards(pos.loose) or '(no loose cards)'}"]
    lines += [f"build of {b.value}: {pretty_cards(b.cards)} ({PLAYER_NAMES[b.owner]}'s)" for b in pos.builds]
    for p, hand in enumerate(pos.hands):
        turn = "  <- to move" if state.player == p else ""
        lines.append(
            f"{PLAYER_NAMES[p]}: {pretty_cards(hand) or '-'} | {len(pos.captured[p])} captured, "
            f"{pos.sweeps[p]} sweeps{turn}"
        )
    if r.plays:
        lines.append(f"last: {r.plays[-1][1].describe(r.plays[-1][0])}")
    if state.over:
        lines.append(f"returns: {' '.join(f'{x:g}' for x in state.returns())}")
    return "\n".join(lines)
