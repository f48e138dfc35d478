"""The conventions researchers expect of both adapters: rule options as game parameters that survive OpenSpiel's
string round trip, metadata that covers a whole round and a whole game (Shimmy's wrapper plays them to the end),
a zero-sum point difference, PettingZoo's render_test, and a single-agent Gymnasium environment."""

from __future__ import annotations

import numpy as np
import pyspiel  # the research extra, in the test extra: CI has it, and none of these tests skips
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import render_test

import casino_sim.openspiel  # noqa: F401  (registers python_casino)
from casino_sim.pettingzoo import SoloEnv, env
from casino_sim.reference.game import MAX_ROUNDS
from casino_sim.research.encoding import NUM_ACTIONS, most_round_actions
from casino_sim.research.options import most_round_points
from tests.research.test_encoding import trail_first
from tests.research.test_openspiel import label, play_to
from tests.research.test_play_through import openspiel_rounds

pytestmark = pytest.mark.filterwarnings("error")
WITH_OPTIONS = [
    {"rules": "brazilian:target=31"},
    {"rules": "italian", "single_round": True, "game": True},
    {"rules": "brazilian", "players": 4, "teams": True, "target": 11, "round_win_points": 6, "game": True},
    {"rules": "strict", "zero_sum": True, "encoding": "index"},
]


@pytest.mark.parametrize("params", WITH_OPTIONS, ids=label)
def test_rule_options_are_parameters_that_survive_the_string_round_trip(params):
    game = pyspiel.load_game("python_casino", params)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game) and again.rules == game.rules and again.get_parameters() == game.get_parameters()
    assert "rules=" + game.rules.name.partition(":")[0] + "," in str(game)  # the options are parameters of their own
    assert game.get_parameters()["target"] == game.rules.target
    pyspiel.random_sim_test(again, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("encoding", ["factored", "index"])
@pytest.mark.parametrize("whole", [False, True], ids=["round", "game"])
def test_the_metadata_covers_a_round_and_a_game(encoding, whole):
    """max_game_length bounds every action of a round (chance outcomes too, plus one, as Shimmy counts) or of
    MAX_ROUNDS rounds, so OpenSpiel's max_history_length (twice it) covers the history as well; always-trail play,
    the longest choices of loose cards, stays within it."""
    params = {"rules": "strict", "encoding": encoding, "game": whole}
    game = pyspiel.load_game("python_casino", params)
    per_round = most_round_actions(encoding)
    assert per_round == (199 if encoding == "factored" else 100)
    assert game.max_game_length() == 1 + per_round * (MAX_ROUNDS if whole else 1)
    assert game.max_history_length() >= game.max_game_length() and game.max_chance_outcomes() == 52
    assert game.num_distinct_actions() == (NUM_ACTIONS if encoding == "factored" else 2**21)
    if not whole:
        state = play_to(game.new_initial_state(), np.random.default_rng(0), plays=10_000)
        assert len(state.history()) < game.max_game_length()
    if encoding == "factored" and not whole:  # (legal-move indices cannot list a piled table's moves)
        openspiel_rounds(params, lambda legal, rng: trail_first(legal), 2, seed=4)


@pytest.mark.parametrize("params", [{"rules": "strict"}, {"rules": "italian", "players": 3, "game": True}], ids=label)
def test_shimmy_s_openspiel_wrapper_plays_to_the_end(params):
    """Shimmy's OpenSpielCompatibilityV0 (if installed) plays every round, or the whole game, to its end, never
    truncated. Its rewards are read from the state: Shimmy 2.0 adds the final rewards again at each finished agent's
    step (docs/research.md)."""
    shimmy = pytest.importorskip("shimmy")
    wrapped = shimmy.OpenSpielCompatibilityV0(game_name="python_casino", config=params)
    wrapped.reset(seed=2)
    rng, first = np.random.default_rng(2), None
    for _ in wrapped.agent_iter():
        obs, reward, terminated, truncated, info = wrapped.last()
        assert not truncated
        if terminated:
            first = reward if first is None else first
            wrapped.step(None)
            continue
        wrapped.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    state = wrapped.game_state
    assert state.is_terminal() and first == state.returns()[0]


def test_zero_sum_gives_the_point_difference_of_two_sides():
    for params in ({"rules": "strict"}, {"rules": "brazilian", "players": 4, "teams": True}):
        game = pyspiel.load_game("python_casino", {**params, "zero_sum": True})
        most = most_round_points(game.rules)
        assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
        assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-most, most, 0.0)
        state = play_to(game.new_initial_state(), np.random.default_rng(1), plays=10_000)
        points = state.core.round.side_points()
        assert state.returns() == [points[p % 2] - points[1 - p % 2] for p in range(game.num_players())]
        zoo, rewards = env(**params, zero_sum=True), {}
        zoo.reset(seed=1)
        for agent in zoo.agent_iter():
            obs, reward, terminated, truncated, info = zoo.last()
            if terminated:
                rewards[agent] = reward
            zoo.step(None if terminated else int(np.flatnonzero(obs["action_mask"])[0]))
        points = zoo.unwrapped.core.round.side_points()
        assert rewards == {f"player_{p}": points[p % 2] - points[1 - p % 2] for p in range(len(rewards))}


