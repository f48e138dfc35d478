"""`simulate --no-charts`: every table and text of the reports without their charts, which `report all` draws later
exactly as the run would have drawn them."""

from __future__ import annotations

import json

from tests.support.cli import run

COMMON = ("simulate", "--deals", "30", "--policy", "expert", "--vs", "greedy", "--seed", "3", "--card-deals", "2")


def _charts(folder):
    return sorted(p.name for p in (*folder.glob("*.png"), *folder.glob("*.svg")))


def _tables(folder):
    return sorted(p.name for p in (*folder.glob("*.csv"), *folder.glob("*.json")))


def _manifest(run_dir):
    return json.loads((run_dir / "manifest.json").read_text())


def test_no_charts_writes_every_table_and_report_all_then_draws_the_charts_the_run_would_have(tmp_path):
    drawn_dir, bare_dir = tmp_path / "drawn", tmp_path / "bare"
    drawn = run(*COMMON, "--out", str(drawn_dir))
    bare = run(*COMMON, "--no-charts", "--out", str(bare_dir))
    assert drawn.returncode == 0 and bare.returncode == 0, drawn.stderr + bare.stderr
    said = " ".join(bare.stdout.split())  # as wide as the console: a long line wraps
    assert f"records and summary: {bare_dir} (charts: casino-sim report all {bare_dir})" in said
    assert "records, summary and charts" in drawn.stdout
    assert f"open {drawn_dir / 'report' / 'index.html'}" in " ".join(drawn.stdout.split())  # the page worth opening
    drawn_report, bare_report = drawn_dir / "report", bare_dir / "report"
    assert _charts(bare_report) == [] and len(_charts(drawn_report)) >= 10
    tables = _tables(drawn_report)
    assert tables and tables == _tables(bare_report)
    for name in tables:
        assert (bare_report / name).read_bytes() == (drawn_report / name).read_bytes(), name
    text = (bare_report / "report.md").read_text()
    assert f"**Charts not drawn** (`--no-charts`): `casino-sim report all {bare_dir}` draws them." in text
    assert _manifest(bare_dir)["charts"] == "not drawn" and "charts" not in _manifest(drawn_dir)

    again = run("report", "all", str(bare_dir))
    assert again.returncode == 0, again.stderr
    assert _charts(bare_report) == _charts(drawn_report)
    for name in _charts(drawn_report):
        assert (bare_report / name).read_bytes() == (drawn_report / name).read_bytes(), name
    assert "Charts not drawn" not in (bare_report / "report.md").read_text()
    assert _manifest(bare_dir)["charts"] == "drawn" and _manifest(bare_dir)["status"] == "complete"


def test_report_md_names_the_command_not_the_install_s_path():
    from casino_sim.reports.headlines import render

    for argv0 in ("/home/me/venv/bin/casino-sim", "/x/casino_sim/__main__.py"):
        text = render({}, {"command": [argv0, "simulate", "--deals", "3"]}, [], [])
        assert "Run: `casino-sim simulate --deals 3`" in text, text


def test_report_of_one_kind_prints_a_table_in_words_not_a_pandas_dump(tmp_path):
    out = tmp_path / "run"
    assert run("simulate", "--deals", "20", "--card-deals", "0", "--no-charts", "--out", str(out)).returncode == 0
    shown = run("report", "summary", str(out))
    assert shown.returncode == 0, shown.stderr
    assert "win rate A" in shown.stdout and "win_rate_a_mean" not in shown.stdout
    assert "%" in shown.stdout and not any(len(w) > 9 and w[0].isdigit() for w in shown.stdout.split())
