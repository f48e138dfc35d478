"""A whole game (docs/rules.md sections 8 and 11): rounds until a side wins, the deal passing to the next player."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from casino_sim.core.rules import RuleSet
from casino_sim.reference.round import Chooser, RoundResult, play_round

MAX_ROUNDS = 1000  # a guard against a policy that keeps voiding rounds


@dataclass
class GameResult:
    rounds: list[RoundResult] = field(default_factory=list)
    totals: list[int] = field(default_factory=lambda: [0, 0])  # one per side: a player, or a team
    winner: int | None = None  # the winning side


def single_highest(points: Sequence[int]) -> int | None:
    """The side with the one highest number, or None when the highest is shared."""
    best = max(points)
    return list(points).index(best) if list(points).count(best) == 1 else None


def game_winner(rules: RuleSet, totals: Sequence[int], round_points: Sequence[int]) -> int | None:
    """The winning side after a complete round, or None when another round is played.

    A shared highest total (or round score) decides nothing: another round is played.
    """
    leader = single_highest(round_points)
    if rules.single_round:
        return leader
    if rules.round_win_points and max(round_points) >= rules.round_win_points and leader is not None:
        return leader
    if max(totals) >= rules.target:
        return single_highest(totals)
    return None


def play_game(
    rules: RuleSet,
    rng: np.random.Generator,
    choosers: Sequence[Chooser],
    on_round: Callable[[list[int], int], None] | None = None,
) -> GameResult:
    """Play rounds from shuffles drawn from rng until the game is won; choosers[p] plays for player p.

    The first dealer is drawn at random and the deal then passes to the next
    player (two players: it alternates); a void round is replayed with the
    same dealer and no points. `on_round(totals, dealer)`, if given, hears the
    score and the dealer before each round (for choosers that play for the game).
    """
    n = rules.players
    game = GameResult(totals=[0] * rules.n_sides)
    dealer = int(rng.integers(n))
    for _ in range(MAX_ROUNDS):
        deck = rng.permutation(52)
        if on_round is not None:
            on_round(list(game.totals), dealer)
        result = play_round(rules, deck, dealer, lambda pos, moves: choosers[pos.to_move](pos, moves))
        game.rounds.append(result)
        if result.void:
            continue
        pts = result.score.totals
        game.totals = [t + pt for t, pt in zip(game.totals, pts)]
        game.winner = game_winner(rules, game.totals, pts)
        if game.winner is not None:
            return game
        dealer = (dealer + 1) % n
    raise RuntimeError(f"no winner after {MAX_ROUNDS} rounds")
