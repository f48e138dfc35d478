"""One decision of a policy in a position: the choose command and choose_move."""

from __future__ import annotations

import json

import pytest

from casino_sim.core.cards import parse_card as C
from casino_sim.policies.decide import choose_move
from casino_sim.reference import Position, PositionError
from casino_sim.reference.round import round_context
from tests.support.cli import assert_one_line_error, run
from tests.support.policies import get_policy
from tests.support.positions import SWEEP_WITH_BIG_CASINO

# A holds the 10♦; taking 4♣ + 6♠ with it sweeps the table and banks the big casino


def test_round_context_follows_from_the_cards():
    pos = Position.from_json(SWEEP_WITH_BIG_CASINO)
    assert round_context(pos) == (4, 1, 0)  # opponent holds 4, B dealt, first play of the round
    later = Position.from_json(
        {
            "to_move": 1,
            "hands": [None, ["2C", "3D", "4H", "5S"]],
            "loose": ["9C"],
            "captured": [["AS", "AH", "AD"], ["7C"]],
        }
    )
    assert round_context(later) == (3, 1, 1)  # A has played once: B is the dealer, holding one more
    with pytest.raises(PositionError, match="cannot arise"):
        round_context(Position.from_json({"hands": [["2C"], None], "loose": ["9C"]}))


@pytest.mark.parametrize("name", ["rollout", "searcher", "expert", "greedy"])
def test_policies_take_the_sweep_with_the_big_casino(name):
    pos = Position.from_json(SWEEP_WITH_BIG_CASINO)
    move = choose_move(pos, get_policy(name), seed=1)
    assert (move.kind, move.card, move.loose) == ("capture", C("TD"), tuple(sorted((C("4C"), C("6S")))))


def test_rollout_avoids_leaving_the_big_casino_to_be_taken():
    # trailing 10♦ would hand it to an opponent holding a ten; rollout trails the king instead
    pos = Position.from_json(
        {
            "hands": [["TD", "KH", "3C", "8D"], None],
            "loose": ["QC", "JS"],
            "captured": [["5H"], ["5D"]],
            "last_capturer": 1,
        }
    )
    move = choose_move(pos, get_policy("rollout"), seed=2)
    assert not (move.kind == "trail" and move.card == C("TD"))
    assert choose_move(pos, get_policy("rollout"), seed=2) == move  # same seed, same move


def test_choose_command(tmp_path):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(SWEEP_WITH_BIG_CASINO))
    out = run("choose", str(path), "--policy", "rollout", "--format", "json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["card"] == "TD"
    text = run("choose", str(path), "--policy", "greedy")
    assert text.stdout.startswith("A plays 10♦ and captures")
    assert_one_line_error(run("choose", str(path), "--policy", "oracle"), "unknown policy")
    impossible = tmp_path / "bad.json"
    impossible.write_text(json.dumps({"hands": [["2C"], None], "loose": ["9C"]}))
    assert_one_line_error(run("choose", str(impossible), "--policy", "rollout"), "cannot arise")


def test_bad_uses_of_the_searcher_are_one_line_errors(tmp_path):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(SWEEP_WITH_BIG_CASINO))
    # it plays only on the numba engine, and it is no play-out policy for the analyser
    assert_one_line_error(
        run("bench", "--engine", "reference", "--policy", "searcher", "--no-compile"), "only on the numba engine"
    )
    assert_one_line_error(run("analyse", str(path), "--policy", "searcher"), "searcher policy plays out with its base")
    # its base must be random or a heuristic; its parameters are checked as a rollout's
    nested = tmp_path / "nested.toml"
    nested.write_text('name = "nested"\nkind = "searcher"\n[params]\nbase = "rollout"\n')
    assert_one_line_error(run("choose", str(path), "--policy", str(nested)), "searcher base policy must be random")
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\nkind = "searcher"\n[params]\ncrn = "yes"\n')
    assert_one_line_error(run("simulate", "--policy", str(bad), "--vs", "random", "--deals", "2"), "params.crn")
