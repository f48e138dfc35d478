"""research/batch.py: N tables stepped together play, table by table, the single environment's trajectory for the
same seed (masks, observations, rewards, and the next rounds after each end), under random play and under
always-the-first-action play (tables piled past the batch's buffers); bad calls are one-line errors."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from casino_sim.core.errors import InputError
from casino_sim.pettingzoo import raw_env
from casino_sim.research.batch import BatchEnv
from casino_sim.research.encoding import NUM_ACTIONS

SEEDS = [3, 14, 15, 92, 65]
PARAMS = [
    {"rules": "strict", "zero_sum": True},
    {"rules": "italian", "players": 3},
    {"rules": "brazilian", "players": 4, "teams": True},
]


def first_legal(batch: BatchEnv) -> np.ndarray:
    return batch.legal_action_mask.argmax(axis=1)


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
@pytest.mark.parametrize("chooser", [BatchEnv.random_actions, first_legal], ids=["random", "first"])
def test_each_table_plays_the_single_environments_trajectory(params, chooser):
    batch = BatchEnv(len(SEEDS), **params)
    batch.reset(SEEDS)
    singles = [raw_env(**params) for _ in SEEDS]
    for env, seed in zip(singles, SEEDS):
        env.reset(seed=seed)
    assert batch.legal_action_mask.shape == (len(SEEDS), NUM_ACTIONS)
    ends = 0
    for _ in range(300 if chooser is BatchEnv.random_actions else 150):  # piled tables play on the reference engine
        for i, env in enumerate(singles):
            if batch.terminated[i]:
                assert env.core.over and [env.rewards[a] for a in env.possible_agents] == batch.rewards[i].tolist()
                continue
            assert not env.core.over and not batch.rewards[i].any()
            agent = env.agent_selection
            assert env.possible_agents.index(agent) == batch.player[i]
            seen = env.observe(agent)
            assert np.array_equal(seen["action_mask"].astype(bool), batch.legal_action_mask[i])
            assert np.array_equal(seen["observation"], batch.observation[i])
        actions = chooser(batch)
        for i, env in enumerate(singles):
            if batch.terminated[i]:
                env.reset()  # the table's next round: the same generator, dealing on
                ends += 1
            else:
                env.step(int(actions[i]))
        batch.step(actions)
    assert ends >= len(SEEDS)  # every table finished a round and began the next


def test_random_actions_are_legal_and_repeat_for_the_same_seeds():
    runs = []
    for _ in range(2):
        batch = BatchEnv(8, rules="italian")
        batch.reset(7)
        taken = []
        for _ in range(100):
            actions = batch.random_actions()
            playing = ~batch.terminated  # a finished table's action is ignored (its next round starts)
            assert batch.legal_action_mask[np.arange(8), actions][playing].all()
            taken.append(actions.copy())
            batch.step(actions)
        runs.append(np.array(taken))
    assert np.array_equal(runs[0], runs[1]) and len(np.unique(runs[0])) > 20


@pytest.mark.parametrize(
    "make, says",
    [
        (lambda: BatchEnv(0), "the number of tables must be a whole number from 1, got 0"),
        (lambda: BatchEnv(2, players=5), "players"),
        (lambda: BatchEnv(2, rules="italian", zero_sum=True, players=3), "zero_sum needs two sides"),
        (lambda: BatchEnv(2).step([0, 0]), "reset before the first step"),
    ],
)
def test_bad_arguments_are_one_line_errors(make, says):
    with pytest.raises(InputError, match=says) as info:
        make()
    assert str(info.value).startswith("casino_batch: ") and "\n" not in str(info.value)


def test_a_bad_step_is_a_one_line_error():
    batch = BatchEnv(2)
    batch.reset(0)
    with pytest.raises(InputError, match=r"step takes 2 whole numbers"):
        batch.step([0.5, 1.0])
    illegal = np.argmin(batch.legal_action_mask, axis=1)
    with pytest.raises(InputError, match=r"^casino_batch: illegal action at table\(s\) \[0, 1\]"):
        batch.step(illegal)


def _random_run(threads: int, steps: int) -> list[np.ndarray]:
    """Every array a learner reads, at every step of a random run of 40 tables on `threads` threads."""
    numba.set_num_threads(threads)
    try:
        batch = BatchEnv(40, rules="italian", players=3)
        batch.reset(11)
        seen = []
        for _ in range(steps):
            actions = batch.random_actions()
            seen += [actions, batch.player.copy(), batch.observation.copy(), batch.legal_action_mask.copy()]
            seen += [batch.rewards.copy(), batch.terminated.copy()]
            batch.step(actions)
        return seen
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs two numba threads")
def test_the_same_seeds_give_the_same_arrays_on_one_thread_and_on_two():
    one, two = _random_run(1, 250), _random_run(2, 250)
    assert sum(a.sum() for a in one[5::6]) > 0  # rounds ended on the way (their rewards compared too)
    assert all(np.array_equal(a, b) for a, b in zip(one, two, strict=True))
