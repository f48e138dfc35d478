"""Every round-record report of a run in one folder, with `report.md` naming each chart and its headline."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pandas as pd

from casino_sim.core.errors import InputError
from casino_sim.reports.captions import deals_played, games_count
from casino_sim.reports.forked import run_tasks
from casino_sim.reports.headlines import (
    CARDS_SECTION,
    anatomy_lines,
    ci_text,
    convergence_lines,
    render,
    score_lines,
    sweep_lines,
)
from casino_sim.reports.headlines import sweep_lines as _sweep_lines  # noqa: F401 (tests/reports/test_claims.py)
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
from casino_sim.reports.place_reports import make_places, render_places
from casino_sim.reports.webpage import write_page


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


def _seat_lines(t: pd.DataFrame) -> list[str]:
    return [
        f"- {r['policy']} ({r['matchup']}): dealer {r['dealer_mean']:.2f}, first player {r['first_mean']:.2f}, "
        f"dealer minus first {ci_text(r, 'diff_')} points per round."
        for _, r in t.iterrows()
    ]


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


def _games_lines(t: pd.DataFrame) -> list[str]:
    return [
        f"- {r['matchup']}: {r['policy_a']} wins {ci_text(r, 'win_rate_a_', '.1%')} of {r['games']} games, "
        f"by {ci_text(r, 'margin_', '+.2f', 'games')} final points per game; {r['rounds_mean']:.2f} rounds "
        "per game."
        for _, r in t.iterrows()
    ]


# The reports whose charts a forked child draws and writes while this process writes the others
# (reports/forked.py): about half the drawing of a two-player run each (the card-value heatmap is the dearest)
FORKED_KINDS = ("anatomy", "sweeps", "convergence")
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
        score_lines,
    ),
    ("sweeps", "Sweep frequency", "sweeps", "Sweeps per round, how many in a round, and in which batch.", sweep_lines),
    ("seat", "Seat advantage", "seat_advantage", "Points as dealer and as first player (non-dealer).", _seat_lines),
    ("anatomy", "Anatomy of a round", "anatomy", ANATOMY_WHAT, anatomy_lines),
    (
        "convergence",
        "Convergence",
        "convergence",
        "Running mean of the headline with its 95% band vs deals.",
        convergence_lines,
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
    text = (render_places if places else render_index)(tables, manifest)
    atomic_write(out / "report.md", partial_heading(text, manifest).encode())
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
    """The text of report.md of a two-player run (or of whole games): one section per chart with its headline
    numbers, the games and card values after the summary."""
    intro = []
    if (manifest.get("config") or {}).get("games"):
        intro += [f"Whole games: {games_count(manifest['config'], deals_played(manifest))}.", ""]
    intro += [
        "All intervals are 95% confidence intervals; rounds of one deal count as one sample; "
        "void rounds are counted but excluded from means.",
        "",
    ]
    return render(results, manifest, intro, [*SECTIONS[:1], GAMES_SECTION, CARDS_SECTION, *SECTIONS[1:]])
