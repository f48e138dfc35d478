"""The research adapters on the numba engine (research/fast_state.py) and on the reference engine play the same
game: the same legal actions (masks), positions, views and returns at every step of random, always-first-action and
whole-game play on every table, and the same trajectories through PettingZoo and OpenSpiel for a seed."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import casino_sim.openspiel  # noqa: F401  (registers python_casino)
from casino_sim.kernels import position_to_state
from casino_sim.pettingzoo import raw_env
from casino_sim.research import GameState, View
from casino_sim.research.fast_state import FastState, action_mask, fill_view
from casino_sim.research.options import table_rules
from tests.research.test_openspiel import TABLES, label

STATE_FIELDS = slice(0, 39)  # hands, loose cards, piles, builds, owners, sweeps, last capturer, obligations, to move


def play_both(params: dict, seed: int, chooser, whole_game: bool = False, recall: bool = False) -> tuple[int, int]:
    """Play one round (or game) on both engines, the deal from one seed and each action from `chooser(legal, rng)`,
    asserting at every decision that the legal actions, the mask, the position and the view agree: (the steps, the
    most moves the numba table's buffers came to hold)."""
    rules = table_rules(params["rules"], params.get("players", 2), params.get("teams", False))
    ref, fast = GameState(rules, whole_game), FastState(rules, whole_game)
    deal_ref, deal_fast, pick = (
        np.random.default_rng(seed),
        np.random.default_rng(seed),
        np.random.default_rng(seed + 99),
    )
    views = [View(rules.players, rules.n_sides, recall) for _ in range(2)]
    steps = 0
    while True:
        ref.deal_random(deal_ref)
        fast.deal_random(deal_fast)
        assert fast.actions == ref.actions and fast.player == ref.player and fast.over == ref.over
        if ref.over:
            break
        legal = ref.legal_actions()
        assert fast.legal_actions() == legal
        for p in range(rules.players):
            assert np.array_equal(action_mask(fast, p, 1769), action_mask(ref, p, 1769))
            fill_view(views[0], ref, p)
            fill_view(views[1], fast, p)
            assert np.array_equal(views[0].tensor, views[1].tensor)
        if not fast._slow:
            want = position_to_state(ref.round.position)
            assert np.array_equal(fast.table.st[STATE_FIELDS], want[STATE_FIELDS])
        action = chooser(legal, pick)
        ref.apply(action)
        fast.apply(action)
        steps += 1
    assert fast.returns() == ref.returns() and fast.differences() == ref.differences()
    assert fast.totals == ref.totals and fast.winner == ref.winner
    return steps, len(fast.table.buf[0])


def random_action(legal, rng):
    return legal[int(rng.integers(len(legal)))]


@pytest.mark.parametrize("params", TABLES, ids=label)
def test_random_rounds_agree_move_by_move(params):
    assert sum(play_both(params, seed, random_action)[0] for seed in range(6)) > 6 * 48


@pytest.mark.parametrize("params", TABLES[:1] + TABLES[3:4] + TABLES[-1:], ids=label)
def test_whole_games_agree_with_recall_views(params):
    play_both(params, 7, random_action, whole_game=True, recall=True)


@pytest.mark.parametrize("params", [TABLES[0], TABLES[4]], ids=label)
def test_always_the_first_action_piles_the_table_high_and_still_agrees(params):
    """Trailing whenever it can piles the loose cards up: turns past the kernels' first buffers (grown), and the
    same moves."""
    grown = [play_both(params, seed, lambda legal, rng: legal[0])[1] for seed in range(2)]
    assert max(grown) > 1024  # the first buffers' size (kernels/tables_api.py Table)


def test_the_pettingzoo_environment_gives_the_same_trajectory_on_both_engines():
    envs = [raw_env(rules="italian", players=3, engine=e) for e in ("numba", "reference")]
    rng = np.random.default_rng(3)
    for round_ in range(3):
        for e in envs:
            e.reset(seed=11 if round_ == 0 else None)
        while not envs[0].core.over:
            agent = envs[0].agent_selection
            assert all(e.agent_selection == agent for e in envs)
            seen = [e.observe(agent) for e in envs]
            for key in ("observation", "action_mask"):
                assert np.array_equal(seen[0][key], seen[1][key])
            legal = np.flatnonzero(seen[0]["action_mask"])
            action = int(legal[rng.integers(len(legal))])
            for e in envs:
                e.step(action)
        assert envs[1].core.over and envs[0].rewards == envs[1].rewards


def test_python_casino_plays_the_same_game_on_both_engines():
    games = [
        pyspiel.load_game("python_casino", {"rules": "brazilian", "players": 4, "engine": e})
        for e in ("numba", "reference")
    ]
    assert pyspiel.load_game(str(games[0])).get_parameters()["engine"] == "numba"
    rng = np.random.default_rng(5)
    states = [g.new_initial_state() for g in games]
    while not states[0].is_terminal():
        assert states[0].legal_actions() == states[1].legal_actions()
        assert states[0].observation_tensor(0) == states[1].observation_tensor(0)
        assert states[0].information_state_string(1) == states[1].information_state_string(1)
        legal = states[0].legal_actions()
        action = legal[int(rng.integers(len(legal)))]
        for s in states:
            s.apply_action(action)
    assert states[1].is_terminal() and states[0].returns() == states[1].returns()
