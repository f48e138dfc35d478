"""One decision of any policy in a position: Python-side policies, or the engine's rollout and searcher."""

from __future__ import annotations

from casino_sim.policies.policy import Policy
from casino_sim.reference.moves import Move
from casino_sim.reference.position import Position
from casino_sim.reference.round import round_context


def check_search_position(pos: Position, policy: Policy) -> None:
    """Refuse, before any compiling, a position a searching policy cannot sample: one no deal reaches."""
    round_context(pos)


def choose_move(pos: Position, policy: Policy, seed: int = 0) -> Move:
    """The move the policy plays in the position (its random choices seeded by `seed`): its step()."""
    return policy.step(pos, seed)
