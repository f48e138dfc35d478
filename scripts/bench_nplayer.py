"""What a 3- or 4-player round costs against a two-player one, on the same n-player kernel (engine/nround.py).

Usage: python scripts/bench_nplayer.py [--policy random|greedy|expert] [--deals N] [--rules brazilian]
[--repeats 3]. Prints one JSON object per player count: the median microseconds a round over the repeats,
and its ratio to two players (issue 14 asks for <= 1.2). Rounds run on one thread, after a warm-up call.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np

from casino_sim.core.rules import get_rules
from casino_sim.engine.api import play_rounds_n
from casino_sim.policies.arrays import policy_arrays
from casino_sim.policies.registry import get_policy


def time_rounds(spec: str, policy: str, deals: int, repeats: int) -> float:
    """Median microseconds a round of `deals` rounds of `policy` in every seat under rule set `spec`."""
    rules = get_rules(spec)
    ints, weights, _ = policy_arrays((get_policy(policy),) * rules.players)
    rng = np.random.default_rng(2026)
    decks = np.argsort(rng.random((deals, 52)), axis=1)
    dealers = np.arange(deals) % rules.players
    seeds = np.random.SeedSequence(14).generate_state(deals, np.uint64)
    play_rounds_n(rules, decks[:10], dealers[:10], ints, weights, seeds[:10])  # compile or load the kernels
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        play_rounds_n(rules, decks, dealers, ints, weights, seeds)
        times.append((time.perf_counter() - t0) / deals * 1e6)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policy", default="random")
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--rules", default="brazilian")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    base = None
    for spec in (args.rules, f"{args.rules}:players=3", f"{args.rules}:players=4"):
        us = time_rounds(spec, args.policy, args.deals, args.repeats)
        base = base or us
        print(
            json.dumps(
                {
                    "rules": get_rules(spec).name,
                    "policy": args.policy,
                    "deals": args.deals,
                    "us_per_round": round(us, 3),
                    "vs_two_players": round(us / base, 3),
                }
            )
        )


if __name__ == "__main__":
    main()
