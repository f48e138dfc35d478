"""casino_sim.pettingzoo under PettingZoo's own checks (api_test, seed_test) on every rule set and table, and the
same seeded rounds played through the environment, casino-sim's engines and python_casino, held equal move by move."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pyspiel  # the research extra, in the test extra: CI has it, and none of these tests skips
import pytest
from pettingzoo.test import api_test, seed_test

import casino_sim.openspiel  # noqa: F401  (registers python_casino)
from casino_sim.core.deal import HAND_SIZE, PLIES
from casino_sim.core.errors import UserError
from casino_sim.engines import engine_names, get_engine
from casino_sim.pettingzoo import MAX_MOVES, TooManyMoves, env, raw_env
from casino_sim.reference.game import game_winner
from casino_sim.reference.round import play_round
from casino_sim.reference.seats import side_of
from casino_sim.research import CHANCE
from casino_sim.research.encoding import ENCODINGS, NUM_ACTIONS
from tests.research.test_openspiel import TABLES, WHOLE_GAMES, engine_round, label

pytestmark = pytest.mark.filterwarnings("error")  # no library may warn on the way
# api_test warns of a dict observation and a Dict observation space unless the environment's name is on its list of
# PettingZoo's own classic games (pettingzoo/test/api_test.py: env_obs_dicts, env_obs_space), whose convention the
# Dict of "observation" and "action_mask" is: warnings about PettingZoo's list, the only ones allowed
PETTINGZOO_OWN = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}
RECALL = [{"rules": "italian", "players": 3, "recall": True}]
INDEX = [{"rules": "brazilian", "players": 3, "encoding": "index"}]


@pytest.mark.parametrize("params", TABLES + WHOLE_GAMES + RECALL + INDEX, ids=label)
def test_api_test_and_seed_test_pass(params):
    cycles = 120 if params.get("game") else 30  # 30 turns of every agent: past a round's 48 plays
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(**params), num_cycles=cycles)
        seed_test(lambda: env(**params), num_cycles=cycles)
    assert {str(w.message) for w in caught} <= PETTINGZOO_OWN


def play_env(params: dict, seed: int):
    """A seeded episode, each agent choosing at random among its mask's actions: the (agent, position, legal actions,
    action, observation) of every step, each agent's reward once terminated, and the core played."""
    game = env(**params)
    game.reset(seed=seed)
    core, rng, steps, rewards = game.unwrapped.core, np.random.default_rng(seed), [], {}
    size = MAX_MOVES if params.get("encoding") == "index" else NUM_ACTIONS
    for agent in game.agent_iter():
        obs, reward, terminated, truncated, info = game.last()
        assert not truncated and info == {}
        if terminated:
            rewards[agent] = reward
            game.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        assert legal == core.legal_actions() and len(obs["action_mask"]) == game.action_space(agent).n == size
        action = int(rng.choice(legal))
        steps.append((agent, core.round.position, legal, action, obs["observation"]))
        game.step(action)
    return steps, rewards, core


def engine_replay(rules, deck, dealer: int, played) -> tuple[list, list[int], object]:
    """The reference engine's round from `deck` making the moves `played`, each found among its legal moves: the
    (position, legal moves) of every play, the index of each move played, and the result."""
    seen, script = [], []

    def choose(pos, moves):
        seen.append((pos, moves))
        script.append(moves.index(played[len(script)]))
        return moves[script[-1]]

    return seen, script, play_round(rules, deck, dealer, choose)


