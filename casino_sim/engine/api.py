"""The numba engine behind plain Python calls, in the reference engine's types.

Kernels are private and deterministic; these wrappers check arguments, own
the randomness (numpy SeedSequence) and convert between the reference's
Position/Move values and the engine's arrays.
"""

from __future__ import annotations

import numba
import numpy as np

from casino_sim.core.rules import RuleSet
from casino_sim.engine import movegen as _mg
from casino_sim.engine.apply import _apply
from casino_sim.engine.batch import _simulate_games, _simulate_rounds
from casino_sim.engine.rounds import NEED_MOVES, NEED_SCRATCH, NO_MOVES, TOO_BIG, VOID, _play_round_scripted
from casino_sim.engine.score import CATEGORY_COLUMNS, S_N_CARDS, S_N_SPADES, S_N_SWEEPS, S_TOTAL, SCORE_FIELDS
from casino_sim.engine.state import (
    BUILD,
    CAPTURED,
    HAND,
    LAST_CAPTURER,
    LOOSE,
    MUST_ACT,
    OWNER,
    PLIES,
    SWEEPS,
    TO_MOVE,
    new_state,
)
from casino_sim.engine.tables import split_table
from casino_sim.reference.apply import IllegalMove, check_move  # one error type, whichever engine answers
from casino_sim.reference.moves import KINDS, Move
from casino_sim.reference.position import Build, Position, PositionError

__all__ = [
    "IllegalMove",
    "legal_moves",
    "apply_move",
    "play_round_scripted",
    "simulate_rounds",
    "simulate_games",
    "warmup",
    "DEFAULT_CHUNK_SIZE",
]

DEFAULT_CHUNK_SIZE = 2048
_KIND_OF = {k: i for i, k in enumerate(KINDS)}


# ---------------------------------------------------------------- conversions


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
        st[HAND + p] = _mask(pos.hands[p] or ())
        st[CAPTURED + p] = _mask(pos.captured[p])
        st[SWEEPS + p] = pos.sweeps[p]
        st[MUST_ACT + p] = 1 if pos.must_act[p] else 0
    st[LOOSE] = _mask(pos.loose)
    for b in pos.builds:
        st[BUILD + b.value] = _mask(b.cards)
        st[OWNER + b.value] = b.owner
    st[LAST_CAPTURER] = -1 if pos.last_capturer is None else pos.last_capturer
    st[TO_MOVE] = pos.to_move
    return st


def state_to_position(st: np.ndarray, rules: RuleSet, hands_known=(True, True)) -> Position:
    return Position(
        rules=rules,
        to_move=int(st[TO_MOVE]),
        hands=tuple(frozenset(_cards(st[HAND + p])) if hands_known[p] else None for p in (0, 1)),
        loose=frozenset(_cards(st[LOOSE])),
        builds=tuple(
            Build(v, frozenset(_cards(st[BUILD + v])), int(st[OWNER + v])) for v in range(1, 11) if st[BUILD + v]
        ),
        captured=tuple(frozenset(_cards(st[CAPTURED + p])) for p in (0, 1)),
        sweeps=(int(st[SWEEPS]), int(st[SWEEPS + 1])),
        last_capturer=None if st[LAST_CAPTURER] < 0 else int(st[LAST_CAPTURER]),
        must_act=(bool(st[MUST_ACT]), bool(st[MUST_ACT + 1])),
    )


def move_of_row(row) -> Move:
    kind, card, loose, builds, value = (int(x) for x in row)
    return Move(
        KINDS[kind],
        card,
        _cards(loose),
        tuple(v for v in range(1, 11) if (builds >> v) & 1),
        None if value < 0 else value,
    )


def row_of_move(move: Move) -> tuple[int, int, int, int, int]:
    return (
        _KIND_OF[move.kind],
        int(move.card),
        _mask(move.loose),
        sum(1 << int(v) for v in move.builds),
        -1 if move.value is None else int(move.value),
    )


