"""The one door between the engines' types: the reference's Position, Move and Score <-> state arrays and rows.

No other module of the numba engine imports the reference engine. Errors are
the reference's own types (IllegalMove, PositionError), whichever engine answers.
"""

from __future__ import annotations

import numpy as np

from casino_sim.core.rules import RuleSet
from casino_sim.engine import layout as L
from casino_sim.engine.state import new_state
from casino_sim.reference.apply import IllegalMove, check_move
from casino_sim.reference.moves import KINDS, Move
from casino_sim.reference.position import Build, Position, PositionError
from casino_sim.reference.round import round_context
from casino_sim.reference.score import Score

__all__ = [
    "IllegalMove",
    "Position",
    "PositionError",
    "illegal_reason",
    "move_of_row",
    "move_table",
    "mover_state",
    "position_to_state",
    "row_of_move",
    "score_of_record",
    "state_to_position",
    "unseen_hand",
    "world_state",
]

_KIND_OF = {k: i for i, k in enumerate(KINDS)}


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def _cards(mask: int) -> tuple[int, ...]:
    out = []
    mask = int(mask)
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def position_to_state(pos: Position) -> np.ndarray:
    """The engine state of a position (an unknown hand becomes an empty mask)."""
    st = new_state()
    for p in (0, 1):
        st[L.HAND + p] = _mask(pos.hands[p] or ())
        st[L.CAPTURED + p] = _mask(pos.captured[p])
        st[L.SWEEPS + p] = pos.sweeps[p]
        st[L.MUST_ACT + p] = 1 if pos.must_act[p] else 0
    st[L.LOOSE] = _mask(pos.loose)
    for b in pos.builds:
        st[L.BUILD + b.value] = _mask(b.cards)
        st[L.OWNER + b.value] = b.owner
    st[L.LAST_CAPTURER] = -1 if pos.last_capturer is None else pos.last_capturer
    st[L.TO_MOVE] = pos.to_move
    return st


def state_to_position(st: np.ndarray, rules: RuleSet, hands_known=(True, True)) -> Position:
    """The position of an engine state (the hands not known become None)."""
    return Position(
        rules=rules,
        to_move=int(st[L.TO_MOVE]),
        hands=tuple(frozenset(_cards(st[L.HAND + p])) if hands_known[p] else None for p in (0, 1)),
        loose=frozenset(_cards(st[L.LOOSE])),
        builds=tuple(
            Build(v, frozenset(_cards(st[L.BUILD + v])), int(st[L.OWNER + v])) for v in range(1, 11) if st[L.BUILD + v]
        ),
        captured=tuple(frozenset(_cards(st[L.CAPTURED + p])) for p in (0, 1)),
        sweeps=(int(st[L.SWEEPS]), int(st[L.SWEEPS + 1])),
        last_capturer=None if st[L.LAST_CAPTURER] < 0 else int(st[L.LAST_CAPTURER]),
        must_act=(bool(st[L.MUST_ACT]), bool(st[L.MUST_ACT + 1])),
    )


def mover_state(pos: Position) -> tuple[np.ndarray, np.ndarray, tuple[bool, bool]]:
    """(state, rules array, which hands are known) of a position whose player to move shows their hand."""
    if pos.hands[pos.to_move] is None:
        raise PositionError(f"the hand of player {pos.to_move} (to move) is unknown")
    known = (pos.hands[0] is not None, pos.hands[1] is not None)
    return position_to_state(pos), pos.rules.as_array(), known


def world_state(pos: Position) -> tuple[np.ndarray, bool]:
    """The engine state of a position for sampling worlds, and whether the opponent's hand is known.

    An unknown opponent's hand becomes any cards of the right count (the
    worlds re-deal them); the dealer and the ply follow from the cards.
    """
    p = pos.to_move
    opp, dealer, ply = round_context(pos)
    st = position_to_state(pos)
    known = pos.hands[1 - p] is not None  # a Position is two-player: 1 - p is the opponent
    if not known:
        free = sorted(set(range(52)) - set(pos.all_cards()))
        st[L.HAND + 1 - p] = sum(1 << c for c in free[:opp])
    st[L.DEALER], st[L.PLY] = dealer, ply
    return st, known


def unseen_hand(pos: Position) -> int:
    """The mask of the cards the player to move has not seen (in the last batch: the opponent's hand)."""
    seen = set(pos.all_cards())
    return sum(1 << c for c in range(52) if c not in seen)


def move_of_row(row) -> Move:
    """The Move of an engine move record (kind, card, loose mask, builds mask, value)."""
    kind, card, loose, builds, value = (int(x) for x in row)
    return Move(
        KINDS[kind],
        card,
        _cards(loose),
        tuple(v for v in range(1, 11) if (builds >> v) & 1),
        None if value < 0 else value,
    )


def row_of_move(move: Move) -> tuple[int, int, int, int, int]:
    """The engine move record of a Move."""
    return (
        _KIND_OF[move.kind],
        int(move.card),
        _mask(move.loose),
        sum(1 << int(v) for v in move.builds),
        -1 if move.value is None else int(move.value),
    )


def move_table(moves: list[Move]) -> np.ndarray:
    """The moves as engine records, one row each (n, MOVE_FIELDS)."""
    return np.array([row_of_move(m) for m in moves], dtype=np.int64).reshape(-1, L.MOVE_FIELDS)


def illegal_reason(pos: Position, move: Move) -> str:
    """The reference engine words why (the numba engine decided that the move is illegal)."""
    return check_move(pos, move) or "not a legal move in this position"


def score_of_record(rec: dict) -> Score:
    """The reference Score of a per-round record (a void round: all zeros)."""
    return Score(tuple({k: int(rec[f"s{p}_{k}"]) for k in L.CATEGORY_COLUMNS} for p in (0, 1)))
