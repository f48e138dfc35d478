"""A learner's points against a policy over fixed, mirrored deals: the evaluation of a first learning baseline.

The learner is a masked policy: a callable from a batch of observations and legal-action masks to one action each
(a trained network, or `random_masked` below), so nothing here imports a learning library. It plays single-agent
environments with `reset(seed=...)`, `step(action)` and `action_masks()` (casino_sim.pettingzoo's SoloEnv, made
by the caller with `zero_sum=True`, so that a round's reward is the learner's side's points less the other's).
Each deal is played twice with the seats swapped (the same seed deals the same cards in either seat), so the luck
of the cards cancels in the pair (docs/research.md, "A first learning baseline").
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

MaskedPolicy = Callable[[np.ndarray, np.ndarray], np.ndarray]  # (k, width) observations, (k, actions) masks -> (k,)
SEATS = (0, 1)  # a mirrored deal: the learner first leads, then deals


def random_masked(seed: int) -> MaskedPolicy:
    """A masked policy that plays a uniform legal action (the untrained learner's floor), seeded."""
    rng = np.random.default_rng(seed)

    def act(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.array([rng.choice(np.flatnonzero(mask)) for mask in masks], dtype=np.int64)

    return act


def deal_seeds(seed: int, deals: int) -> list[int]:
    """The seeds of `deals` evaluation deals, drawn from `seed` alone (fixed: every evaluation plays the same)."""
    return [int(s) for s in np.random.default_rng(seed).integers(2**63, size=deals)]


def mirrored_points(
    act: MaskedPolicy, make_env: Callable[[int], object], seeds: list[int], chunk: int = 64
) -> np.ndarray:
    """(deals, 2): the learner's reward in each deal, seated first at 0 and then at 1, its opponents' seats in
    `make_env(seat)`. The rounds of `chunk` deals are stepped in lockstep, so `act` sees a batch at a time."""
    return np.concatenate(
        [_lockstep(act, make_env, seeds[i : i + chunk]) for i in range(0, len(seeds), chunk)]
    ).reshape(len(seeds), len(SEATS))


def _lockstep(act: MaskedPolicy, make_env: Callable[[int], object], seeds: list[int]) -> np.ndarray:
    """The rewards of seeds' mirrored rounds, deal by deal, every round stepped until its end."""
    envs = [make_env(seat) for _ in seeds for seat in SEATS]
    started = [env.reset(seed=seed) for env, seed in zip(envs, (s for s in seeds for _ in SEATS))]
    observations = [observation for observation, _ in started]
    points = np.zeros(len(envs))
    going = list(range(len(envs)))
    while going:
        masks = np.stack([envs[i].action_masks() for i in going])
        actions = act(np.stack([observations[i] for i in going]), masks)
        still = []
        for i, action in zip(going, actions):
            observations[i], reward, done, truncated, info = envs[i].step(int(action))
            if info.get("illegal"):
                raise ValueError(f"the learner chose the illegal action {int(action)}")
            if done or truncated:
                points[i] = reward
            else:
                still.append(i)
        going = still
    return points
