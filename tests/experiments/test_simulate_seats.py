"""simulate with three and four players through the CLI: every deal played in each seating, reports by place
and team, --seats, the same records on any thread count, and resume."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from casino_sim.experiments.simulate import play_run
from casino_sim.runner.deals import rotations
from tests.support.cli import assert_one_line_error, run
from tests.support.policies import LOADER
from tests.support.runs import cut_run, simulate_dir


def simulate(out, *args: str, charts: bool = False) -> pd.DataFrame:
    """Run simulate into `out` and return its round records in deal order (its charts drawn when asked)."""
    done = run("simulate", "--deals", "12", "--chunk-deals", "6", f"--{'' if charts else 'no-'}charts", "--out",
               str(out), *args)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return pd.read_parquet(out / "rounds").sort_values(["deal_id", "mirror"], ignore_index=True)


def test_rotations_seat_a_in_every_place():
    three = rotations([0, 1, 1], mirrored=True)
    assert three.tolist() == [[0, 1, 1], [1, 0, 1], [1, 1, 0]]  # seating m: A at player m
    assert rotations([0, 1, 0, 1], mirrored=True).tolist() == [[0, 1, 0, 1], [1, 0, 1, 0]]  # teams swapped
    assert len(rotations([0, 1, 2, 3], mirrored=True)) == 4
    assert rotations([0, 1, 1], mirrored=False).tolist() == [[0, 1, 1]]


def test_three_players_play_each_deal_with_a_in_every_seat(tmp_path):
    args = ("--policy", "greedy", "--vs", "random", "--rules", "italian:players=3", "--card-deals", "2")
    rounds = simulate(tmp_path / "run", *args, charts=True)
    assert len(rounds) == 36 and (rounds.groupby("deal_id").size() == 3).all()
    for m in range(3):  # seating m: A (greedy) at player m, B in the other two seats
        row = rounds[rounds["mirror"] == m]
        names = row[[f"policy_{p}" for p in range(3)]].astype(str)
        assert (names[f"policy_{m}"] == "greedy").all()
        assert (names.drop(columns=f"policy_{m}") == "random").all().all()
    same_deal = rounds.groupby("deal_id")
    assert (same_deal["dealer"].nunique() == 1).all()  # one deal, one dealer: A takes each place once
    a_place = [
        next(q for q in ("first", "second", "dealer") if r[f"{q}_seat"] == r["mirror"]) for _, r in rounds.iterrows()
    ]
    assert (pd.Series(a_place).groupby(rounds["deal_id"]).nunique() == 3).all()
    report = (tmp_path / "run" / "report" / "report.md").read_text()
    for place in ("first", "second", "dealer"):
        assert f"- {place} (greedy):" in report and f"- {place} (random):" in report
    assert "greedy vs random" in report and (tmp_path / "run" / "report" / "seat_advantage.png").exists()
    seat = pd.read_csv(tmp_path / "run" / "report" / "seat_advantage.csv")
    assert {"advantage_ci_lo", "advantage_ci_hi", "win_rate_ci_lo"} <= set(seat.columns)
    cards = pd.read_parquet(tmp_path / "run" / "cards")  # 2 deals x 3 seatings x 84 pairs, held by either policy
    assert len(cards) == 2 * 3 * 84 and set(cards["holder"].astype(str)) == {"greedy", "random"}
    assert "## Value of holding each card" in report
    seat = run("report", "seat", str(tmp_path / "run"))  # one kind by place, as report all writes it
    assert seat.returncode == 0 and "written to" in seat.stdout, seat.stderr


def test_four_player_teams_play_each_deal_twice_with_the_teams_swapped(tmp_path):
    rounds = simulate(tmp_path / "run", "--policy", "greedy", "--vs", "random", "--rules", "brazilian:players=4")
    assert len(rounds) == 24 and (rounds.groupby("deal_id").size() == 2).all()
    names = rounds[[f"policy_{p}" for p in range(4)]].astype(str).to_numpy()
    first = rounds["mirror"].to_numpy() == 0
    assert (names[first] == ["greedy", "random", "greedy", "random"]).all()
    assert (names[~first] == ["random", "greedy", "random", "greedy"]).all()
    live = rounds[rounds["void"] == 0]
    total = live["team_first_total"] + live["team_dealer_total"]
    assert (live["team_first_n_cards"] + live["team_dealer_n_cards"] == 52).all() and (total > 0).all()
    report = (tmp_path / "run" / "report" / "report.md").read_text()
    for side in ("team_first", "team_dealer", "first", "second", "third", "dealer"):
        assert f"- {side} (all):" in report
    assert "greedy's side minus the mean of the other sides" in report
    for section in ("Summary", "Seat advantage", "Score breakdown", "Sweep frequency", "Anatomy of a round"):
        assert f"## {section}" in report
    sweeps = pd.read_csv(tmp_path / "run" / "report" / "sweeps.csv")
    assert sorted(sweeps["batch"].unique()) == [0, 1, 2, 3]  # a round of four players deals three batches
    anatomy = pd.read_csv(tmp_path / "run" / "report" / "anatomy.csv")
    shares = anatomy[anatomy["quantity"].str.startswith("share_")].groupby("policy")["mean"].sum()
    assert np.allclose(shares, 1.0)  # every play is of one kind


def test_seats_name_every_player_and_threads_do_not_change_the_records(tmp_path):
    common = dict(deals=40, chunk_deals=20, seats="greedy,random,greedy", rules="brazilian:players=3", seed=5)
    one = simulate_dir(tmp_path / "one", threads=1, **common)
    two = simulate_dir(tmp_path / "two", threads=2, **common)  # 60 rounds a chunk: blocks on both threads
    pd.testing.assert_frame_equal(one, two)
    assert (one.groupby("deal_id").size() == 3).all()
    names = one[[f"policy_{p}" for p in range(3)]].astype(str).to_numpy()
    seatings = {tuple(r) for r in names}
    assert seatings == {("greedy", "random", "greedy"), ("greedy", "greedy", "random"), ("random", "greedy", "greedy")}
    config = json.loads((tmp_path / "one" / "manifest.json").read_text())["config"]
    assert config["seats"] == "greedy,random,greedy"


def test_resume_finishes_a_run_with_the_same_records(tmp_path):
    common = dict(deals=30, chunk_deals=10, policy_a="greedy", policy_b="random", rules="italian:players=4", seed=2)
    whole = simulate_dir(tmp_path / "whole", **common)
    cut, config = cut_run(tmp_path / "cut", (0, 2), **common)  # as if killed before two chunks were written
    play_run(config, cut)
    pd.testing.assert_frame_equal(cut.read_rounds(), whole)
    assert (whole.groupby("deal_id").size() == 4).all()  # italian: four players individually, A in every seat


@pytest.mark.parametrize("seats", ["greedy,random", "greedy,random,random,greedy"])
def test_seats_of_the_wrong_length_are_one_line(seats, tmp_path):
    proc = run("simulate", "--seats", seats, "--rules", "italian:players=3", "--out", str(tmp_path / "run"))
    assert_one_line_error(proc, "--seats", "3 players")
    assert not (tmp_path / "run").exists()


def test_the_reference_engine_plays_the_same_seatings():
    """Its rounds differ (its own random streams), but it seats and records them as the numba engine does."""
    from casino_sim.experiments.simulate import SimConfig, play_chunk

    common = dict(deals=2, chunk_deals=2, policy_a="greedy", policy_b="random", rules="brazilian:players=4")
    ref = play_chunk(SimConfig(engine="reference", **common, loader=LOADER), 0)["rounds"]
    fast = play_chunk(SimConfig(**common, loader=LOADER), 0)["rounds"]
    assert list(ref.columns) == list(fast.columns)
    same = ["deal_id", "mirror", "dealer", "first_seat", *(f"policy_{p}" for p in range(4))]
    pd.testing.assert_frame_equal(ref[same], fast[same])
    assert (ref["plies"] == 48).all() and (ref["team_first_n_cards"] + ref["team_dealer_n_cards"] == 52).all()


def test_the_searcher_plays_a_seat_of_three(tmp_path):
    """With three players the searcher has no exact last batch (the hidden split is unknown): it plays as its
    rollout there, and takes a seat like any policy."""
    searcher = tmp_path / "quick-searcher.toml"
    searcher.write_text('name = "quick-searcher"\nkind = "searcher"\n[params]\nworlds = 2\nbase = "greedy"\n')
    args = ("--policy", str(searcher), "--vs", "random", "--rules", "italian:players=3", "--deals", "2")
    proc = run("simulate", *args, "--card-deals", "0", "--no-charts", "--out", str(tmp_path / "run"))
    assert proc.returncode == 0, proc.stderr
    rounds = pd.read_parquet(tmp_path / "run" / "rounds")
    assert len(rounds) == 6 and (rounds["plies"] == 48).all()  # each deal once with A in every place


@pytest.mark.parametrize("rules", ["italian:players=3", "brazilian:players=4"])
def test_check_verifies_rounds_of_three_and_four_players(tmp_path, rules):
    """--check is taken with any player count and changes no record."""
    args = ("--policy", "expert", "--vs", "random", "--rules", rules, "--card-deals", "0")
    plain = simulate(tmp_path / "plain", *args)
    pd.testing.assert_frame_equal(simulate(tmp_path / "checked", *args, "--check"), plain)
