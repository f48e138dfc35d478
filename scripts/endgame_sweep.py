"""results/endgame/: how the built-in `endgame` was made. For each number of exact plays k, a searcher without
worlds (tuned's play, the last k plays of a two-player round searched exactly) against tuned, and its cost.

    python scripts/endgame_sweep.py [--deals 4000] [--seed 9101] [--bench-deals 20000] [--out results/endgame]

Strength: `casino-sim simulate --deals D --policy FILE --vs tuned --card-deals 0 --seed S` (mirrored deals, the
mean point difference a deal with its 95% interval). Cost: `casino-sim bench --policy FILE --threads 1` of the
policy against itself, alternating with expert's, three times each: the median of its three ratios to expert's
time a round (the machine's speed drifts; the ratio is what holds). The built-in takes the fewest exact plays
whose interval's lower end is at least +0.3, then is checked on 20,000 fresh deals with another seed
(docs/policies.md, "endgame").
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLIES = range(2, 9)  # exact plays: the last batch holds eight with two players


def _policy_file(folder: Path, k: int) -> Path:
    path = folder / f"endgame-{k}.toml"
    path.write_text(
        f'name = "endgame-{k}"\nkind = "searcher"\ndescription = "tuned; its last {k} plays exact"\n'
        f'[params]\nworlds = 0\nbase = "tuned"\nexact_plies = {k}\n',
        encoding="utf-8",
    )
    return path


def _cli(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "casino_sim", *args], check=True, capture_output=True, text=True)
    return done.stdout


def _diff(policy: Path, deals: int, seed: int, run: Path) -> tuple[float, float, float]:
    """The policy against tuned (simulate's run in `run`): mean point difference a mirrored deal, 95% interval."""
    _cli(
        "simulate", "--deals", str(deals), "--policy", str(policy), "--vs", "tuned", "--card-deals", "0",
        "--seed", str(seed), "--no-charts", "--out", str(run), "--force",
    )  # fmt: skip
    with open(run / "report" / "summary.csv", encoding="utf-8") as f:
        row = next(csv.DictReader(f))
    return float(row["diff_mean"]), float(row["diff_ci_lo"]), float(row["diff_ci_hi"])


def _us_per_round(policy: str, deals: int) -> float:
    args = ("bench", "--policy", policy, "--deals", str(deals), "--threads", "1", "--no-compile", "--format", "json")
    return json.loads(_cli(*args))["us_per_round"]


def _cost_ratio(policy: str, deals: int) -> float:
    """The median of three alternating ratios of the policy's time a round to expert's (bench, one thread)."""
    _us_per_round(policy, 50)  # compile (or load) its kernels before timing
    ratios = []
    for _ in range(3):
        expert = _us_per_round("expert", deals)
        ratios.append(_us_per_round(policy, deals) / expert)
    return statistics.median(ratios)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=9101)
    ap.add_argument("--bench-deals", type=int, default=20000)
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "endgame")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in PLIES:
            policy = _policy_file(Path(tmp), k)
            mean, lo, hi = _diff(policy, args.deals, args.seed, Path(tmp) / f"run-{k}")
            # fewer rounds timed where each is dear: the whole last batch's search is milliseconds a round
            ratio = _cost_ratio(str(policy), args.bench_deals // (10 if k >= 7 else 1))
            rows.append(
                {"exact_plies": k, "diff_mean": mean, "diff_ci_lo": lo, "diff_ci_hi": hi, "cost_x_expert": ratio}
            )
            print(
                f"exact_plies {k}: {mean:+.3f} [{lo:+.3f}, {hi:+.3f}] a deal against tuned, {ratio:.2f}x expert's time"
            )
    with open(args.out / "endgame.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    lines = [
        "# endgame: how many plays to search exactly",
        "",
        f"tuned's play with its last k plays searched exactly (a searcher with no worlds, base tuned) against tuned "
        f"on {args.deals:,} mirrored strict deals (seed {args.seed}), and its time a round against expert's "
        f"(`casino-sim bench --threads 1`, the median of three alternating ratios). Made by "
        f"`python scripts/endgame_sweep.py --deals {args.deals} --seed {args.seed}`.",
        "",
        "| exact plays | points a deal against tuned (95% interval) | time a round, x expert's |",
        "| ---: | --- | ---: |",
        *(
            f"| {r['exact_plies']} | {r['diff_mean']:+.3f} [{r['diff_ci_lo']:+.3f}, {r['diff_ci_hi']:+.3f}] | "
            f"{r['cost_x_expert']:.2f} |"
            for r in rows
        ),
        "",
    ]
    (args.out / "endgame.md").write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main()
