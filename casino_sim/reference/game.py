"""A whole game (RULES.md section 5): rounds until a player wins, dealer alternating."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from casino_sim.core.rules import RuleSet
from casino_sim.reference.round import Chooser, RoundResult, play_round

MAX_ROUNDS = 1000  # a guard against a policy that keeps voiding rounds


@dataclass
class GameResult:
    rounds: list[RoundResult] = field(default_factory=list)
    totals: list[int] = field(default_factory=lambda: [0, 0])
    winner: int | None = None


def game_winner(rules: RuleSet, totals: list[int], round_points: tuple[int, int]) -> int | None:
    """The winner after a complete round, or None when another round is played."""
    a, b = round_points
    if rules.single_round:
        return None if a == b else int(b > a)
    if rules.round_win_points and max(a, b) >= rules.round_win_points and a != b:
        return int(b > a)
    if max(totals) >= rules.target and totals[0] != totals[1]:
        return int(totals[1] > totals[0])
    return None


def play_game(rules: RuleSet, rng: np.random.Generator, choosers: tuple[Chooser, Chooser]) -> GameResult:
    """Play rounds from shuffles drawn from rng until the game is won.

    The first dealer is drawn at random and then alternates; a void round is
    replayed with the same dealer and no points.
    """
    game = GameResult()
    dealer = int(rng.integers(2))
    for _ in range(MAX_ROUNDS):
        deck = rng.permutation(52)
        result = play_round(rules, deck, dealer, lambda pos, moves: choosers[pos.to_move](pos, moves))
        game.rounds.append(result)
        if result.void:
            continue
        pts = result.score.totals
        game.totals = [game.totals[0] + pts[0], game.totals[1] + pts[1]]
        game.winner = game_winner(rules, game.totals, pts)
        if game.winner is not None:
            return game
        dealer = 1 - dealer
    raise RuntimeError(f"no winner after {MAX_ROUNDS} rounds")
