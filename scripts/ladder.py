#!/usr/bin/env python3
"""The ladder: each policy against the one below it over mirrored deals (issues 4 and 13).

random < greedy < expert < tuned < rollout < searcher under strict rules, and the
rungs of tuned and searcher under brazilian and italian rules too. Writes
results/ladder.csv and results/ladder.md: the mean point difference per mirrored
deal (the average of both seatings) with its 95% interval. Every rung must be a
clear win: the lower bound above zero.

    python scripts/ladder.py [--deals 20000] [--search-deals 2000] [--seed 2026] [--out results]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from casino_sim.api.policies import loader
from casino_sim.experiments.compare import compare
from casino_sim.experiments.simulate import SimConfig

# (policy, the one below it, rules)
RUNGS = [
    ("greedy", "random", "strict"),
    ("expert", "greedy", "strict"),
    ("tuned", "expert", "strict"),
    ("rollout", "tuned", "strict"),
    ("searcher", "rollout", "strict"),
    ("tuned", "expert", "brazilian"),
    ("searcher", "rollout", "brazilian"),
    ("tuned", "expert", "italian"),
    ("searcher", "rollout", "italian"),
]
SEARCHING = ("rollout", "searcher")  # the policies that sample worlds: their rungs play --search-deals


def run_ladder(
    deals: int = 20_000, search_deals: int = 2_000, seed: int = 2026, out: Path = Path("results")
) -> pd.DataFrame:
    """Play every rung, write out/ladder.csv and out/ladder.md, and return the table."""
    rows = []
    for a, b, rules in RUNGS:
        n = search_deals if {a, b} & set(SEARCHING) else deals
        t0 = time.perf_counter()
        chunk = 2_000 if n > 2_000 else 100
        est = compare(
            SimConfig(deals=n, policy_a=a, policy_b=b, rules=rules, seed=seed, chunk_deals=chunk).resolve(loader())
        )
        rows.append(
            {
                "policy": a,
                "vs": b,
                "rules": rules,
                "deals": n,
                "mean_diff": round(est.mean, 4),
                "ci_lo": round(est.lo, 4),
                "ci_hi": round(est.hi, 4),
                "clear_win": bool(est.lo > 0),
                "seconds": round(time.perf_counter() - t0, 1),
            }
        )
        print(f"{a} vs {b} ({rules}): {est} over {n:,} mirrored deals", flush=True)
    table = pd.DataFrame(rows)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "ladder.csv", index=False)
    lines = [
        "| rules | policy | vs | mirrored deals | mean points per deal, A − B | 95% interval | clear win |",
        "| --- | --- | --- | ---: | ---: | --- | --- |",
    ]
    lines += [
        f"| {r['rules']} | {r['policy']} | {r['vs']} | {r['deals']:,} | {r['mean_diff']:+.3f} | "
        f"[{r['ci_lo']:+.3f}, {r['ci_hi']:+.3f}] | {'yes' if r['clear_win'] else 'NO'} |"
        for r in rows
    ]
    (out / "ladder.md").write_text(
        f"# The ladder (seed {seed})\n\n"
        "Each policy against the one below it; every deal is played twice with the seats swapped.\n\n"
        + "\n".join(lines)
        + "\n"
    )
    return table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20_000, help="mirrored deals per heuristic rung")
    ap.add_argument("--search-deals", type=int, default=2_000, help="mirrored deals for rungs of rollout or searcher")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", type=Path, default=Path("results"))
    args = ap.parse_args()
    run_ladder(args.deals, args.search_deals, args.seed, args.out)


if __name__ == "__main__":
    main()