# ---------------------------------------------------------------- position tools


class _Buffers:
    """Move buffer and subset scratch for Python-side calls (grown on demand)."""

    def __init__(self):
        self.mv, self.sc_code, self.sc_mask = _mg.new_buffers()


_BUF = _Buffers()


def _generate(st: np.ndarray, rules_arr: np.ndarray) -> np.ndarray:
    tbl = split_table()
    while True:
        n = _mg._movegen(st, rules_arr, tbl, _BUF.mv, _BUF.sc_code, _BUF.sc_mask)
        if n < 0:
            if -n > _mg.MAX_SCRATCH_BITS:
                raise PositionError(f"too many loose number cards ({-n}) for the engine's subset enumeration")
            _BUF.sc_code = np.zeros(1 << -n, dtype=np.int64)
            _BUF.sc_mask = np.zeros(1 << -n, dtype=np.int64)
        elif n > _BUF.mv.shape[0]:
            _BUF.mv = np.zeros((2 * n, _mg.MOVE_FIELDS), dtype=np.int64)
        else:
            return _BUF.mv[:n].copy()


def _check_hand(pos: Position) -> None:
    if pos.hands[pos.to_move] is None:
        raise PositionError(f"the hand of player {pos.to_move} (to move) is unknown")


def legal_move_rows(pos: Position) -> np.ndarray:
    """The legal moves as engine records (n, 5), in canonical order."""
    _check_hand(pos)
    rows = _generate(position_to_state(pos), pos.rules.as_array())
    order = np.zeros(len(rows), dtype=np.int64)
    _mg._sort_moves(rows, len(rows), order)
    return rows[order]


def legal_moves(pos: Position) -> list[Move]:
    """Every legal move of the player to move, distinct, in canonical order (reference types)."""
    return [move_of_row(r) for r in legal_move_rows(pos)]


def apply_move(pos: Position, move: Move) -> Position:
    """The position after a legal move; IllegalMove (with the reason) otherwise. Deals nothing."""
    _check_hand(pos)
    st = position_to_state(pos)
    rules_arr = pos.rules.as_array()
    try:
        row = row_of_move(move)
    except (KeyError, TypeError, ValueError):
        raise IllegalMove(f"not a move: {move!r}") from None
    rows = _generate(st, rules_arr)
    if not any(tuple(int(x) for x in r) == row for r in rows):
        raise IllegalMove(_illegal_reason(pos, move))
    if not pos.rules.next_turn_obligation:
        keep = (st[MUST_ACT], st[MUST_ACT + 1])
    _apply(st, rules_arr, *row)
    if not pos.rules.next_turn_obligation:  # obligations are the italian rule's only
        st[MUST_ACT], st[MUST_ACT + 1] = keep
    known = (pos.hands[0] is not None, pos.hands[1] is not None)
    return state_to_position(st, pos.rules, known)


def _illegal_reason(pos: Position, move: Move) -> str:
    """The reference engine words why (the numba engine decided that the move is illegal)."""
    return check_move(pos, move) or "not a legal move in this position"


# ---------------------------------------------------------------- rounds


def _check_rules(rules) -> np.ndarray:
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet, got {type(rules).__name__}")
    return rules.as_array()


def _check_deck(deck) -> np.ndarray:
    d = np.asarray(deck, dtype=np.int64).ravel()
    if d.shape != (52,) or not np.array_equal(np.sort(d), np.arange(52)):
        raise ValueError("the deck must hold each of the 52 cards once")
    return d


def score_of_row(score: np.ndarray):
    """The reference Score of a (2, SCORE_FIELDS) engine score block."""
    from casino_sim.reference.score import Score

    return Score(tuple({k: int(score[p, i]) for i, k in enumerate(CATEGORY_COLUMNS)} for p in (0, 1)))


