"""Seats, turns and sides for two to four players (docs/rules.md section 11).

Players 0..n-1 sit in turn order; the dealer plays last in each batch and the
player after the dealer first. With teams, partners sit opposite: side 0 is
players 0 and 2, side 1 players 1 and 3. A side is a player, or a team.
"""

from __future__ import annotations

from casino_sim.core.deal import HAND_SIZE
from casino_sim.core.record import place_names  # noqa: F401  (a seat's place in the turn order: first, ..., dealer)
from casino_sim.core.rules import RuleSet


def turn_order(dealer: int, players: int) -> list[int]:
    """The players in the order they play each batch: the one after the dealer first, the dealer last."""
    return [(dealer + 1 + i) % players for i in range(players)]


def side_of(rules: RuleSet, player: int) -> int:
    """The side a player scores for: their team with teams, else themselves."""
    return player % 2 if rules.teams else player


def sides(rules: RuleSet, players: int) -> list[tuple[int, ...]]:
    """The players of each side, side by side: [(0, 2), (1, 3)] with teams, [(0,), (1,), ...] without."""
    return [(0, 2), (1, 3)] if rules.teams else [(p,) for p in range(players)]


def opponents(rules: RuleSet, a: int, b: int) -> bool:
    """Whether two different players play against each other (partners do not)."""
    return a != b and side_of(rules, a) != side_of(rules, b)


def expected_sizes(dealer: int, to_move: int, players: int, held: int) -> list[int]:
    """The hand sizes when `to_move` holds `held` cards: those who played since the batch's lap began hold one fewer."""
    order = turn_order(dealer, players)
    played = order[: order.index(to_move)]
    return [held - 1 if p in played else held for p in range(players)]


def dealers_fitting(sizes: list[int | None], to_move: int) -> list[int]:
    """Every dealer for whom these hand sizes (None: hidden) are a moment of a deal with `to_move` to play."""
    n = len(sizes)
    fits = []
    for dealer in range(n):
        for held in range(HAND_SIZE + 1):
            want = expected_sizes(dealer, to_move, n, held)
            if min(want) >= 0 and all(s is None or s == w for s, w in zip(sizes, want)):
                fits.append(dealer)
                break
    return fits
