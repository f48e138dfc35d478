"""simulate --record and replay: recorded rounds replay move by move on the reference engine, game files too."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from casino_sim.core.errors import InputError
from casino_sim.core.rules import STRICT
from casino_sim.reference.moves import Move
from casino_sim.runner.recording import GAME_FORMAT, load_round, read_game, replay_round, write_game
from casino_sim.runner.rundir import RunDir
from casino_sim.runner.sides import side_points
from tests.support.cli import assert_one_line_error, run
from tests.support.runs import simulate_dir


def simulate_run(path, **options) -> RunDir:
    simulate_dir(path, **options)
    return RunDir(path)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A run of 5 deals (10 rounds) that recorded its first 3 rounds, through the command line."""
    path = tmp_path_factory.mktemp("rec") / "run"
    proc = run(
        "simulate",
        "--deals",
        "5",
        "--record",
        "3",
        "--policy",
        "expert",
        "--rules",
        "italian",
        "--out",
        str(path),
        "--threads",
        "1",
        "--chunk-deals",
        "1",
        "--no-charts",  # the replays read the records; the charts are drawn and checked elsewhere
    )
    assert proc.returncode == 0, proc.stderr
    return path


def story_plays(text: str) -> list[str]:
    return [m.group(1) for m in re.finditer(r"^\s*\d+\. (.*)$", text, re.M)]


def test_replay_tells_the_recorded_moves_and_the_recorded_score(recorded):
    moves = pd.read_parquet(recorded / "moves").sort_values(["deal_id", "mirror", "ply"])
    rounds = pd.read_parquet(recorded / "rounds").sort_values(["deal_id", "mirror"], ignore_index=True)
    decks = pd.read_parquet(recorded / "decks")
    assert len(decks) == 3 and len(moves) == 3 * 48
    assert list(zip(decks.deal_id, decks.mirror)) == [(0, 0), (0, 1), (1, 0)]
    for k, ((deal_id, mirror), plays) in enumerate(moves.groupby(["deal_id", "mirror"]), 1):
        proc = run("replay", str(recorded), "--round", str(k))
        assert proc.returncode == 0, proc.stderr
        assert f"deal {deal_id} (mirror {mirror})" in proc.stdout.splitlines()[0]
        words = [Move.from_json(json.loads(m)).describe(p) for m, p in zip(plays["move"], plays["player"])]
        assert story_plays(proc.stdout) == words
        rec = rounds[(rounds.deal_id == deal_id) & (rounds.mirror == mirror)]
        total = re.search(r"total\s*│\s*(\d+)\s*│\s*(\d+)", proc.stdout)
        got = (int(total.group(1)), int(total.group(2))) if total else (0, 0)  # a void round prints no table
        assert got == tuple(side_points(rec, STRICT)[0])  # the players' totals


def test_recording_changes_no_result_and_any_thread_count_records_the_same(tmp_path):
    common = dict(deals=60, policy_a="greedy", policy_b="random", seed=4, chunk_deals=25, rules="strict")
    plain = simulate_run(tmp_path / "plain", threads=1, **common)
    one = simulate_run(tmp_path / "one", threads=1, record=70, **common)
    two = simulate_run(tmp_path / "two", threads=2, record=70, **common)
    pd.testing.assert_frame_equal(plain.read_rounds(), one.read_rounds())
    for table in ("moves", "decks"):
        pd.testing.assert_frame_equal(one.read_table(table), two.read_table(table))
    assert len(one.read_table("decks")) == 70 and set(one.read_table("decks").chunk) == {0, 1}
    rules, rnd = load_round(one.path, 70)  # the last recorded round: deal 34, mirror 1, in chunk 1
    assert rnd.label.startswith("deal 34 (mirror 1)") and len(rnd.moves) == 48
    assert replay_round(rules, rnd).score.totals == rnd.totals


