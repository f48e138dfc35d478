"""Rollouts and exact search in a position (docs/notation.md): the rollout and searcher choices, the analyser's numbers.

A position does not say how many cards the stock holds, who dealt, or (when the
opponent's hand is unknown) how many cards the opponent holds. They follow from
the deal (codec.world_state): the stock is a multiple of 8 cards, and the player
to move holds as many cards as the opponent (first to play in the batch) or one
more (dealer).
"""

from __future__ import annotations

import numpy as np

from casino_sim.kernels import layout as L
from casino_sim.kernels.buffers import _new_scratch, grow_and_replay
from casino_sim.kernels.calls import legal_move_rows
from casino_sim.kernels.codec import move_of_row, move_table, unseen_hand, world_state
from casino_sim.kernels.exact import _exact_values, _search_space
from casino_sim.kernels.rollout import _rollout_diffs
from casino_sim.kernels.search import _search_index
from casino_sim.kernels.tables import split_table


def _search(rows: np.ndarray, kernel, what: str):
    """kernel(buf) -> (status, result) with the candidate moves in buf.mv, grown and replayed until it fits.

    A search replays whole, so it starts with room to spare.
    """

    def run(cap, bits):
        buf = _new_scratch(cap, bits)
        buf.mv[: len(rows)] = rows
        return kernel(buf)

    return grow_and_replay(run, what, max(L.MOVE_CAP, 4 * len(rows)) * 8, L.SCRATCH_BITS + 6)


def search_choose(pos, ints: np.ndarray, base_weights: np.ndarray, base_wants: np.ndarray, seed: int):
    """The move of a rollout or searcher policy (policy row `ints`, its base's weights), as it plays in a round.

    The candidates are the engine's own legal moves, in canonical order (which breaks ties).
    """
    st, _known = world_state(pos)
    rows = legal_move_rows(pos)
    rules, tbl, rng = pos.rules.as_array(), split_table(), np.array([seed], dtype=np.uint64)

    def kernel(buf):
        search = _search_space(buf.mv.shape[0])
        index, status = _search_index(
            st.copy(), rules, tbl, len(rows), ints, base_weights, base_wants, rng.copy(), buf, search
        )
        return status, buf.mv[index].copy()

    return move_of_row(_search(rows, kernel, "rollout"))


def rollout_diffs(
    pos, moves: list, base_kind: int, base_weights: np.ndarray, base_wants: np.ndarray, worlds: int, seed: int
) -> np.ndarray:
    """(worlds, len(moves)): the mover's point difference at the round's end after each move in each world.

    Worlds share their hidden cards and play-out streams across moves (common
    random numbers); a known opponent's hand is kept and only the stock sampled.
    """
    return _play_outs(pos, moves, (base_kind, base_weights, base_wants), worlds, seed, False)[0]


def rollout_points(
    pos, moves: list, base_kind: int, base_weights: np.ndarray, base_wants: np.ndarray, worlds: int, seed: int
) -> np.ndarray:
    """(worlds, len(moves), 2): the points of the mover's side and of the other side at the round's end, in the
    same worlds and play-outs as rollout_diffs (two players, or four in two teams)."""
    return _play_outs(pos, moves, (base_kind, base_weights, base_wants), worlds, seed, True)[1]


def _play_outs(pos, moves: list, base: tuple, worlds: int, seed: int, points: bool) -> tuple[np.ndarray, np.ndarray]:
    """rollout_diffs' margins and, when `points`, both sides' points: one kernel call."""
    st, known = world_state(pos)
    rows = move_table(moves)
    rules, tbl = pos.rules.as_array(), split_table()

    def kernel(buf):
        out = np.zeros((worlds, len(rows)))
        pts = np.zeros((worlds if points else 0, len(rows), 2))
        rng = np.array([seed], dtype=np.uint64)
        status = _rollout_diffs(st.copy(), rules, tbl, len(rows), *base, known, rng, buf, out, pts)
        return status, (out, pts)

    return _search(rows, kernel, "rollout")


def exact_values(pos, moves: list, best_only: bool = False) -> np.ndarray | None:
    """Each move's exact final point difference under best play by both sides, or None before the last batch.
    best_only (the searcher's search): exact for the best moves only, every other move a bound below their value.

    Only in the last batch (stock empty) is every card known: the opponent
    holds the cards the mover has not seen.
    """
    st, known = world_state(pos)
    if st[L.PLY] < L.PLIES - L.PLIES_PER_BATCH:
        return None
    if not known:
        st[L.HAND + 1 - pos.to_move] = unseen_hand(pos)  # the opponent's (a Position is two-player)
    rows = move_table(moves)
    rules, tbl = pos.rules.as_array(), split_table()

    def kernel(buf):
        out = np.zeros(len(rows), np.int64)
        search = _search_space(buf.mv.shape[0])
        code = _exact_values(st, rules, tbl, len(rows), buf.mv, buf.sc_code, buf.sc_mask, search, out, best_only)
        return code, out

    return _search(rows, kernel, "exact search")
