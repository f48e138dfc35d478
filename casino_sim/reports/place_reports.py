"""Every report of a three- or four-player run, by place and team: tables, charts and `report.md`.

Records of three or four players (core/record.py many_record_columns) come here from reports/index.py; the
headline lines of the tables both share, and the renderer, are reports/headlines.py's.
"""

from __future__ import annotations

import pandas as pd

from casino_sim.reports import captions, charts, headlines
from casino_sim.reports.anatomy_chart import anatomy_chart
from casino_sim.reports.headlines import ci_text
from casino_sim.reports.kinds import Report, drawn, make_card_value, single_report
from casino_sim.reports.place_anatomy import anatomy_places_table, sweep_places_tables
from casino_sim.reports.place_tables import (
    convergence_places_table,
    matchup_label,
    score_places_table,
    seat_order,
    seat_places_table,
    summary_places_table,
)
from casino_sim.reports.places import has_teams, side_rows


def make_places(df: pd.DataFrame, manifest: dict, cards: pd.DataFrame | None = None) -> dict[str, Report]:
    """The summary, score, sweeps, seat, anatomy and convergence reports of n-player records (and the card values
    of its paired deals, `cards`), by kind, not yet written (reports/kinds.py Report)."""
    sides = side_rows(df)
    players = side_rows(df, by_team=False)  # the sides themselves without teams
    by_place = (sides, players) if has_teams(df) else (sides,)
    label, rules = matchup_label(sides, seat_order(df))[2], str(df["rules"].iloc[0])
    caption = captions.run_caption(manifest)
    rates, dist = sweep_places_tables(players, label, rules)
    reports = {
        "summary": single_report(summary_places_table(df, sides), "summary", charts.summary_chart, caption),
        "score": single_report(
            score_places_table(sides, label), "score_breakdown", charts.score_breakdown_chart, caption
        ),
        "sweeps": Report(
            {"sweeps": rates, "sweeps_distribution": dist}, {"sweeps": drawn(charts.sweep_chart, caption, rates, dist)}
        ),
        "seat": single_report(seat_places_table(*by_place), "seat_advantage", charts.seat_places_chart, caption),
        "anatomy": single_report(anatomy_places_table(players, label, rules), "anatomy", anatomy_chart, caption),
        "convergence": single_report(
            convergence_places_table(df, sides), "convergence", charts.convergence_chart, caption
        ),
    }
    if cards is not None:
        reports["card-value"] = make_card_value(cards, manifest)
    return reports


def _summary_lines(t: pd.DataFrame) -> list[str]:
    s = t.iloc[0]
    return [
        f"- {s['matchup']}: {s['policy_a']}'s side minus the mean of the other sides = "
        f"{ci_text(s, 'diff_', '+.3f')} points per round (per deal: the mean over its seatings), over {s['deals']} "
        f"deals ({s['rounds']} rounds, {s['void_rounds']} void); {s['policy_a']}'s side has the most points in "
        f"{ci_text(s, 'win_rate_a_', '.1%')} of rounds (a shared top counts its share); mean totals "
        f"{s['total_a_mean']:.2f} vs {s['total_b_mean']:.2f}."
    ]


def _seat_lines(t: pd.DataFrame) -> list[str]:
    return [
        f"- {r['side']} ({r['policy']}): {ci_text(r, 'points_', '.2f')} points, advantage "
        f"{ci_text(r, 'advantage_', '+.3f')}, sweeps {ci_text(r, 'sweeps_', '.3f')}, most points in "
        f"{ci_text(r, 'win_rate_', '.1%')} of rounds."
        for _, r in t.iterrows()
    ]


SECTIONS = [  # (kind, title, chart and table, what it shows, its lines)
    ("summary", "Summary", "summary", "A's side against the others.", _summary_lines),
    (
        "seat",
        "Seat advantage",
        "seat_advantage",
        "Points per round of each place (or team) of the turn order, and its advantage: its points minus the "
        "mean of the other sides'; sweeps per round and the share of rounds it has the most points.",
        _seat_lines,
    ),
    (
        "score",
        "Score breakdown",
        "score_breakdown",
        "Mean points per round of a side (a player, or a team's two piles together) in each scoring category.",
        headlines.score_lines,
    ),
    (
        "sweeps",
        "Sweep frequency",
        "sweeps",
        "A player's sweeps per round, how many in a round, and in which batch.",
        headlines.sweep_lines,
    ),
    (
        "anatomy",
        "Anatomy of a round",
        "anatomy",
        "Per policy, a player's plays by kind, the builds it made (created, or took over from another player), "
        "captured itself and lost to another player, its pile and the cards it took with the remainder, and the "
        "share of rounds its side (its team, with teams) won most cards or spades; tied: no side scored most "
        "cards.",
        headlines.anatomy_lines,
    ),
    (
        "convergence",
        "Convergence",
        "convergence",
        "Running mean of the headline with its 95% band vs deals.",
        headlines.convergence_lines,
    ),
]


def render_places(tables: dict[str, pd.DataFrame], manifest: dict) -> str:
    """The text of report.md of a three- or four-player run."""
    s = tables["summary"].iloc[0]
    intro = [
        f"Rules {s['rules']}: {s['sides']} sides (players, or teams), seats named by their place in the turn "
        "order. All intervals are 95% confidence intervals; the rounds of one deal (its seatings) count as one "
        "sample; void rounds are counted but excluded from means.",
        "",
    ]
    return headlines.render(tables, manifest, intro, [*SECTIONS, headlines.CARDS_SECTION])
