"""Strength for cost: each policy's rating (a tournament's Bradley-Terry fit on the Elo scale) against what one of
its decisions costs, and the frontier a user chooses from (docs/policies.md, "Strength for cost").

A policy is off the frontier only when another costs no more a decision (within COST_NOISE) and beats it in their own
pairing of the round robin: the other's win rate's 95% interval above 50% (reports/separation.py beats), a test of
their difference. Ratings whose intervals fail to overlap are not that test (the fit ties them to one another), and
overlapping ones never make a policy "dominated".
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from casino_sim.reports.captions import add_caption, fit_label
from casino_sim.reports.charts import CI_NOTE, yerr
from casino_sim.reports.output import atomic_write, save_figure, write_table
from casino_sim.reports.separation import beats
from casino_sim.reports.verdict import RATE

# Costs this close are one cost: two policies of the same price trade places from one timing to the next (greedy and
# builder both 0.24 µs a decision, measured in either order), so a cheaper-by-noise weak policy stays off
COST_NOISE = 0.05
COLUMNS = ("policy", "us_per_decision", "elo", "elo_ci_lo", "elo_ci_hi", "win_rate", "on_frontier")


def frontier_table(ratings: pd.DataFrame, us_per_decision: dict[str, float], matches: pd.DataFrame) -> pd.DataFrame:
    """The tournament's ratings (reports/tournament.py) with each policy's cost a decision in µs and whether it is
    on the frontier (no policy as cheap or cheaper, within COST_NOISE, beats it in their pairing of `matches`, the
    tournament's matches table); cheapest first."""
    missing = [p for p in ratings["policy"] if p not in us_per_decision]
    if missing:
        raise ValueError(f"no cost a decision for {', '.join(missing)}")
    t = ratings.assign(us_per_decision=[float(us_per_decision[p]) for p in ratings["policy"]])
    cost = dict(zip(t["policy"], t["us_per_decision"], strict=True))
    rows = [r for r in matches.itertuples() if r.policy in cost and r.opponent in cost]
    beaten = {r.opponent for r in rows if cost[r.policy] <= cost[r.opponent] * (1 + COST_NOISE) and _beats(r)}
    t = t.assign(on_frontier=[p not in beaten for p in t["policy"]])
    return t.sort_values(["us_per_decision", "elo"], ascending=[True, False], kind="stable")[list(COLUMNS)]


def _beats(r) -> bool:
    """Whether a matches row's policy beats its opponent by their pairing's own test (win rate clear of 50%)."""
    verdict = beats(r.policy, r.opponent, r.win_rate_mean, r.win_rate_ci_lo, r.win_rate_ci_hi, r.games, RATE, 0.5)
    return verdict.leader == r.policy


def frontier_chart(table: pd.DataFrame, caption: str = "") -> Figure:
    """Elo (95% bootstrap interval) against the cost a decision on a log scale; the frontier joined by a line."""
    fig = Figure(figsize=(6.5, 4.5), layout="constrained")
    ax = fig.subplots()
    on = table[table["on_frontier"]]
    ax.plot(on["us_per_decision"], on["elo"], color="grey", lw=0.8, zorder=1, label="frontier")
    kinds = ((True, "o", "on the frontier"), (False, "s", "beaten by a cheaper one in their pairing"))
    for frontier, marker, label in kinds:
        part = table[table["on_frontier"] == frontier]
        if len(part):
            ax.errorbar(
                part["us_per_decision"], part["elo"], yerr=yerr(part, "elo_", mean="elo"), fmt=marker, capsize=4,
                label=label, zorder=2,
            )  # fmt: skip
    x, y = np.log10(table["us_per_decision"].to_numpy()), table["elo"].to_numpy()
    for i, name in enumerate(table["policy"]):
        near = any(abs(x[i] - x[j]) < 0.2 and abs(y[i] - y[j]) < 60 for j in range(i))  # a label there already
        ax.annotate(fit_label(name), (10 ** x[i], y[i]), xytext=(5, -11 if near else 4), textcoords="offset points",
                    fontsize=8)  # fmt: skip
    ax.set_xscale("log")
    ax.set_xlabel("time a decision, µs (one thread, log scale)")
    ax.set_ylabel("Elo (Bradley-Terry fit on whole games, mean 1500)")
    ax.legend(fontsize=8, loc="lower right")
    fig.suptitle(f"Strength for cost ({CI_NOTE})", fontsize=9)
    return add_caption(fig, caption)


def frontier_markdown(table: pd.DataFrame, how: str) -> str:
    """frontier.md: the chart, how it was made (`how`), and one line per policy, cheapest first."""
    lines = ["# Strength for cost", "", "![Strength for cost](frontier.png) (frontier.svg; table frontier.csv)", ""]
    lines += [how, "", "| policy | µs a decision | Elo (95% interval) | games won | on the frontier |"]
    lines += ["| --- | ---: | --- | ---: | --- |"]
    for _, r in table.iterrows():
        elo = f"{r['elo']:.0f} [{r['elo_ci_lo']:.0f}, {r['elo_ci_hi']:.0f}]"
        on = "yes" if r["on_frontier"] else "no"
        lines.append(f"| {r['policy']} | {_micros(r['us_per_decision'])} | {elo} | {r['win_rate']:.1%} | {on} |")
    return "\n".join(lines) + "\n"


def _micros(us: float) -> str:
    """A time in µs to the precision it is measured with: two significant figures, whole µs from 100 up."""
    return f"{us:,.0f}" if us >= 100 else f"{us:.2g}"


def write_frontier(table: pd.DataFrame, out: str | Path, how: str, caption: str = "") -> None:
    """frontier.csv/.json, frontier.png/.svg and frontier.md into `out`."""
    write_table(table, out, "frontier")
    save_figure(frontier_chart(table, caption), out, "frontier")
    atomic_write(Path(out) / "frontier.md", frontier_markdown(table, how).encode())
