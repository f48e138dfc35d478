"""Shared builders for the reference-engine tests: positions and moves from card strings."""

from __future__ import annotations

from casino_sim.core.cards import parse_card
from casino_sim.reference.moves import Move
from casino_sim.reference.position import Position


def cards(text: str) -> list[int]:
    """'7D 7S 2H' -> card codes (any accepted notation)."""
    return [parse_card(t) for t in text.split()]


def card(token: str) -> int:
    return parse_card(token)


def position(
    hand0: str | None = "",
    hand1: str | None = "",
    loose: str = "",
    builds=(),
    rules: str = "strict",
    to_move: int = 0,
    captured=("", ""),
    sweeps=(0, 0),
    last_capturer=None,
    must_act=(False, False),
) -> Position:
    """A validated Position built through the public JSON reader.

    builds: (value, "5C 2H", owner) triples. Hands may be None (unknown).
    """
    obj = {
        "rules": rules,
        "to_move": to_move,
        "hands": [None if h is None else h.split() for h in (hand0, hand1)],
        "loose": loose.split(),
        "builds": [{"value": v, "cards": cs.split(), "owner": o} for v, cs, o in builds],
        "captured": [c.split() for c in captured],
        "sweeps": list(sweeps),
        "last_capturer": last_capturer,
        "must_act": list(must_act),
    }
    return Position.from_json(obj)


def move(kind: str, card: str, loose: str = "", builds=(), value=None) -> Move:
    """A Move built through the public JSON reader."""
    return Move.from_json({"kind": kind, "card": card, "loose": loose.split(), "builds": list(builds), "value": value})


def names(cs) -> set[str]:
    """Card codes -> canonical tokens, as a set (for readable asserts)."""
    from casino_sim.core.cards import format_card

    return {format_card(c) for c in cs}


def build_of(pos: Position, value: int):
    b = pos.build_of(value)
    assert b is not None, f"no build of {value} in {pos.to_json()}"
    return b


def of_kind(moves, kind: str, card_token: str | None = None) -> list[Move]:
    c = None if card_token is None else parse_card(card_token)
    return [m for m in moves if m.kind == kind and (c is None or m.card == c)]
