"""The words of report.md: each section's headline lines from its table, and the page that strings them together.

Two players and three or four share the lines of the tables that have one shape for both and this one renderer;
report.md of each (reports/index.py seats_text, places_text) gives its own opening lines and its sections, in
order, as data: two players' tables of A against B (by matchup), three or four players' by place and team.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pandas as pd

from casino_sim.core.numbers import number
from casino_sim.core.record import CATEGORY_LABELS, PLAY_KINDS
from casino_sim.reports.captions import command_text
from casino_sim.reports.separation import leader
from casino_sim.reports.verdict import RATE

# (kind, title, chart file, what it shows, headline lines of its main table)
Section = tuple[str, str, str, str, Callable[[pd.DataFrame], list[str]]]
TABLE_OF = {"card-value": "card_values", "card-swap": "card_swaps"}  # tables not named after their chart


def ci_text(row, prefix: str = "", fmt: str = "+.3f", unit: str = "deals") -> str:
    """'mean [lo, hi]' of the columns prefix+mean, prefix+ci_lo, prefix+ci_hi of a table row.

    Without an interval (one deal, or one cluster) it says 'mean (too few deals)', not [-inf, +inf]."""
    mean, lo, hi = (float(row[prefix + k]) for k in ("mean", "ci_lo", "ci_hi"))
    if math.isnan(mean):
        return f"— (no {unit})"
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return f"{number(mean, fmt)} (too few {unit})"
    return f"{number(mean, fmt)} [{number(lo, fmt)}, {number(hi, fmt)}]"


def score_lines(t: pd.DataFrame) -> list[str]:
    out = []
    for (m, p), g in t.groupby(["matchup", "policy"], sort=False):
        total = g[g["category"] == "total"].iloc[0]
        cats = g[g["category"] != "total"].sort_values("mean", ascending=False)
        top = ", ".join(f"{CATEGORY_LABELS[c]} {number(v, '.2f')}" for c, v in zip(cats["category"], cats["mean"]))
        out.append(f"- {p} ({m}): {ci_text(total, fmt='.2f')} points per round; by category: {top}.")
    return out


def sweep_lines(t: pd.DataFrame) -> list[str]:
    out = []
    for (m, p), g in t.groupby(["matchup", "policy"], sort=False):
        whole = g[g["batch"] == 0].iloc[0]
        batches = g[g["batch"] > 0]
        peak = batches.sort_values("mean").iloc[-1]
        rows = [(f"batch {int(r['batch'])}", r["mean"], r["ci_lo"], r["ci_hi"]) for _, r in batches.iterrows()]
        verdict = leader(rows, int(whole["n"]), RATE)
        most = (
            f"most in {verdict.leader} ({ci_text(peak, fmt='.3f')} per round)"
            if verdict.leader
            else f"the highest mean in batch {int(peak['batch'])} ({ci_text(peak, fmt='.3f')} per round), but "
            + verdict.no_leader("name the batch with most", "rounds")
        )
        out.append(f"- {p} ({m}): {ci_text(whole, fmt='.3f')} sweeps per round, {most}.")
    return out


def anatomy_lines(t: pd.DataFrame) -> list[str]:
    out = []
    for (m, p), g in t.groupby(["matchup", "policy"], sort=False):
        pct = {q: ci_text(r, fmt=".1%") for q, r in g.set_index("quantity").iterrows()}
        num = {q: ci_text(r, fmt=".2f") for q, r in g.set_index("quantity").iterrows()}
        plays = ", ".join(f"{k} {pct[f'share_{k}']}" for k in PLAY_KINDS)
        out.append(
            f"- {p} ({m}): plays {plays}; builds per round: made {num['builds_made']}, captured by itself "
            f"{num['builds_captured_own']}, lost to the opponent {num['builds_lost']}; per round it captures "
            f"{num['cards']} cards and {num['spades']} spades, {num['remainder_cards']} of the cards with the "
            f"remainder (last capture in {pct['last_capture']} of rounds); it wins most cards in "
            f"{pct['most_cards_won']} of rounds (tied in {pct['most_cards_tied']}), most spades in "
            f"{pct['most_spades_won']}."
        )
    return out


def convergence_lines(t: pd.DataFrame) -> list[str]:
    lasts = {m: g.iloc[-1] for m, g in t.groupby("matchup", observed=True, sort=True)}
    return [
        f"- {m}: after {int(r['deals'])} deals the running mean is {number(r['mean'], '+.3f')}, "
        f"95% interval ± {number((r['ci_hi'] - r['ci_lo']) / 2, '.3f')}."
        for m, r in lasts.items()
    ]


CONVERGENCE_SECTION: Section = (
    "convergence",
    "Convergence",
    "convergence",
    "Running mean of the headline with its 95% band vs deals.",
    convergence_lines,
)


def render(results: dict, manifest: dict, intro: list[str], sections: list[Section], joint: dict | None = None) -> str:
    """The text of report.md: the title, the run's command, `intro`, then one part per section of `sections` that
    `results` (main tables by kind) has, with its chart, its table files and its headline numbers; `joint` (by
    kind) adds lines read from every kind's table (two reports compared)."""
    lines = ["# Report", ""]
    if manifest.get("command"):
        lines += [f"Run: `{command_text(manifest['command'])}`", ""]
    lines += intro
    for kind, title, chart, what, headline in sections:
        if kind not in results:
            continue
        table = TABLE_OF.get(kind, chart)
        lines += [
            f"## {title}",
            "",
            f"![{title}]({chart}.png) ({chart}.svg; table {table}.csv, {table}.json)",
            "",
            what,
            "",
            *headline(results[kind]),
            *(joint or {}).get(kind, lambda _: [])(results),
            "",
        ]
    return "\n".join(lines)


