"""`casino-sim knockout` and `casino-sim regret` as a user runs them: the table, the chart, and the files."""

from __future__ import annotations

import pandas as pd

from tests.support.cli import run
from tests.support.page_tables import csv_rows, read_page


def test_knockout_writes_a_sorted_table_and_its_chart(tmp_path):
    out = tmp_path / "ko"
    proc = run(
        "knockout",
        "greedy",
        "--deals",
        "200",
        "--chunk-deals",
        "100",
        "--pairs",
        "cards_taken,aces_taken",
        "--out",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    assert "What each feature of greedy is worth" in proc.stdout and "aces_taken (cards_taken out)" in proc.stdout
    assert {p.name for p in out.iterdir()} == {
        *("knockout.csv", "knockout.json", "knockout.png", "knockout.svg"),
        *("report.md", "index.html"),  # the page, as every other command's report has
    }
    page = read_page(out / "index.html")
    assert page.charts == ["knockout"] and page.tables == {"knockout.csv": csv_rows(out / "knockout.csv")}
    text = (out / "report.md").read_text()
    assert "What each feature of greedy is worth" in text and "95% interval" in text
    assert ("Most valuable:" in text) != ("too few mirrored deals per feature to rank the features" in text)
    t = pd.read_csv(out / "knockout.csv", keep_default_na=False)
    assert sorted(zip(t["feature"], t["given_out"])) == [
        ("aces_taken", ""),
        ("aces_taken", "cards_taken"),
        ("cards_taken", ""),
    ]
    assert t["worth_mean"].is_monotonic_decreasing
    assert "greedy vs itself without one feature" in (out / "knockout.svg").read_text()
    again = run("knockout", "greedy", "--deals", "200", "--out", str(out))
    assert again.returncode == 2 and "--force" in again.stderr


def test_regret_compares_policies_in_a_table_and_a_chart(tmp_path):
    out = tmp_path / "regret"
    proc = run("regret", "greedy", "random", "--decisions", "150", "--seed", "3", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "Last-batch decisions against exact best play" in proc.stdout and "played and judged in" in proc.stdout
    assert {p.name for p in out.iterdir()} == {
        *("regret.csv", "regret.json", "regret.png", "regret.svg", "report.md", "index.html")
    }
    page = read_page(out / "index.html")
    assert page.charts == ["regret"] and page.tables == {"regret.csv": csv_rows(out / "regret.csv")}
    assert "Wilson 95% interval" in (out / "report.md").read_text()
    t = pd.read_csv(out / "regret.csv")
    assert list(t["policy"]) == ["greedy", "random"] and (t["decisions"] >= 150).all()
    assert ((t["best_ci_lo"] <= t["best_mean"]) & (t["best_mean"] <= t["best_ci_hi"])).all()
    assert "rules strict" in (out / "regret.svg").read_text()