def play_round_scripted_raw(rules: RuleSet, deck, dealer: int, r):
    """The scripted round as arrays: (transcript (48,5), legal move counts (48,), score (2,F), void)."""
    rules_arr = _check_rules(rules)
    d = _check_deck(deck)
    if dealer not in (0, 1):
        raise ValueError(f"dealer must be 0 or 1, got {dealer!r}")
    r = np.asarray(r).astype(np.int64).ravel()
    if r.shape[0] < PLIES or (r < 0).any():
        raise ValueError(f"r must hold at least {PLIES} non-negative integers")
    tbl = split_table()
    st = new_state()
    transcript = np.zeros((PLIES, 5), dtype=np.int64)
    nmoves = np.zeros(PLIES, dtype=np.int64)
    score = np.zeros((2, SCORE_FIELDS), dtype=np.int64)
    order = np.zeros(_BUF.mv.shape[0], dtype=np.int64)
    while True:
        status, aux = _play_round_scripted(
            st, rules_arr, tbl, d, int(dealer), r, _BUF.mv, _BUF.sc_code, _BUF.sc_mask, order, transcript, nmoves, score
        )
        if status == NEED_MOVES:
            _BUF.mv = np.zeros((2 * aux, 5), dtype=np.int64)
            order = np.zeros(2 * aux, dtype=np.int64)
        elif status == NEED_SCRATCH:
            _BUF.sc_code = np.zeros(1 << aux, dtype=np.int64)
            _BUF.sc_mask = np.zeros(1 << aux, dtype=np.int64)
        elif status == NO_MOVES:
            raise RuntimeError(f"engine: a player had no legal move at ply {aux}")
        elif status == TOO_BIG:
            raise RuntimeError(f"engine: {aux} loose number cards are too many to enumerate captures and builds")
        else:
            return transcript, nmoves, score, status == VOID


def play_round_scripted(rules: RuleSet, deck, dealer: int, r):
    """Play a round where ply i plays legal_moves[r[i] % n] (canonical order).

    Returns (transcript: list of 48 Moves, score: reference Score). A void
    round scores all zeros (reference VOID_SCORE).
    """
    transcript, _, score, _void = play_round_scripted_raw(rules, deck, dealer, r)
    return [move_of_row(row) for row in transcript], score_of_row(score)


# ---------------------------------------------------------------- batch simulation


def _chunk_seeds(seed, n_chunks: int) -> np.ndarray:
    children = np.random.SeedSequence(seed).spawn(n_chunks)
    return np.array([c.generate_state(1, np.uint64)[0] for c in children], dtype=np.uint64)


def _set_threads(threads):
    if threads is None:
        return
    if not isinstance(threads, (int, np.integer)) or threads < 1:
        raise ValueError(f"threads must be a positive integer, got {threads!r}")
    if threads > numba.config.NUMBA_NUM_THREADS:
        raise ValueError(f"threads={threads} exceeds NUMBA_NUM_THREADS={numba.config.NUMBA_NUM_THREADS}")
    numba.set_num_threads(int(threads))


def _check_count(n, what):
    if not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"{what} must be a non-negative integer, got {n!r}")
    return int(n)


def _check_status(status: np.ndarray) -> None:
    if (status == NO_MOVES).any():
        raise RuntimeError("engine: a player had no legal move in some round")
    if (status == TOO_BIG).any():
        raise RuntimeError("engine: some round had too many loose cards to enumerate its moves")


