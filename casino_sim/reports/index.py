"""Every round-record report of a run in one folder, with `report.md` naming each chart and its headline."""

from __future__ import annotations

import math
from functools import partial
from pathlib import Path

import pandas as pd

from casino_sim.core.record import PLAY_KINDS
from casino_sim.reference.score import CATEGORY_LABELS
from casino_sim.reports.forked import run_tasks
from casino_sim.reports.kinds import REPORTS
from casino_sim.reports.load import (
    ANATOMY_COLUMNS,
    has_place_records,
    read_cards,
    read_games,
    read_manifest,
    read_rounds,
    rounds_of,
)
from casino_sim.reports.output import atomic_write


def ci_text(row, prefix: str = "", fmt: str = "+.3f", unit: str = "deals") -> str:
    """'mean [lo, hi]' of the columns prefix+mean, prefix+ci_lo, prefix+ci_hi of a table row.

    Without an interval (one deal, or one cluster) it says 'mean (too few deals)', not [-inf, +inf]."""
    mean, lo, hi = (float(row[prefix + k]) for k in ("mean", "ci_lo", "ci_hi"))
    if math.isnan(mean):
        return f"— (no {unit})"
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return f"{mean:{fmt}} (too few {unit})"
    return f"{mean:{fmt}} [{lo:{fmt}}, {hi:{fmt}}]"


def _summary_lines(t: pd.DataFrame) -> list[str]:
    """The headline per matchup; a run of whole games counts games and rounds (its samples are games)."""
    games = "games" in t.columns
    unit = {True: "per mirrored pair (average of both seatings)", False: "per round"}
    out = []
    for _, r in t.iterrows():
        if games:
            per, over = (
                "per round",
                (
                    f"over {r['games']} games ({r['rounds']} rounds, {r['void_rounds']} void; "
                    f"{'a mirrored pair of games' if r['mirrored'] else 'a game'} is one sample)"
                ),
            )
        else:
            per, over = (
                unit[bool(r["mirrored"])],
                f"over {r['deals']} deals ({r['rounds']} rounds, {r['void_rounds']} void)",
            )
        out.append(
            f"- {r['matchup']}: {r['policy_a']} minus {r['policy_b']} = "
            f"{ci_text(r, 'diff_', unit='games' if games else 'deals')} points {per}, {over}; "
            f"{r['policy_a']} wins {ci_text(r, 'win_rate_a_', '.1%')} of rounds "
            f"(ties half); mean totals {r['total_a_mean']:.2f} vs {r['total_b_mean']:.2f}."
        )
    return out


def _score_lines(t: pd.DataFrame) -> list[str]:
    out = []
    for (m, p), g in t.groupby(["matchup", "policy"], sort=False):
        total = g[g["category"] == "total"].iloc[0]
        cats = g[g["category"] != "total"].sort_values("mean", ascending=False)
        top = ", ".join(f"{CATEGORY_LABELS[c]} {v:.2f}" for c, v in zip(cats["category"], cats["mean"]))
        out.append(f"- {p} ({m}): {ci_text(total, fmt='.2f')} points per round; by category: {top}.")
    return out


def _sweep_lines(t: pd.DataFrame) -> list[str]:
    out = []
    for (m, p), g in t.groupby(["matchup", "policy"], sort=False):
        whole = g[g["batch"] == 0].iloc[0]
        peak = g[g["batch"] > 0].sort_values("mean").iloc[-1]
        out.append(
            f"- {p} ({m}): {ci_text(whole, fmt='.3f')} sweeps per round, most in batch {int(peak['batch'])} "
            f"({peak['mean']:.3f} per round)."
        )
    return out


def _seat_lines(t: pd.DataFrame) -> list[str]:
    return [
        f"- {r['policy']} ({r['matchup']}): dealer {r['dealer_mean']:.2f}, first player {r['first_mean']:.2f}, "
        f"dealer minus first {ci_text(r, 'diff_')} points per round."
        for _, r in t.iterrows()
    ]


def _anatomy_lines(t: pd.DataFrame) -> list[str]:
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


def _convergence_lines(t: pd.DataFrame) -> list[str]:
    lasts = {m: g.iloc[-1] for m, g in t.groupby("matchup", observed=True, sort=True)}
    return [
        f"- {m}: after {int(r['deals'])} deals the running mean is {r['mean']:+.3f}, "
        f"95% interval ± {(r['ci_hi'] - r['ci_lo']) / 2:.3f}."
        for m, r in lasts.items()
    ]


def _games_lines(t: pd.DataFrame) -> list[str]:
    return [
        f"- {r['matchup']}: {r['policy_a']} wins {ci_text(r, 'win_rate_a_', '.1%')} of {r['games']} games, "
        f"by {ci_text(r, 'margin_', '+.2f', 'games')} final points per game; {r['rounds_mean']:.2f} rounds "
        "per game."
        for _, r in t.iterrows()
    ]


