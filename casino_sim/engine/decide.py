"""Rollouts and exact search in a NOTATION.md position: the rollout policy's decision and the analyser's numbers.

A position does not say how many cards the stock holds, who dealt, or (when the
opponent's hand is unknown) how many cards the opponent holds. They follow from
the deal: the stock is a multiple of 8 cards, and the player to move holds as
many cards as the opponent (first to play in the batch) or one more (dealer).
"""

from __future__ import annotations

import numpy as np

from casino_sim.core.featurespec import N_FEATURES
from casino_sim.engine.api import move_of_row, position_to_state, row_of_move
from casino_sim.engine.choose import NEED_MOVES, NEED_SCRATCH, _rollout_diffs, _rollout_index
from casino_sim.engine.exact import DEPTH, _exact_values
from casino_sim.engine.movegen import MAX_SCRATCH_BITS, MOVE_FIELDS
from casino_sim.engine.rows import MAX_MOVE_CAP, MOVE_CAP, SCRATCH_BITS
from casino_sim.engine.score import SCORE_FIELDS
from casino_sim.engine.state import DEALER, HAND, PLIES, PLY, STATE_SIZE
from casino_sim.engine.tables import split_table
from casino_sim.reference.movegen import legal_moves
from casino_sim.reference.moves import Move
from casino_sim.reference.position import Position, PositionError
from casino_sim.reference.round import round_context


def world_state(pos: Position) -> tuple[np.ndarray, bool]:
    """The engine state of a position for sampling worlds, and whether the opponent's hand is known.

    An unknown opponent's hand becomes any cards of the right count (the
    worlds re-deal them); the dealer and the ply follow from the cards.
    """
    p = pos.to_move
    opp, dealer, ply = round_context(pos)
    st = position_to_state(pos)
    known = pos.hands[1 - p] is not None
    if not known:
        free = sorted(set(range(52)) - set(pos.all_cards()))
        st[HAND + 1 - p] = sum(1 << c for c in free[:opp])
    st[DEALER], st[PLY] = dealer, ply
    return st, known


def _move_table(moves: list[Move]) -> np.ndarray:
    return np.array([row_of_move(m) for m in moves], dtype=np.int64).reshape(-1, MOVE_FIELDS)


def _rollout_buffers(cap: int, bits: int) -> tuple:
    """The scratch of a rollout kernel, from work_mv to wants2 (in the kernels' argument order)."""
    return (
        np.zeros((cap, MOVE_FIELDS), np.int64),
        np.zeros(1 << bits, np.int64),
        np.zeros(1 << bits, np.int64),
        np.zeros(STATE_SIZE, np.int64),
        np.zeros(N_FEATURES),
        np.zeros(cap),
        np.zeros(STATE_SIZE, np.int64),
        np.zeros(52, np.int64),
        np.zeros(52, np.int64),
        np.zeros(52, np.int64),
        np.zeros(2, np.int64),
        np.zeros((2, N_FEATURES)),
        np.zeros((2, N_FEATURES), np.int64),
    )


def _grown(n_moves: int, kernel, what: str):
    """kernel(cap, bits) -> (status, result), called again with larger move and subset buffers until they suffice.

    The kernels are deterministic, so a call that ran out of room is replayed whole.
    """
    cap, bits = max(MOVE_CAP, 4 * n_moves) * 8, SCRATCH_BITS + 6
    while True:
        status, result = kernel(cap, bits)
        if status == NEED_MOVES and cap < MAX_MOVE_CAP:
            cap *= 4
        elif status == NEED_SCRATCH and bits < MAX_SCRATCH_BITS:
            bits = MAX_SCRATCH_BITS
        elif status == NEED_SCRATCH:
            raise PositionError(f"{what}: a line of play puts more loose cards on the table than the engine enumerates")
        elif status != 0:
            raise RuntimeError(f"{what} failed with status {status}")
        else:
            return result


def rollout_choose(
    pos: Position, ints: np.ndarray, base_weights: np.ndarray, base_wants: np.ndarray, seed: int
) -> Move:
    """The rollout policy's move (policy row `ints`, its base's weights): the best mean point difference."""
    st, _known = world_state(pos)
    moves = legal_moves(pos)
    mv = _move_table(moves)

    def kernel(cap, bits):
        index, status = _rollout_index(
            st.copy(),
            pos.rules.as_array(),
            split_table(),
            mv,
            len(moves),
            ints,
            base_weights,
            base_wants,
            np.array([seed], dtype=np.uint64),
            *_rollout_buffers(cap, bits),
            np.zeros(len(moves)),
            np.zeros((2, SCORE_FIELDS), np.int64),
            np.zeros(1, np.uint64),
        )
        return status, index

    return move_of_row(mv[_grown(len(moves), kernel, "rollout")])


def rollout_diffs(
    pos: Position,
    moves: list[Move],
    base_kind: int,
    base_weights: np.ndarray,
    base_wants: np.ndarray,
    worlds: int,
    seed: int,
) -> np.ndarray:
    """(worlds, len(moves)): the mover's point difference at the round's end after each move in each world.

    Worlds share their hidden cards and play-out streams across moves (common
    random numbers); a known opponent's hand is kept and only the stock sampled.
    """
    st, known = world_state(pos)
    mv = _move_table(moves)

    def kernel(cap, bits):
        out = np.zeros((worlds, len(moves)))
        status = _rollout_diffs(
            st.copy(),
            pos.rules.as_array(),
            split_table(),
            mv,
            len(moves),
            base_kind,
            base_weights,
            base_wants,
            known,
            np.array([seed], dtype=np.uint64),
            *_rollout_buffers(cap, bits),
            np.zeros((2, SCORE_FIELDS), np.int64),
            np.zeros(1, np.uint64),
            out,
        )
        return status, out

    return _grown(len(moves), kernel, "rollout")


def exact_values(pos: Position, moves: list[Move]) -> np.ndarray | None:
    """Each move's exact final point difference under best play by both sides, or None before the last batch.

    Only in the last batch (stock empty) is every card known: the opponent
    holds the cards the mover has not seen.
    """
    st, _known = world_state(pos)
    if st[PLY] < PLIES - 8:
        return None
    p = pos.to_move
    if pos.hands[1 - p] is None:
        seen = set(pos.all_cards())
        st[HAND + 1 - p] = sum(1 << c for c in range(52) if c not in seen)
    mv = _move_table(moves)

    def kernel(cap, bits):
        out = np.zeros(len(moves), np.int64)
        status = _exact_values(
            st,
            pos.rules.as_array(),
            split_table(),
            mv,
            len(moves),
            np.zeros((DEPTH, STATE_SIZE), np.int64),
            np.zeros((DEPTH, cap, MOVE_FIELDS), np.int64),
            np.zeros(1 << bits, np.int64),
            np.zeros(1 << bits, np.int64),
            np.zeros((2, SCORE_FIELDS), np.int64),
            np.zeros(1, np.int64),
            np.zeros((5, DEPTH), np.int64),
            out,
        )
        return status, out

    return _grown(len(moves), kernel, "exact search")