@pytest.mark.parametrize(
    "params, message",
    [
        ({"encoding": "cards"}, "python_casino: encoding must be one of factored, index, got 'cards'"),
        ({"rules": "italian", "players": 3, "zero_sum": True}, "python_casino: zero_sum needs two sides"),
        ({"zero_sum": True, "game": True}, "python_casino: zero_sum is for one round"),
        ({"rules": "strict:target=31", "target": 11}, "python_casino: rules 'strict:target=31': give the game"),
        ({"round_win_points": -1}, "python_casino: round_win_points must be between 0 (off) and 1000, got -1"),
    ],
)
def test_a_bad_parameter_is_refused_in_one_line(params, message):
    with pytest.raises(ValueError) as info:
        pyspiel.load_game("python_casino", params)
    assert str(info.value).startswith(message) and "\n" not in str(info.value)


def test_render_test_passes_in_every_mode(capsys):
    render_test(lambda render_mode=None: env(rules="italian", players=3, render_mode=render_mode))
    assert "<- to move" in capsys.readouterr().out  # "human" prints the table


@pytest.mark.parametrize("opponent", ["random", "expert"])
def test_the_single_agent_environment_passes_gymnasium_s_checks_and_plays_its_policy(opponent):
    solo = SoloEnv(opponent, seat=1, rules="italian", players=3)
    check_env(solo, skip_render_check=True)
    runs = []
    for _ in range(2):
        observation, info = solo.reset(seed=3)
        steps, done = [], False
        while not done:
            assert solo.action_masks().tolist() == info["action_mask"].astype(bool).tolist()
            action = int(np.flatnonzero(info["action_mask"])[-1])
            observation, reward, done, truncated, info = solo.step(action)
            steps.append((action, reward, observation.tobytes()))
        assert not truncated and reward == solo.game.core.returns()[1] and len(solo.game.core.round.plays) == 48
        runs.append(steps)
    assert runs[0] == runs[1]  # the same seed, the same deal and the same opponents' choices
    with pytest.raises(ValueError, match="seat must be a player 0 to 2, got 3"):
        SoloEnv(opponent, seat=3, rules="italian", players=3)


def test_the_single_agent_environment_survives_a_learner_that_piles_the_table():
    """The learner always trails; the random opponent cannot list the moves of the piled table and plays a random
    action sequence there: the rounds still end."""
    solo = SoloEnv("random", seat=0, rules="brazilian")
    for seed in range(3):
        _, info, done = *solo.reset(seed=seed), False
        while not done:
            _, reward, done, _, info = solo.step(trail_first(np.flatnonzero(info["action_mask"]).tolist()))
        assert len(solo.game.core.round.plays) == 48
