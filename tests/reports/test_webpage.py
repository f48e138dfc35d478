"""report/index.html: one self-contained page per run, its numbers the CSVs', rewritten by `casino-sim report html`."""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pytest

from casino_sim.experiments.simulate import write_reports
from casino_sim.reports.webpage import cell_texts, column_words, render_page, table_texts
from casino_sim.runner.rundir import RunDir
from tests.support.browser import Browser, find_browser
from tests.support.cli import assert_one_line_error, run
from tests.support.page_tables import csv_rows, read_page
from tests.support.runs import simulate_dir


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A small simulate run with card values, its reports written as simulate writes them."""
    path = tmp_path_factory.mktemp("page") / "run"
    simulate_dir(path, deals=200, card_deals=2, threads=1, seed=3, chunk_deals=100)
    write_reports(RunDir(path))
    return path


def test_simulate_writes_a_page_of_every_chart_and_table(played):
    report = played / "report"
    page = read_page(report / "index.html")
    assert sorted(page.charts) == sorted(p.stem for p in report.glob("*.svg"))
    assert {"summary", "card_value_heatmap", "anatomy", "convergence"} <= set(page.charts)
    csvs = {p.name: csv_rows(p) for p in report.glob("*.csv")}
    assert page.tables == csvs  # every table, every cell as the CSV writes it
    assert "card_values.csv" in csvs and len(csvs["card_values.csv"]) > 1


def test_the_page_shows_numbers_as_their_columns_mean_not_sixteen_digits(played):
    page = read_page(played / "report" / "index.html")
    # more than 3 significant digits (a tiny mean keeps 3: -0.000459, not -0.000)
    long = [c for rows in page.shown.values() for row in rows for c in row if re.search(r"\d\.0*[1-9]\d{3,}", c)]
    assert long == []  # were 0.5234567891234567
    head, first = page.tables["summary.csv"][0], page.shown["summary.csv"][1]
    csv_first = page.tables["summary.csv"][1]
    assert first[head.index("win_rate_a_mean")] == f"{float(csv_first[head.index('win_rate_a_mean')]):.1%}"
    assert first[head.index("diff_mean")] == f"{float(csv_first[head.index('diff_mean')]):.3f}"
    assert first[head.index("deals")] == "200"


def test_cells_are_formatted_by_what_their_column_counts():
    assert cell_texts("games", "win_rate_a_ci_lo", ["0.52345", "1.0", "0"]) == ["52.3%", "100.0%", "0.0%"]
    assert cell_texts("win_rate_matrix", "expert", ["", "0.25"]) == ["", "25.0%"]
    assert cell_texts("summary", "deals", ["12000", "7"]) == ["12,000", "7"]
    assert cell_texts("summary", "n", ["12.0", "inf"]) == ["12", "inf"]  # a float column of whole numbers
    assert cell_texts("summary", "diff_mean", ["-0.1234567", "inf", "", "2.5e-05"]) == [
        "-0.123",
        "inf",
        "",
        "0.0000250",
    ]
    assert cell_texts("x", "win_rate", ["0.5", "1.5"]) == ["0.500", "1.500"]  # not a share: above 1
    assert cell_texts("x", "policy", ["expert", "12"]) == ["expert", "12"]


def test_an_interval_shows_in_its_value_s_unit_and_nothing_in_scientific_notation():
    shown = table_texts(
        "sweeps_distribution", ["sweeps", "share", "ci_lo", "ci_hi"], [["3", "0.0", "4.41e-06", "0.000142"]]
    )
    assert shown == [["3", "0.0%", "0.00044%", "0.014%"]]
    head = ["policy", "quantity", "unit", "mean", "ci_lo", "ci_hi", "n"]
    rows = [["greedy", "share_add", "share of plays", "4e-06", "0.0", "2e-05", "192000"]]
    rows += [["greedy", "cards", "per round", "16.46", "16.41", "16.51", "6000"]]
    assert table_texts("anatomy", head, rows) == [
        ["greedy", "share_add", "share of plays", "0.00040%", "0.0%", "0.0020%", "192,000"],
        ["greedy", "cards", "per round", "16.460", "16.410", "16.510", "6,000"],
    ]
    score = table_texts("score_breakdown", ["policy", "category", "mean"], [["expert", "ten_diamonds", "0.74"]])
    assert score == [["expert", "10♦ (big casino)", "0.740"]]  # as the charts name it


def test_table_headers_and_the_manifest_read_as_words():
    assert [column_words(c) for c in ("win_rate_a_mean", "diff_ci_lo", "total_b_ci_hi", "ci_lo", "deals")] == [
        "win rate A",
        "A − B low",
        "total B high",
        "95% low",
        "deals",
    ]
    html = render_page(Path("/nonexistent"), {"play_seconds": 1.3117617579999887, "rounds_per_s": 8839.12345})
    assert "<td>1.31</td>" in html and "<td>8,839</td>" in html and "1.3117" not in html


def test_the_page_names_the_run_from_its_manifest(played):
    manifest = json.loads((played / "manifest.json").read_text())
    rows = dict(read_page(played / "report" / "index.html").manifest)
    assert rows["config.policy_a"] == "greedy" and rows["config.policy_b"] == "random"
    assert rows["config.rules"] == "strict" and rows["config.seed"] == "3" and rows["config.deals"] == "200"
    assert rows["version"] == manifest["version"] and rows["started"] == manifest["started"]
    assert rows["finished"] == manifest["finished"]


def test_the_page_needs_nothing_from_elsewhere(played):
    page = read_page(played / "report" / "index.html")
    assert not page.tags & {"script", "link", "iframe", "object", "img"}
    assert page.sources and all(s.startswith(("#", "data:")) for s in page.sources), page.sources[:5]


def test_a_three_player_run_gets_its_page_of_places(tmp_path):
    simulate_dir(tmp_path, deals=20, rules="italian:players=3", card_deals=0, threads=1)
    write_reports(RunDir(tmp_path))
    report = tmp_path / "report"
    page = read_page(report / "index.html")
    assert sorted(page.charts) == sorted(p.stem for p in report.glob("*.svg")) and "seat_advantage" in page.charts
    assert page.tables == {p.name: csv_rows(p) for p in report.glob("*.csv")}


def test_report_html_makes_the_page_from_the_written_files(played, tmp_path):
    copy = tmp_path / "run"
    shutil.copytree(played, copy)
    summary = copy / "report" / "summary.csv"
    rows = csv_rows(summary)
    rows[1][rows[0].index("deals")] = "12345"  # the page shows what the CSV says: nothing is computed again
    with summary.open("w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)
    (copy / "report" / "index.html").unlink()
    r = run("report", "html", str(copy))
    assert r.returncode == 0, r.stderr
    assert read_page(copy / "report" / "index.html").tables["summary.csv"][1][rows[0].index("deals")] == "12345"


def test_report_html_of_a_run_without_reports_writes_them_first(played, tmp_path):
    copy = tmp_path / "run"
    shutil.copytree(played, copy, ignore=shutil.ignore_patterns("report"))
    r = run("report", "html", str(copy))
    assert r.returncode == 0, r.stderr
    page = read_page(copy / "report" / "index.html")
    assert page.tables == read_page(played / "report" / "index.html").tables


def test_report_html_of_a_bad_folder_is_one_line(tmp_path):
    assert_one_line_error(run("report", "html", str(tmp_path / "nowhere")), "not a run folder")


def test_text_from_the_run_is_escaped(tmp_path):
    (tmp_path / "report.md").write_text("# Report\n\n- <b>bold</b> `<i>`\n")
    (tmp_path / "t.csv").write_text('name,x\n"<script>alert(1)</script>",1.5\n')
    html = render_page(tmp_path, {"command": ["casino-sim", "<img src=x>"], "config": {"policy_a": "a&b"}})
    assert "<script>" not in html and "<img" not in html and "<b>" not in html
    assert "&lt;script&gt;" in html and "a&amp;b" in html and "<code>&lt;i&gt;</code>" in html


def test_the_page_opens_in_a_browser_with_its_charts_and_numbers(played):
    """A real headless Chromium: no console error, no request beyond the page, every chart drawn, every table
    cell equal to its CSV's."""
    browser = find_browser()
    if browser is None:
        pytest.skip("no Chromium to open the page in: apt-get install chromium (or set CHROMIUM to a Chrome)")
    report = played / "report"
    with Browser(browser) as b:
        b.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": 1400, "height": 900, "deviceScaleFactor": 1, "mobile": False},
        )
        b.open((report / "index.html").as_uri())
        boxes = b.evaluate(
            "[...document.querySelectorAll('svg[data-chart]')].map(s => {"
            "const r = s.getBoundingClientRect(); return [s.dataset.chart, r.width, r.height]; })"
        )
        tables = b.evaluate(
            "Object.fromEntries([...document.querySelectorAll('table[data-csv]')].map(t => [t.dataset.csv, "
            "[...t.rows].map(r => [...r.cells].map(c => c.dataset.value ?? c.textContent))]))"
        )
        wide = b.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        box = "document.querySelector('table[data-csv=\\'summary.csv\\']').parentElement"
        summary_scrolls = b.evaluate(f"{box}.scrollWidth - {box}.clientWidth")
        boxed = b.evaluate(
            "[...document.querySelectorAll('table[data-csv]')].every(t => t.parentElement.classList.contains('scroll')"
            " && getComputedStyle(t.parentElement).overflowX === 'auto')"
        )
        assert b.errors() == []
        assert all(u.startswith(("file:", "data:")) for u in b.requested()), b.requested()
    assert sorted(c for c, _, _ in boxes) == sorted(p.stem for p in report.glob("*.svg"))
    assert all(w > 100 and h > 100 for _, w, h in boxes), boxes
    assert wide <= 0 and boxed  # the page never scrolls sideways: a wide table scrolls inside its own box
    assert summary_scrolls <= 0  # at 1,400 px the summary fits without a scrollbar
    assert tables == {p.name: csv_rows(p) for p in report.glob("*.csv")}
