"""`casino-sim equity RUN_DIR`: the table, its heatmap and the 0-0 cells of a run of one policy against itself."""

from __future__ import annotations

import pandas as pd
import pytest

from tests.support.cli import assert_one_line_error, run
from tests.support.policies import LOADER


def _simulate(out, *args: str, deals: int = 60) -> None:
    proc = run("simulate", "--deals", str(deals), "--card-deals", "0", "--no-charts", "--out", str(out), *args)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("rules, cells", [("strict", 21 * 21 * 2), ("brazilian:players=4,teams=true", 21 * 21 * 2)])
def test_the_table_has_every_score_and_dealer_with_intervals(tmp_path, rules, cells):
    _simulate(tmp_path / "run", "--policy", "greedy", "--vs", "greedy", "--rules", rules)
    proc = run("equity", str(tmp_path / "run"), "--resamples", "100", "--out", str(tmp_path / "eq"))
    assert proc.returncode == 0, proc.stderr
    table = pd.read_csv(tmp_path / "eq" / "equity.csv")
    assert len(table) == cells
    inside = (table["ci_lo"] <= table["win_chance"]) & (table["win_chance"] <= table["ci_hi"])
    assert inside.mean() > 0.9 and (table["ci_lo"] <= table["ci_hi"]).all()  # percentile intervals: near always
    # a bootstrap interval has width wherever the chance is not certain in the sample; a cell the sample never
    # lets a side win (0 against 20 in 60 deals) has the width 0 of its resamples
    uncertain = table[(table["win_chance"] > 0) & (table["win_chance"] < 1)]
    assert len(uncertain) > cells / 2 and (uncertain["ci_lo"] < uncertain["ci_hi"]).all()
    start = table[(table["player_score"] == 0) & (table["opponent_score"] == 0)].set_index("player_deals")
    assert start.loc[True, "win_chance"] + start.loc[False, "win_chance"] == pytest.approx(1.0)
    near = table[(table["player_score"] == 20) & (table["opponent_score"] == 0)]
    assert (near["win_chance"] > 0.9).all()  # one point from the target against none
    said = " ".join(proc.stdout.split())
    side = "team" if "teams" in rules else "player"  # a partnership deals or not as one side
    assert f"from 0-0 the {side} that does not deal wins {start.loc[False, 'win_chance']:.1%}" in said
    assert (tmp_path / "eq" / "equity.png").stat().st_size > 10_000 and (tmp_path / "eq" / "equity.svg").exists()


def test_a_run_of_two_policies_or_three_sides_is_refused(tmp_path):
    _simulate(tmp_path / "ab", "--policy", "greedy", "--vs", "random")
    assert_one_line_error(run("equity", str(tmp_path / "ab")), "same policy", "greedy", "random")
    _simulate(tmp_path / "three", "--policy", "greedy", "--vs", "greedy", "--rules", "brazilian:players=3")
    assert_one_line_error(run("equity", str(tmp_path / "three")), "two sides")
    assert_one_line_error(run("equity", str(tmp_path / "none")), "not a run folder")
    assert_one_line_error(run("equity", str(tmp_path / "ab"), "--resamples", "5"), "--resamples")


def _a_wins(run_dir) -> tuple[float, float, float]:
    """Policy A's share of an unmirrored games run (A on side 0 of every game) with its 95% Wilson interval."""
    from casino_sim.reports.stats import wilson
    from casino_sim.runner.rundir import RunDir

    games = RunDir(run_dir).read_table("games")
    est = wilson(float((games["winner"] == 0).sum()), float(len(games)))
    return est.mean, est.lo, est.hi


def _games(out, start: str, command: bool):
    """1500 unmirrored games of greedy from `start`: `simulate --games --no-mirrored --start-score START --seed 5
    --no-charts` (the games' records are what is read), or (command false) the same run played by the functions the
    command calls, without its reports."""
    if command:
        played = run("simulate", "--games", "--no-mirrored", "--start-score", start, "--deals", "1500", "--policy",
                     "greedy", "--vs", "greedy", "--seed", "5", "--card-deals", "0", "--no-charts",
                     "--out", str(out))  # fmt: skip
        assert played.returncode == 0, played.stderr
        return out
    from casino_sim.experiments.simulate import SimConfig, play_run
    from casino_sim.runner.rundir import RunDir

    config = SimConfig(
        1500, "greedy", "greedy", seed=5, mirrored=False, games=True, card_deals=0, start_score=start
    ).resolve(LOADER)
    play_run(config, RunDir(out), ["test"])
    return out


def test_the_table_holds_for_games_started_from_a_score(tmp_path):
    """docs/equity.md: the table from greedy's rounds against greedy's whole games started from 0-0 and three other
    scores (the first dealer drawn, so the two dealer cells weigh half each): inside the games' interval widened
    by the table's own."""
    _simulate(tmp_path / "rounds", "--policy", "greedy", "--vs", "greedy", deals=3000)
    assert run("equity", str(tmp_path / "rounds"), "--out", str(tmp_path / "eq")).returncode == 0
    table = pd.read_csv(tmp_path / "eq" / "equity.csv").set_index(["player_score", "opponent_score"])
    for a, b in [(0, 0), (10, 15), (15, 10), (18, 18)]:
        out = _games(tmp_path / f"games-{a}-{b}", f"{a}-{b}", command=(a, b) == (10, 15))  # one through the CLI
        cells = table.loc[(a, b)]
        expected = cells["win_chance"].mean()
        own = (cells["ci_hi"] - cells["ci_lo"]).mean() / 2
        share, lo, hi = _a_wins(out)
        half = ((hi - lo) / 2) ** 2 + own**2
        assert abs(share - expected) <= half**0.5, (a, b, share, expected)
