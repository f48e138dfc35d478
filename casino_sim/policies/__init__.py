"""Playing policies, one class per kind: random, trail, weighted heuristics, rollout, searcher, Python callables,
bots, OpenSpiel's IS-MCTS; each checked from plain data (policies/fields.py). Nothing here reads a file or looks a
policy up by name: the policy loader does (casino_sim/loader)."""

from casino_sim.policies.bots import BotPolicy
from casino_sim.policies.features import FEATURE_NAMES, FEATURES, move_features
from casino_sim.policies.kinds import (
    CallablePolicy,
    HeuristicPolicy,
    RandomPolicy,
    RolloutPolicy,
    SearcherPolicy,
    SearchPolicy,
    TrailPolicy,
)
from casino_sim.policies.policy import Policy, PolicyError

__all__ = [
    "BotPolicy",
    "CallablePolicy",
    "HeuristicPolicy",
    "RandomPolicy",
    "RolloutPolicy",
    "SearchPolicy",
    "SearcherPolicy",
    "TrailPolicy",
    "FEATURES",
    "FEATURE_NAMES",
    "Policy",
    "PolicyError",
    "move_features",
]
