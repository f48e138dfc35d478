#!/usr/bin/env python3
"""The ladder: each policy against the one below it over mirrored deals (issue 4).

Writes results/ladder.csv and results/ladder.md: the mean point difference per
mirrored deal (the average of both seatings) with its 95% interval. Every rung
must be a clear win: the lower bound above zero.

    python scripts/ladder.py [--deals 20000] [--rollout-deals 600] [--searcher-deals 2000] [--seed 2026]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from casino_sim.experiments.compare import compare
from casino_sim.experiments.simulate import SimConfig

RUNGS = [("greedy", "random"), ("expert", "greedy"), ("rollout", "expert"), ("searcher", "rollout")]


def run_ladder(
    deals: int = 20_000,
    rollout_deals: int = 600,
    seed: int = 2026,
    rules: str = "strict",
    out: Path = Path("results"),
    searcher_deals: int = 2_000,
) -> pd.DataFrame:
    """Play every rung, write out/ladder.csv and out/ladder.md, and return the table."""
    rows = []
    for a, b in RUNGS:
        n = searcher_deals if a == "searcher" else rollout_deals if "rollout" in (a, b) else deals
        t0 = time.perf_counter()
        chunk = 2_000 if n > 2_000 else 100
        est = compare(SimConfig(deals=n, policy_a=a, policy_b=b, rules=rules, seed=seed, chunk_deals=chunk))
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
        print(f"{a} vs {b}: {est} over {n:,} mirrored deals", flush=True)
    table = pd.DataFrame(rows)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "ladder.csv", index=False)
    lines = [
        "| policy | vs | mirrored deals | mean points per deal, A − B | 95% interval | clear win |",
        "| --- | --- | ---: | ---: | --- | --- |",
    ]
    lines += [
        f"| {r['policy']} | {r['vs']} | {r['deals']:,} | {r['mean_diff']:+.3f} | "
        f"[{r['ci_lo']:+.3f}, {r['ci_hi']:+.3f}] | {'yes' if r['clear_win'] else 'NO'} |"
        for r in rows
    ]
    (out / "ladder.md").write_text(
        f"# The ladder ({rules} rules, seed {seed})\n\n"
        "Each policy against the one below it; every deal is played twice with the seats swapped.\n\n"
        + "\n".join(lines)
        + "\n"
    )
    return table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20_000, help="mirrored deals per heuristic rung")
    ap.add_argument("--rollout-deals", type=int, default=600, help="mirrored deals for the rollout rung")
    ap.add_argument("--searcher-deals", type=int, default=2_000, help="mirrored deals for the searcher rung")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--rules", default="strict")
    ap.add_argument("--out", type=Path, default=Path("results"))
    args = ap.parse_args()
    run_ladder(args.deals, args.rollout_deals, args.seed, args.rules, args.out, args.searcher_deals)


if __name__ == "__main__":
    main()
