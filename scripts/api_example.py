#!/usr/bin/env python3
"""The Python API as a notebook uses it: simulate, take a report table as a DataFrame, draw a chart of your own.

Plays POLICY against VS, then draws each policy's mean points per round in every scoring category with its 95%
interval (the `score` report's table), saves it as a PNG, and prints the summary's headline.

    python scripts/api_example.py [--deals 20000] [--policy expert] [--vs greedy] [--rules strict] [--seed 1]
                                  [--out results/api_example.png] [--run-dir DIR]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

import casino_sim as cs


def score_chart(run: cs.Run) -> Figure:
    """Grouped bars: each policy's points per round by category, with their intervals, from run.report("score")."""
    score = run.report("score")
    categories = [c for c in score["category"].unique() if c != "total"]
    fig = Figure(figsize=(8, 4), layout="constrained")
    ax = fig.add_subplot()
    x, width = np.arange(len(categories)), 0.8 / score["policy"].nunique()
    for k, (policy, rows) in enumerate(score.groupby("policy", sort=False)):
        rows = rows.set_index("category").loc[categories]
        err = [rows["mean"] - rows["ci_lo"], rows["ci_hi"] - rows["mean"]]
        ax.bar(x + k * width, rows["mean"], width, yerr=err, capsize=3, label=policy)
    ax.set_xticks(x + width * (score["policy"].nunique() - 1) / 2, categories)
    ax.set_ylabel("points per round")
    s = run.summary.iloc[0]
    ax.set_title(
        f"{s['matchup']}, rules {s['rules']}: {s['policy_a']} minus {s['policy_b']} = {s['diff_mean']:+.2f} "
        f"[{s['diff_ci_lo']:+.2f}, {s['diff_ci_hi']:+.2f}] per deal ({s['deals']:,} deals)",
        fontsize=10,
    )
    ax.legend()
    return fig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--policy", default="expert")
    parser.add_argument("--vs", default="greedy")
    parser.add_argument("--rules", default="strict")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("results/api_example.png"), help="the PNG to write")
    parser.add_argument("--run-dir", type=Path, help="keep the run folder here (default: a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run = cs.simulate(
            deals=args.deals,
            policy=args.policy,
            vs=args.vs,
            rules=args.rules,
            seed=args.seed,
            out=args.run_dir or Path(tmp) / "run",
            progress=True,
        )
        args.out.parent.mkdir(parents=True, exist_ok=True)
        score_chart(run).savefig(args.out, dpi=110)
        print(run.summary[["matchup", "deals", "diff_mean", "diff_ci_lo", "diff_ci_hi"]].to_string(index=False))
    print(f"chart: {args.out}")


if __name__ == "__main__":
    main()
