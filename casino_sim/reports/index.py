"""Every round-record report of a run in one folder, with `report.md` naming each chart and its headline."""

from __future__ import annotations

import math
from functools import partial
from pathlib import Path

import pandas as pd

from casino_sim.core.errors import InputError
from casino_sim.core.record import CATEGORY_LABELS, PLAY_KINDS
from casino_sim.reports.captions import deals_played, games_count
from casino_sim.reports.cardvalue import TEN_DIAMONDS
from casino_sim.reports.forked import run_tasks
from casino_sim.reports.kinds import MAKERS, Report
from casino_sim.reports.load import (
    ANATOMY_COLUMNS,
    has_place_records,
    live_rounds,
    read_cards,
    read_games,
    read_manifest,
    read_rounds,
    rounds_of,
)
from casino_sim.reports.output import atomic_write
from casino_sim.reports.separation import leader
from casino_sim.reports.webpage import write_page


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
        batches = g[g["batch"] > 0]
        peak = batches.sort_values("mean").iloc[-1]
        rows = [(f"batch {int(r['batch'])}", r["mean"], r["ci_lo"], r["ci_hi"]) for _, r in batches.iterrows()]
        verdict = leader(rows, int(whole["n"]))
        most = (
            f"most in {verdict.leader} ({ci_text(peak, fmt='.3f')} per round)"
            if verdict.leader
            else f"the highest mean in batch {int(peak['batch'])} ({ci_text(peak, fmt='.3f')} per round), but "
            + verdict.too_few("name the batch with most", "rounds")
        )
        out.append(f"- {p} ({m}): {ci_text(whole, fmt='.3f')} sweeps per round, {most}.")
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
    out = []
    for variant, g in t.groupby("variant", sort=True):
        ten = g[g["card"] == TEN_DIAMONDS]
        head = f"the 10♦ is worth {ci_text(ten.iloc[0], fmt='+.2f')} points per deal; " if len(ten) else ""
        out.append(f"- card moved to the {variant}: {head}{card_verdict(g)}.")
    return out


def card_verdict(g: pd.DataFrame) -> str:
    """The most valuable card of one variant's values, named only when its interval is clear of every other
    card's; else the highest means and how many deals of each card would separate them (reports/separation.py)."""
    best = g.sort_values("mean", ascending=False)
    verdict = leader(zip(best["label"], best["mean"], best["ci_lo"], best["ci_hi"]), int(best["n"].iloc[0]))
    if verdict.leader:
        top = ci_text(best.iloc[0], fmt="+.2f")
        return f"most valuable: {verdict.leader} {top}, its interval clear of every other card's"
    top = ", ".join(f"{r['label']} {ci_text(r, fmt='+.2f')}" for _, r in best.head(2).iterrows())
    return f"highest means {top}; " + verdict.too_few("rank the cards", "deals of each card")


CARDS_SECTION = (
    "card-value",
    "Value of holding each card",
    "card_value_heatmap",
    "Each of the first deals replayed with one dealt card swapped away (to the opponent, or into the "
    "stock); the heatmap is what holding each card is worth, and ten_diamonds_by_batch.png shows the "
    "10♦ by the batch it is dealt in.",
    _card_lines,
)
# The reports whose charts a forked child draws and writes while this process writes the others
# (reports/forked.py): about half the drawing of a two-player run each (the card-value heatmap is the dearest)
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


def make_all(run_dir: str | Path, data: pd.DataFrame | None = None, manifest: dict | None = None) -> dict[str, Report]:
    """Reports 'summary', 'score', 'sweeps', 'seat', 'anatomy' (when the records have its columns), 'convergence'
    (and 'games' for a run of whole games, 'card-value' for a run with paired deals) of a run folder, by kind, not
    yet written (reports/kinds.py Report); three or four players: by place and team (reports/place_reports.py).
    Charts name the run (`manifest`, default its manifest). `data` skips reading the rounds again."""
    return _make(run_dir, data, read_manifest(run_dir) if manifest is None else manifest)[0]


MISSING_WHY = {  # what makes a run have the report of a kind it lacks
    "card-value": " (it has no paired deals: run simulate with --card-deals N)",
    "games": " (it holds no games: it played single rounds; run simulate with --games)",
    "anatomy": " (its records lack the columns the anatomy counts, s0_plays_trail and more: run simulate again)",
}


