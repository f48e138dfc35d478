#!/usr/bin/env python3
"""Regenerate results/: the standard experiment's summaries and charts, from a fixed seed (issue 5).

Each matchup is simulated into a temporary run folder (its Parquet records stay
out of git); only the report (tables as CSV/JSON, charts as PNG/SVG, report.md)
is copied into results/<matchup>/. results/README.md indexes them with their
headline numbers, beside the ladder (scripts/ladder.py).

    python scripts/standard_results.py [--deals 50000] [--seed 2026] [--out results]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from casino_sim.experiments.simulate import SimConfig, finish_run, play_chunks, start_run
from casino_sim.reports.index import write_all
from casino_sim.runner.rundir import RunDir

MATCHUPS = [("greedy", "random", "strict"), ("expert", "greedy", "strict"), ("expert", "greedy", "brazilian"),
            ("expert", "greedy", "italian")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=50_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", type=Path, default=Path("results"))
    args = ap.parse_args()
    index = ["# Standard results", "",
             f"Regenerate with `python scripts/standard_results.py --deals {args.deals} --seed {args.seed}` and "
             "`python scripts/ladder.py`. Every figure carries a 95% confidence interval; each deal is played "
             "twice with the seats swapped (mirrored), and the two rounds of a deal count as one sample.", ""]
    ladder = args.out / "ladder.md"
    if ladder.exists():
        index += ["## The ladder", "", *ladder.read_text().splitlines()[2:], ""]
    with tempfile.TemporaryDirectory(prefix="casino-standard-") as tmp:
        for a, b, rules in MATCHUPS:
            name = f"{a}-vs-{b}-{rules}"
            config = SimConfig(deals=args.deals, policy_a=a, policy_b=b, rules=rules, seed=args.seed)
            run = RunDir(Path(tmp) / name)
            start_run(config, run, [sys.executable, *sys.argv])
            finish_run(run, play_chunks(config, run))
            target = args.out / name
            shutil.rmtree(target, ignore_errors=True)
            summary = write_all(run.path, target)["summary"].iloc[0]
            print(f"{name}: {summary['diff_mean']:+.3f} [{summary['diff_ci_lo']:+.3f}, {summary['diff_ci_hi']:+.3f}]",
                  flush=True)
            index += [f"## {a} vs {b} ({rules} rules, {args.deals:,} mirrored deals)", "",
                      f"{a} scores {summary['diff_mean']:+.2f} points per deal more than {b} "
                      f"(95% interval {summary['diff_ci_lo']:+.2f} to {summary['diff_ci_hi']:+.2f}) and wins "
                      f"{summary['win_rate_a_mean']:.1%} of rounds. Charts and their explanations: "
                      f"[{name}/report.md]({name}/report.md).", ""]
    (args.out / "README.md").write_text("\n".join(index))


if __name__ == "__main__":
    main()
