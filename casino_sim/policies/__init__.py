"""Playing policies, one class per kind: random, trail, weighted heuristics from TOML files, rollout, searcher,
Python callables, bots."""

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
from casino_sim.policies.registry import builtin_policies, folder_label, get_policy, policy_label, register_policy

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
    "builtin_policies",
    "folder_label",
    "get_policy",
    "move_features",
    "policy_label",
    "register_policy",
]
