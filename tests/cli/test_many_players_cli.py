"""The position tools with three and four players on the reference engine, and the one-line refusals elsewhere."""

import json
import re

import pytest

from casino_sim.core.rules import get_rules
from casino_sim.reference.round import play_round
from casino_sim.runner.recording import write_game
from tests.support.cli import assert_one_line_error, run

FOUR = {
    "rules": "brazilian:players=4",
    "to_move": 2,
    "hands": [["7D", "7S", "9C"], ["4H", "6D", "TS"], ["7H", "4C", "QS", "5D"], ["3D", "8H", "AS", "2S"]],
    "loose": ["8D", "3S", "4D", "KC"],
    "builds": [{"value": 7, "cards": ["5C", "2H"], "owner": 0}],
}
TAKE = '{"kind": "capture", "card": "7H", "loose": ["3S", "4D"], "builds": [7], "value": 7}'


def test_moves_and_apply_on_the_reference_engine():
    text = json.dumps(FOUR)
    listed = run("moves", "-", "--engine", "reference", "--format", "json", stdin=text)
    assert listed.returncode == 0, listed.stderr
    assert json.loads(TAKE) in json.loads(listed.stdout)
    words = run("moves", "-", "--engine", "reference", stdin=text)
    assert "C plays 7♥ and captures 3♠ 4♦ and the build of 7" in words.stdout
    after = run("apply", "-", TAKE, "--engine", "reference", stdin=text)
    assert after.returncode == 0, after.stderr
    pos = json.loads(after.stdout)
    assert pos["to_move"] == 3 and pos["dealer"] == 3 and pos["last_capturer"] == 2
    assert sorted(pos["captured"][2]) == ["2H", "3S", "4D", "5C", "7H"]


def test_choose_with_a_heuristic_policy():
    chosen = run("choose", "-", "--policy", "greedy", "--format", "json", stdin=json.dumps(FOUR))
    assert chosen.returncode == 0, chosen.stderr
    assert json.loads(chosen.stdout) == json.loads(TAKE)  # the most cards and points


def test_bench_times_rounds_of_four_players():
    """bench plays its policy in every seat of any player count, on the row kernel simulate plays."""
    proc = run("bench", "--deals", "10", "--rules", "brazilian:players=4", "--no-compile", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["rules"] == "brazilian:players=4" and out["deals"] == 10


@pytest.mark.parametrize(
    "change,fragment",
    [
        ({"dealer": 1}, "dealer 1 contradicts the hand sizes"),
        ({"captured": [[], []]}, "captured must be a list of 4 entries"),
        ({"rules": "italian:players=3"}, "hands must be a list of 3 entries"),
        ({"to_move": 1}, "cannot be a deal of 4 players"),
        ({"hands": [None, None, FOUR["hands"][2], None]}, 'give "dealer"'),
        ({"rules": "strict:players=4"}, "strict is a two-player rule set"),
    ],
)
def test_a_bad_many_player_position_is_one_line(change, fragment):
    bad = {**FOUR, **change}
    assert_one_line_error(run("moves", "-", "--engine", "reference", stdin=json.dumps(bad)), fragment)


@pytest.mark.parametrize("rules", ["brazilian:players=4", "italian:players=3"])
def test_deal_tells_a_many_player_round(rules):
    told = run("deal", "--seed", "3", "--rules", rules)
    assert told.returncode == 0, told.stderr
    lines = told.stdout.splitlines()
    n = get_rules(rules).players
    assert sum(1 for line in lines if re.match(r"\s*\d+\. [A-D] ", line)) == 48
    deals = [line for line in lines if line.startswith("Deal ")]
    assert len(deals) == 48 // (4 * n) and deals[-1].startswith(f"Deal {len(deals)} (last)")
    assert any(line.startswith("Piles: ") for line in lines)
    if n == 4:
        assert "Partners: A+C against B+D." in lines[1] and "A+C" in lines[-1] + told.stdout


def test_replay_of_a_four_player_game_file(tmp_path):
    rules = get_rules("italian:players=4,teams=true")
    deck = list(range(52))
    result = play_round(rules, deck, 1, lambda pos, moves: moves[len(moves) // 2])
    path = tmp_path / "game.json"
    write_game(path, rules.name, [type("R", (), {"deck": deck, "dealer": 1, "moves": result.moves})()])
    told = run("replay", str(path))
    assert told.returncode == 0, told.stderr
    assert "Dealer B; C plays first." in told.stdout
    game = json.loads(path.read_text())
    game["rounds"][0]["dealer"] = 4
    path.write_text(json.dumps(game))
    assert_one_line_error(run("replay", str(path)), "dealer must be a player 0..3")


@pytest.mark.parametrize(
    "spec,fragment",
    [
        ("brazilian:players=5", "players must be 2, 3 or 4, got 5"),
        ("italian:players=3,teams=true", "teams=true needs players=4"),
        ("strict:players=3", "strict is a two-player rule set"),
    ],
)
def test_bad_player_options_are_one_line_cli_errors(spec, fragment, tmp_path):
    """The issue's bad rule options, as a user meets them: simulate stops before making a folder."""
    proc = run("simulate", "--rules", spec, "--deals", "1", "--out", str(tmp_path / "run"))
    assert_one_line_error(proc, fragment)  # each fragment names the field: players or teams
    assert not (tmp_path / "run").exists()


def test_report_of_one_kind_on_a_three_player_run_is_the_place_report(tmp_path):
    """`report summary` writes what `report all` writes for that kind (by place and team); it was refused."""
    from typer.testing import CliRunner

    from casino_sim.cli.app import app
    from tests.support.runs import simulate_dir

    run_dir = tmp_path / "run"
    simulate_dir(run_dir, deals=4, rules="italian:players=3", card_deals=0, threads=1, engine="reference")
    one = CliRunner().invoke(app, ["report", "summary", str(run_dir), "--out", str(tmp_path / "one")])
    assert one.exit_code == 0, one.output
    everything = CliRunner().invoke(app, ["report", "all", str(run_dir), "--out", str(tmp_path / "all")])
    assert everything.exit_code == 0, everything.output
    for name in ("summary.csv", "summary.json"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "all" / name).read_bytes()
    assert not (tmp_path / "one" / "anatomy.csv").exists()