def held_to_the_engines(rules, deck, dealer: int, seen, script) -> None:
    """Every engine gives the reference engine's legal moves in every position, the position after each play of a
    batch, and, played from the same deck and choices, the same moves and the same record (points and counts)."""
    chosen, records = [moves[i] for (_, moves), i in zip(seen, script)], []
    for name in engine_names():
        engine = get_engine(name)
        for i, (pos, moves) in enumerate(seen):
            assert engine.legal_moves(pos) == moves, (name, i)
            if (i + 1) % (rules.players * HAND_SIZE):  # the next play is in the same batch: nothing dealt between
                assert engine.apply_move(pos, chosen[i]) == seen[i + 1][0], (name, i)
        moves, record = engine.play_scripted(rules, deck, dealer, script)
        assert moves == chosen, name
        records.append(record)
    assert all(record == records[0] for record in records)


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("params", TABLES, ids=label)
def test_a_seeded_round_agrees_with_the_engines_and_python_casino(params, seed, encoding):
    """The round the environment's agents played, made again on the reference engine from the deck it dealt, is
    legal there move by move (by index: each action the index of its move) and gives each agent its reward; every
    engine agrees; python_casino, dealt the same cards, offers the same actions and observations (seed 2: the
    information state) and the same returns."""
    params = {**params, "recall": seed == 2, "encoding": encoding}
    steps, rewards, core = play_env(params, seed)
    rules, deck, dealer = core.rules, core.round.dealt, core.round.dealer
    seen, script, result = engine_replay(rules, deck, dealer, [move for _, move in core.round.plays])
    if encoding == "index":
        assert [(f"player_{pos.to_move}", pos, list(range(len(moves)))) for pos, moves in seen] == [
            s[:3] for s in steps
        ]
        assert script == [s[3] for s in steps]
    assert rewards == {f"player_{p}": float(result.score.totals[side_of(rules, p)]) for p in range(rules.players)}
    held_to_the_engines(rules, deck, dealer, seen, script)
    state = pyspiel.load_game("python_casino", {k: v for k, v in params.items() if k != "recall"}).new_initial_state()
    plays = iter(steps)
    for mover, action in zip(core.movers, core.actions):
        assert state.current_player() == mover
        if mover != CHANCE:
            _, _, legal, chosen, observation = next(plays)
            assert state.legal_actions() == legal and chosen == action
            seen_there = state.information_state_tensor(mover) if params["recall"] else state.observation_tensor(mover)
            assert np.array_equal(seen_there, observation)
        state.apply_action(action)
    assert state.returns() == [rewards[f"player_{p}"] for p in range(rules.players)]


@pytest.mark.parametrize("params", WHOLE_GAMES, ids=label)
def test_a_seeded_whole_game_agrees_with_the_engine_round_by_round(params):
    """encoding=index, each round of the game (52 cards dealt, then 48 plays) replayed on the reference engine: the
    same positions and moves, the deal passing on after a round with points, and the winner the engine's totals
    give gets 1."""
    params = {**params, "encoding": "index"}
    steps, rewards, core = play_env(params, seed=5)
    rules, n = core.rules, core.rules.players
    totals, dealer, plays, winner = [0] * rules.n_sides, n - 1, iter(steps), None
    for start in range(0, len(core.actions), 52 + PLIES):
        assert winner is None  # no round after the game is won
        round_ = list(zip(core.movers[start : start + 52 + PLIES], core.actions[start : start + 52 + PLIES]))
        deck, script = [a for m, a in round_ if m == CHANCE], [a for m, a in round_ if m != CHANCE]
        seen, result = engine_round(rules, deck, dealer, script)
        assert [(pos, list(range(len(moves)))) for pos, moves in seen] == [next(plays)[1:3] for _ in seen]
        if not result.void:
            totals = [t + p for t, p in zip(totals, result.score.totals)]
            winner, dealer = game_winner(rules, totals, result.score.totals), (dealer + 1) % n
    assert winner is not None and totals == core.totals and next(plays, None) is None
    lose = -1.0 / (rules.n_sides - 1)
    assert rewards == {f"player_{p}": 1.0 if side_of(rules, p) == winner else lose for p in range(n)}
    state = pyspiel.load_game("python_casino", params).new_initial_state()
    for action in core.actions:
        state.apply_action(action)
    assert state.returns() == [rewards[f"player_{p}"] for p in range(n)]


