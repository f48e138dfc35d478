"""Tables and charts of what skills are worth: the knockout of each feature, and the regret against exact play."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from casino_sim.policies.names import recorded_labels
from casino_sim.reports.captions import add_caption, run_caption
from casino_sim.reports.charts import CI_NOTE, _figure, _interval_panel, yerr
from casino_sim.reports.headlines import ci_text
from casino_sim.reports.output import atomic_write, save_figure, write_table
from casino_sim.reports.separation import AHEAD, leader
from casino_sim.reports.verdict import POINTS, RATE
from casino_sim.reports.webpage import write_page


def knockout_label(row) -> str:
    """A knockout row's name: the feature, and what was out already."""
    return row["feature"] + (f" ({row['given_out']} out)" if row["given_out"] else "")


def knockout_chart(table: pd.DataFrame) -> Figure:
    """The worth of each measured feature, most valuable on top, with its 95% interval and the deals it took."""
    t = table[table["deals"] > 0].reset_index(drop=True)
    fig, (ax,) = _figure(1, width=8.0, height=max(2.5, 0.38 * len(t) + 1.6))
    y = np.arange(len(t))
    colors = ["C0" if m >= 0 else "C3" for m in t["worth_mean"]]
    ax.barh(y, t["worth_mean"], xerr=yerr(t, "worth_"), color=colors, capsize=3)
    ax.set_yticks(y, [f"{knockout_label(r)}  · {r['deals']:,} deals" for _, r in t.iterrows()], fontsize=8)
    ax.invert_yaxis()
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_xlabel("points per mirrored deal: the policy minus the policy without the feature")
    ax.set_title(f"What each feature is worth ({CI_NOTE})", fontsize=9)
    return fig


def regret_chart(table: pd.DataFrame) -> Figure:
    """Per policy: the share of last-batch decisions played best, and the points lost per decision and per round."""
    t = table.assign(matchup=[f"{p} vs {v}" for p, v in zip(table["policy"], table["vs"])])
    fig, axes = _figure(3, width=4.2, height=max(2.5, 0.6 * len(t) + 1.5))
    _interval_panel(axes[0], t, "best_", 1.0, "share of decisions on a best move", "Best move played")
    _interval_panel(axes[1], t, "lost_per_decision_", 0.0, "points lost per decision", "Lost per decision")
    _interval_panel(axes[2], t, "lost_per_round_", 0.0, "points lost per round (one seat)", "Lost per round")
    fig.suptitle(f"Last-batch decisions against exact best play ({CI_NOTE})", fontsize=9)
    return fig


def _caption(who: str, config: dict, count: str) -> str:
    manifest = {"config": {"policy_a": who[0], "policy_b": who[1], "rules": config["rules"], "seed": config["seed"]}}
    manifest["config"]["deals"] = 0  # the count is told by `count`
    return run_caption(manifest, count)


def knockout_verdict(table: pd.DataFrame) -> str:
    """The most valuable feature, named only when its lead over every other measured feature is clear of 0; else
    whether the top ones are equal within 0.1 points or how many mirrored deals per feature would decide
    (reports/separation.py)."""
    t = table[table["deals"] > 0]
    labels = [knockout_label(r) for _, r in t.iterrows()]
    verdict = leader(
        zip(labels, t["worth_mean"], t["worth_ci_lo"], t["worth_ci_hi"]), int(t["deals"].max()) if len(t) else 0, POINTS
    )
    if verdict.leader:
        return f"Most valuable: {verdict.leader}, ahead of every other feature ({AHEAD})."
    if len(t) < 2:
        return "One feature measured: nothing to rank."
    return (
        "The table's order is not a ranking: "
        + verdict.no_leader("rank the features", "mirrored deals per feature")
        + "."
    )