def _batch_setup(rules, count, what: str, chunk_size, threads, seed):
    """Checked arguments of a batch call, numba's threads set, and one seed per chunk."""
    rules_arr = _check_rules(rules)
    n = _check_count(count, what)
    chunk_size = _check_count(chunk_size, "chunk_size")
    if chunk_size < 1:
        raise ValueError("chunk_size must be >= 1")
    _set_threads(threads)
    n_chunks = -(-n // chunk_size)
    return rules_arr, n, chunk_size, n_chunks, _chunk_seeds(seed, n_chunks)


def simulate_rounds(
    rules: RuleSet, n_rounds: int, seed: int = 0, threads: int | None = None, chunk_size: int = DEFAULT_CHUNK_SIZE
) -> dict:
    """Play n_rounds independent random-vs-random rounds in parallel.

    The rounds of chunk k (rows k*chunk_size ...) depend only on child k of
    SeedSequence(seed): the result is bit-identical for any thread count (and
    the first rows do not depend on n_rounds); it does depend on chunk_size.
    Each round's dealer is drawn at random. Returns per-round arrays:
    per seat (shape (n, 2)): the point categories cards, spades, aces,
    ten_diamonds, two_spades, sweeps (points), totals, and the raw counts
    n_cards, n_spades, n_sweeps; per round: plies, void, dealer.
    """
    rules_arr, n, chunk_size, n_chunks, seeds = _batch_setup(rules, n_rounds, "n_rounds", chunk_size, threads, seed)
    scores = np.zeros((SCORE_FIELDS, n, 2), dtype=np.int16)
    plies = np.zeros(n, dtype=np.int8)
    void = np.zeros(n, dtype=np.bool_)
    dealers = np.zeros(n, dtype=np.int8)
    status = np.zeros(max(n_chunks, 1), dtype=np.int64)
    if n:
        with numba.parallel_chunksize(1):  # hand chunks to threads one at a time: a busy core does not stall the run
            _simulate_rounds(rules_arr, split_table(), seeds, n, chunk_size, scores, plies, void, dealers, status)
    _check_status(status)
    out = {k: scores[i] for i, k in enumerate(CATEGORY_COLUMNS)}
    out["totals"] = scores[S_TOTAL]
    out["n_cards"] = scores[S_N_CARDS]
    out["n_spades"] = scores[S_N_SPADES]
    out["n_sweeps"] = scores[S_N_SWEEPS]
    out.update(plies=plies, void=void, dealer=dealers)
    return out


def simulate_games(
    rules: RuleSet, n_games: int, seed: int = 0, threads: int | None = None, chunk_size: int = 256
) -> dict:
    """Play n_games whole random-vs-random games to the rule set's target, in parallel.

    First dealer at random, then alternating; a void round is replayed with
    the same dealer; a tie at or above the target plays another round;
    round_win_points > 0 ends the game when a round gives a player that many
    points (and more than the other); single_round: one round decides, a tied
    round is a draw (winner 2). Returns winner (0/1, 2 draw, -1 unfinished),
    final totals (n, 2), rounds (scored), void_rounds, first_dealer.
    """
    rules_arr, n, chunk_size, n_chunks, seeds = _batch_setup(rules, n_games, "n_games", chunk_size, threads, seed)
    winner = np.zeros(n, dtype=np.int8)
    final = np.zeros((n, 2), dtype=np.int32)
    rounds = np.zeros(n, dtype=np.int32)
    voids = np.zeros(n, dtype=np.int32)
    first = np.zeros(n, dtype=np.int8)
    status = np.zeros(max(n_chunks, 1), dtype=np.int64)
    if n:
        with numba.parallel_chunksize(1):
            _simulate_games(rules_arr, split_table(), seeds, n, chunk_size, winner, final, rounds, voids, first, status)
    _check_status(status)
    return {"winner": winner, "final": final, "rounds": rounds, "void_rounds": voids, "first_dealer": first}


def warmup() -> None:
    """Compile (or load from the numba cache) every kernel the API uses."""
    from casino_sim.core.rules import STRICT

    simulate_rounds(STRICT, 2, seed=0, threads=None, chunk_size=1)
    simulate_games(STRICT, 1, seed=0, threads=None, chunk_size=1)
    # a stream that captures often (always trailing would pile up the table beyond any enumeration)
    play_round_scripted_raw(STRICT, np.arange(52), 0, np.arange(PLIES, dtype=np.int64) * 7919 + 13)
    pos = state_to_position(position_to_state(Position()), STRICT)
    legal_moves(pos)
