"""The heuristic policies' choice among the moves in a buffer: the best weighted feature sum.

A policy is a row of plain arrays chosen by an integer kind (layout.py), never a
jitted function passed around, which would defeat numba's cache. The random
policy's choice is in play.py, the rollout's in rollout.py, the searcher's in search.py.

The heuristic scores its moves best-bound first (branch and bound): the risk
features (points_at_risk, cards_at_risk, sweep_open) are the costly ones, are
never negative, and when their weights are not positive they can only lower a
score. So a first pass scores every move without them, from the move record
alone (features._immediate_score: greedy's whole score, expert's upper bound),
and a move whose bound is already below the best full score found is never
scored in full. The choice, ties and random draws included, is the one a full
scoring of every move gives (a test holds them equal): rollout play-outs spend
most of their time here.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.kernels.features import (
    F_CARDS_RISK,
    F_LAST,
    F_POINTS_RISK,
    F_SWEEP_OPEN,
    NO_VIEW,
    _immediate_score,
    _move_features,
    _risky,
    _view,
    _weighted,
)
from casino_sim.kernels.rng import _below

TIE = 1e-9  # scores this close to the best are ties


@njit(cache=True)
def _bounded(w):
    """Whether a score without the risk features bounds the full score from above: their weights are <= 0.

    The risk features are probabilities and expected counts (>= 0), so with weights <= 0 they can only lower
    a score, in floats too: the same terms are added in the same order, and adding a term <= 0 never raises
    a rounded sum.
    """
    return w[F_POINTS_RISK] <= 0.0 and w[F_CARDS_RISK] <= 0.0 and w[F_SWEEP_OPEN] <= 0.0


@njit(cache=True, inline="always")
def _score_view(st, rules, want):
    """What a heuristic's scores read of the position: (risky, the view, whether the stock is empty)."""
    risky = _risky(want)
    view = _view(st, rules, risky) if risky or want[F_LAST] else NO_VIEW  # greedy's plies need no view
    return risky, view, view[1] == view[2]  # the unseen cards are all in the other hands: the stock is empty


@njit(cache=True)
def _full_scores(st, rules, tbl, mv, n, w, want, after, f, scores):
    """scores[i]: move i's score as _score_all weighs a move it scores in full, for every move (none ruled out by
    a bound): the order in which the endgame tries its exact moves (search.py _exact_leader)."""
    risky, view, last_batch = _score_view(st, rules, want)
    for i in range(n):
        if risky:
            _move_features(st, rules, tbl, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4], view, after, want, f)
            scores[i] = _weighted(f, w)
        else:
            scores[i] = _immediate_score(st, rules, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4], last_batch, w)


@njit(cache=True, inline="always")
def _by_score(scores, n, order):
    """order: the move indices by score, best first, equal scores in move order (an insertion sort: a handful of
    moves, and numba's own sorts cost seconds to compile)."""
    for t in range(n):
        order[t] = t
    for t in range(1, n):
        i, u = order[t], t
        while u > 0 and scores[order[u - 1]] < scores[i]:
            order[u] = order[u - 1]
            u -= 1
        order[u] = i
    return order


# Inlined into _heuristic_index: a call handing over nine arrays costs greedy's plies their reference counts.
# One call site of _move_features (itself inlined, features.py) for both kinds of weights: each site is a copy
# numba types and compiles again.
@njit(cache=True, inline="always")
def _score_all(st, rules, tbl, mv, n, w, want, after, f, scores):
    """scores[i]: the weighted feature sum of move i, or -inf for a move that cannot reach the best's ties."""
    risky, view, last_batch = _score_view(st, rules, want)
    bounded = not risky or _bounded(w)  # else risk is weighed positively (a rash policy): every move in full
    top = -1
    if bounded:
        top = 0
        for i in range(n):  # without risk features: the score, else the bound until scored in full or ruled out
            scores[i] = _immediate_score(st, rules, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4], last_batch, w)
            if scores[i] > scores[top]:
                top = i
        if not risky:
            return scores[top]
    best = -np.inf
    for t in range(-1 if bounded else 0, n):  # bounded: the move of the highest bound first, then the others
        i = top if t < 0 else t
        if t == top:
            continue
        if bounded and scores[i] < best - TIE:  # score <= bound: neither the best nor tied with it
            scores[i] = -np.inf
            continue
        _move_features(st, rules, tbl, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4], view, after, want, f)
        scores[i] = _weighted(f, w)
        if scores[i] > best:
            best = scores[i]
    return best


@njit(cache=True, _nrt=False)
def _heuristic_index(st, rules, tbl, mv, n, w, want, rng, after, f, scores):
    """The move with the highest weighted feature sum; ties broken by rng. after, f, scores: the Scratch's."""
    if n == 1:  # nothing to compare and no tie to break: no score needed, no draw made
        return 0
    best = _score_all(st, rules, tbl, mv, n, w, want, after, f, scores)
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
