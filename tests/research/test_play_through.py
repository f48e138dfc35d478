"""What an untrained learner does first, through both adapters in every table: always trail (piling the table until
its moves run to billions), always take action 0, or act at random; every round ends, every step quickly, and the
returns are the round's."""

from __future__ import annotations

import time

import numpy as np
import pyspiel  # the research extra, in the test extra: CI has it, and none of these tests skips
import pytest

import casino_sim.openspiel  # noqa: F401  (registers python_casino)
from casino_sim.pettingzoo import env
from tests.research.test_encoding import trail_first
from tests.research.test_openspiel import TABLES, label

pytestmark = pytest.mark.filterwarnings("error")
POLICIES = {
    "trail": lambda legal, rng: trail_first(legal),
    "action-0": lambda legal, rng: legal[0],
    "random": lambda legal, rng: int(rng.choice(legal)),
}
SLOWEST = 10.0  # seconds a step may take on a loaded machine (a piled table's step takes about 0.05 s)


def openspiel_rounds(params: dict, choose, rounds: int, seed: int) -> float:
    """Play `rounds` seeded rounds of python_casino; the slowest step's seconds."""
    game, rng, slowest = pyspiel.load_game("python_casino", params), np.random.default_rng(seed), 0.0
    for _ in range(rounds):
        state = game.new_initial_state()
        while not state.is_terminal():
            start = time.perf_counter()
            if state.is_chance_node():
                cards, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(cards, p=probs)))
            else:
                state.apply_action(choose(state.legal_actions(), rng))
            slowest = max(slowest, time.perf_counter() - start)
        assert len(state.core.round.plays) == 48 and state.returns() == [float(p) for p in state.core.round.points()]
        assert len(state.history()) < game.max_game_length()  # the metadata covers the round
    return slowest


def pettingzoo_rounds(params: dict, choose, rounds: int, seed: int) -> float:
    """Play `rounds` seeded episodes of casino_v0; the slowest step's seconds."""
    game, rng, slowest = env(**params), np.random.default_rng(seed), 0.0
    for episode in range(rounds):
        game.reset(seed=seed + episode)
        for _ in game.agent_iter():
            start = time.perf_counter()  # the observation and its mask, then the step
            obs, reward, terminated, truncated, info = game.last()
            game.step(None if terminated else choose(np.flatnonzero(obs["action_mask"]).tolist(), rng))
            slowest = max(slowest, time.perf_counter() - start)
        core = game.unwrapped.core
        assert len(core.round.plays) == 48 and core.over
    return slowest


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("params", TABLES, ids=label)
@pytest.mark.parametrize("rounds", [pytest.param(1), pytest.param(20, marks=pytest.mark.long)])
def test_every_round_ends_in_both_adapters(params, policy, rounds):
    choose = POLICIES[policy]
    assert openspiel_rounds(params, choose, rounds, seed=rounds) < SLOWEST
    assert pettingzoo_rounds(params, choose, rounds, seed=rounds) < SLOWEST
