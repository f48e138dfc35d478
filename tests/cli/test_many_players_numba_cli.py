"""The position tools on the numba engine with three and four players, as a user runs them: the same answers as
the reference engine, choose with the searching policies, and one-line refusals of bad positions on both engines."""

import json

import pytest

from casino_sim.core.rules import get_rules
from casino_sim.policies.decide import choose_move
from casino_sim.reference import legal_moves
from casino_sim.reference.position import Position
from tests.cli.test_many_players_cli import FOUR, TAKE
from tests.support.cli import assert_one_line_error, run
from tests.support.policies import get_policy
from tests.support.rounds import positions_by_random_play

ENGINES = ("numba", "reference")


def _positions(spec: str, seed: int, k: int = 3) -> list[dict]:
    """k positions of random reference play with builds on the table (the cases worth asking), as JSON."""
    reached = positions_by_random_play(get_rules(spec), 2, seed)
    return [p.to_json() for p in reached if p.builds and len(p.hands[p.to_move]) > 1][:k]


@pytest.mark.parametrize("spec", ["italian:players=3", "brazilian:players=4", "italian:players=4,teams=true"])
def test_moves_and_apply_answer_as_the_reference(spec):
    positions = [FOUR] + _positions(spec, 5) if spec == FOUR["rules"] else _positions(spec, 5)
    lines = "\n".join(json.dumps(p) for p in positions)
    answers = {e: run("moves", "-", "--jsonl", "--engine", e, stdin=lines) for e in ENGINES}
    assert answers["numba"].returncode == 0, answers["numba"].stderr
    assert answers["numba"].stdout == answers["reference"].stdout
    listed = [json.loads(line) for line in answers["numba"].stdout.splitlines()]
    assert len(listed) == len(positions) and all(listed)
    pos, move = positions[-1], json.dumps(listed[-1][-1])  # the last move of the last position
    after = {e: run("apply", "-", move, "--engine", e, stdin=json.dumps(pos)) for e in ENGINES}
    assert after["numba"].returncode == 0, after["numba"].stderr
    assert after["numba"].stdout == after["reference"].stdout
    assert json.loads(after["numba"].stdout)["to_move"] == (pos["to_move"] + 1) % get_rules(spec).players


def test_moves_in_words_on_the_numba_engine():
    words = run("moves", "-", stdin=json.dumps(FOUR))
    assert words.returncode == 0, words.stderr
    assert "8  C plays 7♥ and captures 3♠ 4♦ and the build of 7" in words.stdout.splitlines()  # numbered as analyse
    after = json.loads(run("apply", "-", TAKE, stdin=json.dumps(FOUR)).stdout)
    assert after["to_move"] == 3 and after["dealer"] == 3 and after["last_capturer"] == 2


@pytest.mark.parametrize("policy", ["rollout", "searcher"])
@pytest.mark.parametrize("hidden", [False, True])
def test_choose_with_a_searching_policy(policy, hidden):
    """A legal move with every hand shown, or with the others' hands hidden (sampled over all other hands)."""
    pos = {**FOUR, "hands": [None, None, FOUR["hands"][2], None], "dealer": 3} if hidden else FOUR
    chosen = run("choose", "-", "--policy", policy, "--format", "json", stdin=json.dumps(pos))
    assert chosen.returncode == 0, chosen.stderr
    assert json.loads(chosen.stdout) in [m.to_json() for m in legal_moves(Position.from_json(FOUR))]


def test_the_searcher_chooses_in_the_last_batch_of_three():
    """With more than two players the searcher has no exact last batch (the hidden split is unknown): it plays on."""
    last = [p for p in positions_by_random_play(get_rules("italian:players=3"), 1, 2) if len(p.hands[p.to_move]) == 3]
    pos = last[-1]  # in the last batch: the stock is empty
    chosen = run("choose", "-", "--policy", "searcher", "--format", "json", stdin=json.dumps(pos.to_json()))
    assert chosen.returncode == 0, chosen.stderr
    assert json.loads(chosen.stdout) in [m.to_json() for m in legal_moves(pos)]
    for seed in range(3):  # the rollout it falls back to, world for world
        assert choose_move(pos, get_policy("searcher"), seed) == choose_move(pos, get_policy("rollout"), seed)


BAD = [
    ({"captured": [[], [], []]}, "captured must be a list of 4 entries"),  # arrays of different lengths
    ({"sweeps": [0, 0]}, "sweeps must be a list of 4 entries"),
    ({"must_act": [False] * 5}, "must_act must be a list of 4 entries"),
    ({"rules": "italian:players=3"}, "hands must be a list of 3 entries"),  # arrays that do not match `players`
    ({"rules": "brazilian", "to_move": 0}, "hands must be a list of 2 entries, one per player of brazilian"),
    ({"dealer": 1}, "dealer 1 contradicts the hand sizes [3, 3, 4, 4]"),
    ({"dealer": 4}, "dealer must be a player 0..3, got 4"),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("change,fragment", BAD)
def test_a_bad_many_player_position_is_one_line_on_both_engines(engine, change, fragment):
    bad = json.dumps({**FOUR, **change})
    assert_one_line_error(run("moves", "-", "--engine", engine, stdin=bad), fragment)
    if "captured" in change:
        assert_one_line_error(run("apply", "-", TAKE, "--engine", engine, stdin=bad), fragment)
