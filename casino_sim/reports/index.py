"""Every round-record report of a run in one folder, with `report.md` naming each chart and its headline."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from casino_sim.reference.score import CATEGORY_LABELS
from casino_sim.reports.kinds import REPORTS
from casino_sim.reports.load import read_manifest, rounds_of
from casino_sim.reports.output import atomic_write


def _ci(row, prefix: str = "", fmt: str = "+.3f") -> str:
    return f"{row[prefix + 'mean']:{fmt}} [{row[prefix + 'ci_lo']:{fmt}}, {row[prefix + 'ci_hi']:{fmt}}]"


def _summary_lines(t: pd.DataFrame) -> list[str]:
    unit = {True: "per mirrored pair (average of both seatings)", False: "per round"}
    out = []
    for _, r in t.iterrows():
        out.append(f"- {r['matchup']}: {r['policy_a']} minus {r['policy_b']} = {_ci(r, 'diff_')} points "
                   f"{unit[bool(r['mirrored'])]}, over {r['deals']} deals ({r['rounds']} rounds, "
                   f"{r['void_rounds']} void); {r['policy_a']} wins {_ci(r, 'win_rate_a_', '.1%')} of rounds "
                   f"(ties half); mean totals {r['total_a_mean']:.2f} vs {r['total_b_mean']:.2f}.")
    return out


def _score_lines(t: pd.DataFrame) -> list[str]:
    out = []
    for (m, p), g in t.groupby(["matchup", "policy"], sort=False):
        total = g[g["category"] == "total"].iloc[0]
        cats = g[g["category"] != "total"].sort_values("mean", ascending=False)
        top = ", ".join(f"{CATEGORY_LABELS[c]} {v:.2f}" for c, v in zip(cats["category"], cats["mean"]))
        out.append(f"- {p} ({m}): {_ci(total, fmt='.2f')} points per round; by category: {top}.")
    return out


def _sweep_lines(t: pd.DataFrame) -> list[str]:
    out = []
    for (m, p), g in t.groupby(["matchup", "policy"], sort=False):
        whole = g[g["batch"] == 0].iloc[0]
        peak = g[g["batch"] > 0].sort_values("mean").iloc[-1]
        out.append(f"- {p} ({m}): {_ci(whole, fmt='.3f')} sweeps per round, most in batch {int(peak['batch'])} "
                   f"({peak['mean']:.3f} per round).")
    return out


def _seat_lines(t: pd.DataFrame) -> list[str]:
    return [f"- {r['policy']} ({r['matchup']}): dealer {r['dealer_mean']:.2f}, first player {r['first_mean']:.2f}, "
            f"dealer minus first {_ci(r, 'diff_')} points per round." for _, r in t.iterrows()]


def _convergence_lines(t: pd.DataFrame) -> list[str]:
    out = []
    for m, g in t.groupby("matchup", observed=True, sort=True):
        last = g.iloc[-1]
        out.append(f"- {m}: after {int(last['deals'])} deals the running mean is {last['mean']:+.3f}, "
                   f"95% interval ± {(last['ci_hi'] - last['ci_lo']) / 2:.3f}.")
    return out


SECTIONS = [  # (kind, title, chart file, what it shows, headline lines)
    ("summary", "Summary", "summary", "Mean point difference of policy A minus B and A's round win rate.",
     _summary_lines),
    ("score", "Score breakdown", "score_breakdown", "Mean points per round in each scoring category, per policy.",
     _score_lines),
    ("sweeps", "Sweep frequency", "sweeps", "Sweeps per round, how many in a round, and in which batch.",
     _sweep_lines),
    ("seat", "Seat advantage", "seat_advantage", "Points as dealer and as first player (non-dealer).",
     _seat_lines),
    ("convergence", "Convergence", "convergence", "Running mean of the headline with its 95% band vs deals.",
     _convergence_lines),
]


def write_all(run_dir: str | Path, out: str | Path | None = None, data: pd.DataFrame | None = None) -> dict:
    """Reports 'summary', 'score', 'sweeps', 'seat', 'convergence' into `out` (default RUN_DIR/report)
    and `report.md`; returns their tables by kind. `data` skips reading the rounds again."""
    run_dir = Path(run_dir)
    out = Path(out) if out is not None else run_dir / "report"
    df = rounds_of(data if data is not None else run_dir)
    results = {kind: REPORTS[kind](df, out) for kind, *_ in SECTIONS}
    atomic_write(out / "report.md", render_index(results, read_manifest(run_dir)).encode())
    return results


def render_index(results: dict, manifest: dict) -> str:
    """The text of report.md: one section per chart with its headline numbers."""
    lines = ["# Report", ""]
    if manifest.get("command"):
        cmd = manifest["command"]
        lines += [f"Run: `{' '.join(cmd) if isinstance(cmd, list) else cmd}`", ""]
    lines += ["All intervals are 95% confidence intervals; rounds of one deal count as one sample; "
              "void rounds are counted but excluded from means.", ""]
    for kind, title, chart, what, headline in SECTIONS:
        lines += [f"## {title}", "", f"![{title}]({chart}.png) ({chart}.svg; table {chart}.csv, {chart}.json)",
                  "", what, "", *headline(results[kind]), ""]
    return "\n".join(lines)
