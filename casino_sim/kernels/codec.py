"""The one door between the engines' types: the reference's Position, Move and Score <-> state arrays and rows.

No other module of the numba engine imports the reference engine. Errors are
the reference's own types (IllegalMove, PositionError), whichever engine answers.
"""

from __future__ import annotations

import numpy as np

from casino_sim.core.cards import is_spade
from casino_sim.core.record import TEAMS, column_owner
from casino_sim.core.rules import RuleSet
from casino_sim.kernels import layout as L
from casino_sim.kernels.state import new_state
from casino_sim.reference.apply import IllegalMove, check_move
from casino_sim.reference.moves import KINDS, Move
from casino_sim.reference.position import Build, Position, PositionError, names_dealer
from casino_sim.reference.round import round_context
from casino_sim.reference.score import Score, pile_points
from casino_sim.reference.seats import dealers_fitting, expected_sizes, sides, turn_order

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
    "score_rows",
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
    """The engine state of a position of any player count (an unknown hand becomes an empty mask).

    The dealer is the position's, or the one its hand sizes name; the ply is left 0 (world_state sets it).
    """
    st = new_state()
    for p in range(pos.players):
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
    st[L.DEALER] = _dealer_of(pos)
    return st


def _dealer_of(pos: Position) -> int:
    """The position's dealer: given, or the only one its hand sizes fit (0 when none or several do)."""
    if pos.dealer is not None:
        return pos.dealer
    fits = dealers_fitting([None if h is None else len(h) for h in pos.hands], pos.to_move)
    return fits[0] if len(fits) == 1 else 0


def state_to_position(st: np.ndarray, rules: RuleSet, hands_known=None) -> Position:
    """The position of an engine state of rules.players players (the hands not known become None).

    Three and four players name the dealer (docs/notation.md, positions); two-player positions keep today's form
    without it.
    """
    n = rules.players
    known = (True,) * n if hands_known is None else hands_known
    return Position(
        rules=rules,
        to_move=int(st[L.TO_MOVE]),
        hands=tuple(frozenset(_cards(st[L.HAND + p])) if known[p] else None for p in range(n)),
        loose=frozenset(_cards(st[L.LOOSE])),
        builds=tuple(
            Build(v, frozenset(_cards(st[L.BUILD + v])), int(st[L.OWNER + v])) for v in range(1, 11) if st[L.BUILD + v]
        ),
        captured=tuple(frozenset(_cards(st[L.CAPTURED + p])) for p in range(n)),
        sweeps=tuple(int(st[L.SWEEPS + p]) for p in range(n)),
        last_capturer=None if st[L.LAST_CAPTURER] < 0 else int(st[L.LAST_CAPTURER]),
        must_act=tuple(bool(st[L.MUST_ACT + p]) for p in range(n)),
        dealer=int(st[L.DEALER]) if names_dealer(n) else None,
    )


def mover_state(pos: Position) -> tuple[np.ndarray, np.ndarray, tuple[bool, ...]]:
    """(state, rules array, which hands are known) of a position whose player to move shows their hand."""
    if pos.hands[pos.to_move] is None:
        raise PositionError(f"the hand of player {pos.to_move} (to move) is unknown")
    known = tuple(h is not None for h in pos.hands)
    return position_to_state(pos), pos.rules.as_array(), known


def world_state(pos: Position) -> tuple[np.ndarray, bool]:
    """The engine state of a position for sampling worlds, and whether every other player's hand is known.

    Unless all are known, each unknown hand becomes any cards of its size (the worlds re-deal every other
    hand); the dealer and the ply follow from the cards (round_context).
    """
    p, n = pos.to_move, pos.players
    _opp, dealer, ply = round_context(pos)
    st = position_to_state(pos)
    others = [q for q in turn_order(p, n) if q != p]  # from the mover's left
    known = all(pos.hands[q] is not None for q in others)
    if not known:
        sizes = expected_sizes(dealer, p, n, len(pos.hands[p]))
        free = iter(sorted(set(range(52)) - set(pos.all_cards())))
        for q in others:
            if pos.hands[q] is None:
                st[L.HAND + q] = sum(1 << next(free) for _ in range(sizes[q]))
    st[L.DEALER], st[L.PLY] = dealer, ply
    return st, known


def unseen_hand(pos: Position) -> int:
    """The mask of the cards the player to move has not seen (two players, last batch: the opponent's hand)."""
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
    """The reference Score of a per-round record of any player count (a void round: all zeros): each player's
    points from their place's columns, with teams each team's prizes and its members' other points."""
    places = [c.removesuffix("_seat") for c in rec if c.endswith("_seat")]
    n, dealer = len(places), int(rec["dealer"])
    own = [{k: int(rec[f"{column_owner(n, dealer, p)}_{k}"]) for k in L.CATEGORY_COLUMNS} for p in range(n)]
    if "team_first_total" not in rec:
        return Score(tuple(own))
    points = []
    for side in (0, 1):  # side s: players s and s + 2; its team is the dealer's or the first place's (record.py)
        team = TEAMS[dealer % 2 == side]
        prizes = {k: int(rec[f"team_{team}_{k}"]) for k in ("cards", "spades")}
        points.append({k: prizes.get(k, own[side][k] + own[side + 2][k]) for k in L.CATEGORY_COLUMNS})
    return Score(tuple(points))


def score_rows(pos: Position, score: Score) -> np.ndarray:
    """The engine's score rows (layout.py: one per player, then with teams one per side) of a reference Score of
    the round whose final position is `pos`: a player's row holds their own pile's and sweeps' points (with teams,
    no majority prize: that is the side's), a side's row its Score entry; raw counts from the piles."""
    rules, n = pos.rules, pos.players
    rows = np.zeros((n + 2 if rules.teams else n, L.SCORE_FIELDS), dtype=np.int64)
    for p in range(n):
        own = {"cards": 0, "spades": 0, **pile_points(rules, pos.captured[p], pos.sweeps[p])}
        _fill_row(rows[p], own if rules.teams else score.points[p], [p], pos)
    if rules.teams:
        for side, members in enumerate(sides(rules, n)):
            _fill_row(rows[n + side], score.points[side], members, pos)
    return rows


def _fill_row(row: np.ndarray, points: dict, members, pos: Position) -> None:
    """One score row: the categories' points, their total, and the members' cards, spades and sweeps."""
    for k, cat in enumerate(L.CATEGORY_COLUMNS):
        row[L.S_CARDS + k] = points[cat]
    row[L.S_TOTAL] = sum(points[cat] for cat in L.CATEGORY_COLUMNS)
    row[L.S_N_CARDS] = sum(len(pos.captured[p]) for p in members)
    row[L.S_N_SPADES] = sum(sum(map(is_spade, pos.captured[p])) for p in members)
    row[L.S_N_SWEEPS] = sum(pos.sweeps[p] for p in members)
