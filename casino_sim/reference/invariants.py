"""The invariants of core/invariants.py checked on a Position: the readable twin of the numba engine's check."""

from __future__ import annotations

from collections.abc import Sequence

from casino_sim.core.cards import is_spade, value_of
from casino_sim.core.invariants import FIXED_POINTS, INVARIANTS, dealt
from casino_sim.reference.groups import splits_into_groups
from casino_sim.reference.position import Position
from casino_sim.reference.score import Score, pile_points, prize_winner, side_piles
from casino_sim.reference.seats import sides


def _cards(pos: Position, deck: Sequence[int] | None, score: Score | None) -> bool:
    placed = pos.all_cards()
    if len(placed) != len(set(placed)):
        return False
    if None in pos.hands:  # a hidden hand: only "no card twice" can be told
        return True
    if len(placed) not in dealt(pos.players) or (
        deck is not None and set(placed) != {int(c) for c in deck[: len(placed)]}
    ):
        return False
    return score is None or len(frozenset().union(*pos.captured)) == 52


def _builds(pos: Position, deck, score) -> bool:
    values = [b.value for b in pos.builds]
    return values == sorted(set(values)) and all(
        1 <= b.value <= 10
        and b.owner in range(pos.players)
        and len(b.cards) >= 2
        and splits_into_groups(b.cards, b.value)  # number cards only
        for b in pos.builds
    )


def _owners(pos: Position, deck, score) -> bool:
    hands = pos.hands
    return all(hands[b.owner] is None or b.value in map(value_of, hands[b.owner]) for b in pos.builds)


def _points(pos: Position, deck, score: Score | None) -> bool:
    if score is None:
        return True
    rules = pos.rules
    piles = side_piles(rules, pos.captured)
    team = list(enumerate(sides(rules, pos.players)))
    if len(score.totals) != len(piles):  # one total per side: a player, or a team
        return False
    cards = prize_winner(rules, [len(pile) for pile in piles], rules.most_cards_at_least)  # 26-26: nobody
    spades = prize_winner(rules, [sum(map(is_spade, pile)) for pile in piles], rules.most_spades_at_least)
    want = (
        (cards is not None) * rules.most_cards_points
        + (spades is not None) * rules.most_spades_points
        + FIXED_POINTS
        + rules.sweep_points * sum(pos.sweeps)
    )
    return sum(score.totals) == want and all(_members_add_up(pos, side, members, score) for side, members in team)


def _members_add_up(pos: Position, side: int, members, score: Score) -> bool:
    """A side's points less its majority prizes are its players' piles' and sweeps' points (partners' summed)."""
    own = [pile_points(pos.rules, pos.captured[p], pos.sweeps[p]) for p in members]
    return all(score.points[side][k] == sum(o[k] for o in own) for k in own[0])


CHECKS = {"cards": _cards, "builds": _builds, "owners": _owners, "points": _points}


def check_invariants(pos: Position, deck: Sequence[int] | None = None, score: Score | None = None) -> list[str]:
    """Names of the invariants `pos` breaks, in list order (none: []).

    With the round's `deck`, the dealt cards must be its first ones; with the `score` of a played (not void)
    round, `pos` is its final position: every card in the two piles, and the points add up.
    """
    return [inv.name for inv in INVARIANTS if not CHECKS[inv.name](pos, deck, score)]
