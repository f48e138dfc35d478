"""Every report of a three- or four-player run, by place and team: tables, charts and `report.md`.

The two-player reports (reports/index.py) are left as they are; records of three or four players
(core/record.py many_record_columns) come here instead.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from casino_sim.reports import charts
from casino_sim.reports.index import CARDS_SECTION, _score_lines, ci_text
from casino_sim.reports.kinds import card_value
from casino_sim.reports.output import atomic_write, save_figure, write_table
from casino_sim.reports.place_tables import (
    convergence_places_table,
    matchup_label,
    score_places_table,
    seat_places_table,
    summary_places_table,
)
from casino_sim.reports.places import has_teams, side_rows


def write_places(
    df: pd.DataFrame, out: str | Path, manifest: dict, cards: pd.DataFrame | None = None
) -> dict[str, pd.DataFrame]:
    """The summary, seat, score and convergence tables and charts of n-player records (and the card values of
    its paired deals, `cards`) into `out`, and report.md; returns the tables by kind."""
    out = Path(out)
    sides = side_rows(df)
    by_place = (sides, side_rows(df, by_team=False)) if has_teams(df) else (sides,)
    label = matchup_label(sides)[2]
    caption = charts.run_caption(manifest)
    results = {
        "summary": (summary_places_table(df, sides), charts.summary_chart, "summary"),
        "score": (score_places_table(sides, label), charts.score_breakdown_chart, "score_breakdown"),
        "seat": (seat_places_table(*by_place), charts.seat_places_chart, "seat_advantage"),
        "convergence": (convergence_places_table(df, sides), charts.convergence_chart, "convergence"),
    }
    for table, chart, name in results.values():
        write_table(table, out, name)
        save_figure(charts.add_caption(chart(table), caption), out, name)
    tables = {kind: t for kind, (t, _, _) in results.items()}
    if cards is not None:
        tables["card-value"] = card_value(cards, out, manifest)
    atomic_write(out / "report.md", render_places(tables, manifest).encode())
    return tables


def render_places(tables: dict[str, pd.DataFrame], manifest: dict) -> str:
    """The text of report.md of a three- or four-player run."""
    s = tables["summary"].iloc[0]
    cmd = manifest.get("command")
    lines = ["# Report", ""]
    if cmd:
        lines += [f"Run: `{' '.join(cmd) if isinstance(cmd, list) else cmd}`", ""]
    lines += [
        f"Rules {s['rules']}: {s['sides']} sides (players, or teams), seats named by their place in the turn "
        "order. All intervals are 95% confidence intervals; the rounds of one deal (its seatings) count as one "
        "sample; void rounds are counted but excluded from means.",
        "",
        "## Summary",
        "",
        "![Summary](summary.png) (summary.svg; table summary.csv, summary.json)",
        "",
        f"- {s['matchup']}: {s['policy_a']}'s side minus the mean of the other sides = "
        f"{ci_text(s, 'diff_', '+.3f')} points per round (per deal: the mean over its seatings), over {s['deals']} "
        f"deals ({s['rounds']} rounds, {s['void_rounds']} void); {s['policy_a']}'s side has the most points in "
        f"{ci_text(s, 'win_rate_a_', '.1%')} of rounds (a shared top counts its share); mean totals "
        f"{s['total_a_mean']:.2f} vs {s['total_b_mean']:.2f}.",
        "",
        "## Seat advantage",
        "",
        "![Seat advantage](seat_advantage.png) (seat_advantage.svg; table seat_advantage.csv, seat_advantage.json)",
        "",
        "Points per round of each place (or team) of the turn order, and its advantage: its points minus the "
        "mean of the other sides'; sweeps per round and the share of rounds it has the most points.",
        "",
    ]
    for _, r in tables["seat"].iterrows():
        lines.append(
            f"- {r['side']} ({r['policy']}): {ci_text(r, 'points_', '.2f')} points, advantage "
            f"{ci_text(r, 'advantage_', '+.3f')}, sweeps {ci_text(r, 'sweeps_', '.3f')}, most points in "
            f"{ci_text(r, 'win_rate_', '.1%')} of rounds."
        )
    lines += [
        "",
        "## Score breakdown",
        "",
        "![Score breakdown](score_breakdown.png) (score_breakdown.svg; table score_breakdown.csv, "
        "score_breakdown.json)",
        "",
        "Mean points per round of a side (a player, or a team's two piles together) in each scoring category.",
        "",
    ]
    lines += _score_lines(tables["score"])
    conv = tables["convergence"].iloc[-1]
    lines += [
        "",
        "## Convergence",
        "",
        "![Convergence](convergence.png) (convergence.svg; table convergence.csv, convergence.json)",
        "",
        "Running mean of the headline with its 95% band vs deals.",
        "",
        f"- {conv['matchup']}: after {int(conv['deals'])} deals the running mean is {conv['mean']:+.3f}, "
        f"95% interval ± {(conv['ci_hi'] - conv['ci_lo']) / 2:.3f}.",
        "",
    ]
    if "card-value" in tables:
        _, title, chart, what, headline = CARDS_SECTION
        lines += [f"## {title}", "", f"![{title}]({chart}.png) (table card_values.csv)", "", what, ""]
        lines += [*headline(tables["card-value"]), ""]
    return "\n".join(lines)
