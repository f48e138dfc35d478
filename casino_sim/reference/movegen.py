"""Every legal move of docs/rules.md sections 3 to 6: one function per kind of play."""

from __future__ import annotations

from collections.abc import Iterator, Sized
from typing import NamedTuple

from casino_sim.core.cards import is_figure, rank_of, value_of
from casino_sim.core.limits import MOVE_LIMIT, too_many_moves
from casino_sim.core.rules import FIGURE_CAPTURE_THREE
from casino_sim.reference.groups import GroupSets, group_subsets
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


class Family(NamedTuple):
    """The moves that differ only in their loose cards: one kind, card, builds and value, and the loose sets.

    The obligations of docs/rules.md section 4 depend on the card, the kind and the builds a play names, never on
    which loose cards join it, so a family is legal or not as a whole, and its moves are counted (len(sets))
    before any is written out.
    """

    kind: str
    card: int
    builds: tuple[int, ...]
    value: int | None
    sets: Sized  # tuples of loose cards in canonical order (a GroupSets, or a plain list)

    def moves(self) -> Iterator[Move]:
        for t in self.sets:
            yield Move(self.kind, self.card, t, self.builds, self.value)

    def first(self) -> Move | None:
        """One move of the family (None when it has none), found without listing the others (GroupSets.first)."""
        sets = self.sets
        t = sets.first() if isinstance(sets, GroupSets) and sets.vectors is None else next(iter(sets), None)
        return None if t is None else Move(self.kind, self.card, t, self.builds, self.value)


def trails(pos: Position, card: int) -> Iterator[Family]:
    """Trail: the card goes to the table as a loose card."""
    yield Family("trail", card, (), None, [()])


def figure_captures(pos: Position, card: int) -> Iterator[Family]:
    """A figure takes exactly one loose figure of its rank (italian: or all three of three)."""
    same = sorted(c for c in pos.loose if is_figure(c) and rank_of(c) == rank_of(card))
    sets = [(other,) for other in same]
    if pos.rules.figure_capture == FIGURE_CAPTURE_THREE and len(same) == 3:
        sets.append(tuple(same))
    yield Family("capture", card, (), None, sets)


def number_captures(pos: Position, card: int) -> Iterator[Family]:
    """Loose groups summing to the card's value (at least one), or the build of that value with any of them."""
    v = value_of(card)
    yield Family("capture", card, (), v, GroupSets(loose_numbers(pos), v, nonempty=True))
    if pos.build_of(v) is not None:
        yield Family("capture", card, (v,), v, group_subsets(loose_numbers(pos), v))


def creates_and_adds(pos: Position, card: int) -> Iterator[Family]:
    """Card plus loose cards split into groups of v: a new build, or an add when build v exists.

    Decision 1: creating a group of v beside an existing build v is an add to it.
    """
    for v in range(value_of(card), 11):
        if pos.build_of(v) is not None:
            yield Family("add", card, (v,), v, group_subsets(loose_numbers(pos), v, extra=card))
        else:  # a build holds at least two cards and never table cards alone
            yield Family("build", card, (), v, GroupSets(loose_numbers(pos), v, extra=card, nonempty=True))


def increases(pos: Position, card: int) -> Iterator[Family]:
    """Raise a simple build by the card's value; loose groups of the new value may join."""
    for build in pos.builds:
        if not build.is_simple:
            continue
        w = build.value + value_of(card)
        if w > 10:
            continue
        merged = (build.value, w) if pos.build_of(w) is not None else (build.value,)
        yield Family("increase", card, merged, w, group_subsets(loose_numbers(pos), w))


def candidate_families(pos: Position) -> Iterator[Family]:
    """Every play of docs/rules.md section 3, by family, before the obligations of section 4 are applied."""
    for card in sorted(mover_hand(pos)):
        yield from trails(pos, card)
        if is_figure(card):
            yield from figure_captures(pos, card)
        else:
            yield from number_captures(pos, card)
            yield from creates_and_adds(pos, card)
            yield from increases(pos, card)


def candidate_moves(pos: Position) -> Iterator[Move]:
    """Every play of docs/rules.md section 3 before the obligations of section 4 are applied."""
    for family in candidate_families(pos):
        yield from family.moves()


def _keeps_capturing_cards(pos: Position, move: Move, after: Position) -> str | None:
    """Keep a capturing card (docs/rules.md section 4): the mover holds a card of the value of every build they own."""
    p = pos.to_move
    hand_values = {value_of(c) for c in after.hands[p]}
    for b in after.builds:
        if b.owner == p and b.value not in hand_values:
            return f"the owner of the build of {b.value} must keep a card of value {b.value} in hand"
    return None


def _can_act(pos: Position) -> bool:
    """Whether the mover has a capture or build that keeps their capturing cards (else italian lets them trail)."""
    return any(
        m.kind != "trail" and _keeps_capturing_cards(pos, m, play(pos, m)) is None
        for m in (f.first() for f in candidate_families(pos))
        if m is not None
    )


def obligation_broken(pos: Position, move: Move, after: Position) -> str | None:
    """The obligation of docs/rules.md sections 4 and 11 that the move breaks, or None."""
    p = pos.to_move
    if move.kind == "trail":
        if pos.rules.no_trail_while_owner and pos.owns_build(p):
            return "a player who owns a build may not trail"
        if pos.rules.next_turn_obligation and pos.must_act[p]:
            # Two players: the opponent only trailed, so the mover still owns the build and can take it. With
            # more, a partner may have taken it; with no capture or build left, the mover may trail (docs/rules.md 11).
            if pos.players == 2:  # the rule: no trail under the obligation, at all (docs/rules.md 11)
                return "right after building, this player may not trail (the opponent trailed in between)"
            if _can_act(pos):
                return "right after building, this player may not trail (no opponent captured or built in between)"
    return _keeps_capturing_cards(pos, move, after)


def legal_families(pos: Position) -> list[Family]:
    """The families of legal moves: each judged by its first move (section 3 does not look at loose cards)."""
    out = []
    for family in candidate_families(pos):
        first = family.first()
        if first is not None and obligation_broken(pos, first, play(pos, first)) is None:
            out.append(family)
    return out


def first_legal_move(pos: Position) -> Move:
    """The first legal move in canonical order: the trail of the lowest card the rules let the mover trail (trails
    sort first), found without writing out the captures and builds; otherwise the first of legal_moves."""
    for card in sorted(mover_hand(pos)):
        trail = Move("trail", card)
        if obligation_broken(pos, trail, play(pos, trail)) is None:
            return trail
    return legal_moves(pos)[0]


def count_legal_moves(pos: Position) -> int:
    """How many legal moves the player to move has, counted by value without writing them out."""
    return sum(len(f.sets) for f in legal_families(pos))


def legal_moves(pos: Position) -> list[Move]:
    """Every legal move of the player to move, distinct and in canonical order.

    PositionError, before any is written out, past the limit both engines share (core/limits.py).
    """
    families = legal_families(pos)
    if sum(len(f.sets) for f in families) > MOVE_LIMIT:
        raise PositionError(too_many_moves())
    return sort_moves(m for f in families for m in f.moves())
