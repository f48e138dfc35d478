"""`casino-sim equity RUN_DIR`: the table, its heatmap and the 0-0 cells of a run of one policy against itself."""

from __future__ import annotations

import pandas as pd
import pytest

from tests.support.cli import assert_one_line_error, run


def _simulate(out, *args: str) -> None:
    proc = run("simulate", "--deals", "60", "--card-deals", "0", "--out", str(out), *args)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("rules, cells", [("strict", 21 * 21 * 2), ("brazilian:players=4,teams=true", 21 * 21 * 2)])
def test_the_table_has_every_score_and_dealer_with_intervals(tmp_path, rules, cells):
    _simulate(tmp_path / "run", "--policy", "greedy", "--vs", "greedy", "--rules", rules)
    proc = run("equity", str(tmp_path / "run"), "--resamples", "100", "--out", str(tmp_path / "eq"))
    assert proc.returncode == 0, proc.stderr
    table = pd.read_csv(tmp_path / "eq" / "equity.csv")
    assert len(table) == cells
    inside = (table["ci_lo"] <= table["win_chance"]) & (table["win_chance"] <= table["ci_hi"])
    assert inside.mean() > 0.9 and (table["ci_lo"] < table["ci_hi"]).all()  # percentile intervals: near always
    start = table[(table["player_score"] == 0) & (table["opponent_score"] == 0)].set_index("player_deals")
    assert start.loc[True, "win_chance"] + start.loc[False, "win_chance"] == pytest.approx(1.0)
    near = table[(table["player_score"] == 20) & (table["opponent_score"] == 0)]
    assert (near["win_chance"] > 0.9).all()  # one point from the target against none
    said = " ".join(proc.stdout.split())
    assert f"from 0-0 the player who does not deal wins {start.loc[False, 'win_chance']:.1%}" in said
    assert (tmp_path / "eq" / "equity.png").stat().st_size > 10_000 and (tmp_path / "eq" / "equity.svg").exists()


def test_a_run_of_two_policies_or_three_sides_is_refused(tmp_path):
    _simulate(tmp_path / "ab", "--policy", "greedy", "--vs", "random")
    assert_one_line_error(run("equity", str(tmp_path / "ab")), "same policy", "greedy", "random")
    _simulate(tmp_path / "three", "--policy", "greedy", "--vs", "greedy", "--rules", "brazilian:players=3")
    assert_one_line_error(run("equity", str(tmp_path / "three")), "two sides")
    assert_one_line_error(run("equity", str(tmp_path / "none")), "not a run folder")
    assert_one_line_error(run("equity", str(tmp_path / "ab"), "--resamples", "5"), "--resamples")
