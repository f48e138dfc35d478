"""casino-sim's policies as OpenSpiel bots, and OpenSpiel's IS-MCTS as a casino-sim policy's move (docs/research.md).

`PolicyBot(policy)` plays any casino-sim policy object (random to the searcher, a policy file, a Python function:
`cs.policy(spec)` loads one by name) in `python_casino` states: the policy is shown the position as the player to
move sees it, never the hidden cards, and its move becomes the action of the same move. `ismcts_move` is the other
way round, what the `openspiel-ismcts` policy kind (policies/ismcts.py, registered into a policy loader by
openspiel_kind.py) plays: open_spiel's ISMCTSBot searching python_casino from a casino-sim position.
Needs the `research` extra, like casino_sim.openspiel.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from casino_sim.core.rules import RuleSet
from casino_sim.openspiel import CasinoState
from casino_sim.policies.policy import Policy
from casino_sim.reference.moves import Move
from casino_sim.reference.position import Position
from casino_sim.research.rooted import rooted_state

FINAL_POLICY = {
    "max_visit_count": ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    "max_value": ismcts.ISMCTSFinalPolicyType.MAX_VALUE,
}
SEED_BOUND = 2**31  # numpy's RandomState takes 32-bit seeds


class PolicyBot(pyspiel.Bot):
    """A casino-sim policy object as an OpenSpiel bot (a policy loader resolves a name first: cs.policy(spec)).

    Each decision is the policy's step() on the mover's view, seeded by `decision_seed(state)`: the bot's seed and
    how many actions led there, so a bot replays its games and answers one state the same way every time.
    """

    def __init__(self, policy: Policy, seed: int = 0):
        pyspiel.Bot.__init__(self)
        self.policy = policy
        self.seed = seed

    def decision_seed(self, state) -> int:
        """The seed of the policy's random choices in `state`: the same through the actions of one play."""
        return int(np.random.SeedSequence([self.seed, state.core.turn_start]).generate_state(1)[0])

    def step(self, state) -> int:
        """The next action of the policy's move in `state` (a python_casino state with a player to move)."""
        pos = state.core.round.position
        move = self.policy.step(pos.seen_by(pos.to_move), self.decision_seed(state))
        return state.core.actions_for(move)[0]

    def step_with_policy(self, state):
        """([(the action, 1.0)], the action): the policy's move is its whole policy here."""
        action = self.step(state)
        return [(action, 1.0)], action

    def restart_at(self, state) -> None:
        """Nothing to forget: the bot keeps no memory between decisions."""

    def inform_action(self, state, player_id, action) -> None:
        """Nothing to record: the policy sees each position as it comes."""


@cache
def casino_game(rules: RuleSet) -> pyspiel.Game:
    """python_casino with these rules: their name without players and teams, which are parameters of their own; in
    legal-move indices, so that a search's tree has one node a play."""
    base, _, options = rules.name.partition(":")
    kept = [o for o in options.split(",") if o and o.partition("=")[0] not in ("players", "teams")]
    name = f"{base}:{','.join(kept)}" if kept else base
    params = {"rules": name, "players": rules.players, "teams": rules.teams, "encoding": "index"}
    return pyspiel.load_game("python_casino", params)


def position_state(seen: Position, rng: np.random.Generator) -> CasinoState:
    """A python_casino state at a world drawn from the position as its player to move sees it (research/rooted.py):
    what IS-MCTS searches from, and what its resampler draws again."""
    return CasinoState(casino_game(seen.rules), rooted_state(seen, rng, encoding="index"))


def ismcts_move(pos: Position, params: dict, seed: int) -> Move:
    """The move open_spiel's ISMCTSBot plays in `pos` with the `openspiel-ismcts` parameters (policies/ismcts.py),
    every random choice from `seed`. Only the mover's view is read: each simulation's world is drawn from it."""
    seen = pos.seen_by(pos.to_move)
    rng = np.random.default_rng(seed)
    random_state = np.random.RandomState(int(rng.integers(SEED_BOUND)))
    bot = ismcts.ISMCTSBot(
        casino_game(pos.rules),
        mcts.RandomRolloutEvaluator(params["rollouts"], random_state),
        params["uct_c"],
        params["simulations"],
        max_world_samples=params["world_samples"] or ismcts.UNLIMITED_NUM_WORLD_SAMPLES,
        random_state=random_state,
        final_policy_type=FINAL_POLICY[params["final_policy"]],
        use_observation_string=True,  # the rooted state keeps no story: the mover's view of the table is the key
    )
    bot.set_resampler(lambda state, player: position_state(state.core.round.position.seen_by(player), rng))
    root = position_state(seen, rng)
    return root.core.legal_moves()[int(bot.step(root))]
