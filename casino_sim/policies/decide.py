"""One decision of any policy in a position: Python-side policies, or the engine's rollout and searcher."""

from __future__ import annotations

import numpy as np

from casino_sim.core.featurespec import KIND_ID, P_KIND
from casino_sim.policies.arrays import policy_arrays
from casino_sim.policies.policy import Policy
from casino_sim.policies.registry import RANDOM
from casino_sim.reference.movegen import legal_moves
from casino_sim.reference.moves import Move
from casino_sim.reference.position import Position
from casino_sim.reference.round import round_context


def check_search_position(pos: Position, policy: Policy) -> None:
    """Refuse, before any compiling, a position a searching policy cannot sample: one no deal reaches."""
    round_context(pos)


def choose_move(pos: Position, policy: Policy, seed: int = 0) -> Move:
    """The move the policy plays in the position (its random choices seeded by `seed`)."""
    if policy.searches:
        from casino_sim.kernels import search_choose  # deferred: loads numba only when a searching policy chooses

        check_search_position(pos, policy)
        ints, weights, wants = policy_arrays((policy, RANDOM))
        if pos.players > 2:  # the searcher without the exact last batch, whose hidden split is unknown: a rollout
            ints[0, P_KIND] = KIND_ID["rollout"]
        return search_choose(pos, ints[0], weights[2], wants[2], seed)
    return policy.choose(pos, legal_moves(pos), np.random.default_rng(seed))
