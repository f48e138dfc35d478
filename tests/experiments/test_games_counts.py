"""simulate --games says what it counts the same way everywhere: --deals counts deals (shuffle sequences), each
played as one game per seating, so the terminal, the manifest, report.md and the chart captions all say
"4 games (2 deals, each played in 2 seatings)"; and the terminal shows the whole games table for any number of
players (two players printed a per-round summary, three and four the games)."""

from __future__ import annotations

import re

import pytest
from rich.console import Console

from casino_sim.experiments import run_notes
from casino_sim.experiments.simulate import write_reports
from casino_sim.reports.captions import run_caption
from casino_sim.runner.rundir import RunDir
from tests.support.cli import run
from tests.support.runs import simulate_dir


@pytest.mark.parametrize("rules, seatings", [("strict", 2), ("italian:players=3", 3)])
def test_a_games_run_counts_games_and_deals_alike_everywhere(tmp_path, monkeypatch, rules, seatings):
    from casino_sim.cli import runs

    simulate_dir(tmp_path / "run", deals=2, games=True, rules=rules, engine="reference", policy_a="greedy", seed=1)
    folder = RunDir(tmp_path / "run")
    tables = write_reports(folder)
    manifest = folder.read_manifest()
    said = f"{2 * seatings} games (2 deals, each played in {seatings} seatings)"
    assert manifest["games_played"] == 2 * seatings == int(tables["games"]["games"].sum())
    assert f"whole games: {said}, {manifest['rounds_played']} rounds" in run_notes.notes(manifest)
    assert f"Whole games: {said}." in (tmp_path / "run" / "report" / "report.md").read_text()
    assert f" · {said} · " in run_caption(manifest)
    screen = Console(record=True, width=200)
    monkeypatch.setattr(runs, "console", screen)
    runs._print_summary(tables)
    printed = screen.export_text()
    assert "Whole games" in printed and "Summary" not in printed and re.search(rf"│ +{2 * seatings} │", printed)


def test_the_help_says_what_deals_count():
    shown = run("simulate", "--help", env={"COLUMNS": "300"}).stdout  # a fresh console: earlier tests may leave 80
    assert "one game per seating" in " ".join(shown.split()) and "--deals counts games" not in shown
