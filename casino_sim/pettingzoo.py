"""Casino as a PettingZoo AEC environment, in the style of PettingZoo's classic card games (docs/research.md).

`casino_sim.pettingzoo.env(rules="italian", players=3)` plays one round (or, with `game=True`, whole games to the
target) of the research core (casino_sim/research): agents `player_0`.., each observing a dict of `observation`
(their view as a float vector: docs/research.md lists its fields) and `action_mask` (1 for each legal action);
an action is an id of the factored encoding (research/encoding.py: a play, then its loose cards where it has a
choice), or with encoding="index" the index of a legal move; the same ids as casino_sim.openspiel's. The deal is
drawn inside the environment from the generator `reset(seed=...)` seeds. Rewards come at the end: each player's
round points (or their difference, zero_sum), or 1 for the winners of a whole game. Needs the `research` extra
(`pip install 'casino-sim[research]'`).
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
from casino_sim.loader import PolicyLoader
from casino_sim.policies.policy import Policy
from casino_sim.reference.game import MAX_ROUNDS
from casino_sim.reference.moves import PLAYER_NAMES
from casino_sim.reference.position import PositionError
from casino_sim.research import GameState, View
from casino_sim.research.encoding import NUM_ACTIONS
from casino_sim.research.fast_state import action_mask, new_core, observation_of
from casino_sim.research.options import check_modes, most_round_points, table_rules
from casino_sim.research.views import where

NAME = "casino_v0"
MAX_MOVES = 4096  # the default size of the action space of encoding="index" (see raw_env)


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
    """Casino for 2 to 4 agents: `rules` (strict, brazilian, italian), `players`, `teams` (four players as two
    partnerships), `game` (whole games instead of one round), the game options `target`, `round_win_points` and
    `single_round` (docs/rules.md section 8; also accepted after the name, as --rules takes them), `zero_sum` (a
    round's rewards as the point difference of two sides), `recall` (observe the information state: the view and
    the round so far, play by play), `encoding`, `max_moves`, `render_mode` ("human" prints, "ansi" returns) and
    `engine` ("numba", the default, or "reference": the same trajectories, docs/research.md).

    The action space is Discrete(1769), the factored encoding's ids, or with encoding="index" Discrete(max_moves):
    OpenSpiel's python_casino numbers legal-move indices up to the engines' MOVE_LIMIT (2**21), but a mask of 2**21
    bytes at every step would dwarf the rest of the observation; a position with more than `max_moves` legal moves
    (a table piled high with loose cards) then raises TooManyMoves, which names the option to raise.
    """

    metadata = {"render_modes": ["human", "ansi"], "name": NAME, "is_parallelizable": False, "render_fps": 1}

    def __init__(
        self,
        rules: str = "strict",
        players: int = 2,
        teams: bool = False,
        game: bool = False,
        recall: bool = False,
        max_moves: int | None = None,
        render_mode: str | None = None,
        encoding: str = "factored",
        zero_sum: bool = False,
        engine: str = "numba",
        **options,
    ):
        EzPickle.__init__(
            self, rules, players, teams, game, recall, max_moves, render_mode, encoding, zero_sum, engine, **options
        )
        super().__init__()
        try:
            self.rules = table_rules(rules, players, teams, **options)
            check_modes(self.rules, bool(game), bool(zero_sum), encoding, engine)
            self.max_moves = _action_count(encoding, max_moves)
        except UserError as e:
            raise InputError(f"{NAME}: {e}") from None
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise InputError(f"{NAME}: render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.whole_game, self.encoding, self.render_mode, self.engine = bool(game), encoding, render_mode, engine
        self.zero_sum = bool(zero_sum)
        self.possible_agents = [f"player_{p}" for p in range(self.rules.players)]
        self._players = {a: p for p, a in enumerate(self.possible_agents)}
        self.agents = self.possible_agents[:]
        self._view = View(self.rules.players, self.rules.n_sides, recall=bool(recall), choosing=encoding == "factored")
        high = view_highs(self._view, self.rules)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (self.max_moves,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.max_moves) for a in self.possible_agents}
        self.core = new_core(self.rules, self.whole_game, engine, encoding)  # the research core's round or game
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
        self.core = new_core(self.rules, self.whole_game, self.engine, self.encoding)
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
        if self.core.over:  # before the end every reward is 0 (reset's) and nobody is done: nothing to add up
            self.rewards = dict(zip(self.agents, self.core.differences() if self.zero_sum else self.core.returns()))
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            self._deads_step_first()

    def _deal(self) -> None:
        """Deal the cards due (chance, from the env's generator) and hand the turn to the player to move."""
        self.core.deal_random(self._rng)
        if self.core.over:
            return
        self.agent_selection = self.possible_agents[self.core.player]
        if self.encoding == "factored":
            return
        count = len(self.core.legal_moves())
        if count > self.max_moves:
            raise TooManyMoves(
                f"{NAME}: a position has {count} legal moves, more than max_moves={self.max_moves} "
                f"(make the environment with a larger max_moves, up to {MOVE_LIMIT})"
            )

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's view (a copy) and its action mask: its legal actions on its turn, none otherwise."""
        player = self._players[agent]
        seen = observation_of(self._view, self.core, player)
        return {"observation": seen, "action_mask": action_mask(self.core, player, self.max_moves)}

    def render(self) -> str | None:
        """The whole table as text (every hand shown), as classic environments render for an onlooker: printed
        ("human") or returned ("ansi")."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.render_mode == "human":
            print(table_text(self.core))
            return None
        return table_text(self.core)

    def close(self) -> None:
        """Nothing to release: no window, no process."""


def _action_count(encoding: str, max_moves: int | None) -> int:
    """The size of the action space: the factored encoding's ids, or `max_moves` legal-move indices (4096 unless
    given); UserError for a bad max_moves."""
    if encoding == "factored":
        if max_moves is not None:
            raise UserError("max_moves sizes encoding='index' only (the factored encoding has 1769 actions)")
        return NUM_ACTIONS
    max_moves = MAX_MOVES if max_moves is None else max_moves
    if isinstance(max_moves, bool) or not isinstance(max_moves, int) or not 1 <= max_moves <= MOVE_LIMIT:
        raise UserError(f"max_moves must be a whole number from 1 to {MOVE_LIMIT}, got {max_moves!r}")
    return max_moves


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


class SoloEnv(gymnasium.Env):
    """casino_v0 for one learner: a single-agent Gymnasium environment in which the learner plays `seat` and a
    casino-sim policy (`opponent`: a Policy, or a spec as the commands take it, "random" to "searcher" or a policy
    file, loaded by a policy loader of its own) every other seat; the other options are casino_v0's. Observations are
    the learner's view (a Box), its legal actions `info["action_mask"]` and `action_masks()` (what sb3-contrib's
    MaskablePPO reads); the reward, at the end, is the learner's (its round points, their difference with zero_sum,
    or a whole game's 1 or share of -1). An illegal action ends the episode with `illegal_reward` (-1), as
    casino_v0's env() does.

    The opponent is shown what its seat sees and plays its policy's move; on a table piled past the engines' limit
    (core/limits.py), where a policy cannot list the moves, it plays a random legal action sequence instead.
    """

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(self, opponent: str | Policy = "random", seat: int = 0, illegal_reward: float = -1.0, **options):
        self.game, self.illegal_reward = raw_env(**options), float(illegal_reward)
        if seat not in range(self.game.rules.players):
            raise InputError(f"{NAME}: seat must be a player 0 to {self.game.rules.players - 1}, got {seat!r}")
        self.policy = PolicyLoader()(opponent) if isinstance(opponent, str) else opponent
        self.seat, self.agent, self.render_mode = seat, self.game.possible_agents[seat], self.game.render_mode
        self.observation_space = self.game.observation_space(self.agent)["observation"]
        self.action_space = self.game.action_space(self.agent)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """A new round (or game), its deal and the opponents' choices drawn from the generator `seed` seeds."""
        super().reset(seed=seed)
        self.game.reset(seed=int(self.np_random.integers(2**63)))
        self._opponents()
        return self._observe()

    def step(self, action):
        """The learner's action, then the opponents' plays up to the learner's next decision or the end."""
        if int(action) not in self.game.core.legal_actions():
            observation, info = self._observe()
            return observation, self.illegal_reward, True, False, {**info, "illegal": True}
        self.game.step(int(action))
        self._opponents()
        observation, info = self._observe()
        over = self.game.core.over
        return observation, float(self.game.rewards[self.agent]) if over else 0.0, over, False, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as booleans (all False once it is over)."""
        return self.game.observe(self.agent)["action_mask"].astype(bool)

    def render(self) -> str | None:
        return self.game.render()

    def _observe(self) -> tuple[np.ndarray, dict]:
        seen = self.game.observe(self.agent)
        return seen["observation"], {"action_mask": seen["action_mask"]}

    def _opponents(self) -> None:
        """Every other seat plays its policy's move, action by action, until the learner is to move or it is over."""
        core = self.game.core
        while not core.over and core.player != self.seat:
            pos = core.round.position
            try:
                move = self.policy.step(pos.seen_by(pos.to_move), int(self.np_random.integers(2**63)))
                actions = core.actions_for(move)
            except PositionError:  # too many moves for the policy to list: a random sequence
                actions = [int(self.np_random.choice(core.legal_actions()))]
            for action in actions:
                self.game.step(action)
            while core.choice is not None:
                self.game.step(int(self.np_random.choice(core.legal_actions())))
