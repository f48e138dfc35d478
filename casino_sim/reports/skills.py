"""Tables and charts of what skills are worth: the knockout of each feature, and the regret against exact play."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from casino_sim.policies import policy_label
from casino_sim.reports.captions import add_caption, run_caption
from casino_sim.reports.charts import CI_NOTE, _figure, _interval_panel, _yerr
from casino_sim.reports.output import save_figure, write_table


def knockout_label(row) -> str:
    """A knockout row's name: the feature, and what was out already."""
    return row["feature"] + (f" ({row['given_out']} out)" if row["given_out"] else "")


def knockout_chart(table: pd.DataFrame) -> Figure:
    """The worth of each measured feature, most valuable on top, with its 95% interval and the deals it took."""
    t = table[table["deals"] > 0].reset_index(drop=True)
    fig, (ax,) = _figure(1, width=8.0, height=max(2.5, 0.38 * len(t) + 1.6))
    y = np.arange(len(t))
    colors = ["C0" if m >= 0 else "C3" for m in t["worth_mean"]]
    ax.barh(y, t["worth_mean"], xerr=_yerr(t, "worth_"), color=colors, capsize=3)
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


def write_knockout(table: pd.DataFrame, out: str | Path, config: dict) -> list[Path]:
    """`knockout.csv/.json` and the chart `knockout.png/.svg`, its footer naming the policy, rules, deals and seed."""
    who = (policy_label(config["policy"]), "itself without one feature")
    caption = _caption(who, config, f"up to {config['deals']:,} mirrored deals each")
    figure = add_caption(knockout_chart(table), caption)
    return write_table(table, out, "knockout") + save_figure(figure, out, "knockout")


def write_regret(table: pd.DataFrame, out: str | Path, config: dict) -> list[Path]:
    """`regret.csv/.json` and the chart `regret.png/.svg`, its footer naming the policies, rules, decisions and seed."""
    vs = policy_label(config["vs"]) if config["vs"] else "itself"
    who = (", ".join(policy_label(p) for p in table["policy"]), vs)
    fewest, most = int(table["decisions"].min()), int(table["decisions"].max())
    count = f"{fewest:,}{'' if fewest == most else f' to {most:,}'} last-batch decisions each"
    figure = add_caption(regret_chart(table), _caption(who, config, count))
    return write_table(table, out, "regret") + save_figure(figure, out, "regret")
