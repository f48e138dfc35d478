"""Policies as objects: one class per kind, each answering step(position) with a legal move (the Python side) and
giving its row of the kernels' policy arrays (the numba side); a searching policy's base is an object, loaded
with it; a bot is its own kind."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from casino_sim.core.featurespec import KIND_ID, P_BASE_KIND, P_KIND, P_WORLDS
from casino_sim.policies import BotPolicy, CallablePolicy, HeuristicPolicy, RandomPolicy, SearchPolicy, TrailPolicy
from casino_sim.policies.arrays import policy_arrays
from casino_sim.policies.policy import KINDS, Policy, PolicyError
from casino_sim.reference import legal_moves
from tests.support.policies import builtin_policies, get_policy, policy_from_dict, register_policy
from tests.support.positions import random_position

BOT = Path(__file__).resolve().parents[2] / "scripts" / "bots" / "most_cards.py"
POSITIONS = [random_position(seed, ply) for seed, ply in ((1, 0), (2, 17), (3, 40))]  # first, middle, last batch


def _first(pos, moves, rng):
    """The first legal move."""
    return moves[0]


def searching(kind: str) -> Policy:
    """A rollout or searcher with few worlds, its base the built-in greedy."""
    data = {"name": f"{kind}-4", "kind": kind, "params": {"worlds": 4, "base": "greedy"}}
    return policy_from_dict(data, "test", "test")


def every_kind() -> list[Policy]:
    """A policy of every kind: the built-ins (searching ones with few worlds), a Python callable, a bot."""
    quick = [p for p in builtin_policies().values() if not p.searches]
    python = register_policy("test-kinds-first", _first)
    return [*quick, searching("rollout"), searching("searcher"), python, get_policy(f"exec:python3 {BOT}")]


@pytest.mark.parametrize("policy", every_kind(), ids=lambda p: p.name)
def test_every_kind_of_policy_steps_to_a_legal_move(policy):
    assert policy.kind in KINDS and type(policy).kind == policy.kind  # the kind is the class's
    for pos in POSITIONS:
        move = policy.step(pos, seed=5)
        assert move in legal_moves(pos)
        assert policy.step(pos, seed=5) == move  # same seed, same move


def test_each_kind_is_its_own_class():
    classes = {p.name: type(p) for p in every_kind()}
    assert classes["random"] is RandomPolicy and classes["trail"] is TrailPolicy
    assert classes["expert"] is HeuristicPolicy and issubclass(classes["rollout-4"], SearchPolicy)
    assert classes["test-kinds-first"] is CallablePolicy
    assert classes["most_cards"] is BotPolicy and not issubclass(BotPolicy, CallablePolicy)  # not posing as python


def test_the_kernel_row_is_the_policy_arrays_row():
    expert, rollout = get_policy("expert"), get_policy("rollout")
    ints, weights, wants = policy_arrays((expert, rollout, get_policy("random")))
    assert list(ints[:, P_KIND]) == [KIND_ID["heuristic"], KIND_ID["rollout"], KIND_ID["random"]]
    assert np.array_equal(weights[0], expert.weights) and not weights[1].any() and not weights[2].any()
    assert ints[1, P_WORLDS] == 64 and ints[1, P_BASE_KIND] == KIND_ID["heuristic"]
    assert rollout.base is expert and np.array_equal(weights[3 + 1], expert.weights)  # the base's row: k + i
    assert np.array_equal(wants, (weights != 0).astype(np.int64))


@pytest.mark.parametrize("policy", [p for p in every_kind() if p.plays_in_python], ids=lambda p: p.name)
def test_a_python_side_policy_gives_no_kernel_row(policy):
    with pytest.raises(PolicyError, match=r"cannot play in the numba engine"):
        policy.kernel_row()


def test_a_searching_policy_loads_its_base_once_as_an_object():
    assert searching("searcher").base is get_policy("greedy")
    nested = {"name": "nested", "kind": "rollout", "params": {"base": "searcher"}}
    with pytest.raises(PolicyError, match="the rollout base policy must be random or a heuristic, not 'searcher'"):
        policy_from_dict(nested, "test", "test")
    with pytest.raises(PolicyError, match="unknown policy 'nobody'"):
        policy_from_dict({"name": "x", "kind": "rollout", "params": {"base": "nobody"}}, "test", "test")


def test_policies_that_play_alike_are_told_apart_by_content():
    greedy = get_policy("greedy")
    same = HeuristicPolicy("copy", "", weights=greedy.weights.copy())
    other = HeuristicPolicy("copy", "", weights=get_policy("expert").weights)
    assert greedy.plays_like(same) and not greedy.plays_like(other) and not greedy.plays_like(get_policy("random"))
    assert searching("rollout").plays_like(searching("rollout")) and not searching("rollout").plays_like(
        searching("searcher")
    )
