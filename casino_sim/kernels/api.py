"""The numba engine behind plain Python calls on positions: legal moves, apply, a scripted round, warmup.

Kernels are private and deterministic; these wrappers check arguments and
convert through codec.py. Rollouts and exact values are decide.py's; rows
of simulate are rows.py's.
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np

from casino_sim.core.featurespec import N_FEATURES
from casino_sim.core.rules import STRICT, RuleSet
from casino_sim.kernels import layout as L
from casino_sim.kernels.apply import _apply
from casino_sim.kernels.buffers import _new_scratch, grow_and_replay
from casino_sim.kernels.codec import (
    IllegalMove,
    PositionError,
    illegal_reason,
    move_of_row,
    mover_state,
    row_of_move,
    score_of_record,
    state_to_position,
)
from casino_sim.kernels.movegen import _movegen, _sort_moves
from casino_sim.kernels.rows import play_rows
from casino_sim.kernels.tables import split_table

__all__ = [
    "IllegalMove",
    "PositionError",
    "apply_move",
    "legal_move_rows",
    "legal_moves",
    "play_round_scripted",
    "play_round_scripted_raw",
    "warmup",
]


_KEPT = []  # the last Scratch of the position tools, reused while it is large enough


def _generate(st: np.ndarray, rules_arr: np.ndarray) -> np.ndarray:
    """The legal moves of the player to move as engine records (n, MOVE_FIELDS), in generation order."""

    def run(cap, bits):
        if not _KEPT or _KEPT[0].mv.shape[0] < cap or _KEPT[0].sc_code.shape[0] < 1 << bits:
            _KEPT[:] = [_new_scratch(cap, bits)]
        buf = _KEPT[0]
        n = _movegen(st, rules_arr, split_table(), buf.mv, buf.sc_code, buf.sc_mask)
        status = L.NEED_SCRATCH if n < 0 else L.NEED_MOVES if n > buf.mv.shape[0] else L.OK
        return status, buf.mv[: max(n, 0)].copy()

    return grow_and_replay(run, "legal moves")


def legal_move_rows(pos) -> np.ndarray:
    """The legal moves as engine records (n, MOVE_FIELDS), in canonical order."""
    st, rules_arr, _known = mover_state(pos)
    rows = _generate(st, rules_arr)
    order = np.zeros(len(rows), dtype=np.int64)
    _sort_moves(rows, len(rows), order)
    return rows[order]


def legal_moves(pos) -> list:
    """Every legal move of the player to move, distinct, in canonical order (reference types)."""
    return [move_of_row(r) for r in legal_move_rows(pos)]


def apply_move(pos, move):
    """The position after a legal move; IllegalMove (with the reason) otherwise. Deals nothing."""
    st, rules_arr, known = mover_state(pos)
    try:
        row = row_of_move(move)
    except (KeyError, TypeError, ValueError):
        raise IllegalMove(f"not a move: {move!r}") from None
    rows = _generate(st, rules_arr)
    if not any(tuple(int(x) for x in r) == row for r in rows):
        raise IllegalMove(illegal_reason(pos, move))
    keep = st[L.MUST_ACT : L.MUST_ACT + L.MAX_PLAYERS].copy()
    _apply(st, rules_arr, *row)
    if not pos.rules.next_turn_obligation:  # obligations are the italian rule's only
        st[L.MUST_ACT : L.MUST_ACT + L.MAX_PLAYERS] = keep
    return replace(state_to_position(st, pos.rules, known), dealer=pos.dealer)  # a play never changes the dealer


def _check_deck(deck) -> np.ndarray:
    d = np.asarray(deck, dtype=np.int64).ravel()
    if d.shape != (52,) or not np.array_equal(np.sort(d), np.arange(52)):
        raise ValueError("the deck must hold each of the 52 cards once")
    return d


def play_round_scripted_raw(
    rules: RuleSet, deck, dealer: int, r, search: bool = False
) -> tuple[np.ndarray, dict[str, int]]:
    """The round where ply i plays legal move r[i] % n (canonical order): (its moves (PLIES, MOVE_FIELDS), record).

    Played by the row kernel of simulate, every seat scripted; `search`: on its variant for seats that search
    (rows.py play_rows).
    """
    d = _check_deck(deck)
    if dealer not in range(rules.players):
        raise ValueError(f"dealer must be one of the {rules.players} players, got {dealer!r}")
    r = np.asarray(r).astype(np.int64).ravel()
    if r.shape[0] < L.PLIES or (r < 0).any():
        raise ValueError(f"r must hold at least {L.PLIES} non-negative integers")
    one = SimpleNamespace(
        decks=d.reshape(1, 52),
        dealer=np.array([dealer]),
        seeds=np.zeros(1, np.uint64),
        seating=np.zeros((1, rules.players), np.int64),
        deal_id=np.zeros(1, np.int64),
        mirror=np.zeros(1, np.int64),
    )
    ints = np.zeros((2, L.P_INTS), dtype=np.int64)
    ints[:, L.P_KIND] = L.SCRIPTED
    no_weights = np.zeros((4, N_FEATURES))
    trace = np.zeros((1, L.PLIES, L.MOVE_FIELDS), dtype=np.int64)
    scripts = r[: L.PLIES].reshape(1, L.PLIES)
    rec = play_rows(one, rules, ints, no_weights, no_weights, trace=trace, scripts=scripts, search=search)
    return trace[0], {c: int(v[0]) for c, v in rec.items()}


def play_round_scripted(rules: RuleSet, deck, dealer: int, r):
    """Play a round where ply i plays legal_moves[r[i] % n] (canonical order).

    Returns (transcript: list of 48 Moves, score: reference Score). A void
    round scores all zeros (reference VOID_SCORE).
    """
    transcript, rec = play_round_scripted_raw(rules, deck, dealer, r)
    return [move_of_row(row) for row in transcript], score_of_record(rec)


def warmup() -> None:
    """Compile (or load from numba's cache) exactly the kernels simulate runs, by playing one scripted round."""
    # a stream that captures often (always trailing would pile up the table beyond any enumeration)
    play_round_scripted_raw(STRICT, np.arange(52), 0, np.arange(L.PLIES, dtype=np.int64) * 7919 + 13)
