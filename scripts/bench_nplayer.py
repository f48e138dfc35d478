"""What a 3- or 4-player round costs against a two-player one, on the same row kernel (kernels/rows.py).

Usage: python scripts/bench_nplayer.py [--policy random|greedy|expert] [--deals N] [--rules brazilian]
[--repeats 3]. Prints one JSON object per player count: the median microseconds a round over the repeats
(the player counts alternating), and its ratio to two players (issue 14 asks for <= 1.2). One thread, warm.
Wall time and process CPU time both: on a shared machine the CPU time is the steadier of the two.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np

from casino_sim.api.policies import loader
from casino_sim.core.rules import get_rules
from casino_sim.engines import get_engine
from casino_sim.runner.deals import DealRows


def _setup(spec: str, policy: str, deals: int):
    """The rounds to time under rule set `spec`: every seat plays `policy`; the kernels compiled or loaded."""
    rules = get_rules(spec)
    rng = np.random.default_rng(2026)
    rows = DealRows(
        np.arange(deals),
        np.zeros(deals, np.int8),
        np.argsort(rng.random((deals, 52)), axis=1).astype(np.int8),
        (np.arange(deals) % rules.players).astype(np.int8),
        np.random.SeedSequence(14).generate_state(deals, np.uint64),
        np.zeros((deals, rules.players), np.int8),  # the policy in every seat
    )
    args = (rows, rules, (loader()(policy),))
    get_engine("numba").play(rows.take(np.arange(10)), *args[1:])
    return args


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policy", default="random")
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--rules", default="brazilian")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    specs = (args.rules, f"{args.rules}:players=3", f"{args.rules}:players=4")
    runs = {spec: _setup(spec, args.policy, args.deals) for spec in specs}
    times = {spec: ([], []) for spec in specs}
    for _ in range(args.repeats):  # the player counts alternate, so a busy moment of the machine hits them alike
        for spec in specs:
            t0, c0 = time.perf_counter(), time.process_time()
            get_engine("numba").play(*runs[spec])
            times[spec][0].append((time.perf_counter() - t0) / args.deals * 1e6)
            times[spec][1].append((time.process_time() - c0) / args.deals * 1e6)
    base, cpu_base = (statistics.median(t) for t in times[specs[0]])
    for spec in specs:
        us, cpu = (statistics.median(t) for t in times[spec])
        row = {"rules": get_rules(spec).name, "policy": args.policy, "deals": args.deals}
        row |= {"us_per_round": round(us, 3), "vs_two_players": round(us / base, 3)}
        print(json.dumps(row | {"cpu_us_per_round": round(cpu, 3), "cpu_vs_two_players": round(cpu / cpu_base, 3)}))


if __name__ == "__main__":
    main()
