"""The heuristic policies' choice among the moves in a buffer: the best weighted feature sum.

A policy is a row of plain arrays chosen by an integer kind (layout.py), never a
jitted function passed around, which would defeat numba's cache. The random
policy's choice is in play.py, the rollout's in rollout.py, the searcher's in search.py.

The heuristic scores its moves best-bound first (branch and bound): the risk
features (points_at_risk, cards_at_risk, sweep_open) are the costly ones, are
never negative, and when their weights are not positive they can only lower a
score. So a first pass scores every move without them (an upper bound of its
score), and a move whose bound is already below the best full score found is
never scored in full. The choice, ties and random draws included, is the one a
full scoring of every move gives (a test holds them equal): rollout play-outs
spend most of their time here (measured: the risk features are half a play-out).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.engine.features import (
    F_CARDS_RISK,
    F_POINTS_RISK,
    F_SWEEP_OPEN,
    _immediate_score,
    _move_features,
    _needs_after,
    _view,
    _weighted,
)
from casino_sim.engine.rng import _below

TIE = 1e-9  # scores this close to the best are ties


@njit(cache=True)
def _bound_want(w, want, cheap):
    """cheap = want less the risk features; True when they are wanted and only lower a score (weights <= 0).

    The risk features are probabilities and expected counts (>= 0), so with weights <= 0 a score without
    them bounds the full score from above, in floats too: the same terms are added in the same order, and
    adding a term <= 0 never raises a rounded sum.
    """
    for j in range(want.shape[0]):
        cheap[j] = want[j]
    wanted = False
    for j in (F_POINTS_RISK, F_CARDS_RISK, F_SWEEP_OPEN):
        if w[j] > 0.0:
            return False
        wanted = wanted or want[j] != 0
        cheap[j] = 0
    return wanted


# Inlined into _heuristic_index: a call handing over nine arrays costs greedy's plies their reference counts.
@njit(cache=True, inline="always")
def _score_all(st, rules, tbl, mv, n, w, want, after, f, scores, cheap):
    """scores[i]: the weighted feature sum of move i, or -inf for a move that cannot reach the best's ties."""
    view = _view(st)
    if _needs_after(want) and _bound_want(w, want, cheap):
        top = 0
        for i in range(n):  # scores[i] holds move i's bound until it is scored in full or ruled out
            _move_features(st, rules, tbl, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4], view, after, cheap, f)
            scores[i] = _weighted(f, w)
            if scores[i] > scores[top]:
                top = i
        best = -np.inf
        for t in range(-1, n):  # the move of the highest bound first, then the others in order
            i = top if t < 0 else t
            if t == top:
                continue
            if scores[i] < best - TIE:  # score <= bound: neither the best nor tied with it
                scores[i] = -np.inf
                continue
            _move_features(st, rules, tbl, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4], view, after, want, f)
            scores[i] = _weighted(f, w)
            if scores[i] > best:
                best = scores[i]
        return best
    best = -np.inf
    immediate = not _needs_after(want)
    for i in range(n):
        if immediate:  # greedy and its kind: score straight from the move record
            scores[i] = _immediate_score(st, rules, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], w)
        else:
            _move_features(st, rules, tbl, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4], view, after, want, f)
            scores[i] = _weighted(f, w)
        if scores[i] > best:
            best = scores[i]
    return best


@njit(cache=True)
def _heuristic_index(st, rules, tbl, mv, n, w, want, rng, after, f, scores, cheap):
    """The move with the highest weighted feature sum; ties broken by rng. after, f, scores, cheap: the Scratch's."""
    if n == 1:  # nothing to compare and no tie to break: no score needed, no draw made
        return 0
    best = _score_all(st, rules, tbl, mv, n, w, want, after, f, scores, cheap)
    ties = 0
    for i in range(n):
        if scores[i] >= best - TIE:
            ties += 1
    k = 0 if ties == 1 else _below(rng, ties)
    for i in range(n):
        if scores[i] >= best - TIE:
            if k == 0:
                return i
            k -= 1
    return 0