def report_of(reports: dict[str, Report], kind: str) -> Report:
    """The report `kind` of make_all's reports; InputError naming the kinds the run has."""
    if kind not in reports:
        why = MISSING_WHY.get(kind, "")
        raise InputError(f"no report {kind!r} for this run{why}; its kinds: {', '.join(reports)}")
    return reports[kind]


def write_all(run_dir: str | Path, out: str | Path | None = None, data: pd.DataFrame | None = None) -> dict:
    """make_all written into `out` (default RUN_DIR/report) with `report.md` and the page `index.html`; returns their
    tables by kind."""
    run_dir = Path(run_dir)
    out = Path(out) if out is not None else run_dir / "report"
    manifest = read_manifest(run_dir)
    reports, places = _make(run_dir, data, manifest)
    writes = {kind: partial(report.write, out) for kind, report in reports.items()}
    tables = run_tasks(writes, in_child=FORKED_KINDS)  # drawing the charts is most of the time: on two cores
    if places:
        from casino_sim.reports.place_reports import render_places as render  # deferred: place_reports imports us
    else:
        render = render_index
    atomic_write(out / "report.md", partial_heading(render(tables, manifest), manifest).encode())
    write_page(out, manifest)
    return tables


def write_page_of(out: str | Path, results: dict, manifest: dict) -> Path:
    """report.md (render_index) of reports already written into `out`, and the page index.html made from them:
    the words around the card-value command's tables, as `report all` gives a run's."""
    atomic_write(Path(out) / "report.md", render_index(results, manifest).encode())
    return write_page(out, manifest)


def partial_heading(text: str, manifest: dict) -> str:
    """report.md's text with a run's "partial: N of M deals" under its title, when it is not fully played."""
    if not manifest.get("partial"):
        return text
    title, _, rest = text.partition("\n")
    return (
        f"{title}\n\n**{manifest['partial']}**: the run is not finished; its reports count the chunks played.\n{rest}"
    )


def _make(run_dir, data: pd.DataFrame | None, manifest: dict) -> tuple[dict[str, Report], bool]:
    """make_all's reports, and whether they are by place (records of three or four players)."""
    games = read_games(run_dir)
    if not _sides_only(games) and has_place_records(data if data is not None else run_dir):
        from casino_sim.reports.place_reports import make_places  # deferred: an import cycle, as above

        rounds = data if data is not None else read_rounds(run_dir, None)
        return make_places(rounds, manifest, read_cards(run_dir)), True
    reports = {} if _sides_only(games) else _round_reports(data if data is not None else run_dir, manifest)
    if games is not None:
        reports["games"] = MAKERS["games"](games, manifest)
    cards = read_cards(run_dir)
    if cards is not None:
        reports["card-value"] = MAKERS["card-value"](cards, manifest)
    return reports, False


def _sides_only(games: pd.DataFrame | None) -> bool:
    """Whether a run is of whole games of three or four players: its rounds keep only each side's points."""
    return games is not None and "policy_2" in games.columns


def _round_reports(data, manifest: dict) -> dict[str, Report]:
    """The reports of SECTIONS on a run's round records (anatomy when the records have its columns)."""
    df = rounds_of(data)
    if not live_rounds(df).any():  # nobody captured in any round (e.g. trail against trail): nothing to report
        return {}
    anatomy = all(c in df.columns for c in ANATOMY_COLUMNS)  # records of older runs lack its columns
    return {kind: MAKERS[kind](df, manifest) for kind, *_ in SECTIONS if kind != "anatomy" or anatomy}


def render_index(results: dict, manifest: dict) -> str:
    """The text of report.md: one section per chart with its headline numbers."""
    lines = ["# Report", ""]
    if manifest.get("command"):
        cmd = manifest["command"]
        lines += [f"Run: `{' '.join(cmd) if isinstance(cmd, list) else cmd}`", ""]
    if (manifest.get("config") or {}).get("games"):
        lines += [f"Whole games: {games_count(manifest['config'], deals_played(manifest))}.", ""]
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