def test_an_illegal_action_ends_the_episode_with_minus_one_to_its_maker(caplog):
    """PettingZoo's classic convention (TerminateIllegalWrapper); the raw environment refuses it in one line."""
    game = env(rules="brazilian", players=3)
    game.reset(seed=0)
    maker, mask = game.agent_selection, game.observe(game.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    game.step(illegal)
    assert all(game.terminations.values()) and "Illegal move made" in caplog.text
    assert game.rewards == {a: -1.0 if a == maker else 0 for a in game.agents}
    raw = raw_env(rules="brazilian", players=3)
    raw.reset(seed=0)
    with pytest.raises(UserError, match=rf"^action {illegal} is not legal here \(legal: \d+"):
        raw.step(illegal)


def test_a_position_past_max_moves_is_refused_in_one_line():
    game = raw_env(encoding="index", max_moves=2)
    with pytest.raises(TooManyMoves) as info:
        game.reset(seed=0)  # the first player holds four cards: four trails at least
    assert str(info.value).startswith("casino_v0: a position has ") and "max_moves=2" in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"rules": "poker"}, "casino_v0: unknown rule set 'poker' (choose from: strict, brazilian, italian)"),
        ({"players": 3}, "casino_v0: players=3: strict is a two-player rule set"),
        ({"rules": "italian", "players": "three"}, "casino_v0: players must be 2, 3 or 4, got 'three'"),
        ({"rules": "italian", "players": 3, "teams": True}, "casino_v0: teams=true needs players=4"),
        ({"rules": "italian:players=4"}, "casino_v0: rules 'italian:players=4': give players and teams as"),
        ({"encoding": "index", "max_moves": 0}, "casino_v0: max_moves must be a whole number from 1 to 2097152, got 0"),
        ({"max_moves": 4096}, "casino_v0: max_moves sizes encoding='index' only"),
        ({"encoding": "cards"}, "casino_v0: encoding must be one of factored, index, got 'cards'"),
        ({"render_mode": "rgb_array"}, "casino_v0: render_mode must be None, 'human' or 'ansi', got 'rgb_array'"),
        ({"zero_sum": True, "players": 3, "rules": "italian"}, "casino_v0: zero_sum needs two sides"),
        ({"zero_sum": True, "game": True}, "casino_v0: zero_sum is for one round"),
        ({"rules": "strict:target=31", "target": 11}, "casino_v0: rules 'strict:target=31': give the game options"),
        ({"target": 0}, "casino_v0: game target must be between 1 and 1000, got 0"),
        ({"single_round": "yes"}, "casino_v0: single_round must be true or false, got 'yes'"),
        ({"colour": "red"}, "casino_v0: unknown game option 'colour'"),
    ],
)
def test_a_bad_option_is_refused_in_one_line(params, message):
    with pytest.raises(UserError) as info:
        env(**params)
    assert str(info.value).startswith(message) and "\n" not in str(info.value)


def test_render_shows_the_table_and_the_end_and_the_env_pickles():
    game = raw_env(rules="italian", players=4, teams=True, render_mode="ansi")
    game.reset(seed=3)
    text = game.render()
    assert text.startswith("dealer 3 batch 0\ntable: ") and "A: " in text and "<- to move" in text.splitlines()[2]
    rng = np.random.default_rng(0)
    while not all(game.terminations.values()):
        game.step(int(rng.choice(np.flatnonzero(game.observe(game.agent_selection)["action_mask"]))))
    returns = " ".join(f"{game.rewards[a]:g}" for a in game.possible_agents)
    assert game.render().endswith(f"\nreturns: {returns}") and "<- to move" not in game.render()
    again = pickle.loads(pickle.dumps(game))
    again.reset(seed=3)
    assert again.rules == game.rules and again.render_mode == "ansi"
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert raw_env().render() is None
