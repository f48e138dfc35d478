"""Positions and moves from card strings, and positions the tests share."""

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


# The mover holds the 10♦ and can sweep 4♣ 6♠ with it (the opponent's hand unknown).
SWEEP_WITH_BIG_CASINO = {
    "hands": [["TD", "KH", "3C", "8D"], None],
    "loose": ["4C", "6S"],
    "captured": [["5H"], ["5D"]],
    "last_capturer": 1,
}


def random_position(seed: int, ply: int, rules: str = "strict") -> Position:
    """The position after `ply` random plays of a seeded deal (both hands known)."""
    import numpy as np

    from casino_sim.core.rules import get_rules
    from casino_sim.reference import legal_moves, play
    from casino_sim.reference.round import deal_batch

    rng = np.random.default_rng(seed)
    dealer, deck = int(rng.integers(2)), [int(c) for c in rng.permutation(52)]
    pos = Position(rules=get_rules(rules), to_move=1 - dealer)
    for k in range(ply + 1):
        if not pos.hands[0] and not pos.hands[1]:
            pos = deal_batch(pos, deck, k // 8, dealer)
        if k == ply:
            return pos
        moves = legal_moves(pos)
        pos = play(pos, moves[int(rng.integers(len(moves)))])


def table(
    rules: str,
    hands: list[str | None],
    loose: str = "",
    builds=(),
    to_move: int = 0,
    captured=None,
    must_act=None,
    dealer: int | None = None,
    last_capturer=None,
) -> Position:
    """A validated Position of any number of players (one hand string per player) through the JSON reader."""
    n = len(hands)
    obj = {
        "rules": rules,
        "to_move": to_move,
        "hands": [None if h is None else h.split() for h in hands],
        "loose": loose.split(),
        "builds": [{"value": v, "cards": cs.split(), "owner": o} for v, cs, o in builds],
        "captured": [c.split() for c in (captured or [""] * n)],
        "must_act": list(must_act or [False] * n),
        "last_capturer": last_capturer,
    }
    if dealer is not None:
        obj["dealer"] = dealer
    return Position.from_json(obj)
