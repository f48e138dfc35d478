"""`casino-sim bench`: how fast each engine plays random rounds, and what compiling costs.

run_bench times whole random-vs-random rounds (48 plays each) on one rule set.
For the numba engine it also measures, in fresh subprocesses:
  compile_s_cold      import + compile of every kernel (empty NUMBA_CACHE_DIR)
  compile_s_cached    import + load of every kernel from the warm numba cache
  first_deal_s_cached wall time of a whole `python -c` that imports the engine
                      and simulates one round, warm cache (what a user waits)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from casino_sim.rules import RuleSet, get_rules

ENGINES = ("numba", "reference")
POLICIES = ("random",)
PLIES_PER_ROUND = 48

_COMPILE_SNIPPET = (
    "import time; t = time.perf_counter()\n"
    "from casino_sim.engine import api\n"
    "api.warmup()\n"
    "print(time.perf_counter() - t)\n"
)
_FIRST_DEAL_SNIPPET = (
    "from casino_sim.engine import api\n"
    "from casino_sim.rules import STRICT\n"
    "api.simulate_rounds(STRICT, 1, seed=0)\n"
)


def _run_python(code: str, env_extra: dict | None = None, timeout: float = 600) -> tuple[float, str]:
    env = dict(os.environ)
    env.update(env_extra or {})
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=timeout)
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
    return {"compile_s_cold": round(cold, 3), "compile_s_cached": round(cached, 3),
            "first_deal_s_cached": round(first_deal, 3)}


def _bench_numba(rules: RuleSet, deals: int, threads: int, seed: int) -> float:
    from casino_sim.engine import api

    api.warmup()
    api.simulate_rounds(rules, min(deals, 2000), seed=seed + 1, threads=threads)  # threads spun up
    t = time.perf_counter()
    api.simulate_rounds(rules, deals, seed=seed, threads=threads)
    return time.perf_counter() - t


def _bench_reference(rules: RuleSet, deals: int, seed: int) -> float:
    from casino_sim.reference.round import play_round

    rng = np.random.default_rng(seed)

    def choose(pos, moves):
        return moves[int(rng.integers(len(moves)))]

    t = time.perf_counter()
    for _ in range(deals):
        play_round(rules, rng.permutation(52), int(rng.integers(2)), choose)
    return time.perf_counter() - t


def run_bench(engine: str = "numba", policy: str = "random", deals: int = 200_000, threads: int = 1,
              rules: str | RuleSet = "strict", seed: int = 0, measure_compile: bool = True) -> dict:
    """Time `deals` random-vs-random rounds; keys rounds_per_s, us_per_round, us_per_ply, threads, engine,
    policy, rules, deals, seconds (+ compile_s_cold, compile_s_cached, first_deal_s_cached for numba
    when measure_compile). The reference engine runs in this one process: its threads is always 1."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r} (choose from: {', '.join(ENGINES)})")
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r} (choose from: {', '.join(POLICIES)})")
    if not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals must be a positive integer, got {deals!r}")
    if not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive integer, got {threads!r}")
    rs = get_rules(rules) if isinstance(rules, str) else rules
    if engine == "numba":
        seconds = _bench_numba(rs, deals, threads, seed)
    else:
        seconds = _bench_reference(rs, deals, seed)
        threads = 1
    out = {
        "engine": engine,
        "policy": policy,
        "rules": rs.name,
        "threads": threads,
        "deals": deals,
        "seconds": round(seconds, 4),
        "rounds_per_s": round(deals / seconds, 1),
        "us_per_round": round(seconds / deals * 1e6, 3),
        "us_per_ply": round(seconds / deals / PLIES_PER_ROUND * 1e6, 4),
    }
    if engine == "numba" and measure_compile:
        out.update(compile_times())
    return out


if __name__ == "__main__":  # python -m casino_sim.bench [engine] [deals] [threads]
    import json

    args = sys.argv[1:]
    print(json.dumps(run_bench(args[0] if args else "numba", deals=int(args[1]) if len(args) > 1 else 200_000,
                               threads=int(args[2]) if len(args) > 2 else 1,
                               measure_compile="--no-compile" not in args)))
