"""Playing for the game or for the round (experiments/objective.py): the game values of a round's end, the two
rollouts' choices from the same play-outs, and mirrored pairs of whole games."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from casino_sim.core.errors import InputError
from casino_sim.core.rules import get_rules
from casino_sim.experiments.objective import (
    OBJECTIVES,
    Match,
    Rollout,
    chance_grid,
    end_values,
    play_pair,
    summarise,
)
from casino_sim.kernels import rollout_diffs, rollout_points
from casino_sim.policies.arrays import policy_arrays
from casino_sim.reference.movegen import legal_moves
from casino_sim.reference.position import Position
from casino_sim.research.options import most_round_points
from tests.support.policies import get_policy

STRICT = get_rules("strict")
MOST = most_round_points(STRICT)  # the most points a side makes in a strict round
OPENING = {"rules": "strict", "hands": [["TD", "7S", "AS", "2H"], []], "loose": ["QH", "7C", "3H", "2D"]}


def _grid(value: float = 0.5, target: int = STRICT.target) -> np.ndarray:
    """A grid whose every cell is `value`."""
    return np.full((target, target, 2), value)


def test_chance_grid_puts_each_cell_where_the_table_says():
    table = pd.DataFrame(
        {
            "player_score": [0, 0, 1, 1],
            "opponent_score": [1, 1, 0, 0],
            "player_deals": [False, True, False, True],
            "win_chance": [0.1, 0.2, 0.3, 0.4],
        }
    )
    grid = chance_grid(table, 2)
    assert grid[0, 1, 0] == 0.1 and grid[0, 1, 1] == 0.2 and grid[1, 0, 0] == 0.3 and grid[1, 0, 1] == 0.4
    assert np.isnan(grid[0, 0]).all()  # cells the table leaves out stay unknown


def test_end_values_win_lose_tie_and_read_the_grid():
    grid = _grid()
    grid[5, 7, 1] = 0.42
    values = end_values(STRICT, grid, (20, 3), deals_next=True, most=MOST)
    assert values[1, 0] == 1.0  # 21 against 3: the mover's side reaches the target alone
    assert values[0, 18] == 0.0  # 20 against 21: the other side does
    assert values[2, 19] == 0.5  # 22 against 22: tied at the target, the next round decides
    assert end_values(STRICT, grid, (2, 3), deals_next=True, most=MOST)[3, 4] == 0.42  # (5, 7), dealing next


def _arrays(name: str = "expert"):
    ints, weights, wants = policy_arrays((get_policy(name), get_policy(name)))
    return int(ints[0, 0]), weights[0], wants[0]


def test_rollout_points_are_the_margins_worlds_split_by_side():
    pos = Position.from_json(json.loads(json.dumps(OPENING))).seen_by(0)
    moves = legal_moves(pos)
    base = _arrays()
    diffs = rollout_diffs(pos, moves, *base, 8, 11)
    pts = rollout_points(pos, moves, *base, 8, 11)
    assert pts.shape == (8, len(moves), 2)
    np.testing.assert_array_equal(pts[..., 0] - pts[..., 1], diffs)
    assert (pts >= 0).all() and (pts.sum(axis=2) > 0).all()  # every round gives somebody points


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_each_rollout_picks_the_best_mean_of_its_objective(objective):
    pos = Position.from_json(json.loads(json.dumps(OPENING)))
    moves = legal_moves(pos)
    grid = np.linspace(0, 1, STRICT.target**2 * 2).reshape(STRICT.target, STRICT.target, 2)  # distinct cells
    chooser = Rollout(objective, get_policy("expert"), 8, 5, grid, STRICT)
    chooser.hear([4, 9], dealer=1)
    chosen = chooser(pos, moves)
    seed = int(np.random.SeedSequence([5, 1]).generate_state(1, np.uint64)[0])
    pts = rollout_points(pos.seen_by(0), moves, *_arrays(), 8, seed).astype(int)
    margin = (pts[..., 0] - pts[..., 1]).mean(axis=0)
    values = end_values(STRICT, grid, (4, 9), deals_next=True, most=MOST)  # player 1 dealt: 0 deals next
    chance = values[pts[..., 0], pts[..., 1]].mean(axis=0)
    best = {
        "points": np.argmax(margin),
        "game": np.argmax(chance),
        "game-then-points": np.argmax(np.where(chance == chance.max(), margin, -np.inf)),
    }[objective]
    assert chosen == moves[int(best)]
    assert chooser.decisions == 1


def test_equal_chances_of_the_game_are_told_apart_by_the_points():
    """A table where every score wins (every end of a play-out is worth 1): `game` plays the first move,
    `game-then-points` the move of the best point difference, as `points` does."""
    pos = Position.from_json(json.loads(json.dumps(OPENING)))
    moves = legal_moves(pos)
    chosen = {}
    for objective in OBJECTIVES:
        chooser = Rollout(objective, get_policy("expert"), 8, 5, _grid(1.0), STRICT)
        chooser.hear([0, 0], dealer=1)
        chosen[objective] = chooser(pos, moves)
    assert chosen["game"] == moves[0]
    assert chosen["game-then-points"] == chosen["points"] != moves[0]


def test_an_unknown_objective_is_one_line():
    with pytest.raises(InputError, match="one of game, game-then-points"):
        Match(STRICT, get_policy("expert"), 2, _grid(), seed=1, objective="points")


def test_a_mirrored_pair_swaps_the_sides_on_the_same_shuffles():
    rules = get_rules("strict:target=6")
    match = Match(rules, get_policy("greedy"), 2, _grid(0.5, rules.target), seed=3)
    rows = play_pair(match, pair=0)
    assert [r["game_side"] for r in rows] == [0, 1]
    for r in rows:
        winner_total = r["game_total"] if r["game_won"] else r["points_total"]
        assert winner_total >= rules.target and r["decisions"] > 0
    assert rows == play_pair(match, pair=0)  # seeded: the same games again


def test_summarise_counts_games_and_pairs():
    df = pd.DataFrame({"pair": [0, 0, 1, 1, 2, 2], "game_won": [1, 1, 1, 0, 0, 1]})
    result = summarise(df)
    assert result.games == 6 and result.won.mean == pytest.approx(4 / 6)
    assert result.won.lo < 4 / 6 < result.won.hi
    assert result.pair_edge.mean == pytest.approx((1 + 0 + 0) / 3)
    with pytest.raises(InputError):
        summarise(df.iloc[:0])
