"""Every round-record report of a run in one folder, with `report.md` naming each chart and its headline."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pandas as pd

from casino_sim.core.errors import InputError
from casino_sim.reports import headlines
from casino_sim.reports.captions import deals_played, games_count
from casino_sim.reports.cardlines import CARD_SECTIONS, JOINT
from casino_sim.reports.forked import run_tasks
from casino_sim.reports.kinds import MAKERS, Report
from casino_sim.reports.load import read_cards, read_games, read_manifest
from casino_sim.reports.output import atomic_write
from casino_sim.reports.places import Shape
from casino_sim.reports.views import view_of
from casino_sim.reports.webpage import write_page

# The reports whose charts a forked child draws and writes while this process writes the others
# (reports/forked.py): about half the drawing of a two-player run each (the card-value heatmap is the dearest)
FORKED_KINDS = ("anatomy", "sweeps", "convergence")


def make_all(run_dir: str | Path, data: pd.DataFrame | None = None, manifest: dict | None = None) -> dict[str, Report]:
    """Reports 'summary', 'score', 'sweeps', 'seat', 'anatomy' (when the records have its columns), 'convergence',
    'card-value' (every card's value from the deals; 'games' for a run of whole games, 'card-swap' for a run with
    paired deals) of a run folder, by kind, not yet written (reports/kinds.py Report), of every player count
    (reports/views.py). Charts name the run (`manifest`, default its manifest). `data` skips reading the rounds
    again."""
    return _make(run_dir, data, read_manifest(run_dir) if manifest is None else manifest)[0]


MISSING_WHY = {  # what makes a run have the report of a kind it lacks
    "card-value": " (its rounds cannot be dealt again: it is no simulate run with a seed)",
    "card-swap": " (it has no paired deals: run simulate with --card-deals N)",
    "games": " (it holds no games: it played single rounds; run simulate with --games)",
    "anatomy": " (its records lack the columns the anatomy counts, first_plays_trail and more: run simulate again)",
}


def report_of(reports: dict[str, Report], kind: str) -> Report:
    """The report `kind` of make_all's reports; InputError naming the kinds the run has."""
    if kind not in reports:
        why = MISSING_WHY.get(kind, "")
        raise InputError(f"no report {kind!r} for this run{why}; its kinds: {', '.join(reports)}")
    return reports[kind]


def write_all(
    run_dir: str | Path, out: str | Path | None = None, data: pd.DataFrame | None = None, charts: bool = True
) -> dict:
    """make_all written into `out` (default RUN_DIR/report) with `report.md` and the page `index.html`; returns their
    tables by kind. `charts` off: every table and text but no chart (drawing them is most of a small run's time)."""
    run_dir = Path(run_dir)
    out = Path(out) if out is not None else run_dir / "report"
    manifest = read_manifest(run_dir)
    reports, shape = _make(run_dir, data, manifest)
    writes = {kind: partial(report.write, out, charts) for kind, report in reports.items()}
    tables = run_tasks(writes, in_child=FORKED_KINDS if charts else ())  # drawing is most of the time: two cores
    text = partial_heading(TEXTS[shape.text](tables, manifest), manifest)
    atomic_write(out / "report.md", (text if charts else undrawn_heading(text, run_dir)).encode())
    write_page(out, manifest)
    return tables


def write_page_of(out: str | Path, results: dict, manifest: dict) -> Path:
    """report.md (seats_text) of reports already written into `out`, and the page index.html made from
    them: the words around the card-value command's tables, as `report all` gives a run's."""
    atomic_write(Path(out) / "report.md", seats_text(results, manifest).encode())
    return write_page(out, manifest)


def partial_heading(text: str, manifest: dict) -> str:
    """report.md's text with a run's "partial: N of M deals" under its title, when it is not fully played."""
    if not manifest.get("partial"):
        return text
    return under_title(
        text, f"**{manifest['partial']}**: the run is not finished; its reports count the chunks played."
    )


def undrawn_heading(text: str, run_dir: Path) -> str:
    """report.md's text with a line under its title saying that its charts were not drawn, and how to draw them."""
    return under_title(text, f"**Charts not drawn** (`--no-charts`): `casino-sim report all {run_dir}` draws them.")


def under_title(text: str, line: str) -> str:
    """Markdown `text` with the paragraph `line` between its title (its first line) and the rest."""
    title, _, rest = text.partition("\n")
    return f"{title}\n\n{line}\n{rest}"


def _make(run_dir, data, manifest: dict) -> tuple[dict[str, Report], Shape]:
    """make_all's reports, and their tables' shape (whose report.md is seats_text for two players, places_text for
    three or four)."""
    view = view_of(data if data is not None else run_dir)
    reports = {kind: MAKERS[kind](view, manifest) for kind in view.kinds()}
    games = read_games(run_dir)
    if games is not None:
        reports["games"] = MAKERS["games"](games, manifest)
    if view.kinds() and dealt_again(manifest):
        reports["card-value"] = MAKERS["card-value"](view, manifest)
    cards = read_cards(run_dir)
    if cards is not None:
        reports["card-swap"] = MAKERS["card-swap"](cards, manifest)
    return reports, view.shape


def dealt_again(manifest: dict) -> bool:
    """Whether a run's rounds can be dealt again from its manifest (runner/redeal.py): a simulate run's."""
    config = manifest.get("config") or {}
    return manifest.get("kind") == "simulate" and "seed" in config and "chunk_deals" in config


def seats_text(results: dict, manifest: dict) -> str:
    """The text of report.md of a two-player run (or of whole games of three or four players written before
    format 2, which hold no round records): one section per chart with its headline numbers, the games and card
    values after the summary."""
    intro = games_intro(manifest) + [
        "All intervals are 95% confidence intervals; rounds of one deal count as one sample; "
        "void rounds are counted but excluded from means.",
        "",
    ]
    return headlines.render(results, manifest, intro, headlines.SEAT_SECTIONS + CARD_SECTIONS, JOINT)


def places_text(tables: dict[str, pd.DataFrame], manifest: dict) -> str:
    """The text of report.md of a three- or four-player run."""
    s = tables["summary"].iloc[0]
    intro = games_intro(manifest) + [
        f"Rules {s['rules']}: {s['sides']} sides (players, or teams), seats named by their place in the turn "
        "order. All intervals are 95% confidence intervals; the rounds of one deal (its seatings) count as one "
        "sample; void rounds are counted but excluded from means.",
        "",
    ]
    return headlines.render(tables, manifest, intro, headlines.PLACE_SECTIONS + CARD_SECTIONS, JOINT)


TEXTS = {"seats": seats_text, "places": places_text}  # report.md's words by Shape.text


def games_intro(manifest: dict) -> list[str]:
    """report.md's opening line of a run of whole games: how many (none for a run of single rounds)."""
    if not (manifest.get("config") or {}).get("games"):
        return []
    return [f"Whole games: {games_count(manifest['config'], deals_played(manifest))}.", ""]