def regret_verdict(table: pd.DataFrame) -> str:
    """The policy that plays a best move most often, named only when its lead over every other is clear of 0."""
    if len(table) < 2:
        return "One policy judged: nothing to rank."
    labels = [f"{p} (vs {v})" for p, v in zip(table["policy"], table["vs"])]
    n = int(table["decisions"].max())
    verdict = leader(zip(labels, table["best_mean"], table["best_ci_lo"], table["best_ci_hi"]), n, RATE)
    if verdict.leader:
        return f"Plays a best move most often: {verdict.leader}, ahead of every other policy ({AHEAD})."
    said = verdict.no_leader("say which policy plays a best move most often", "decisions")
    return said[0].upper() + said[1:] + "."


def _page(out: Path, title: str, chart: str, what: str, lines: list[str], manifest: dict) -> None:
    """report.md (the chart, what it shows, its lines) and the page index.html (reports/webpage.py) in `out`."""
    text = [f"# {title}", "", f"![{title}]({chart}.png) ({chart}.svg; table {chart}.csv, {chart}.json)", "", what]
    atomic_write(out / "report.md", "\n".join([*text, "", *lines, ""]).encode())
    write_page(out, manifest)


KNOCKOUT_WHAT = (
    "Each feature's worth: the policy against itself with that feature's weight set to zero, on the same "
    "seeded mirrored deals, in points per mirrored deal (the whole policy minus the policy without the feature) "
    "with its 95% interval. A feature stops once its interval is clear of zero or narrower than the precision "
    "asked, else at the most deals allowed; a worth whose interval holds 0 is not shown to matter."
)
REGRET_WHAT = (
    "In the last batch every card is known, so each decision (a play with two or more legal moves) is valued "
    "exactly: the share of decisions on a best move (Wilson 95% interval), and the points lost against best "
    "play per decision and per round (Student t 95% intervals); plays of one deal count as one sample."
)


def write_knockout(table: pd.DataFrame, out: str | Path, manifest: dict) -> list[Path]:
    """`knockout.csv/.json`, the chart `knockout.png/.svg` (its footer naming the policy, rules, deals and seed),
    report.md and the page index.html, from the run's `manifest` (kind, config, policy_names)."""
    config, label = manifest["config"], recorded_labels(manifest)
    who = (label(config["policy"]), "itself without one feature")
    caption = _caption(who, config, f"up to {config['deals']:,} mirrored deals each")
    figure = add_caption(knockout_chart(table), caption)
    paths = write_table(table, out, "knockout") + save_figure(figure, out, "knockout")
    lines = [
        f"- {knockout_label(r)}: {ci_text(r, 'worth_', '+.3f')} points per mirrored deal over {r['deals']:,} deals"
        for _, r in table[table["deals"] > 0].iterrows()
    ]
    title = f"What each feature of {label(config['policy'])} is worth"
    _page(Path(out), title, "knockout", KNOCKOUT_WHAT, [knockout_verdict(table), "", *lines], manifest)
    return paths


def write_regret(table: pd.DataFrame, out: str | Path, manifest: dict) -> list[Path]:
    """`regret.csv/.json`, the chart `regret.png/.svg` (its footer naming the policies, rules, decisions and seed),
    report.md and the page index.html, from the run's `manifest` (kind, config, policy_names)."""
    config, label = manifest["config"], recorded_labels(manifest)
    vs = label(config["vs"]) if config["vs"] else "itself"
    who = (", ".join(label(p) for p in table["policy"]), vs)
    fewest, most = int(table["decisions"].min()), int(table["decisions"].max())
    count = f"{fewest:,}{'' if fewest == most else f' to {most:,}'} last-batch decisions each"
    figure = add_caption(regret_chart(table), _caption(who, config, count))
    paths = write_table(table, out, "regret") + save_figure(figure, out, "regret")
    lines = [
        f"- {r['policy']} (vs {r['vs']}): a best move in {ci_text(r, 'best_', '.1%', 'decisions')} of "
        f"{r['decisions']:,} decisions; lost {ci_text(r, 'lost_per_decision_', '.3f')} points per decision, "
        f"{ci_text(r, 'lost_per_round_', '.3f')} per round"
        for _, r in table.iterrows()
    ]
    title = "Last-batch decisions against exact best play"
    _page(Path(out), title, "regret", REGRET_WHAT, [regret_verdict(table), "", *lines], manifest)
    return paths
