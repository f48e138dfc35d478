"""Apply a move to a position, and say why a move is illegal."""

from __future__ import annotations

from casino_sim.core.cards import format_card, is_figure, rank_of, value_of
from casino_sim.core.errors import UserError
from casino_sim.core.rules import FIGURE_CAPTURE_THREE
from casino_sim.reference.groups import splits_into_groups
from casino_sim.reference.movegen import legal_moves, obligation_broken
from casino_sim.reference.moves import Move
from casino_sim.reference.play import play
from casino_sim.reference.position import Position


class IllegalMove(UserError):
    """A move that is not legal in the position; the message says why."""


def _shape_error(pos: Position, move: Move) -> str | None:
    """Why the move cannot be made at all from these cards, or None."""
    p = pos.to_move
    hand = pos.hands[p]
    if hand is None:
        return f"the hand of player {p} (to move) is unknown"
    if move.card not in hand:
        return f"{format_card(move.card)} is not in the hand of player {p}"
    for c in move.loose:
        if c not in pos.loose:
            return f"{format_card(c)} is not a loose card on the table"
    for v in move.builds:
        if pos.build_of(v) is None:
            return f"there is no build of value {v}"
    cv = value_of(move.card)
    if move.kind == "trail":
        if move.loose or move.builds or move.value is not None:
            return "a trail takes no cards and has no value"
        return None
    if move.kind == "capture":
        if is_figure(move.card):
            same = [c for c in move.loose if is_figure(c) and rank_of(c) == rank_of(move.card)]
            three = (
                pos.rules.figure_capture == FIGURE_CAPTURE_THREE
                and len(move.loose) == 3
                and len([c for c in pos.loose if is_figure(c) and rank_of(c) == rank_of(move.card)]) == 3
            )
            if move.builds or move.value is not None or len(same) != len(move.loose) or not (len(same) == 1 or three):
                return "a figure captures exactly one loose figure of its rank"
            return None
        if move.value != cv:
            return f"a capture with {format_card(move.card)} has value {cv}"
        if move.builds not in ((), (cv,)):
            return f"a capture with {format_card(move.card)} can only take the build of {cv}"
        if not move.loose and not move.builds:
            return "a capture must take something"
        if not splits_into_groups(move.loose, cv):
            return f"the loose cards do not split into groups of {cv}"
        return None
    v = move.value
    if not isinstance(v, int) or not 1 <= v <= 10:
        return "a build's value must be 1..10"
    if is_figure(move.card):
        return "a figure cannot be built with"
    if move.kind in ("build", "add"):
        if move.kind == "build" and pos.build_of(v) is not None:
            return f"a build of {v} exists: playing onto it is an add"
        if move.kind == "build" and (move.builds or not move.loose):
            return "a new build is made from the played card and at least one loose card"
        if move.kind == "add" and move.builds != (v,):
            return f"an add names the build it adds to ({v})"
        if not splits_into_groups((move.card, *move.loose), v):
            return f"the played card and loose cards do not split into groups of {v}"
        return None
    # increase
    if not move.builds:
        return "an increase names the build it raises"
    old = pos.build_of(move.builds[0])
    if not old.is_simple:
        return f"the build of {old.value} is multiple: its value can never change"
    if old.value + cv != v:
        return f"raising the build of {old.value} with {format_card(move.card)} gives {old.value + cv}, not {v}"
    merged = (old.value, v) if pos.build_of(v) is not None else (old.value,)
    if move.builds != merged:
        return f"an increase to {v} names the raised build" + (
            f" and the build of {v} it merges with" if len(merged) > 1 else ""
        )
    if not splits_into_groups(move.loose, v):
        return f"the loose cards do not split into groups of {v}"
    return None


def check_move(pos: Position, move: Move) -> str | None:
    """Why the move is illegal in the position, or None when it is legal."""
    reason = _shape_error(pos, move)
    if reason is None:
        reason = obligation_broken(pos, move, play(pos, move))
    if reason is None and move not in legal_moves(pos):  # belt and braces: movegen is the spec
        reason = "not a legal move in this position"
    return reason


def apply_move(pos: Position, move: Move) -> Position:
    """The position after a legal move; IllegalMove says why otherwise."""
    reason = check_move(pos, move)
    if reason is not None:
        raise IllegalMove(reason)
    return play(pos, move)
