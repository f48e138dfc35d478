"""Whole games, tournaments and the strategy commands with three and four players, from the command line:
tiny runs of each under brazilian:players=4 (partnerships) and italian:players=3, and their one-line errors."""

from __future__ import annotations

import pandas as pd
import pytest

from casino_sim.runner.rundir import RunDir
from tests.support.cli import assert_one_line_error
from tests.support.cli import run as run_narrow
from tests.support.page_tables import csv_rows, read_page
from tests.support.policies import LOADER

WIDE = {"COLUMNS": "200"}  # tables whole on one line each


def run(*args: str):
    return run_narrow(*args, env=WIDE)


# rule set: the seatings of a deal (the teams swapped, or A alone in each seat)
SPECS = {"brazilian:players=4": 2, "italian:players=3": 3}


@pytest.mark.parametrize("spec, seatings", SPECS.items())
def test_simulate_games_plays_every_seating_of_each_game(tmp_path, spec, seatings):
    out = tmp_path / "run"
    proc = run("simulate", "--games", "--rules", spec, "--policy", "greedy", "--vs", "random", "--deals", "6",
               "--chunk-deals", "3", "--out", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "Whole games" in proc.stdout and "greedy vs random" in proc.stdout
    games = pd.read_parquet(out / "games")
    assert len(games) == 6 * seatings and sorted(set(games["mirror"])) == list(range(seatings))
    assert (games.groupby("game_id").size() == seatings).all()
    table = pd.read_csv(out / "report" / "games.csv")
    assert table.loc[0, "games"] == 6 * seatings and table.loc[0, "win_rate_a_mean"] > 0.5
    assert "## Whole games" in (out / "report" / "report.md").read_text()
    page = read_page(out / "report" / "index.html")
    assert page.tables == {p.name: csv_rows(p) for p in (out / "report").glob("*.csv")}
    # the games keep every round's whole record, so the round reports follow the games', as with two players
    assert page.charts == ["summary", "games", "seat_advantage", "score_breakdown", "sweeps", "anatomy", "convergence",
                           "card_value_heatmap", "ten_diamonds_by_batch"]  # fmt: skip
    again = run("report", "all", str(out), "--out", str(tmp_path / "again"))
    assert again.returncode == 0, again.stderr
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "again" / "games.csv"), table)


@pytest.mark.parametrize(
    "spec, folders, per_sequence", [("brazilian:players=4", 1, 2), ("italian:players=3", 2, 2 * 3)]
)
def test_tournament_plays_each_pairing_in_every_seating(tmp_path, spec, folders, per_sequence):
    out = tmp_path / "tour"
    proc = run("tournament", "greedy", "random", "--games", "4", "--rules", spec, "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert len(list((out / "pairs").iterdir())) == folders  # without teams: each policy alone against the other
    ratings = pd.read_csv(out / "report" / "ratings.csv").set_index("policy")
    assert ratings.loc["greedy", "elo"] > ratings.loc["random", "elo"]
    assert ratings["games"].tolist() == [4 * per_sequence] * 2  # every seating (both ways) of 4 sequences
    matches = pd.read_csv(out / "report" / "matches.csv").set_index(["policy", "opponent"])
    assert matches.loc[("greedy", "random"), "win_rate_mean"] + matches.loc[
        ("random", "greedy"), "win_rate_mean"
    ] == pytest.approx(1)


@pytest.mark.parametrize("spec", SPECS)
def test_tune_against_the_field(tmp_path, spec):
    out = tmp_path / "t"
    proc = run("tune", "--rules", spec, "--against", "greedy", "--deals", "4", "--generations", "1",
               "--population", "2", "--validate-deals", "6", "--out", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "expert-tuned vs greedy" in proc.stdout and (out / "expert-tuned.toml").is_file()


@pytest.mark.parametrize("spec", SPECS)
def test_knockout_with_more_players(tmp_path, spec):
    out = tmp_path / "k"
    proc = run("knockout", "expert", "--rules", spec, "--deals", "4", "--chunk-deals", "4",
               "--pairs", "cards_taken,spades_taken", "--out", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "cards_taken" in proc.stdout and "spades_taken" in proc.stdout


def test_a_searcher_plays_whole_games_of_three(tmp_path):
    searcher = tmp_path / "quick-searcher.toml"
    searcher.write_text('name = "quick-searcher"\nkind = "searcher"\n[params]\nworlds = 2\nbase = "greedy"\n')
    proc = run("simulate", "--games", "--rules", "italian:players=3", "--policy", str(searcher), "--vs", "random",
               "--deals", "1", "--out", str(tmp_path / "s"))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "quick-searcher vs random" in proc.stdout


@pytest.mark.parametrize("spec", SPECS)
def test_regret_needs_two_players(spec):
    assert_one_line_error(run("regret", "expert", "--rules", spec), "regret needs two players", spec)


def test_games_of_more_players_keep_their_records_and_seat_a_against_b(tmp_path):
    """Whole games of three players keep every round's record, so --until-ci reads their headline (it stops after
    the first chunk here); --seats that seat other than A against B are refused (whole games seat A against B),
    --seats that name that seating are taken."""
    out = tmp_path / "ci"
    proc = run("simulate", "--games", "--rules", "italian:players=3", "--deals", "4", "--chunk-deals", "2",
               "--until-ci", "999", "--no-charts", "--out", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    rounds = RunDir(out).read_rounds(["game_id", "first_seat", "dealer_total"])
    assert rounds["game_id"].nunique() == 2 and set(rounds["first_seat"]) == {0, 1, 2}
    other = run("simulate", "--games", "--rules", "italian:players=3", "--deals", "2", "--seats",
                "greedy,greedy,random", "--out", str(tmp_path / "x"))  # fmt: skip
    assert_one_line_error(other, "--seats", "A against B")
    same = run("simulate", "--games", "--rules", "italian:players=3", "--deals", "2", "--seats",
               "greedy,random,random", "--no-charts", "--out", str(tmp_path / "y"))  # fmt: skip
    assert same.returncode == 0, same.stderr


@pytest.mark.parametrize("spec,per_deal", [("italian:players=3", 3), ("brazilian:players=4", 2)])
def test_knockout_progress_counts_every_seating(spec, per_deal):
    """The bar counts the rounds played: each deal once per seating (3 with three alone, 2 with teams)."""
    from casino_sim.experiments.knockout import Knockout, KnockoutConfig

    seen = []
    config = KnockoutConfig(
        deals=4,
        chunk_deals=4,
        rules=spec,
        precision=0,
        threads=1,
        pairs=(("cards_taken", "aces_taken"),),
    ).resolve(LOADER)
    Knockout(config).run(lambda done, total: seen.append((done, total)))
    done, total = seen[-1]
    assert done == total == per_deal * 4 * (len(Knockout(config).entries))