def _card_lines(t: pd.DataFrame) -> list[str]:
    from casino_sim.reports.cardvalue import TEN_DIAMONDS

    out = []
    for variant, g in t.groupby("variant", sort=True):
        ten = g[g["card"] == TEN_DIAMONDS]
        best = g.sort_values("mean", ascending=False).head(3)
        head = f"the 10♦ is worth {ci_text(ten.iloc[0], fmt='+.2f')} points per deal; " if len(ten) else ""
        out.append(
            f"- card moved to the {variant}: {head}most valuable: "
            + ", ".join(f"{r['label']} {r['mean']:+.2f}" for _, r in best.iterrows())
            + "."
        )
    return out


CARDS_SECTION = (
    "card-value",
    "Value of holding each card",
    "card_value_heatmap",
    "Each of the first deals replayed with one dealt card swapped away (to the opponent, or into the "
    "stock); the heatmap is what holding each card is worth, and ten_diamonds_by_batch.png shows the "
    "10♦ by the batch it is dealt in.",
    _card_lines,
)
# The reports drawn in a forked child while this process draws the others (reports/forked.py): about half the
# work of a two-player run each (anatomy and sweeps are the dearest, then score and card values)
FORKED_KINDS = ("anatomy", "sweeps", "convergence")
TABLE_OF = {"card-value": "card_values"}  # where a report's table is not named after its chart
GAMES_SECTION = (
    "games",
    "Whole games",
    "games",
    "Game win rate and final points margin of policy A over B.",
    _games_lines,
)
SECTIONS = [  # (kind, title, chart file, what it shows, headline lines)
    (
        "summary",
        "Summary",
        "summary",
        "Mean point difference of policy A minus B and A's round win rate.",
        _summary_lines,
    ),
    (
        "score",
        "Score breakdown",
        "score_breakdown",
        "Mean points per round in each scoring category, per policy.",
        _score_lines,
    ),
    ("sweeps", "Sweep frequency", "sweeps", "Sweeps per round, how many in a round, and in which batch.", _sweep_lines),
    ("seat", "Seat advantage", "seat_advantage", "Points as dealer and as first player (non-dealer).", _seat_lines),
    ("anatomy", "Anatomy of a round", "anatomy", ANATOMY_WHAT, _anatomy_lines),
    (
        "convergence",
        "Convergence",
        "convergence",
        "Running mean of the headline with its 95% band vs deals.",
        _convergence_lines,
    ),
]


def write_all(run_dir: str | Path, out: str | Path | None = None, data: pd.DataFrame | None = None) -> dict:
    """Reports 'summary', 'score', 'sweeps', 'seat', 'anatomy' (when the records have its columns), 'convergence'
    (and 'games' for a run of whole games, 'card-value' for a run with paired deals) into `out` (default
    RUN_DIR/report) and `report.md`; returns their tables by kind. Charts name the run (its manifest). `data`
    skips reading the rounds again."""
    run_dir = Path(run_dir)
    out = Path(out) if out is not None else run_dir / "report"
    manifest = read_manifest(run_dir)
    games = read_games(run_dir)
    if not _sides_only(games) and has_place_records(data if data is not None else run_dir):
        from casino_sim.reports.place_reports import write_places  # three or four players: by place and team

        rounds = data if data is not None else read_rounds(run_dir, None)
        return write_places(rounds, out, manifest, read_cards(run_dir))
    tasks = {} if _sides_only(games) else _round_tasks(data if data is not None else run_dir, out, manifest)
    if games is not None:
        tasks["games"] = partial(REPORTS["games"], games, out, manifest)
    cards = read_cards(run_dir)
    if cards is not None:
        tasks["card-value"] = partial(REPORTS["card-value"], cards, out, manifest)
    results = run_tasks(tasks, in_child=FORKED_KINDS)
    atomic_write(out / "report.md", render_index(results, manifest).encode())
    return results


def _sides_only(games: pd.DataFrame | None) -> bool:
    """Whether a run is of whole games of three or four players: its rounds keep only each side's points."""
    return games is not None and "policy_2" in games.columns


def _round_tasks(data, out: Path, manifest: dict) -> dict:
    """The reports of SECTIONS on a run's round records, each a call to make (anatomy when the records have
    its columns)."""
    df = rounds_of(data)
    anatomy = all(c in df.columns for c in ANATOMY_COLUMNS)  # records of older runs lack its columns
    return {kind: partial(REPORTS[kind], df, out, manifest) for kind, *_ in SECTIONS if kind != "anatomy" or anatomy}


def render_index(results: dict, manifest: dict) -> str:
    """The text of report.md: one section per chart with its headline numbers."""
    lines = ["# Report", ""]
    if manifest.get("command"):
        cmd = manifest["command"]
        lines += [f"Run: `{' '.join(cmd) if isinstance(cmd, list) else cmd}`", ""]
    lines += [
        "All intervals are 95% confidence intervals; rounds of one deal count as one sample; "
        "void rounds are counted but excluded from means.",
        "",
    ]
    extra = [s for s in (GAMES_SECTION, CARDS_SECTION) if s[0] in results]
    for kind, title, chart, what, headline in [*SECTIONS[:1], *extra, *SECTIONS[1:]]:
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
            "",
        ]
    return "\n".join(lines)
