"""simulate --games: whole games to the target, played as waves of rounds."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from casino_sim.core.rules import get_rules
from casino_sim.experiments.simulate import SimConfig, play_chunk, play_run, start_run
from casino_sim.reference.game import game_winner
from casino_sim.runner.rundir import RunDir
from casino_sim.runner.sides import side_points
from casino_sim.runner.threads import use_threads
from tests.support.cli import assert_one_line_error, run
from tests.support.policies import LOADER


def games_of(rules: str = "strict", deals: int = 300, **options) -> dict[str, pd.DataFrame]:
    config = SimConfig(
        deals=deals,
        chunk_deals=deals,
        games=True,
        rules=rules,
        seed=11,
        **{"policy_a": "greedy", "policy_b": "random", **options},
        loader=LOADER,
    )
    return play_chunk(config, 0)


@pytest.mark.parametrize("rules", ["strict", "brazilian", "italian"])
def test_each_game_stops_at_the_first_round_that_decides_it(rules):
    tables = games_of(rules)
    ruleset = get_rules(rules)
    rounds = tables["rounds"].sort_values(["game_id", "mirror", "round_no"])
    games = tables["games"].set_index(["game_id", "mirror"])
    assert len(games) == 600
    for (g, m), rs in rounds.groupby(["game_id", "mirror"]):
        totals, winner = [0, 0], None
        assert list(rs["round_no"]) == list(range(len(rs)))  # no gaps
        for r, points in zip(rs.itertuples(), side_points(rs, ruleset).tolist()):
            assert winner is None, "a round was played after the game was decided"
            if r.void:
                continue
            totals = [totals[0] + points[0], totals[1] + points[1]]
            winner = game_winner(ruleset, totals, points)
        game = games.loc[(g, m)]
        assert winner == game["winner"]
        assert [game["s0_final"], game["s1_final"]] == totals
        assert game["rounds"] == (rs["void"] == 0).sum() and game["void_rounds"] == rs["void"].sum()
    assert (games[["s0_final", "s1_final"]].max(axis=1) >= ruleset.target).all()
    assert (games["rounds"] >= 2).all()  # nobody reaches 21 in one round (11 points plus sweeps)


def test_dealer_alternates_and_a_void_round_is_dealt_again_by_the_same_dealer():
    tables = games_of(deals=400)
    games = tables["games"].set_index(["game_id", "mirror"])
    for (g, m), rs in tables["rounds"].groupby(["game_id", "mirror"]):
        dealers, voids = rs["dealer"].to_numpy(), rs["void"].to_numpy()
        assert dealers[0] == games.loc[(g, m), "first_dealer"]
        for k in range(1, len(rs)):
            assert dealers[k] == (dealers[k - 1] if voids[k - 1] else 1 - dealers[k - 1])
    pair = games.reset_index().groupby("game_id")["first_dealer"].nunique()
    assert (pair == 1).all()  # both games of a mirrored pair start with the same dealer


def test_mirrored_games_see_the_same_shuffles_round_by_round():
    r = games_of(deals=200)["rounds"]
    both = r.merge(r, on=["game_id", "round_no"], suffixes=("", "_m"))
    both = both[(both["mirror"] == 0) & (both["mirror_m"] == 1) & (both["dealer"] == both["dealer_m"])]
    assert len(both) > 200
    for col in ("ten_diamonds_dealt_to", "ten_diamonds_dealt_batch", "two_spades_dealt_to"):
        assert (both[col] == both[f"{col}_m"]).all()
    # and the policies really were swapped: the first place's totals differ somewhere
    assert (both["first_total"] != both["first_total_m"]).any()


def test_games_are_the_same_on_one_and_two_threads():
    config = SimConfig(
        deals=300, chunk_deals=300, games=True, policy_a="expert", policy_b="greedy", seed=3, loader=LOADER
    )
    with use_threads(1):
        one = play_chunk(config, 0)
    with use_threads(2):
        two = play_chunk(config, 0)
    for name in ("rounds", "games"):
        pd.testing.assert_frame_equal(one[name], two[name])


def test_a_stronger_policy_wins_more_games():
    g = games_of(deals=500)["games"]
    a_won = np.where(g["mirror"] == 0, g["winner"] == 0, g["winner"] == 1)
    assert a_won.mean() > 0.8  # greedy beats random clearly in whole games


def test_games_resume_to_the_same_tables(tmp_path):
    config = SimConfig(deals=400, chunk_deals=100, games=True, seed=4, loader=LOADER)
    whole = RunDir(tmp_path / "whole")
    play_run(config, whole, ["test"])
    cut = RunDir(tmp_path / "cut")
    start_run(config, cut, ["test"])
    for c in (0, 2):
        cut.write_chunk(c, play_chunk(config, c))
    (cut.path / "games" / "chunk-000003.parquet").write_bytes(b"from a run that died before its rounds file")
    play_run(config, cut)
    for name in ("rounds", "games"):
        pd.testing.assert_frame_equal(cut.read_table(name), whole.read_table(name))


def test_cli_games_run_writes_the_games_report(tmp_path):
    out = tmp_path / "run"
    r = run("simulate", "--games", "--deals", "60", "--chunk-deals", "30", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "Whole games" in r.stdout
    assert "whole games: 120 games (60 deals, each played in 2 seatings)" in r.stdout and "Summary" not in r.stdout
    assert (pd.read_csv(out / "report" / "summary.csv").loc[0, "games"]) == 120
    table = pd.read_csv(out / "report" / "games.csv")
    assert table.loc[0, "games"] == 120 and 0 <= table.loc[0, "win_rate_a_ci_lo"] <= table.loc[0, "win_rate_a_mean"]
    assert (out / "report" / "games.png").stat().st_size > 0 and (out / "report" / "games.svg").exists()
    assert "## Whole games" in (out / "report" / "report.md").read_text()
    again = run("report", "games", str(out), "--out", str(tmp_path / "again"))
    assert again.returncode == 0, again.stderr
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "again" / "games.csv"), table)


def test_games_report_of_a_run_of_single_rounds_is_a_clear_error(tmp_path):
    out = tmp_path / "run"
    assert run("simulate", "--deals", "20", "--no-charts", "--out", str(out)).returncode == 0
    assert_one_line_error(run("report", "games", str(out)), "holds no games")


def test_game_options_of_the_rule_sets_end_games_as_rules_md_says():
    single = games_of("italian:single_round=true")["games"]
    decided_at_once = single[single["rounds"] == 1]
    assert len(decided_at_once) > 0.8 * len(single)  # only a tied round is played again
    assert (decided_at_once["s0_final"] != decided_at_once["s1_final"]).all()
    assert (decided_at_once["winner"] == (decided_at_once["s1_final"] > decided_at_once["s0_final"])).all()

    quick = games_of("brazilian:round_win_points=6,target=31")["games"]
    long = games_of("brazilian:target=31")["games"]
    assert quick["rounds"].mean() < long["rounds"].mean()
    assert (long[["s0_final", "s1_final"]].max(axis=1) >= 31).all()
    assert set(games_of("brazilian:target=31")["rounds"]["rules"]) == {"brazilian:target=31"}


@pytest.mark.parametrize(
    "spec, fragment",
    [
        ("strict:target=x", "whole number"),
        ("strict:colour=red", "colour"),
        ("italian:single_round=maybe", "true or false"),
        ("brazilian:target", "key=value"),
    ],
)
def test_bad_rule_options_are_one_line_errors(spec, fragment):
    assert_one_line_error(run("simulate", "--games", "--rules", spec, "--deals", "5"), fragment)


@pytest.mark.parametrize("rules", ["strict", "italian:players=3", "brazilian:players=4"])
def test_checked_games_are_the_same_games(rules):
    """--check verifies every play of whole games of any player count (one path) and changes none of them."""
    plain = games_of(rules, deals=100)
    SimConfig(games=True, rules=rules, checked=True, loader=LOADER).check()  # taken, not refused
    checked = games_of(rules, deals=100, checked=True)
    for name in ("rounds", "games"):
        pd.testing.assert_frame_equal(plain[name], checked[name])


def test_the_summary_of_a_games_run_counts_games_and_rounds():
    from rich.console import Console

    from casino_sim.cli.ui import summary_table
    from casino_sim.reports import tables
    from casino_sim.reports.headlines import seat_summary_lines

    rounds = games_of(deals=40)["rounds"]
    s = tables.summary_table(rounds)
    assert (s.loc[0, "games"], s.loc[0, "rounds"]) == (80, len(rounds))
    console = Console(width=200, record=True)
    console.print(summary_table(s))
    text = console.export_text()
    assert "deal" not in text  # the user saw "deals 200" over 1,300 rounds
    header = next(line for line in text.splitlines() if "matchup" in line)
    assert "games" in header and "rounds" in header and "per round" in header
    row = next(line for line in text.splitlines() if "greedy vs random" in line)
    assert " 80 " in row and f" {len(rounds):,} " in row
    line = seat_summary_lines(s)[0]
    assert f"over 80 games ({len(rounds)} rounds" in line and "deal" not in line
