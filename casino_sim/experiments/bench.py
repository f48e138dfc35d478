"""`casino-sim bench`: how fast each engine plays random rounds, and what compiling costs.

run_bench times whole rounds (48 plays each) of a policy against itself on one
rule set, through the same row player that `simulate` uses.
For the numba engine it also measures, in fresh subprocesses:
  compile_s_cold      import + compile of the kernels simulate runs (engine.warmup, empty NUMBA_CACHE_DIR)
  compile_s_cached    import + load of the same kernels from the warm numba cache
  first_deal_s_cached wall time of a whole `python -c` that imports the engine
                      and plays its first round, warm cache (what a user waits)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from casino_sim.core.child import python_code
from casino_sim.core.errors import InputError
from casino_sim.core.fields import FieldError
from casino_sim.core.rules import RuleSet, get_rules
from casino_sim.engines import get_engine
from casino_sim.experiments.study_declarations import BENCH
from casino_sim.loader import PolicyLoader
from casino_sim.policies.policy import Load
from casino_sim.runner.deals import deal_rows
from casino_sim.runner.play import engine_for, play
from casino_sim.runner.threads import use_threads

PLIES_PER_ROUND = 48

# as a first run of simulate compiles (engines/compiling.py, with its head start), then loads and plays a round
_COMPILE_SNIPPET = (
    "import io, time; t = time.perf_counter()\n"
    "from rich.console import Console\n"
    "from casino_sim import kernels as engine\n"
    "from casino_sim.engines.compiling import ensure_compiled\n"
    "ensure_compiled('rounds', console=Console(file=io.StringIO()))\n"
    "engine.warmup()\n"
    "print(time.perf_counter() - t)\n"
)
_FIRST_DEAL_SNIPPET = "from casino_sim import kernels as engine\nengine.warmup()"


def _run_python(code: str, env_extra: dict | None = None, timeout: float = 600) -> tuple[float, str]:
    env = dict(os.environ)
    env.update(env_extra or {})
    t = time.perf_counter()
    proc = subprocess.run(python_code(code), env=env, capture_output=True, text=True, timeout=timeout)
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        raise RuntimeError(f"benchmark subprocess failed: {proc.stderr.strip()[-500:]}")
    return wall, proc.stdout.strip()


def compile_times() -> dict:
    """Cold and cached compile times of the numba engine, each in a fresh subprocess."""
    with tempfile.TemporaryDirectory(prefix="casino-numba-cold-") as cold_dir:
        _, out = _run_python(_COMPILE_SNIPPET, {"NUMBA_CACHE_DIR": cold_dir})
        cold = float(out.splitlines()[-1])
    _run_python(_COMPILE_SNIPPET)  # make sure the normal cache is populated
    _, out = _run_python(_COMPILE_SNIPPET)
    cached = float(out.splitlines()[-1])
    first_deal, _ = _run_python(_FIRST_DEAL_SNIPPET)
    return {
        "compile_s_cold": round(cold, 3),
        "compile_s_cached": round(cached, 3),
        "first_deal_s_cached": round(first_deal, 3),
    }


def _time_rows(engine: str, policy, rules: RuleSet, deals: int, threads: int, seed: int, check: bool = False) -> float:
    """Seconds to play `deals` rounds of the policy against itself, the way simulate plays them."""
    alone = np.zeros((1, rules.players), np.int8)  # the policy in every seat
    rows = deal_rows(seed, 0, deals, alone)
    with use_threads(threads):
        play(engine, deal_rows(seed + 1, 0, min(deals, 64), alone), rules, (policy,))  # compile
        t = time.perf_counter()
        play(engine, rows, rules, (policy,), check=check)
        return time.perf_counter() - t


def _resolved_threads(threads: int) -> int:
    """The numba thread count a run with `threads` gets (0: all cores numba may use), as the run reports it."""
    with use_threads(threads) as n:
        return n


def run_bench(
    engine: str = "numba",
    policy: str = "random",
    deals: int = 200_000,
    threads: int = 1,
    rules: str | RuleSet = "strict",
    seed: int = 0,
    measure_compile: bool = True,
    check: bool = False,
    announce=None,
    *,
    loader: Load,
) -> dict:
    """Time `deals` rounds of the policy against itself on the engine.

    Keys: engine, policy, rules, threads, deals, seconds, rounds_per_s, us_per_round, us_per_ply;
    rollout and searcher add ms_per_decision (three significant digits); check times simulate --check's checked
    mode (numba only); numba with measure_compile adds compile_s_cold, compile_s_cached, first_deal_s_cached.
    threads 0 is every core (as in simulate); the reference engine plays in this one process: its threads is
    always 1. `policy` is resolved by the policy loader `loader`; `announce(threads, policy)` (the policy resolved)
    is called once the arguments are known to be good, before the timing starts.
    """
    get_engine(engine)  # an unknown name is the first thing said
    values = {"deals": deals, "threads": threads, "check": check}
    BENCH.check_types(values)
    BENCH.check(values)
    pol = loader(policy)
    rs = get_rules(rules) if isinstance(rules, str) else rules
    if engine_for(engine, (pol, pol)) != engine:
        raise InputError(f"policy {pol.name!r} plays only on the reference engine")
    if check and engine != "numba":
        raise FieldError("check", "times the numba engine's checked mode")
    threads = 1 if engine == "reference" else _resolved_threads(threads)
    if announce is not None:
        announce(threads, pol)
    seconds = _time_rows(engine, pol, rs, deals, threads, seed, check)
    out = {
        "engine": engine,
        "policy": pol.name,
        "rules": rs.name,
        "threads": threads,
        "deals": deals,
        "check": check,
        "seconds": round(seconds, 4),
        "rounds_per_s": round(deals / seconds, 1),
        "us_per_round": round(seconds / deals * 1e6, 3),
        "us_per_ply": round(seconds / deals / PLIES_PER_ROUND * 1e6, 4),
    }
    if pol.searches:
        # three significant digits: a searcher's decision is milliseconds, a worlds-0 searcher's (endgame) about 0.001
        out["ms_per_decision"] = float(f"{seconds / (deals * PLIES_PER_ROUND) * 1e3:.3g}")
    if engine == "numba" and measure_compile:
        out.update(compile_times())
    return out


if __name__ == "__main__":  # python -m casino_sim.experiments.bench [engine] [deals] [threads]
    args = sys.argv[1:]
    print(
        json.dumps(
            run_bench(
                args[0] if args else "numba",
                deals=int(args[1]) if len(args) > 1 else 200_000,
                threads=int(args[2]) if len(args) > 2 else 1,
                measure_compile="--no-compile" not in args,
                loader=PolicyLoader(),
            )
        )
    )
