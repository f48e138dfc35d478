"""results/frontier/compute/: the searcher's strength against its compute, knob by knob, and where it flattens.

    python scripts/compute_sweep.py [--deals 2000] [--min-deals 200] [--pair-seconds 180] [--seed 4701]
                                    [--bench-deals 30] [--bench-seconds 3] [--built-in-us US] [--threads 1]
                                    [--work DIR] [--out results/frontier] [--only worlds,top,full,deep]

--work (default ~/.cache/casino-sim/compute-sweep) keeps the runs, the policy files and the costs.

Each family turns one knob of the searcher (base tuned, the built-in's other params) through its settings:
`worlds` (24 to 384 and the built-in's), `top` (the built-in's worlds; top 1, 2, 3, 4 and every move), `full`
(the searcher before its play-outs were cut at a batch's end: top 2, worlds 24, the former built-in, and 96) and
`deep` (the built-in's worlds times 4, the pair scripts/deep_rung.py plays, read back here once it has; times
16; times 4 with play-outs cut a batch later, `horizon = 2`), each against the built-in directly. Strength: each
setting against its neighbour in the family on fresh mirrored strict deals (`casino-sim simulate --card-deals
0`, a seed of its own a pair), chained to the built-in (the `full` family through its 24-world setting, the
former built-in, against the built-in): a setting's points a deal over the built-in is the sum of the
differences along the chain, its interval from their variances added (the pairs are independent); `deep`'s are
each against the built-in. Cost:
`casino-sim bench --threads 1` of the setting against itself alternating with the built-in's, the median of
three ratios (shown times --built-in-us, default the built-in's median µs a decision in these benches).
Deals a pair: what --pair-seconds buys at the two settings' measured costs (a mirrored deal is 48 decisions of
each), rounded to 100, from --min-deals to --deals: the expensive pairs get fewer and wider intervals.

Resumable: every pair plays in its own folder under --work (a finished one is read, an interrupted one resumed
with `simulate --resume`) and every cost is kept in --work/costs.json as it is measured; run the same command
again after a stop. docs/policies.md, "Strength for compute", reads the results.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import zlib
from pathlib import Path

import numpy as np
import pandas as pd
from endgame_sweep import _cli
from matplotlib.figure import Figure

from casino_sim.api.policies import loader
from casino_sim.reports.charts import CI_NOTE, labelled
from casino_sim.reports.output import atomic_write, save_figure, write_table

ROOT = Path(__file__).resolve().parent.parent
Z95 = 1.959963984540054
SWEEP_WORK = Path.home() / ".cache" / "casino-sim" / "compute-sweep"  # runs, policy files, costs


def families(built_in: dict) -> dict[str, list[dict]]:
    """Each family's settings in chain order; the built-in's own setting is in `worlds`, `top` and `deep`."""
    w, t, h = built_in["worlds"], built_in["top"], built_in["horizon"]
    return {
        "worlds": [{"worlds": x, "top": t, "horizon": h} for x in sorted({24, 48, 96, 192, 384, w})],
        "top": [{"worlds": w, "top": k, "horizon": h} for k in (1, 2, 3, 4, 0)],
        "full": [{"worlds": x, "top": 2, "horizon": 0} for x in (24, 96)],
        "deep": [
            built_in,
            deep_setting(built_in),
            {**built_in, "worlds": 16 * w},
            {**built_in, "worlds": 4 * w, "horizon": 2},
        ],
    }


def deep_setting(built_in: dict) -> dict:
    """The `searcher-deep` rung: the built-in with 4 times its worlds. Past a few hundred worlds the cut play-outs
    flatten (16 times its worlds, about 15x its time, beat it by only +0.08 [-0.14, +0.31] on 400 deals), and a
    fourth candidate adds nothing (docs/policies.md, "Strength for compute")."""
    return {**built_in, "worlds": 4 * built_in["worlds"]}


def pair_folder(work: Path, a: Path, b: Path) -> Path:
    """Where setting a against setting b (policy files) plays."""
    return work / "pairs" / f"{a.stem}__vs__{b.stem}"


def name_of(s: dict) -> str:
    return f"w{s['worlds']}-top{s['top'] or 'all'}-h{s['horizon']}"


def policy_file(work: Path, s: dict) -> Path:
    path = work / "policies" / f"{name_of(s)}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f'name = "{name_of(s)}"\nkind = "searcher"\n[params]\nworlds = {s["worlds"]}\nbase = "tuned"\n'
        f"top = {s['top']}\nhorizon = {s['horizon']}\n",
        encoding="utf-8",
    )
    return path


def _summary(summary: Path) -> dict[str, str]:
    with open(summary, encoding="utf-8") as f:
        return next(csv.DictReader(f))


def play_pair(run: Path, a: str, b: str, args, seed: int, deals: int) -> tuple[float, float, float, int]:
    """a against b on `deals` fresh mirrored strict deals in folder `run`: (points a deal, 95% interval, the deals
    it played), played, finished if it was stopped, carried on to a larger `deals`, or read back."""
    summary = run / "report" / "summary.csv"
    if summary.exists() and int(_summary(summary)["deals"]) < deals:  # each deal seeded alone: as if played at once
        _cli("simulate", "--resume", str(run), "--deals", str(deals), "--threads", str(args.threads), "--no-charts")
    elif not summary.exists():
        if (run / "manifest.json").exists():  # stopped: play the rest (a finished one says so and plays none)
            _cli("simulate", "--resume", str(run), "--threads", str(args.threads), "--no-charts")
            if not summary.exists():  # stopped while its reports were written
                _cli("report", "all", str(run))
        else:
            _cli(
                "simulate", "--deals", str(deals), "--policy", a, "--vs", b, "--card-deals", "0",
                "--seed", str(seed), "--rules", "strict", "--threads", str(args.threads), "--no-charts",
                "--out", str(run), "--force",
            )  # fmt: skip
    row = _summary(summary)
    return float(row["diff_mean"]), float(row["diff_ci_lo"]), float(row["diff_ci_hi"]), int(row["deals"])


def pair_deals(a: dict, b: dict, args) -> int:
    """Deals for a pair of settings of these costs ({"ratio", "built_us"}): what --pair-seconds buys of mirrored
    deals (48 decisions of each setting), rounded to 100, from --min-deals to --deals."""
    seconds_a_deal = 48 * (a["ratio"] * a["built_us"] + b["ratio"] * b["built_us"]) / 1e6
    return int(min(args.deals, max(args.min_deals, round(args.pair_seconds / seconds_a_deal, -2))))


def neighbours(work: Path, a: Path, b: Path, args) -> tuple[float, float, float, int]:
    """Setting a against setting b (policy files), in a folder and on deals of their own: (mean, lo, hi, deals)."""
    run = pair_folder(work, a, b)
    deals = pair_deals(cost(work, a, args), cost(work, b, args), args)
    return play_pair(run, str(a), str(b), args, args.seed + zlib.crc32(run.name.encode()) % 1_000_000, deals)


def _us_per_decision(policy: str, deals: int) -> float:
    args = ("bench", "--policy", policy, "--deals", str(deals), "--threads", "1", "--no-compile", "--format", "json")
    return json.loads(_cli(*args))["us_per_ply"]


def cost(work: Path, policy: Path, args) -> dict:
    """{"ratio": the median of three alternating ratios of its µs a decision to the built-in's, "built_us": the
    built-in's median}, kept in --work/costs.json. Its benches play what --bench-seconds buys at the warm-up's
    speed (4 to --bench-deals rounds; the built-in's --bench-deals)."""
    path = work / "costs.json"
    costs = json.loads(path.read_text()) if path.exists() else {}
    if policy.stem not in costs:
        warm = _us_per_decision(str(policy), 2)  # compile (or load) its kernels before timing
        deals = int(min(args.bench_deals, max(4, args.bench_seconds * 1e6 / (48 * warm))))
        ratios, built = [], []
        for _ in range(3):
            built.append(_us_per_decision("searcher", args.bench_deals))
            ratios.append(_us_per_decision(str(policy), deals) / built[-1])
        costs[policy.stem] = {"ratio": statistics.median(ratios), "built_us": statistics.median(built)}
        path.write_text(json.dumps(costs, indent=1, sort_keys=True) + "\n")
    return costs[policy.stem]


def chained(diffs: list[tuple], anchor: int) -> list[tuple[float, float]]:
    """(points over the anchor, half-width of its 95% interval) of each setting of a chain: diffs[i] is setting
    i + 1 against setting i (mean, lo, hi)."""
    mean, var = np.zeros(len(diffs) + 1), np.zeros(len(diffs) + 1)
    for i, (d, lo, hi) in enumerate(diffs):
        se2 = ((hi - lo) / (2 * Z95)) ** 2
        mean[i + 1], var[i + 1] = mean[i] + d, var[i] + se2
    mean, var = mean - mean[anchor], np.abs(var - var[anchor])  # the anchor at 0: variances of the steps between
    return [(m, Z95 * np.sqrt(v)) for m, v in zip(mean, var, strict=True)]


def placed(diffs: list[tuple], settings: list[dict], built_in: dict, star: bool, first) -> list[tuple[float, float]]:
    """(points over the built-in, half-width of its 95% interval) of each setting of a family: a star's directly
    (each against the built-in, settings[0]), a chain's along it (`first`: the chain's first setting against the
    built-in when the built-in is not in it)."""
    if star:
        return [(0.0, 0.0), *((d, (hi - lo) / 2) for d, lo, hi, _ in diffs)]
    steps = [d[:3] for d in diffs]
    if built_in in settings:
        return chained(steps, settings.index(built_in))
    return [(m + first[0], float(np.hypot(half, (first[2] - first[1]) / 2))) for m, half in chained(steps, 0)]


def sweep(args) -> tuple[pd.DataFrame, float]:
    built = loader()("searcher").params
    work = args.work
    built_in = {"worlds": built["worlds"], "top": built["top"], "horizon": built.get("horizon", 0)}
    if loader()("searcher").base.name != "tuned":
        raise SystemExit("error: the sweep's settings play out with tuned, the built-in searcher does not")
    built_us = args.built_in_us or cost(work, policy_file(work, built_in), args)["built_us"]
    rows = []
    for family, settings in families(built_in).items():
        if family not in args.only:
            continue
        files = [policy_file(work, s) for s in settings]
        star = family == "deep"  # each against the built-in (settings[0]), not its neighbour
        diffs = [neighbours(work, files[i + 1], files[0 if star else i], args) for i in range(len(files) - 1)]
        first = None if built_in in settings else neighbours(work, files[0], policy_file(work, built_in), args)
        for i, (s, (over, half)) in enumerate(
            zip(settings, placed(diffs, settings, built_in, star, first), strict=True)
        ):
            step = diffs[i - 1] if i > 0 else (np.nan, np.nan, np.nan, first[3] if first else np.nan)
            ratio = cost(work, files[i], args)["ratio"]
            rows.append(
                {"family": family, "setting": name_of(s), **s, "cost_ratio": ratio, "us_per_decision": ratio * built_us,
                 "deals": step[3], "vs_previous": step[0], "vs_previous_ci_lo": step[1], "vs_previous_ci_hi": step[2],
                 "over_built_in": over, "over_built_in_ci_lo": over - half, "over_built_in_ci_hi": over + half}
            )  # fmt: skip
            us = rows[-1]["us_per_decision"]
            print(f"{family:6s} {name_of(s):18s} {us:9.0f} µs  {over:+.3f} ± {half:.3f}", flush=True)
    return pd.DataFrame(rows), built_us


def chart(table: pd.DataFrame) -> Figure:
    fig = Figure(figsize=(6.5, 4.5), layout="constrained")
    ax = fig.subplots()
    for family, part in table.groupby("family", sort=False):
        part = part.sort_values("us_per_decision")  # the deep family's settings are not in the order of their cost
        m = part["over_built_in"].to_numpy()
        err = np.vstack([m - part["over_built_in_ci_lo"], part["over_built_in_ci_hi"] - m])
        ax.errorbar(part["us_per_decision"], m, yerr=err, fmt="o-", capsize=3, label=family, ms=4)
        for x, y, label in zip(part["us_per_decision"], m, part["setting"], strict=True):
            ax.annotate(label, (x, y), xytext=(4, 3), textcoords="offset points", fontsize=6)
    ax.axhline(0, color="grey", lw=0.6)
    ax.set_xscale("log")
    labelled(ax, "time a decision, µs (one thread, log scale)", "points a deal over the built-in searcher", legend=8)
    fig.suptitle(f"The searcher's strength for compute ({CI_NOTE})", fontsize=9)
    return fig


def markdown(table: pd.DataFrame, args, built_us: float) -> str:
    lines = [
        "# The searcher's strength for compute",
        "",
        "![strength for compute](compute.png) (compute.svg; table compute.csv)",
        "",
        f"Made by `python scripts/compute_sweep.py --deals {args.deals} --min-deals {args.min_deals} --pair-seconds "
        f"{args.pair_seconds:g} --seed {args.seed}{f' --built-in-us {args.built_in_us:g}' if args.built_in_us else ''}"
        "`: each setting against the one before it in its family on fresh mirrored strict deals (deals: how many "
        "that pair played; the full family's first, its 24-world setting against the built-in), chained to the "
        "built-in searcher (the deep family's each against the built-in directly); cost from `casino-sim bench "
        "--threads 1`, alternating with the built-in (the ratio; "
        f"µs at {built_us:,.0f} µs a decision for the built-in; scripts/compute_sweep.py says how).",
        "",
        "| family | setting | × built-in | µs a decision | deals | against the one before (95% interval) | over the "
        "built-in (95% interval) |",
        "| --- | --- | ---: | ---: | ---: | --- | --- |",
    ]
    for _, r in table.iterrows():
        step = "" if np.isnan(r["vs_previous"]) else (
            f"{r['vs_previous']:+.3f} [{r['vs_previous_ci_lo']:+.3f}, {r['vs_previous_ci_hi']:+.3f}]"
        )  # fmt: skip
        over = f"{r['over_built_in']:+.3f} [{r['over_built_in_ci_lo']:+.3f}, {r['over_built_in_ci_hi']:+.3f}]"
        deals = "" if np.isnan(r["deals"]) else f"{r['deals']:,.0f}"
        lines.append(
            f"| {r['family']} | {r['setting']} | {r['cost_ratio']:.2f} | {r['us_per_decision']:,.0f} | {deals} "
            f"| {step} | {over} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--min-deals", type=int, default=200)
    ap.add_argument("--pair-seconds", type=float, default=180.0)
    ap.add_argument("--seed", type=int, default=4701)
    ap.add_argument("--bench-deals", type=int, default=30)
    ap.add_argument("--bench-seconds", type=float, default=3.0)
    ap.add_argument("--built-in-us", type=float, default=None)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--work", type=Path, default=SWEEP_WORK)
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "frontier")
    ap.add_argument("--only", default="worlds,top,full,deep")
    args = ap.parse_args()
    args.only = set(args.only.split(","))
    args.work.mkdir(parents=True, exist_ok=True)
    table, built_us = sweep(args)
    out = args.out / "compute"
    write_table(table, out, "compute")
    save_figure(chart(table), out, "compute")
    atomic_write(out / "compute.md", markdown(table, args, built_us).encode())
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