# Two players: by matchup, A against B (reports/tables.py)
def _sample_words(r, games: bool) -> tuple[str, str]:
    """(what the difference is per, what it is over) of a matchup's summary row: a run of whole games counts games
    and rounds (its samples are games), a run of deals its deals (a mirrored pair of seatings is one sample)."""
    counts = f"{r['rounds']} rounds, {r['void_rounds']} void"
    if games:
        sample = "a mirrored pair of games" if r["mirrored"] else "a game"
        return "per round", f"over {r['games']} games ({counts}; {sample} is one sample)"
    per = "per mirrored pair (average of both seatings)" if r["mirrored"] else "per round"
    return per, f"over {r['deals']} deals ({counts})"


def _mean_totals(r) -> str:
    """A summary line's last words: the mean totals of A's side and of the other(s)."""
    return f"mean totals {number(r['total_a_mean'], '.2f')} vs {number(r['total_b_mean'], '.2f')}."


def seat_summary_lines(t: pd.DataFrame) -> list[str]:
    """The headline per matchup: A minus B, A's round win rate, the mean totals."""
    games = "games" in t.columns
    out = []
    for _, r in t.iterrows():
        per, over = _sample_words(r, games)
        diff = ci_text(r, "diff_", unit="games" if games else "deals")
        wins = ci_text(r, "win_rate_a_", ".1%")
        out.append(
            f"- {r['matchup']}: {r['policy_a']} minus {r['policy_b']} = {diff} points {per}, {over}; "
            f"{r['policy_a']} wins {wins} of rounds (ties half); {_mean_totals(r)}"
        )
    return out


def by_row(line: Callable[[pd.Series], str]) -> Callable[[pd.DataFrame], list[str]]:
    """A section's headline lines that say one line per row of its table, in the table's order."""
    return lambda t: [line(r) for _, r in t.iterrows()]


def _seat_side_line(r: pd.Series) -> str:
    dealer, first = number(r["dealer_mean"], ".2f"), number(r["first_mean"], ".2f")
    return (
        f"- {r['policy']} ({r['matchup']}): dealer {dealer}, first player {first}, "
        f"dealer minus first {ci_text(r, 'diff_')} points per round."
    )


ANATOMY_WHAT = (
    "Per policy: the share of its plays of each kind (a player makes 24 plays a round); per round, the builds "
    "it made (created, or took over by increasing or adding to the opponent's build: it became their owner), "
    "and of the builds it owned when they were captured, those it captured itself and those the opponent "
    "captured (lost); the cards and spades in its pile at the end of the round, the remainder included, and "
    "the cards it took with the remainder (the loose cards left after the last play, which go to the player "
    "who made the last capture; 0 in rounds where the opponent did); the share of rounds in which it made the "
    "last capture, won most cards, won most spades, and in which nobody won most cards (26 each). A build the "
    "opponent takes over, or its owner merges into another of their builds, is neither captured by its owner "
    "nor lost, so made is at least captured by itself plus lost."
)


