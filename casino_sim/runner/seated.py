"""Two policies at a table of three or four players: the seatings that give each its fair share of the seats,
and per deal A's margin over them (the many-player form of a mirrored deal's headline)."""

from __future__ import annotations

import numpy as np

from casino_sim.core.rules import RuleSet
from casino_sim.engines import get_engine
from casino_sim.policies.policy import Policy
from casino_sim.runner.deals import DealRows, rotations


def seatings(rules: RuleSet, mirrored: bool = True) -> np.ndarray:
    """(seatings, players) booleans, True where A sits; seating s puts A on side s. Teams: A's team (players
    0 and 2) then B's; without teams, A alone in seat 0, 1, ... and B in the others (deals.rotations of A against
    B, as simulate seats single rounds). Unmirrored: the first."""
    n = rules.players
    return rotations([p % 2 for p in range(n)] if rules.teams else [0] + [1] * (n - 1), mirrored) == 0


def side_margins(points: np.ndarray, side: int) -> np.ndarray:
    """Side `side`'s points less the mean of the other sides' (two sides: less the other's), per row."""
    mine = points[:, side]
    return mine - (points.sum(axis=1) - mine) / (points.shape[1] - 1)


def seated_headline(engine: str, rows: DealRows, rules: RuleSet, a: Policy, b: Policy) -> np.ndarray:
    """Per deal of `rows` (its mirror-0 rows: decks and seeds), A's margin averaged over every seating; deal d
    is dealt by player d % players. A void round counts 0, as in the two-player headline."""
    first = rows.mirror == 0
    decks, seeds, dealers = rows.decks[first], rows.seeds[first], rows.deal_id[first] % rules.players
    eng, every = get_engine(engine), seatings(rules)
    margins = np.zeros((len(decks), len(every)))
    for s, seat_a in enumerate(every):
        points, _ = eng.play_sides(rules, decks, dealers, [a if x else b for x in seat_a], seeds)
        margins[:, s] = side_margins(points, s)
    return margins.mean(axis=1)
