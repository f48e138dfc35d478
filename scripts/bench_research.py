"""Steps a second of the research adapters with random agents, beside the frameworks' own games, in one run.

    python scripts/bench_research.py [--seconds 5] [--tables 4096] [--repeats 3] [--only pettingzoo,openspiel,batch]

PettingZoo's AEC loop (`agent_iter`, `last`, a uniform legal action from the mask, `step`) on casino_v0 (the
wrapped `env()` and `raw_env()`, each engine) and on PettingZoo's classic games connect_four_v3 and tictactoe_v3
(they import pygame: `pip install 'casino-sim[bench]'`); OpenSpiel's `rl_environment` with uniform random agents on
python_casino (each engine) and on OpenSpiel's own C++ games; the batched environment (casino_sim/research/batch.py)
with its kernels' random actions, on one numba thread and on all. A step is one `step` call (one action of one table
for the batch). Every row runs `--repeats` times, the rows in turn, and the table gives each row's median and runs,
with the time and the load average: the machine may be shared, so compare rows of one run (docs/research.md).
"""

from __future__ import annotations

import argparse
import importlib
import os
import time
from datetime import UTC, datetime
from functools import partial

import numpy as np

GROUPS = ("pettingzoo", "openspiel", "batch")


def pettingzoo_rate(make, seconds: float) -> float:
    """AEC steps a second with uniform random legal actions, the environment reset at each episode's end."""
    env, rng, steps, seed = make(), np.random.default_rng(0), 0, 0
    env.reset(seed=seed)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            action = None
            if not (termination or truncation):
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[rng.integers(len(legal))])
            env.step(action)
            steps += 1
        seed += 1
        env.reset(seed=seed)
    return steps / (time.perf_counter() - start)


def openspiel_rate(game, seconds: float, observation: bool = False) -> float:
    """rl_environment steps a second with uniform random agents (chance sampled by the environment), each step
    reading every player's information state tensor (its default) or, with `observation`, observation tensor."""
    from open_spiel.python import rl_environment

    kind = rl_environment.ObservationType.OBSERVATION if observation else None
    env, rng, steps = rl_environment.Environment(game, seed=0, observation_type=kind), np.random.default_rng(0), 0
    step = env.reset()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if step.last():
            step = env.reset()
            continue
        player = step.observations["current_player"]
        legal = step.observations["legal_actions"][player]
        step = env.step([legal[int(rng.integers(len(legal)))]])
        steps += 1
    return steps / (time.perf_counter() - start)


def batch_rate(tables: int, seconds: float, players: int = 2) -> float:
    """Table-steps a second of the batched environment with its kernels' random legal actions."""
    from casino_sim.research.batch import BatchEnv

    env = BatchEnv(tables, rules="strict" if players == 2 else "brazilian", players=players)
    env.reset(0)
    for _ in range(50):  # past the first deals and the compile
        env.step(env.random_actions())
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.step(env.random_actions())
        steps += tables
    return steps / (time.perf_counter() - start)


def rows(seconds: float, tables: int, only: set[str]) -> list[tuple[str, str, object]]:
    """(framework, environment, a function measuring its steps a second, or None when it does not install) for every
    row of the groups `only` names (pettingzoo, openspiel, batch)."""
    import pyspiel

    import casino_sim.openspiel  # noqa: F401  (registers python_casino)
    import casino_sim.pettingzoo as casino

    found = []
    if "pettingzoo" in only:
        for name in ("connect_four_v3", "tictactoe_v3"):
            try:
                module = importlib.import_module(f"pettingzoo.classic.{name}")
            except ImportError:  # PettingZoo's classic games import pygame, which the research extra leaves out
                print(f"PettingZoo's {name} needs pygame: pip install 'casino-sim[bench]' (its row is left empty)")
                found.append(("PettingZoo", name, None))
                continue
            found.append(("PettingZoo", name, partial(pettingzoo_rate, module.env, seconds)))
        for engine in ("numba", "reference"):
            for make, label in ((casino.env, "env()"), (casino.raw_env, "raw_env()")):
                rate = partial(pettingzoo_rate, partial(make, engine=engine), seconds)
                found.append(("PettingZoo", f"casino_v0 {label}, engine={engine}", rate))
    if "openspiel" in only:
        for name in ("tic_tac_toe", "connect_four", "leduc_poker"):
            rate = partial(openspiel_rate, pyspiel.load_game(name), seconds)
            found.append(("OpenSpiel rl_environment", f"{name} (C++)", rate))
        for engine in ("numba", "reference"):
            game = pyspiel.load_game("python_casino", {"engine": engine})
            for observation in (False, True):
                label = f"python_casino, engine={engine}, {'observation' if observation else 'information state'}"
                rate = partial(openspiel_rate, game, seconds, observation)
                found.append(("OpenSpiel rl_environment", label, rate))
    if "batch" in only:
        import numba

        for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
            for players in (2, 4):
                rate = partial(threaded, threads, partial(batch_rate, tables, seconds, players))
                found.append(("casino_sim batch", f"BatchEnv({tables}), {players} players, {threads} thread(s)", rate))
    return found


def threaded(threads: int, measure):
    """measure() on `threads` numba threads (then back to all of them)."""
    import numba

    numba.set_num_threads(threads)
    try:
        return measure()
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds each row runs (default 5)")
    parser.add_argument("--tables", type=int, default=4096, help="tables of the batched environment (default 4096)")
    parser.add_argument("--repeats", type=int, default=3, help="runs of every row, taken in turn (default 3)")
    parser.add_argument("--only", default=",".join(GROUPS), help="the groups of rows to run")
    args = parser.parse_args()
    only = set(args.only.split(","))
    if args.seconds <= 0 or args.tables < 1 or args.repeats < 1 or not only <= set(GROUPS):
        parser.error(f"--seconds must be positive, --tables and --repeats at least 1, --only of {','.join(GROUPS)}")
    from casino_sim.research.batch import BatchEnv

    BatchEnv(2).reset(0)  # compile (or load) the kernels before any clock starts
    found = rows(args.seconds, args.tables, only)
    start = f"{datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}, load average {load()}"
    runs = [[] for _ in found]
    for _ in range(args.repeats):  # every row once, then again: a change of load touches every row alike
        for k, (_, _, measure) in enumerate(found):
            if measure is not None:
                runs[k].append(measure())
    print(f"{start} to {datetime.now(UTC).strftime('%H:%M UTC')}, load average {load()}; {os.cpu_count()} cores")
    print(f"median of {args.repeats} runs of {args.seconds:g} s each, in turn\n")
    print("| framework | environment | steps/s | runs |\n| --- | --- | ---: | --- |")
    for (framework, name, _), rates in zip(found, runs):
        median = f"{np.median(rates):,.0f}" if rates else "not installed"
        print(f"| {framework} | {name} | {median} | {' '.join(f'{r:,.0f}' for r in rates)} |")


if __name__ == "__main__":
    main()
