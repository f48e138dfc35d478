"""One decision of an engine policy (rollout) in a NOTATION.md position, for the position tools.

A position does not say how many cards the stock holds, who dealt, or (when the
opponent's hand is unknown) how many cards the opponent holds. They follow from
the deal: the stock is a multiple of 8 cards, and the player to move holds as
many cards as the opponent (first to play in the batch) or one more (dealer).
"""

from __future__ import annotations

import numpy as np

from casino_sim.engine.api import move_of_row, position_to_state, row_of_move
from casino_sim.engine.choose import _rollout_index
from casino_sim.engine.movegen import MOVE_FIELDS
from casino_sim.engine.rows import MOVE_CAP, SCRATCH_BITS
from casino_sim.engine.score import SCORE_FIELDS
from casino_sim.engine.state import DEALER, HAND, PLY, STATE_SIZE
from casino_sim.engine.tables import split_table
from casino_sim.featurespec import N_FEATURES
from casino_sim.reference.movegen import legal_moves
from casino_sim.reference.moves import Move
from casino_sim.reference.position import Position, PositionError

def round_context(pos: Position) -> tuple[int, int, int]:
    """(opponent's hand size, dealer, plays made this round) implied by the position."""
    p = pos.to_move
    own = len(pos.hands[p])
    known = set(pos.all_cards()) - (set(pos.hands[1 - p]) if pos.hands[1 - p] is not None else set())
    unknown = 52 - len(known)  # the opponent's hand and the stock
    if pos.hands[1 - p] is not None:
        opp = len(pos.hands[1 - p])
    else:
        opp = own if (unknown - own) % 8 == 0 else own - 1
    stock = unknown - opp
    if opp < 0 or stock < 0 or stock % 8 or own not in (opp, opp + 1) or own == 0:
        raise PositionError("this position cannot arise in a round (the hands and the stock do not fit a deal), "
                         "so hidden cards cannot be sampled")
    dealer = p if own == opp + 1 else 1 - p
    ply = (40 - stock) + (8 - own - opp)
    return opp, dealer, ply


def rollout_choose(pos: Position, ints: np.ndarray, base_weights: np.ndarray, base_wants: np.ndarray,
                   seed: int) -> Move:
    """The rollout policy's move (policy row `ints`, its base's weights): the best mean point difference."""
    p = pos.to_move
    opp, dealer, ply = round_context(pos)
    st = position_to_state(pos)
    if pos.hands[1 - p] is None:  # any cards of the right count: the worlds re-deal them
        free = sorted(set(range(52)) - set(pos.all_cards()))
        st[HAND + 1 - p] = sum(1 << c for c in free[:opp])
    st[DEALER], st[PLY] = dealer, ply
    moves = legal_moves(pos)
    mv = np.array([row_of_move(m) for m in moves], dtype=np.int64).reshape(-1, MOVE_FIELDS)
    cap = max(MOVE_CAP, 4 * len(moves))
    index, status = _rollout_index(
        st, pos.rules.as_array(), split_table(), mv, len(moves), ints, base_weights, base_wants,
        np.array([seed], dtype=np.uint64), np.zeros((cap * 8, MOVE_FIELDS), np.int64),
        np.zeros(1 << (SCRATCH_BITS + 6), np.int64), np.zeros(1 << (SCRATCH_BITS + 6), np.int64),
        np.zeros(STATE_SIZE, np.int64), np.zeros(N_FEATURES), np.zeros(cap * 8), np.zeros(STATE_SIZE, np.int64),
        np.zeros(52, np.int64), np.zeros(52, np.int64), np.zeros(52, np.int64), np.zeros(2, np.int64),
        np.zeros((2, N_FEATURES)), np.zeros((2, N_FEATURES), np.int64), np.zeros(len(moves)),
        np.zeros((2, SCORE_FIELDS), np.int64), np.zeros(1, np.uint64))
    if status != 0:
        raise RuntimeError(f"rollout play-out failed with status {status}")
    return move_of_row(mv[index])