def _games_line(r: pd.Series) -> str:
    wins, margin = ci_text(r, "win_rate_a_", ".1%"), ci_text(r, "margin_", "+.2f", "games")
    return (
        f"- {r['matchup']}: {r['policy_a']} wins {wins} of {r['games']} games, by {margin} final points per game; "
        f"{number(r['rounds_mean'], '.2f')} rounds per game."
    )


GAMES_SECTION: Section = (
    "games",
    "Whole games",
    "games",
    "Game win rate and final points margin of policy A over B.",
    by_row(_games_line),
)
SEAT_SECTIONS: list[Section] = [  # the parts of report.md, in order: (kind, title, chart, what, headline lines)
    (
        "summary",
        "Summary",
        "summary",
        "Mean point difference of policy A minus B and A's round win rate.",
        seat_summary_lines,
    ),
    GAMES_SECTION,
    (
        "score",
        "Score breakdown",
        "score_breakdown",
        "Mean points per round in each scoring category, per policy.",
        score_lines,
    ),
    ("sweeps", "Sweep frequency", "sweeps", "Sweeps per round, how many in a round, and in which batch.", sweep_lines),
    (
        "seat",
        "Seat advantage",
        "seat_advantage",
        "Points as dealer and as first player (non-dealer).",
        by_row(_seat_side_line),
    ),
    ("anatomy", "Anatomy of a round", "anatomy", ANATOMY_WHAT, anatomy_lines),
    CONVERGENCE_SECTION,
]


# Three or four players: by place and team (reports/tables.py)
def _place_summary_lines(t: pd.DataFrame) -> list[str]:
    """The headline of A's side; a run of whole games counts games and rounds (a shuffle sequence's games, one in
    each seating, are one sample)."""
    s = t.iloc[0]
    per, over = "per deal: the mean over its seatings", f"over {s['deals']} deals"
    if "games" in t.columns:
        per, over = "per shuffle sequence: the mean over its games' rounds", f"over {s['games']} games"
    return [
        f"- {s['matchup']}: {s['policy_a']}'s side minus the mean of the other sides = "
        f"{ci_text(s, 'diff_', '+.3f')} points per round ({per}), {over} "
        f"({s['rounds']} rounds, {s['void_rounds']} void); {s['policy_a']}'s side has the most points in "
        f"{ci_text(s, 'win_rate_a_', '.1%')} of rounds (a shared top counts its share); {_mean_totals(s)}"
    ]


def _place_side_line(r: pd.Series) -> str:
    points, advantage = ci_text(r, "points_", ".2f"), ci_text(r, "advantage_", "+.3f")
    sweeps, wins = ci_text(r, "sweeps_", ".3f"), ci_text(r, "win_rate_", ".1%")
    return (
        f"- {r['side']} ({r['policy']}): {points} points, advantage {advantage}, sweeps {sweeps}, "
        f"most points in {wins} of rounds."
    )


PLACE_SECTIONS: list[Section] = [  # the parts of report.md, in order
    ("summary", "Summary", "summary", "A's side against the others.", _place_summary_lines),
    GAMES_SECTION,
    (
        "seat",
        "Seat advantage",
        "seat_advantage",
        "Points per round of each place (or team) of the turn order, and its advantage: its points minus the "
        "mean of the other sides'; sweeps per round and the share of rounds it has the most points.",
        by_row(_place_side_line),
    ),
    (
        "score",
        "Score breakdown",
        "score_breakdown",
        "Mean points per round of a side (a player, or a team's two piles together) in each scoring category.",
        score_lines,
    ),
    (
        "sweeps",
        "Sweep frequency",
        "sweeps",
        "A player's sweeps per round, how many in a round, and in which batch.",
        sweep_lines,
    ),
    (
        "anatomy",
        "Anatomy of a round",
        "anatomy",
        "Per policy, a player's plays by kind, the builds it made (created, or took over from another player), "
        "captured itself and lost to another player, its pile and the cards it took with the remainder, and the "
        "share of rounds its side (its team, with teams) won most cards or spades; tied: no side scored most "
        "cards.",
        anatomy_lines,
    ),
    CONVERGENCE_SECTION,
]
