"""Whole games of three and four players (runner/games.py): the numba path against reference/game.py, and
docs/rules.md section 11's game on both engines."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from casino_sim.core.record import record_columns
from casino_sim.core.rules import get_rules
from casino_sim.engines import get_engine
from casino_sim.reference.game import game_winner, play_game
from casino_sim.runner import games as whole_games
from casino_sim.runner.deals import Seeding
from casino_sim.runner.games import play_games
from casino_sim.runner.sides import side_points
from tests.support.policies import get_policy

SPECS = ("italian:players=3", "brazilian:players=4", "italian:players=4", "brazilian:players=3,target=31")
SEED, GAMES = 5, 3
DEALT = Seeding(SEED)


def script(seed) -> np.ndarray:
    """The 48 plays of a scripted round: play i is legal move script[i] % count (canonical order)."""
    return np.random.default_rng(int(seed)).integers(0, 2**32, 48)


class Scripted:
    """An engine (numba or reference) playing each row by the script of its seed (the seats' policies aside)."""

    def __init__(self, name: str):
        self.engine = get_engine(name)

    def play(self, rows, rules, lineup, check=False, trace=None):
        records = [
            self.engine.play_scripted(rules, d, int(k), script(s))[1]
            for d, k, s in zip(rows.decks, rows.dealer, rows.seeds)
        ]
        assert all(r["void"] == (r["last_capturer"] < 0) for r in records)
        return {c: np.array([r[c] for r in records], np.int64) for c in record_columns(rules.players, rules.teams)}


def scripted_chooser(plays):
    """A chooser taking legal move plays[i] % count at its i-th call (it goes on over a game's rounds)."""
    calls = iter(range(10**6))

    def choose(pos, moves):
        return moves[int(plays[next(calls)]) % len(moves)]

    return choose


def scripted_games(monkeypatch, engine: str, spec: str):
    monkeypatch.setattr(whole_games, "get_engine", Scripted)
    a, b = get_policy("greedy"), get_policy("random")
    return play_games(engine, DEALT, 0, GAMES, True, get_rules(spec), a, b)


class DealtLikeTheRunner:
    """The generator reference/game.py draws from, answering with the runner's first dealer and decks."""

    def __init__(self, first_dealer: int, sequence: int):
        self.first, self.sequence, self.wave = first_dealer, sequence, 0

    def integers(self, n):
        return self.first

    def permutation(self, n):
        decks = DEALT.round_draws(0, GAMES, self.wave)[0]
        self.wave += 1
        return decks[self.sequence]


@pytest.mark.parametrize("spec", SPECS)
def test_numba_games_equal_reference_games(monkeypatch, spec):
    """Rounds scripted alike on both engines: the same games, and each the game reference/game.py plays."""
    rounds, games = scripted_games(monkeypatch, "numba", spec)
    ref_rounds, ref_games = scripted_games(monkeypatch, "reference", spec)
    pd.testing.assert_frame_equal(games, ref_games)
    pd.testing.assert_frame_equal(rounds, ref_rounds)
    rules = get_rules(spec)
    for g in games.itertuples():
        plays = np.concatenate([script(DEALT.round_draws(0, GAMES, w)[1][g.game_id]) for w in range(g.rounds + 5)])
        game = play_game(rules, DealtLikeTheRunner(g.first_dealer, g.game_id), [scripted_chooser(plays)] * 4)
        assert game.winner == g.winner
        assert game.totals == [getattr(g, f"s{s}_final") for s in range(rules.n_sides)]
        assert (len(game.rounds), sum(r.void for r in game.rounds)) == (g.rounds + g.void_rounds, g.void_rounds)


@pytest.mark.parametrize("engine, spec", [("numba", s) for s in SPECS] + [("reference", "brazilian:players=4")])
def test_games_follow_section_9(engine, spec):
    """Dealer to the left after a complete round (the same after a void one), totals per side, the winner of
    the game of docs/rules.md section 11; every seating of a sequence starts with the same dealer, A on the side
    named by mirror."""
    rules = get_rules(spec)
    n_games = 2 if engine == "reference" else 40
    a, b = get_policy("greedy"), get_policy("random")
    rounds, games = play_games(engine, Seeding(9), 100, n_games, True, rules, a, b)
    assert len(games) == n_games * (2 if rules.teams else rules.players)
    assert (games.groupby("game_id")["first_dealer"].nunique() == 1).all()
    players = games[[f"policy_{p}" for p in range(rules.players)]].to_numpy()
    side = np.arange(rules.players) % 2 if rules.teams else np.arange(rules.players)
    assert ((players == a.name) == (side[None, :] == games["mirror"].to_numpy()[:, None])).all()
    by_game = games.set_index(["game_id", "mirror"])
    for (gid, m), rs in rounds.groupby(["game_id", "mirror"]):
        game = by_game.loc[(gid, m)]
        dealer, totals, winner = game["first_dealer"], np.zeros(rules.n_sides, int), None
        assert list(rs["round_no"]) == list(range(len(rs)))
        for r, pts in zip(rs.itertuples(), side_points(rs, rules).tolist()):
            assert winner is None and r.dealer == dealer
            if r.void:
                continue
            totals += pts
            winner = game_winner(rules, totals.tolist(), pts)
            dealer = (dealer + 1) % rules.players
        assert winner == game["winner"]
        assert totals.tolist() == [game[f"s{s}_final"] for s in range(rules.n_sides)]
    if engine == "numba":  # greedy against random: A's side wins most games
        assert (games["winner"] == games["mirror"]).mean() > 0.8


def test_unmirrored_games_play_the_first_seating_only():
    rounds, games = play_games(
        "numba", Seeding(3), 0, 10, False, get_rules("italian:players=3"), get_policy("greedy"), get_policy("random")
    )
    assert len(games) == 10 and (games["mirror"] == 0).all() and (games["policy_0"] == "greedy").all()


def test_games_are_the_same_on_one_and_two_threads():
    from casino_sim.runner.threads import use_threads

    args = (
        "numba",
        Seeding(8),
        0,
        30,
        True,
        get_rules("brazilian:players=4"),
        get_policy("expert"),
        get_policy("greedy"),
    )
    with use_threads(1):
        one = play_games(*args)
    with use_threads(2):
        two = play_games(*args)
    for a, b in zip(one, two):
        pd.testing.assert_frame_equal(a, b)
