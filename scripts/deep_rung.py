"""The `searcher-deep` rung: a searcher dearer than the built-in, checked to play clearly stronger than it,
written as a built-in policy and put on the frontier.

    python scripts/deep_rung.py [--worlds N] [--deals 1500] [--seed 4801]
                                [--bench-deals 8] [--bench-seconds 3] [--threads 1] [--work DIR] [--write PATH]
                                [--no-frontier]

The candidate: the built-in searcher with --worlds worlds (default scripts/compute_sweep.py deep_setting's, family
`deep`), its cut play-outs stopping with the built-in's estimate (kernels/value.py).
1. Cost: `casino-sim bench --threads 1` of the candidate against itself alternating with the built-in searcher's,
   the median of three ratios (the sweep's way, kept in its --work/costs.json).
2. Strength: the candidate against the built-in searcher on --deals fresh mirrored strict deals (`casino-sim
   simulate --card-deals 0`) in the sweep's folder for that pair (--work/pairs/), resumed if it was stopped;
   the sweep reads it back.
3. Only if the whole 95% interval lies above 0: writes the policy file (--write; default the built-in
   casino_sim/policies/builtin/searcher-deep.toml) with both measurements in its description, else stops saying
   so.
4. Then results/frontier/ again with the rung in its round robin (`python scripts/standard_results.py --only
   frontier`, hours with the rung at every table), unless --no-frontier.

The same command again after a stop finishes what was cut and measures nothing twice.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from compute_sweep import SWEEP_WORK, cost, deep_setting, pair_folder, play_pair, policy_file

from casino_sim.api.policies import loader

ROOT = Path(__file__).resolve().parent.parent
BUILT_IN = ROOT / "casino_sim" / "policies" / "builtin" / "searcher-deep.toml"


def params_text(s: dict) -> str:
    return f'worlds = {s["worlds"]}\nbase = "tuned"\ncrn = true\ntop = {s["top"]}\nhorizon = {s["horizon"]}\n'


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", type=int, help="the candidate's worlds (default: deep_setting's)")
    ap.add_argument("--deals", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=4801)
    ap.add_argument("--bench-deals", type=int, default=8)
    ap.add_argument("--bench-seconds", type=float, default=3.0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--work", type=Path, default=SWEEP_WORK)
    ap.add_argument("--write", type=Path, default=BUILT_IN)
    ap.add_argument("--no-frontier", action="store_true")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    params = loader()("searcher").params
    built_in = {"worlds": params["worlds"], "top": params["top"], "horizon": params.get("horizon", 0)}
    deep = {**deep_setting(built_in), **({"worlds": args.worlds} if args.worlds else {})}
    mine, theirs = policy_file(args.work, deep), policy_file(args.work, built_in)
    ratio = cost(args.work, mine, args)["ratio"]
    mean, lo, hi, deals = play_pair(pair_folder(args.work, mine, theirs), str(mine), str(theirs), args, args.seed,
                                    args.deals)  # fmt: skip
    print(f"searcher-deep: {ratio:.1f}x the searcher's time a decision, {mean:+.3f} [{lo:+.3f}, {hi:+.3f}] points "
          f"a deal against it ({deals:,} deals)")  # fmt: skip
    if lo <= 0:
        raise SystemExit("error: not clearly stronger than the searcher; nothing written")
    description = (
        f"The built-in searcher with {deep['worlds']} worlds instead of {built_in['worlds']} (its three best moves, "
        f"cut at the batch's end with its estimate): about {ratio:.1f}x its time a decision, {mean:+.2f} "
        f"[{lo:+.2f}, {hi:+.2f}] points a mirrored deal against it on {deals:,} fresh strict deals "
        f"(scripts/deep_rung.py, seed {args.seed}). The top of the ladder for analyses that can afford it."
    )
    args.write.write_text(
        f'name = "searcher-deep"\nkind = "searcher"\ndescription = "{description}"\n\n[params]\n{params_text(deep)}',
        encoding="utf-8",
    )
    print(f"wrote {args.write}")
    if not args.no_frontier:
        frontier = [sys.executable, str(ROOT / "scripts" / "standard_results.py"), "--only", "frontier"]
        subprocess.run(frontier, check=True)


if __name__ == "__main__":
    main()
