"""Play for the game or for the round (docs/equity.md): two rollouts that differ only in what their play-outs aim at.

Both play each legal move out in the same sampled worlds with the same base policy (kernels' rollout_points).
The `points` rollout keeps the move of the best mean point difference at the round's end, as the built-in
rollout does; the `game` rollout the move of the best mean chance of winning the whole game, read from the
equity table at the score each play-out ends the round on. Whole games on the reference engine, each played
twice with the seats swapped (the same shuffles), say whether playing for the game wins more games.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from casino_sim.core.errors import InputError
from casino_sim.core.rules import RuleSet
from casino_sim.policies.arrays import policy_arrays
from casino_sim.policies.policy import Policy
from casino_sim.reference.game import game_winner, play_game
from casino_sim.reference.moves import Move
from casino_sim.reference.position import Position
from casino_sim.reference.seats import side_of
from casino_sim.reports.stats import Estimate, mean_ci, wilson
from casino_sim.research.options import most_round_points

OBJECTIVES = ("points", "game", "game-then-points")  # the last: equal chances of the game told apart by points
TIE = 1e-12  # means closer than this are equal
TIED_AT_TARGET = 0.5  # totals tied at or above the target: the next round decides, about evenly


def chance_grid(table: pd.DataFrame, target: int) -> np.ndarray:
    """The equity table (reports/equity.py equity_table) as an array [player_score, opponent_score, player_deals]."""
    grid = np.full((target, target, 2), np.nan)
    grid[table["player_score"], table["opponent_score"], table["player_deals"].astype(int)] = table["win_chance"]
    return grid


def end_values(rules: RuleSet, grid: np.ndarray, totals: tuple[int, int], deals_next: bool, most: int) -> np.ndarray:
    """U[a, b]: the mover's chance to win the game when the round ends with their side on a points and the other
    on b, from `totals` (theirs, the other's) before it; `deals_next` whether their side deals the next round."""
    values = np.empty((most + 1, most + 1))
    for a in range(most + 1):
        for b in range(most + 1):
            mine, other = totals[0] + a, totals[1] + b
            winner = game_winner(rules, (mine, other), (a, b))
            if winner is not None:
                values[a, b] = 1.0 if winner == 0 else 0.0
            elif mine >= rules.target:  # tied at or above the target
                values[a, b] = TIED_AT_TARGET
            else:
                values[a, b] = grid[mine, other, int(deals_next)]
    return values


@dataclass
class Rollout:
    """A chooser for play_game: the move of the best mean over `worlds` play-outs by `base`, for its objective."""

    objective: str
    base: Policy
    worlds: int
    seed: int
    grid: np.ndarray
    rules: RuleSet
    totals: list[int] = field(default_factory=list)  # the score before this round, by side
    dealer: int = 0
    decisions: int = 0
    _values: dict = field(default_factory=dict)
    _base_row: tuple = field(init=False)  # the base's kind, weights and wants as the play-out kernel reads them

    def __post_init__(self):
        ints, weights, wants = policy_arrays((self.base, self.base))
        self._base_row = (int(ints[0, 0]), weights[0], wants[0])

    def hear(self, totals: list[int], dealer: int) -> None:
        """play_game's on_round: the score and the dealer of the round about to be played."""
        self.totals, self.dealer = totals, dealer

    def __call__(self, pos: Position, moves: list[Move]) -> Move:
        from casino_sim.kernels import rollout_points  # deferred: loads numba when the games start

        if len(moves) == 1:
            return moves[0]
        self.decisions += 1
        seed = int(np.random.SeedSequence([self.seed, self.decisions]).generate_state(1, np.uint64)[0])
        pts = rollout_points(pos.seen_by(pos.to_move), moves, *self._base_row, self.worlds, seed)
        margin = (pts[..., 0] - pts[..., 1]).mean(axis=0)
        if self.objective == "points":
            return moves[int(np.argmax(margin))]  # the first of the best, as the built-in rollout
        values = self._end_values(side_of(self.rules, pos.to_move))
        chance = values[pts[..., 0].astype(int), pts[..., 1].astype(int)].mean(axis=0)
        if self.objective == "game":
            return moves[int(np.argmax(chance))]
        # when every play-out wins (or loses) the game whatever the move, the chances tie: the points decide
        return moves[int(np.argmax(np.where(chance >= chance.max() - TIE, margin, -np.inf)))]

    def _end_values(self, side: int) -> np.ndarray:
        key = (side, tuple(self.totals), self.dealer)
        if key not in self._values:
            mine, other = self.totals[side], self.totals[1 - side]
            deals_next = side_of(self.rules, (self.dealer + 1) % self.rules.players) == side
            most = most_round_points(self.rules)
            self._values[key] = end_values(self.rules, self.grid, (mine, other), deals_next, most)
        return self._values[key]


@dataclass(frozen=True)
class Match:
    """What every game of the experiment shares: the rules, the rollouts' base and worlds, the equity grid, and
    the objective that plays against `points`."""

    rules: RuleSet
    base: Policy
    worlds: int
    grid: np.ndarray
    seed: int
    objective: str = "game"

    def __post_init__(self):
        if self.objective not in OBJECTIVES[1:]:
            raise InputError(
                f"the objective against points is one of {', '.join(OBJECTIVES[1:])}, not {self.objective!r}"
            )


def play_pair(match: Match, pair: int) -> list[dict]:
    """One mirrored pair of whole games from the same shuffles: the game rollout plays side 0, then side 1;
    each player's play-outs draw from a seed of its own (pair, player), the same in both games."""
    rules, rows = match.rules, []
    for game_side in (0, 1):
        choosers = [
            Rollout(
                match.objective if side_of(rules, p) == game_side else "points",
                match.base,
                match.worlds,
                int(np.random.SeedSequence([match.seed, pair, p]).generate_state(1, np.uint64)[0]),
                match.grid,
                rules,
            )
            for p in range(rules.players)
        ]
        game = play_game(
            rules,
            np.random.default_rng([match.seed, pair]),
            choosers,
            on_round=lambda totals, dealer, cs=choosers: [c.hear(totals, dealer) for c in cs],
        )
        rows.append(
            {
                "pair": pair,
                "game_side": game_side,
                "game_won": int(game.winner == game_side),
                "rounds": len(game.rounds),
                "game_total": game.totals[game_side],
                "points_total": game.totals[1 - game_side],
                "decisions": sum(c.decisions for c in choosers),
            }
        )
    return rows


@dataclass(frozen=True)
class ObjectiveResult:
    """How often the game rollout won (Wilson), and its mean edge per mirrored pair in games (Student's t)."""

    games: int
    won: Estimate
    pair_edge: Estimate


def summarise(df: pd.DataFrame) -> ObjectiveResult:
    """The game rollout's share of the games, and per pair its games won less one (0: even)."""
    if df.empty:
        raise InputError("no games to summarise")
    pairs = df.groupby("pair")["game_won"].sum().to_numpy() - 1.0
    return ObjectiveResult(len(df), wilson(float(df["game_won"].sum()), float(len(df))), mean_ci(pairs))
