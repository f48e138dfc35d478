"""The score of a round by category (docs/rules.md section 7 and the rule sets of section 5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from casino_sim.core.cards import BIG_CASINO, LITTLE_CASINO, is_ace, is_spade
from casino_sim.core.record import CATEGORIES, CATEGORY_LABELS
from casino_sim.core.rules import RuleSet
from casino_sim.reference.seats import sides

__all__ = ["CATEGORIES", "CATEGORY_LABELS", "VOID_SCORE", "Score", "pile_points", "prize_winner", "score_round"]


@dataclass(frozen=True)
class Score:
    """Points per category for each side (a player, or a team with teams); `totals` sums them."""

    points: tuple[dict[str, int], ...]

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(side.values()) for side in self.points)


def prize_winner(rules: RuleSet, counts: Sequence[int], at_least: int) -> int | None:
    """The side that takes a majority prize (most cards, most spades), or None.

    italian: the side with `at_least` or more (27 cards, 7 spades: at most one can); strict and brazilian: the
    side with strictly the most (a tie for the most gives it to nobody). Two sides count the threshold in every
    rule set: of 52 cards and 13 spades it is the strict majority, and it is today's two-player rule.
    """
    if rules.most_by_count or len(counts) == 2:  # the majority rule (docs/rules.md 11, Scoring)
        return next((s for s, c in enumerate(counts) if c >= at_least), None)
    best = max(counts)
    return counts.index(best) if list(counts).count(best) == 1 else None


def pile_points(rules: RuleSet, pile: frozenset[int], sweeps: int) -> dict[str, int]:
    """The points a pile earns on its own (no majority prize): aces, 10♦, 2♠ and its sweeps."""
    return {
        "aces": sum(map(is_ace, pile)),
        "ten_diamonds": 2 if BIG_CASINO in pile else 0,
        "two_spades": 1 if LITTLE_CASINO in pile else 0,
        "sweeps": sweeps * rules.sweep_points,
    }


def side_piles(rules: RuleSet, captured: Sequence[frozenset[int]]) -> list[frozenset[int]]:
    """Each side's cards: a player's pile, or a team's two piles as one."""
    return [frozenset().union(*(captured[p] for p in side)) for side in sides(rules, len(captured))]


def score_round(rules: RuleSet, captured: Sequence[frozenset[int]], sweeps: Sequence[int]) -> Score:
    """Points per side from the capture piles and sweep counts at the end of a round (partners' piles as one)."""
    piles = side_piles(rules, captured)
    side_sweeps = [sum(sweeps[p] for p in side) for side in sides(rules, len(captured))]
    cards_to = prize_winner(rules, [len(pile) for pile in piles], rules.most_cards_at_least)
    spades_to = prize_winner(rules, [sum(map(is_spade, pile)) for pile in piles], rules.most_spades_at_least)
    return Score(
        tuple(
            {
                "cards": rules.most_cards_points if s == cards_to else 0,
                "spades": rules.most_spades_points if s == spades_to else 0,
                **pile_points(rules, pile, side_sweeps[s]),
            }
            for s, pile in enumerate(piles)
        )
    )


def void_score(n_sides: int = 2) -> Score:
    """The score of a void round: nothing to anybody."""
    return Score(tuple({k: 0 for k in CATEGORIES} for _ in range(n_sides)))


VOID_SCORE = void_score()
