"""The `searcher-deep` rung: a searcher at about 16x the built-in's cost, checked to play clearly stronger than it,
written as a built-in policy and put on the frontier.

    python scripts/deep_rung.py [--worlds 1280] [--top 3] [--horizon 1] [--deals 2000] [--seed 4801]
                                [--bench-deals 20] [--threads 0] [--work DIR] [--write PATH] [--no-frontier]

1. Cost: `casino-sim bench --threads 1` of the candidate against itself alternating with the built-in searcher's,
   the median of three ratios (kept in --work/cost.json once measured).
2. Strength: the candidate against the built-in searcher on --deals fresh mirrored strict deals (`casino-sim
   simulate --card-deals 0`; the run in --work/deep-vs-searcher-<setting>, resumed if it was stopped).
3. Only if the whole 95% interval lies above 0: writes the policy file (--write; default the built-in
   casino_sim/policies/builtin/searcher-deep.toml) with both measurements in its description, else stops saying
   so. Choose the candidate from results/frontier/compute/ (scripts/compute_sweep.py, family `deep`).
4. Then results/frontier/ again with the rung in its round robin (`python scripts/standard_results.py --only
   frontier`, hours with the rung at every table), unless --no-frontier.

The same command again after a stop finishes what was cut and measures nothing twice.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from compute_sweep import play_pair
from endgame_sweep import _cli

ROOT = Path(__file__).resolve().parent.parent
BUILT_IN = ROOT / "casino_sim" / "policies" / "builtin" / "searcher-deep.toml"


def params_text(args) -> str:
    return (
        f'worlds = {args.worlds}\nbase = "tuned"\ncrn = true\ntop = {args.top}\nhorizon = {args.horizon}\n'
    )  # fmt: skip


def candidate(args) -> Path:
    path = args.work / "searcher-deep.toml"
    path.write_text(f'name = "searcher-deep"\nkind = "searcher"\n[params]\n{params_text(args)}', encoding="utf-8")
    return path


def _ms_per_decision(policy: str, deals: int) -> float:
    args = ("bench", "--policy", policy, "--deals", str(deals), "--threads", "1", "--no-compile", "--format", "json")
    return json.loads(_cli(*args))["us_per_ply"] / 1000


def cost(args, policy: Path) -> dict:
    """The candidate's ms a decision and its ratio to the built-in searcher's (medians of three alternations)."""
    path = args.work / "cost.json"
    key = policy.read_text(encoding="utf-8")
    known = json.loads(path.read_text()) if path.exists() else {}
    if known.get("policy") != key:
        _ms_per_decision(str(policy), 1)  # compile (or load) its kernels before timing
        ratios, built, own = [], [], []
        for _ in range(3):
            built.append(_ms_per_decision("searcher", args.bench_deals))
            own.append(_ms_per_decision(str(policy), args.bench_deals))
            ratios.append(own[-1] / built[-1])
        known = {"policy": key, "ms": statistics.median(own), "ratio": statistics.median(ratios)}
        path.write_text(json.dumps(known, indent=1) + "\n")
    return known


def strength(args, policy: Path) -> tuple[float, float, float]:
    """The candidate against the built-in searcher: (points a deal, 95% interval)."""
    run = args.work / f"deep-vs-searcher-w{args.worlds}-top{args.top}-h{args.horizon}"
    return play_pair(run, str(policy), "searcher", args, args.seed)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", type=int, default=1280)
    ap.add_argument("--top", type=int, default=3)
    ap.add_argument("--horizon", type=int, default=1)
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=4801)
    ap.add_argument("--bench-deals", type=int, default=20)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--work", type=Path, default=Path.home() / ".cache" / "casino-sim" / "deep-rung")
    ap.add_argument("--write", type=Path, default=BUILT_IN)
    ap.add_argument("--no-frontier", action="store_true")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    policy = candidate(args)
    spent = cost(args, policy)
    mean, lo, hi = strength(args, policy)
    print(f"searcher-deep: {spent['ms']:.2f} ms a decision ({spent['ratio']:.1f}x the searcher's), "
          f"{mean:+.3f} [{lo:+.3f}, {hi:+.3f}] points a deal against it")  # fmt: skip
    if lo <= 0:
        raise SystemExit("error: not clearly stronger than the searcher; nothing written")
    description = (
        f"The searcher with {args.worlds} worlds of {args.top} moves (horizon {args.horizon}): about "
        f"{spent['ratio']:.1f}x its time a decision ({spent['ms']:.1f} ms), {mean:+.2f} [{lo:+.2f}, {hi:+.2f}] "
        f"points a mirrored deal against it on {args.deals:,} fresh strict deals (scripts/deep_rung.py, seed "
        f"{args.seed}). The strongest rung of the ladder the analyses can afford."
    )
    args.write.write_text(
        f'name = "searcher-deep"\nkind = "searcher"\ndescription = "{description}"\n\n[params]\n{params_text(args)}',
        encoding="utf-8",
    )
    print(f"wrote {args.write}")
    if not args.no_frontier:
        frontier = [sys.executable, str(ROOT / "scripts" / "standard_results.py"), "--only", "frontier"]
        subprocess.run(frontier, check=True)


if __name__ == "__main__":
    main()
