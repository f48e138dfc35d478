"""The simple policies' choice among the moves in a buffer: uniform at random, or the best weighted feature sum.

A policy is a row of plain arrays chosen by an integer kind (layout.py), never a
jitted function passed around, which would defeat numba's cache. The rollout
policy's choice is in rollout.py; the scripted player's in play.py.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.engine.features import _immediate_score, _move_features, _needs_after, _view, _weighted
from casino_sim.engine.layout import HEURISTIC
from casino_sim.engine.rng import _below


@njit(cache=True)
def _heuristic_index(st, rules, tbl, mv, n, w, want, rng, after, f, scores):
    """The move with the highest weighted feature sum; ties broken by rng."""
    best = -np.inf
    immediate = not _needs_after(want)
    view = _view(st)
    for i in range(n):
        if immediate:  # greedy and its kind: score straight from the move record
            scores[i] = _immediate_score(st, rules, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], w)
        else:
            _move_features(st, rules, tbl, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4], view, after, want, f)
            scores[i] = _weighted(f, w)
        if scores[i] > best:
            best = scores[i]
    ties = 0
    for i in range(n):
        if scores[i] >= best - 1e-9:
            ties += 1
    k = 0 if ties == 1 else _below(rng, ties)
    for i in range(n):
        if scores[i] >= best - 1e-9:
            if k == 0:
                return i
            k -= 1
    return 0


@njit(cache=True)
def _simple_index(st, rules, tbl, mv, n, kind, w, want, rng, after, f, scores):
    """Random or heuristic choice among the n moves in mv."""
    if kind == HEURISTIC:
        return _heuristic_index(st, rules, tbl, mv, n, w, want, rng, after, f, scores)
    return _below(rng, n)
