"""The analyser: rollout estimates with intervals, exact last-batch values, and the analyse command."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from casino_sim.analysis import analyse, analysis_json
from casino_sim.core.cards import format_cards
from casino_sim.core.cards import parse_card as C
from casino_sim.kernels import rollout_diffs, search_choose
from casino_sim.policies.arrays import policy_arrays
from casino_sim.reference import Position, legal_moves, play
from casino_sim.reference.round import RoundResult, finish_round
from tests.support.cli import assert_one_line_error, run
from tests.support.policies import get_policy
from tests.support.positions import SWEEP_WITH_BIG_CASINO, random_position

EXPERT = get_policy("expert")


def hide_opponent(pos: Position) -> Position:
    p = pos.to_move
    return replace(pos, hands=tuple(pos.hands[q] if q == p else None for q in (0, 1)))


def minimax(pos: Position, me: int) -> int:
    """Brute force, no pruning, reference engine: `me`'s final point difference under best play by both."""
    if not pos.hands[0] and not pos.hands[1]:
        a, b = finish_round(RoundResult(dealer=0), pos).score.totals
        return a - b if me == 0 else b - a
    values = [minimax(play(pos, m), me) for m in legal_moves(pos)]
    return max(values) if pos.to_move == me else min(values)


def last_batch_sweep() -> Position:
    """Last batch, stock empty: A's 10♦ takes 4♣ + 6♠, sweeping the table and banking the big casino."""
    live = ["TD", "3C", "KH", "2D", "4C", "6S"]
    rest = [c for c in format_cards(range(52)) if c not in live]
    return Position.from_json(
        {
            "hands": [["TD", "3C"], ["KH", "2D"]],
            "loose": ["4C", "6S"],
            "captured": [rest[:23], rest[23:]],
            "last_capturer": 1,
        }
    )


def test_the_sweep_with_the_big_casino_ranks_first():
    a = analyse(Position.from_json(SWEEP_WITH_BIG_CASINO), EXPERT, worlds=300, seed=1)
    top, second = a.moves[0], a.moves[1]
    assert (top.move.kind, top.move.card, top.move.loose) == ("capture", C("TD"), (C("4C"), C("6S")))
    assert top.low > second.high  # clearly best, not by luck of the worlds
    assert [m.mean for m in a.moves] == sorted((m.mean for m in a.moves), reverse=True)
    assert all(m.low < m.mean < m.high for m in a.moves)
    assert sum(m.best_share for m in a.moves) == pytest.approx(1.0)
    assert top.best_share == max(m.best_share for m in a.moves)
    assert not a.has_exact  # the stock is not empty: nothing exact yet
    assert {m.move for m in a.moves} == set(legal_moves(a.position))


@pytest.mark.parametrize(
    "seed,ply,rules",
    [
        (1, 44, "strict"),
        (2, 43, "strict"),
        (3, 44, "strict"),
        (4, 45, "strict"),
        (5, 43, "italian"),
        (6, 44, "brazilian"),
    ],
)
def test_exact_values_are_the_minimax_values(seed, ply, rules):
    pos = random_position(seed, ply, rules)
    me = pos.to_move
    a = analyse(hide_opponent(pos), get_policy("random"), worlds=20, seed=0)
    assert a.has_exact
    for m in a.moves:
        assert m.exact == minimax(play(pos, m.move), me), m.move
    assert [m.exact for m in a.moves] == sorted((m.exact for m in a.moves), reverse=True)


def test_last_batch_shows_the_exact_value_whether_or_not_the_opponent_hand_is_given():
    pos = last_batch_sweep()
    known, hidden = (analyse(p, EXPERT, worlds=50, seed=0) for p in (pos, hide_opponent(pos)))
    top = known.moves[0]
    assert (top.move.kind, top.move.card) == ("capture", C("TD"))
    assert top.exact > max(m.exact for m in known.moves[1:])
    assert [(m.move, m.exact) for m in known.moves] == [(m.move, m.exact) for m in hidden.moves]
    table = run_analyse(pos, "--worlds", "50")
    assert "exact" in table.stdout and "A plays 10♦ and captures 4♣ 6♠" in table.stdout


def test_a_known_opponent_hand_is_kept():
    # B has been shown to hold three tens: trailing the 10♦ gives it away; holding no ten, B cannot take it
    base = {"hands": [["TD", "KH", "3C", "8D"], None], "loose": ["QC", "JS", "5C", "9H"], "captured": [[], []]}

    def trail_big(a):
        return next(m for m in a.moves if m.move.kind == "trail" and m.move.card == C("TD"))

    tens = analyse(
        Position.from_json({**base, "hands": [base["hands"][0], ["TS", "TH", "TC", "2S"]]}), EXPERT, worlds=200, seed=3
    )
    no_tens = analyse(
        Position.from_json({**base, "hands": [base["hands"][0], ["2S", "2H", "4D", "6H"]]}), EXPERT, worlds=200, seed=3
    )
    assert trail_big(tens).high < trail_big(no_tens).low


