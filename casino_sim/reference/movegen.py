"""Every legal move of RULES.md sections 2, 3, 6 and 7: one function per kind of play."""

from __future__ import annotations

from collections.abc import Iterator

from casino_sim.core.cards import is_figure, rank_of, value_of
from casino_sim.core.rules import FIGURE_CAPTURE_THREE
from casino_sim.reference.groups import group_subsets
from casino_sim.reference.moves import Move, sort_moves
from casino_sim.reference.play import play
from casino_sim.reference.position import Position, PositionError


def mover_hand(pos: Position) -> frozenset[int]:
    hand = pos.hands[pos.to_move]
    if hand is None:
        raise PositionError(f"the hand of player {pos.to_move} (to move) is unknown")
    return hand


def loose_numbers(pos: Position) -> list[int]:
    return [c for c in pos.loose if not is_figure(c)]


def trails(pos: Position, card: int) -> Iterator[Move]:
    """Trail: the card goes to the table as a loose card."""
    yield Move("trail", card)


def figure_captures(pos: Position, card: int) -> Iterator[Move]:
    """A figure takes exactly one loose figure of its rank (italian: or all three of three)."""
    same = sorted(c for c in pos.loose if is_figure(c) and rank_of(c) == rank_of(card))
    for other in same:
        yield Move("capture", card, (other,))
    if pos.rules.figure_capture == FIGURE_CAPTURE_THREE and len(same) == 3:
        yield Move("capture", card, tuple(same))


def number_captures(pos: Position, card: int) -> Iterator[Move]:
    """Loose groups summing to the card's value, with or without the build of that value."""
    v = value_of(card)
    build = pos.build_of(v)
    for taken in group_subsets(loose_numbers(pos), v):
        if taken:
            yield Move("capture", card, taken, (), v)
        if build is not None:
            yield Move("capture", card, taken, (v,), v)


def creates_and_adds(pos: Position, card: int) -> Iterator[Move]:
    """Card plus loose cards split into groups of v: a new build, or an add when build v exists.

    Decision 1: creating a group of v beside an existing build v is an add to it.
    """
    for v in range(value_of(card), 11):
        existing = pos.build_of(v)
        for t in group_subsets(loose_numbers(pos), v, extra=card):
            if existing is not None:
                yield Move("add", card, t, (v,), v)
            elif t:  # a build holds at least two cards and never table cards alone
                yield Move("build", card, t, (), v)


def increases(pos: Position, card: int) -> Iterator[Move]:
    """Raise a simple build by the card's value; loose groups of the new value may join."""
    for build in pos.builds:
        if not build.is_simple:
            continue
        w = build.value + value_of(card)
        if w > 10:
            continue
        merged = (build.value, w) if pos.build_of(w) is not None else (build.value,)
        for t in group_subsets(loose_numbers(pos), w):
            yield Move("increase", card, t, merged, w)


def candidate_moves(pos: Position) -> Iterator[Move]:
    """Every play of RULES.md section 2 before the obligations of section 3 are applied."""
    for card in sorted(mover_hand(pos)):
        yield from trails(pos, card)
        if is_figure(card):
            yield from figure_captures(pos, card)
        else:
            yield from number_captures(pos, card)
            yield from creates_and_adds(pos, card)
            yield from increases(pos, card)


def _keeps_capturing_cards(pos: Position, move: Move, after: Position) -> str | None:
    """Keep a capturing card (RULES.md 3): the mover holds a card of the value of every build they own."""
    p = pos.to_move
    hand_values = {value_of(c) for c in after.hands[p]}
    for b in after.builds:
        if b.owner == p and b.value not in hand_values:
            return f"the owner of the build of {b.value} must keep a card of value {b.value} in hand"
    return None


def _can_act(pos: Position) -> bool:
    """Whether the mover has a capture or build that keeps their capturing cards (else italian lets them trail)."""
    return any(m.kind != "trail" and _keeps_capturing_cards(pos, m, play(pos, m)) is None for m in candidate_moves(pos))


def obligation_broken(pos: Position, move: Move, after: Position) -> str | None:
    """The obligation of RULES.md sections 3, 6 and 9 that the move breaks, or None."""
    p = pos.to_move
    if move.kind == "trail":
        if pos.rules.no_trail_while_owner and pos.owns_build(p):
            return "a player who owns a build may not trail"
        if pos.rules.next_turn_obligation and pos.must_act[p]:
            # Two players: the opponent only trailed, so the mover still owns the build and can take it. With
            # more, a partner may have taken it; with no capture or build left, the mover may trail (RULES.md 9).
            if pos.players == 2:
                return "right after building, this player may not trail (the opponent trailed in between)"
            if _can_act(pos):
                return "right after building, this player may not trail (no opponent captured or built in between)"
    return _keeps_capturing_cards(pos, move, after)


def legal_moves(pos: Position) -> list[Move]:
    """Every legal move of the player to move, distinct and in canonical order."""
    return sort_moves(m for m in candidate_moves(pos) if obligation_broken(pos, m, play(pos, m)) is None)
