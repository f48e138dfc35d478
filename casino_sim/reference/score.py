"""The score of a round by category (RULES.md section 4 and the rule sets of section 6)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from casino_sim.core.cards import BIG_CASINO, LITTLE_CASINO, is_ace, is_spade
from casino_sim.core.record import CATEGORIES
from casino_sim.core.rules import RuleSet

__all__ = ["CATEGORIES", "CATEGORY_LABELS", "VOID_SCORE", "Score", "score_round"]

CATEGORY_LABELS = {
    "cards": "most cards",
    "spades": "most spades",
    "aces": "aces",
    "ten_diamonds": "10♦ (big casino)",
    "two_spades": "2♠ (little casino)",
    "sweeps": "sweeps",
}


@dataclass(frozen=True)
class Score:
    """Points per category for each player; `totals` sums them."""

    points: tuple[dict[str, int], dict[str, int]]

    @property
    def totals(self) -> tuple[int, int]:
        return (sum(self.points[0].values()), sum(self.points[1].values()))


def score_round(rules: RuleSet, captured: Sequence[frozenset[int]], sweeps: Sequence[int]) -> Score:
    """Points from the capture piles and sweep counts at the end of a round."""
    points = []
    for p in (0, 1):
        pile = captured[p]
        points.append(
            {
                "cards": rules.most_cards_points if len(pile) >= rules.most_cards_at_least else 0,
                "spades": rules.most_spades_points if sum(map(is_spade, pile)) >= rules.most_spades_at_least else 0,
                "aces": sum(map(is_ace, pile)),
                "ten_diamonds": 2 if BIG_CASINO in pile else 0,
                "two_spades": 1 if LITTLE_CASINO in pile else 0,
                "sweeps": sweeps[p] * rules.sweep_points,
            }
        )
    return Score((points[0], points[1]))


VOID_SCORE = Score(({k: 0 for k in CATEGORIES}, {k: 0 for k in CATEGORIES}))