@pytest.mark.parametrize("rules", ["italian:players=3", "brazilian:players=4"])
def test_rounds_of_more_players_are_recorded_and_replayed(tmp_path, rules):
    """--record keeps the moves of any player count: each recorded round replays to the sides' recorded points,
    the player in each seat named in its label."""
    one = simulate_run(tmp_path / "one", deals=3, policy_a="greedy", policy_b="random", rules=rules, record=4)
    assert len(one.read_table("decks")) == 4 and len(one.read_table("moves")) == 4 * 48
    names = {k: v for k, v in one.read_rounds().iloc[0].items() if k.startswith("policy_")}
    for k in range(1, 5):
        ruleset, rnd = load_round(one.path, k)
        assert ruleset.name == rules and replay_round(ruleset, rnd).score.totals == rnd.totals
    _, first = load_round(one.path, 1)
    assert first.label.endswith(", ".join(f"{'ABCD'[p]} plays {names[f'policy_{p}']}" for p in range(len(names))))
    proc = run("replay", str(one.path), "--round", "2")
    assert proc.returncode == 0 and "recorded round 2 of 4" in proc.stdout, proc.stderr


def test_a_saved_game_replays_like_the_run_it_came_from(recorded, tmp_path):
    rules, rnd = load_round(recorded, 2)
    game = tmp_path / "game.json"
    write_game(game, rules.name, [rnd])
    got_rules, rounds = read_game(game)
    assert got_rules == rules and rounds[0].moves == rnd.moves and rounds[0].deck == rnd.deck
    from_game, from_run = run("replay", str(game)), run("replay", str(recorded), "--round", "2")
    assert from_game.returncode == 0, from_game.stderr
    assert from_game.stdout.splitlines()[1:] == from_run.stdout.splitlines()[1:]


def test_an_illegal_move_in_a_game_file_is_named(recorded, tmp_path):
    rules, rnd = load_round(recorded, 1)
    write_game(tmp_path / "g.json", rules.name, [rnd])
    data = json.loads((tmp_path / "g.json").read_text())
    moves = data["rounds"][0]["moves"]
    moves[0], moves[1] = moves[1], moves[0]  # the second player's card, played first
    (tmp_path / "g.json").write_text(json.dumps(data))
    assert_one_line_error(run("replay", str(tmp_path / "g.json")), "play 1:", "is not legal")


def test_bad_rounds_and_missing_runs_get_one_line_errors(recorded, tmp_path):
    assert_one_line_error(run("replay", str(recorded), "--round", "4"), "--round must be between 1 and 3")
    assert_one_line_error(run("replay", str(tmp_path / "nowhere")), "neither a run folder nor a game file")
    plain = simulate_run(tmp_path / "plain", deals=2, chunk_deals=2, threads=1)
    assert_one_line_error(run("replay", str(plain.path)), "no recorded rounds", "--record")
    assert_one_line_error(run("simulate", "--deals", "2", "--record", "-1", "--out", str(tmp_path / "x")), "--record")


def game_with(**change) -> dict:
    deck = [f"{r}{s}" for r in "A23456789TJQK" for s in "SHDC"]
    moves = [{"kind": "trail", "card": "AS", "loose": [], "builds": [], "value": None}] * 48
    data = {"format": GAME_FORMAT, "rules": "strict", "rounds": [{"deck": deck, "dealer": 0, "moves": moves}]}
    for key, value in change.items():
        if key in ("deck", "dealer", "moves"):
            data["rounds"][0][key] = value
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(
    "data, fragment",
    [
        ("not json", "is not JSON"),
        ([1, 2], "not a casino-sim game file"),
        (game_with(format="casino-sim-game/0"), "not a casino-sim game file"),
        (game_with(rules="poker"), "poker"),
        (game_with(rounds=[]), "non-empty list"),
        (game_with(deck=["AS"] * 52), "each of the 52 cards once"),
        (game_with(deck=["XX"] + [f"{r}{s}" for r in "A23456789TJQK" for s in "SHDC"][1:]), "bad deck"),
        (game_with(dealer=2), "dealer must be 0 or 1"),
        (game_with(moves=[]), "48 plays"),
        (game_with(moves=[{"kind": "jump", "card": "AS"}] * 48), "bad move"),
    ],
)
def test_malformed_game_files_are_refused_in_one_line(tmp_path, data, fragment):
    path = tmp_path / "game.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    with pytest.raises(InputError, match=re.escape(fragment)) as e:
        read_game(path)
    assert "\n" not in str(e.value)


def test_a_malformed_game_file_exits_2_in_one_line(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_with(dealer=5)))
    assert_one_line_error(run("replay", str(path)), "dealer must be 0 or 1")
    path.write_text(json.dumps(game_with()))
    assert_one_line_error(run("replay", str(path), "--round", "2"), "--round must be between 1 and 1")
