"""casino-sim's policies as OpenSpiel bots (casino_sim/openspiel_bots.py), and OpenSpiel's IS-MCTS as the
`openspiel-ismcts` policy kind (policies/ismcts.py, registered into the CLI's and the API's policy loaders by
casino_sim/openspiel_kind.py) in simulate and tournament."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pyspiel  # the research extra, in the test extra: CI has it, and none of these tests skips
import pytest
from open_spiel.python.algorithms import evaluate_bots

import casino_sim as cs
from casino_sim import openspiel_kind
from casino_sim.openspiel_bots import PolicyBot, ismcts_move
from casino_sim.policies import CallablePolicy
from casino_sim.policies import ismcts as ismcts_kind
from casino_sim.policies.decide import choose_move
from casino_sim.policies.policy import PolicyError
from casino_sim.reference.position import Position
from tests.support.cli import assert_one_line_error, run
from tests.support.policies import get_policy

pytestmark = pytest.mark.filterwarnings("error")  # no library may warn on the way
ISMCTS_FILE = 'name = "ismcts-2"\nkind = "openspiel-ismcts"\n[params]\nsimulations = 2\n'


def _seen_json(state) -> Position:
    """The position of `state` as its player to move sees it, through notation.md's JSON (the other hands null)."""
    pos = state.core.round.position
    return Position.from_json(json.loads(json.dumps(pos.seen_by(pos.to_move).to_json())))


@pytest.mark.parametrize("pair", [("random", "expert"), ("searcher", "expert")], ids="-vs-".join)
def test_policy_bots_play_a_round_through_pyspiel(pair):
    game = pyspiel.load_game("python_casino")
    bots = [PolicyBot(get_policy(name), seed) for seed, name in enumerate(pair)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(3))
    assert len(returns) == 2 and min(returns) >= 0 and sum(returns) >= 11  # strict: 11 points, and the sweeps


@pytest.mark.parametrize("name", ["random", "expert", "searcher"])
def test_a_bots_move_is_the_policys_own_choice_from_what_the_mover_sees(name):
    """Along a round, the bot's action plays the move `casino-sim choose` gives for the position as the mover sees
    it (read back from its JSON, the other hands null), with the bot's seed for that decision."""
    game = pyspiel.load_game("python_casino")
    policy, rng = get_policy(name), np.random.default_rng(1)
    bot = PolicyBot(policy, seed=5)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.choice(state.legal_actions())))
            continue
        expected = choose_move(_seen_json(state), policy, bot.decision_seed(state))
        state.apply_action(bot.step(state))
        while state.core.choice is not None:  # the rest of the play's actions, the bot choosing the same move
            state.apply_action(bot.step(state))
        assert state.core.round.plays[-1][1] == expected


def test_a_bot_never_shows_its_policy_the_hidden_cards_and_answers_a_state_alike():
    seen = []
    peek = CallablePolicy("peek", "records what it is shown", fn=lambda pos, moves, rng: seen.append(pos) or moves[0])
    game = pyspiel.load_game("python_casino", {"rules": "italian", "players": 3})
    bot = PolicyBot(peek)
    state = game.new_initial_state()
    for card in np.random.default_rng(2).permutation(52)[:16]:
        state.apply_action(int(card))
    assert bot.step(state) == bot.step(state) == state.legal_actions()[0]  # the first move: the lowest card's trail
    assert [h is None for h in seen[0].hands] == [False, True, True]


def test_ismcts_move_reads_only_what_the_mover_saw_and_is_seeded():
    game = pyspiel.load_game("python_casino")
    state = game.new_initial_state()
    for card in np.random.default_rng(4).permutation(52)[:12]:
        state.apply_action(int(card))
    pos = state.core.round.position
    params = ismcts_kind.ismcts_params({"simulations": 8}, "test")
    move = ismcts_move(pos, params, seed=9)
    assert move in state.core.legal_moves()
    assert ismcts_move(pos.seen_by(pos.to_move), params, seed=9) == move  # the hidden hand changes nothing


@pytest.fixture
def ismcts_file(tmp_path):
    path = tmp_path / "ismcts.toml"
    path.write_text(ISMCTS_FILE)
    return path


def test_the_ismcts_policy_plays_in_simulate_the_same_for_a_seed(ismcts_file, tmp_path):
    runs = [
        cs.simulate(2, str(ismcts_file), "expert", seed=6, card_deals=0, out=tmp_path / f"run{i}", reports=False)
        for i in range(2)
    ]
    first, second = (r.rounds for r in runs)
    assert len(first) == 4 and set(first["policy_0"]) == {"ismcts-2", "expert"}
    pd.testing.assert_frame_equal(first, second)
    assert get_policy(str(ismcts_file)).describe().splitlines()[2:4] == ["parameters:", "  simulations = 2"]


def test_the_ismcts_policy_plays_a_tournament(ismcts_file, tmp_path):
    out = tmp_path / "t"
    games = ("--games", "1", "--rules", "strict:single_round=true", "--threads", "1")  # a game of one round
    done = run("tournament", "random", str(ismcts_file), *games, "--out", str(out))
    assert done.returncode == 0, done.stderr
    ratings = pd.read_csv(out / "report" / "ratings.csv")
    assert sorted(ratings["policy"]) == ["ismcts-2", "random"]


@pytest.mark.parametrize(
    ("params", "says"),
    [
        ("simulations = 0", "'params.simulations' must be a whole number from 1 to 1000000, got 0"),
        ("uct_c = -1", "'params.uct_c' must be a number from 0 to 1000"),
        ("rollouts = true", "'params.rollouts' must be a whole number"),
        ('final_policy = "best"', "'params.final_policy' must be 'max_visit_count' or 'max_value'"),
        ("worlds = 5", "unknown field 'params.worlds' (parameters: simulations, uct_c, rollouts"),
    ],
)
def test_bad_ismcts_parameters_are_one_line_errors(tmp_path, params, says):
    path = tmp_path / "bad.toml"
    path.write_text(f'name = "bad"\nkind = "openspiel-ismcts"\n[params]\n{params}\n')
    assert_one_line_error(run("simulate", "--policy", str(path), "--vs", "random", "--deals", "1"), says)


def test_the_ismcts_kind_without_open_spiel_is_a_one_line_error(ismcts_file, monkeypatch):
    monkeypatch.setattr(openspiel_kind, "FRAMEWORK", "no_such_framework_here")
    with pytest.raises(PolicyError, match=r"'openspiel-ismcts' needs OpenSpiel: pip install 'casino-sim\[research\]'$"):
        get_policy(str(ismcts_file))
    shown = run("policies", "show", str(ismcts_file))  # the command's own loader has the kind too
    assert_one_line_error(shown, f"{ismcts_file}: kind 'openspiel-ismcts' needs OpenSpiel: pip install")


def test_a_policy_file_of_the_ismcts_kind_loads_without_openspiel_until_it_decides(ismcts_file):
    """The command's loader reads the file with nothing imported by the user, and OpenSpiel loads at the policy's
    first decision (a round's first play, dealt from an unshuffled deck), not before."""
    script = f"""
import sys
from casino_sim.cli.options import policy_loader
from casino_sim.core.rules import STRICT
from casino_sim.reference.round import deal_batch, start_position
policy = policy_loader()({str(ismcts_file)!r})
assert policy.kind == "openspiel-ismcts" and "pyspiel" not in sys.modules
policy.step(deal_batch(start_position(STRICT, 0), list(range(52)), 0, 0))
print("pyspiel" in sys.modules)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True"]