@pytest.mark.parametrize("seed,ply", [(11, 3), (12, 17), (13, 26), (14, 33)])
def test_the_rollout_policy_plays_the_analysers_best_mean(seed, ply):
    # one implementation: the rollout policy's choice is the best column of the analyser's per-world matrix
    pos = hide_opponent(random_position(seed, ply))
    moves = legal_moves(pos)
    ints, weights, wants = policy_arrays((get_policy("rollout"), get_policy("random")))
    diffs = rollout_diffs(pos, moves, int(ints[0, 3]), weights[2], wants[2], int(ints[0, 1]), 99)
    if len(moves) > 1:
        assert search_choose(pos, ints[0], weights[2], wants[2], 99) == moves[int(np.argmax(diffs.sum(axis=0)))]


def test_same_seed_same_analysis_other_seed_other_worlds():
    pos = Position.from_json(SWEEP_WITH_BIG_CASINO)
    one, again, other = (analysis_json(analyse(pos, EXPERT, worlds=40, seed=s)) for s in (5, 5, 6))
    assert one == again
    assert one["moves"] != other["moves"]  # other worlds, other estimates


def run_analyse(pos: Position, *args: str):
    return run("analyse", "-", *args, stdin=json.dumps(pos.to_json()))


def test_analyse_command_text_and_json():
    pos = Position.from_json(SWEEP_WITH_BIG_CASINO)
    out = run_analyse(pos, "--worlds", "100", "--format", "json", "--seed", "2")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["worlds"] == 100 and data["policy"] == "expert" and data["exact"] is False
    assert data["moves"][0]["move"]["card"] == "TD" and data["moves"][0]["text"] == "A plays 10♦ and captures 4♣ 6♠"
    assert len(data["moves"]) == len(legal_moves(pos))
    text = run_analyse(pos, "--worlds", "100", "--seed", "2", "--policy", "greedy")
    assert text.returncode == 0, text.stderr
    for m in legal_moves(pos):
        assert m.describe(0) in text.stdout
    assert "95% interval" in text.stdout and "best in" in text.stdout and "exact" not in text.stdout


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["--worlds", "0"], "--worlds"),
        (["--worlds", "100000000"], "--worlds"),
        (["--policy", "rollout"], "random or a heuristic"),
        (["--policy", "oracle"], "unknown policy"),
        (["--seed", "-3"], "--seed"),
    ],
)
def test_analyse_refuses_bad_options(args, fragment):
    assert_one_line_error(run_analyse(Position.from_json(SWEEP_WITH_BIG_CASINO), *args), fragment)


@pytest.mark.parametrize(
    "position,fragment",
    [
        ({"hands": [None, ["2C", "3D", "4H", "5S"]], "loose": ["9C"]}, "to move"),
        ({"hands": [["2C"], None], "loose": ["9C"]}, "cannot arise"),
        ({"hands": [["2C", "2C"], None]}, "twice"),
    ],
)
def test_analyse_refuses_bad_positions(position, fragment):
    assert_one_line_error(run("analyse", "-", stdin=json.dumps(position)), fragment)
    assert_one_line_error(run("analyse", "-", stdin="{not json"), "not valid JSON")


def test_kernels_that_run_out_of_room_are_replayed_with_larger_buffers():
    from casino_sim.kernels.buffers import grow_and_replay
    from casino_sim.kernels.layout import NEED_MOVES, NEED_SCRATCH
    from casino_sim.reference import PositionError

    calls = []

    def short_twice(cap, bits):
        calls.append((cap, bits))
        return (NEED_MOVES if len(calls) == 1 else NEED_SCRATCH if len(calls) == 2 else 0), "done"

    assert grow_and_replay(short_twice, "test") == "done"
    assert calls[1][0] > calls[0][0] and calls[2][1] > calls[1][1]
    # past the largest subset scratch movegen counts by value instead, so a kernel asking for more is a bug
    with pytest.raises(RuntimeError, match="subset scratch past"):
        grow_and_replay(lambda cap, bits: (NEED_SCRATCH, None), "test")
    # past the largest move buffer the position has more moves than the engines enumerate: the user's error
    with pytest.raises(PositionError, match="legal moves, the most the engines enumerate"):
        grow_and_replay(lambda cap, bits: (NEED_MOVES, None), "test")


def test_the_table_names_a_best_move_only_when_its_lead_is_clear_of_zero():
    from casino_sim.analysis import analysis_table

    a = analyse(Position.from_json(SWEEP_WITH_BIG_CASINO), EXPERT, worlds=300, seed=1)
    clear, top = analysis_table(a).caption, a.moves[0].number
    assert f"the best move: #{top}, ahead of every other move (each difference's 95% interval above 0)" in clear
    few = analysis_table(analyse(Position.from_json(SWEEP_WITH_BIG_CASINO), EXPERT, worlds=3, seed=1)).caption
    assert "the best move: #" not in few and "too few worlds to name the best move" in few
