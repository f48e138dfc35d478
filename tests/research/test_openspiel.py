"""python_casino (casino_sim/openspiel.py) under OpenSpiel's own checks, held equal to casino-sim's engines, and
played by OpenSpiel's IS-MCTS through resample_from_infostate."""

from __future__ import annotations

import numpy as np
import pyspiel  # the research extra, in the test extra: CI has it, and none of these tests skips
import pytest

import casino_sim.openspiel  # noqa: F401  (registers python_casino)
from casino_sim.engines import engine_names, get_engine
from casino_sim.reference.round import play_round
from casino_sim.reference.seats import side_of
from casino_sim.research.encoding import ENCODINGS, describe, play_action

pytestmark = pytest.mark.filterwarnings("error")  # no library may warn on the way
TABLES = [
    {"rules": "strict"},
    {"rules": "brazilian"},
    {"rules": "italian"},
    {"rules": "brazilian", "players": 3},
    {"rules": "italian", "players": 3},
    {"rules": "brazilian", "players": 4},
    {"rules": "italian", "players": 4},
    {"rules": "brazilian", "players": 4, "teams": True},
    {"rules": "italian", "players": 4, "teams": True},
]
WHOLE_GAMES = [{"rules": "strict", "game": True}, {"rules": "brazilian", "players": 4, "teams": True, "game": True}]


def label(params: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in params.items())


@pytest.mark.parametrize("params", TABLES + WHOLE_GAMES, ids=label)
def test_random_sim_test_passes_with_serialisation(params):
    game = pyspiel.load_game("python_casino", params)
    pyspiel.random_sim_test(game, num_sims=1 if params.get("game") else 2, serialize=True, verbose=False)


def engine_round(rules, deck, dealer: int, script) -> tuple[list, object]:
    """The round on the reference engine, play i being legal_moves[script[i] % n] (as play_scripted plays it):
    the (position, legal moves) of every play, and the result."""
    seen = []

    def choose(pos, moves):
        seen.append((pos, moves))
        return moves[int(script[len(seen) - 1]) % len(moves)]

    return seen, play_round(rules, deck, dealer, choose)


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("params", TABLES, ids=label)
def test_the_game_agrees_with_the_engines_move_by_move(params, seed, encoding):
    """A seeded round through OpenSpiel and through the engines: every position and move and the score. Factored,
    the first actions of each turn are the plays of the engines' legal moves and the engines' move is played by its
    actions (each legal, a move's last action worded as the move); by index, the legal actions are the engines'
    legal moves in order, worded as `casino-sim moves` words them."""
    game = pyspiel.load_game("python_casino", {**params, "encoding": encoding})
    rules, rng = game.rules, np.random.default_rng(seed)
    deck, script = rng.permutation(52), rng.integers(0, 2**31, 48)
    dealer = rules.players - 1  # python_casino's first dealer
    seen, result = engine_round(rules, deck, dealer, script)
    state, dealt, played = game.new_initial_state(), 0, []
    while not state.is_terminal():
        if state.is_chance_node():
            assert int(deck[dealt]) in dict(state.chance_outcomes())
            state.apply_action(int(deck[dealt]))
            dealt += 1
            continue
        pos, moves = seen[len(played)]
        p = state.current_player()
        assert p == pos.to_move and state.core.round.position == pos
        move = moves[int(script[len(played)]) % len(moves)]
        actions = state.core.actions_for(move)
        if encoding == "index":
            assert state.legal_actions() == list(range(len(moves))) and actions == [moves.index(move)]
            assert [state.action_to_string(p, a) for a in state.legal_actions()] == [m.describe(p) for m in moves]
        else:
            assert state.legal_actions() == sorted({play_action(m.kind, m.card, m.builds, m.value) for m in moves})
            words = move.describe(p) if len(actions) == 1 else describe(p, actions[0])
            assert state.action_to_string(p, actions[0]) == words
        for action in actions:
            assert action in state.legal_actions() and state.current_player() == p
            state.apply_action(action)
        played.append(move)
    assert state.core.round.result.final == result.final
    assert state.returns() == [result.score.totals[side_of(rules, p)] for p in range(rules.players)]
    for engine in engine_names():
        moves, _ = get_engine(engine).play_scripted(rules, deck, dealer, script)
        assert moves == played, engine


def play_to(state, rng: np.random.Generator, plays: int):
    """Make `plays` random plays, dealing at random as needed, then deal on to the next player's turn."""
    while not state.is_terminal():
        if state.is_chance_node():
            cards, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(cards, p=probs)))
        elif plays == 0:
            break
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            plays -= 1
    return state


@pytest.mark.parametrize("params", [TABLES[0], TABLES[4], TABLES[7]], ids=label)
def test_resample_from_infostate_keeps_what_the_player_knows(params):
    game = pyspiel.load_game("python_casino", params)
    rng = np.random.default_rng(3)
    state = play_to(game.new_initial_state(), rng, plays=4 * game.num_players() + 3)  # into the second batch
    me, sampler, worlds = state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0), []
    for _ in range(6):
        world = state.resample_from_infostate(me, sampler)
        assert world.information_state_string(me) == state.information_state_string(me)
        assert world.information_state_tensor(me) == state.information_state_tensor(me)
        assert world.observation_string(me) == state.observation_string(me)
        assert world.legal_actions() == state.legal_actions() and len(world.history()) == len(state.history())
        again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, world))[1]
        assert str(again) == str(world)  # the world's history is its own, replayable
        worlds.append(str(world))
    assert len(set(worlds)) > 1  # the other hands move


def test_is_mcts_plays_a_round_to_the_end():
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_casino", {"rules": "italian", "players": 3})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=2, random_state=np.random.RandomState(1))
    state, rng, searched = game.new_initial_state(), np.random.default_rng(0), 0
    while not play_to(state, rng, 0).is_terminal():
        if state.current_player() != 0:
            play_to(state, rng, 1)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(int(action))
        searched += 1
    plays = sum(mover == 0 for mover, _ in state.core.round.plays)
    assert plays == 16 and searched >= 16 and len(state.returns()) == 3  # player 0 searched each of its decisions


def test_the_views_differ_by_player_and_have_the_game_s_shapes():
    game = pyspiel.load_game("python_casino", {"rules": "brazilian", "players": 4, "teams": True})
    state = play_to(game.new_initial_state(), np.random.default_rng(1), plays=5)
    tensors = [state.information_state_tensor(p) for p in range(4)]
    assert all(len(t) == game.information_state_tensor_size() for t in tensors)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size() < len(tensors[0])
    assert len({tuple(t) for t in tensors}) == 4 and len({state.observation_string(p) for p in range(4)}) == 4


@pytest.mark.parametrize(
    "params, message",
    [
        ({"rules": "poker"}, "python_casino: unknown rule set 'poker' (choose from: strict, brazilian, italian)"),
        ({"players": 3}, "python_casino: players=3: strict is a two-player rule set"),
        ({"rules": "italian", "players": 5}, "python_casino: players must be 2, 3 or 4, got 5"),
        ({"rules": "italian", "players": 3, "teams": True}, "python_casino: teams=true needs players=4"),
        ({"rules": "italian:players=4"}, "python_casino: rules 'italian:players=4': give players and teams as"),
    ],
)
def test_a_bad_parameter_is_refused_in_one_line(params, message):
    with pytest.raises(ValueError) as info:
        pyspiel.load_game("python_casino", params)
    assert str(info.value).startswith(message) and "\n" not in str(info.value)
