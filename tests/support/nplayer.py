"""Helpers for the n-player engine tests: a raw state from named fields, and an independent replay of a round."""

from __future__ import annotations

import numpy as np

from casino_sim.kernels import layout as L
from casino_sim.kernels.state import new_state

SPADES = sum(1 << c for c in range(0, 52, 4))


def cards(*ids: int) -> int:
    """The card mask of card indices (number card c: value c // 4 + 1, suit c % 4, spades 0)."""
    return sum(1 << c for c in ids)


def raw_state(hands=(), loose=0, piles=(), to_move=0, builds=None, must_act=(), last=-1, ply=0) -> np.ndarray:
    """A state from its parts; builds: {value: (card mask, owner)}."""
    st = new_state()
    for p, h in enumerate(hands):
        st[L.HAND + p] = h
    for p, pile in enumerate(piles):
        st[L.CAPTURED + p] = pile
    for p in must_act:
        st[L.MUST_ACT + p] = 1
    for v, (mask, owner) in (builds or {}).items():
        st[L.BUILD + v], st[L.OWNER + v] = mask, owner
    st[L.LOOSE], st[L.TO_MOVE], st[L.LAST_CAPTURER], st[L.PLY] = loose, to_move, last, ply
    return st


def replay_piles(moves: np.ndarray, table: int, n: int, dealer: int):
    """Each player's captures, the sweeps and the last capturer, replayed from the move rows alone (no engine).

    Returns (piles by the plays, sweeps per player, last capturer or -1, the cards left on the table).
    """
    piles, sweeps, last = [0] * n, [0] * n, -1
    loose, builds = table, {}
    for i, row in enumerate(moves):
        kind, card, tmask, bmask, value = (int(x) for x in row)
        p = (dealer + 1 + i) % n
        bit = 1 << card
        if kind == L.TRAIL:
            loose |= bit
            continue
        loose &= ~tmask
        if kind == L.CAPTURE:
            took = bit | tmask
            for v in [v for v in builds if (bmask >> v) & 1]:
                took |= builds.pop(v)
            piles[p] |= took
            last = p
            sweeps[p] += loose == 0 and not builds
        elif kind == L.INCREASE:
            merged = bit | tmask
            for v in [v for v in builds if (bmask >> v) & 1]:
                merged |= builds.pop(v)
            builds[value] = merged
        else:  # build or add
            builds[value] = builds.get(value, 0) | bit | tmask
    for m in builds.values():
        loose |= m
    return piles, sweeps, last, loose


def seated_round(rules, deck, dealer: int, policies, seed: int, engine: str = "numba"):
    """One round on an engine's rows, player p playing policies[p] and `seed` driving their choices: (its moves
    (48, 5), its record)."""
    from casino_sim.engines import get_engine
    from casino_sim.runner.deals import DealRows

    rows = DealRows(
        np.zeros(1, np.int64),
        np.zeros(1, np.int8),
        np.asarray(deck, np.int8).reshape(1, 52),
        np.array([dealer], np.int8),
        np.array([seed], np.uint64),
        np.arange(rules.players, dtype=np.int8).reshape(1, -1),
    )
    trace = np.zeros((1, 48, L.MOVE_FIELDS), dtype=np.int64)
    record = get_engine(engine).play(rows, rules, tuple(policies), trace=trace)
    return trace[0], {c: int(v[0]) for c, v in record.items()}
