"""The value estimate a searcher's play-out stops with at a batch's end: the mover's expected margin at the round's end.

At the end of a batch every hand is empty, no build stands (the keep-a-capturing-card rule), and the cards not
yet captured are the loose cards and the stock, which neither player has seen. What the piles hold is sure
(aces, 10♦, 2♠, sweeps); most cards and most spades are read as chances, as if each card still to come went to
either player with even odds; the rest is a linear fit, one per batch end, to the margins of `tuned` playing
itself (value_weights.py, written by scripts/fit_value.py): the dealer's edge, what the loose cards are worth to
the player who moves first in the next batch (the heuristics' own risk features for a hand of four cards from
the stock), what the stock holds. Two players only (docs/policies.md, "Play-outs cut at a batch's end").
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit

from casino_sim.kernels import layout as L
from casino_sim.kernels.bits import FULL_MASK, SPADE_MASK, popcount
from casino_sim.kernels.features import (
    F_CARDS_RISK,
    F_POINTS_RISK,
    F_SWEEP_OPEN,
    _probs,
    _risk_features,
    _sure_points,
)
from casino_sim.kernels.value_weights import VALUE_COEF

# AT_LEAST[r, k]: the chance that at least k of r cards, each with even odds, go to one player
AT_LEAST = np.array([[sum(comb(r, j) for j in range(k, r + 1)) / 2**r for k in range(53)] for r in range(53)])
VALUE_FEATURES = (
    "most cards, even odds",
    "most spades, even odds",
    "cards taken, less the other's",
    "the dealer's edge (1 if the mover deals, else -1)",
    "sure points of the loose cards, to the first mover",
    "sure points in the stock, to the dealer",
    "no loose card, to the first mover",
    "one loose card, to the first mover",
    "most cards, even odds, with the loose cards the first mover's",
    "points at risk of the loose cards, to the first mover",
    "cards at risk of the loose cards, to the first mover",
    "sweep open on the loose cards, to the first mover",
)
N_VALUE = len(VALUE_FEATURES)


@njit(cache=True, inline="always")
def _reaches(r, k):
    """The chance that one player's share of r cards still to come, each with even odds, is at least k."""
    return 1.0 if k <= 0 else 0.0 if k > r else AT_LEAST[r, k]


@njit(cache=True, inline="always")
def _most(rules, points_at, at_least_at, have, other, left):
    """A "most" category's points to the mover less the other's: each reaches the rule set's count with the
    chances of _reaches."""
    need = rules[at_least_at]
    return rules[points_at] * (_reaches(left, need - have) - _reaches(left, need - other))


@njit(cache=True)
def _features(st, rules, tbl, p, f):
    """(the sure margin so far, VALUE_FEATURES): what the fit weighs at a batch's end, from player p's view. f: a
    feature row of the heuristics (scratch for the risk features)."""
    o = 1 - p
    pile, theirs, table = st[L.CAPTURED + p], st[L.CAPTURED + o], st[L.LOOSE]
    sure = _sure_points(pile) - _sure_points(theirs) + (st[L.SWEEPS + p] - st[L.SWEEPS + o]) * rules[L.R_SWEEP_POINTS]
    cards, their_cards, loose = popcount(pile), popcount(theirs), popcount(table)
    left = 52 - cards - their_cards
    spades, their_spades = popcount(pile & SPADE_MASK), popcount(theirs & SPADE_MASK)
    deals = 1.0 if st[L.DEALER] == p else -1.0  # the dealer plays last in each batch, the other first
    first = 0 if st[L.DEALER] == p else loose  # the loose cards, given to the first mover
    stock = FULL_MASK & ~(pile | theirs | table)
    for j in range(f.shape[0]):
        f[j] = 0.0
    if table != 0:  # what the first mover's four cards from the stock may take at once (features.py)
        _risk_features(st, rules, tbl, table, _probs(stock, popcount(stock), L.HAND_SIZE), f)
    c, ca = L.R_MOST_CARDS_POINTS, L.R_MOST_CARDS_AT_LEAST
    return sure, (
        _most(rules, c, ca, cards, their_cards, left),
        _most(
            rules, L.R_MOST_SPADES_POINTS, L.R_MOST_SPADES_AT_LEAST, spades, their_spades, 13 - spades - their_spades
        ),
        float(cards - their_cards),
        deals,
        -deals * _sure_points(table),
        deals * _sure_points(stock),
        -deals * (loose == 0),
        -deals * (loose == 1),
        _most(rules, c, ca, cards + first, their_cards + loose - first, left - loose),
        -deals * f[F_POINTS_RISK],
        -deals * f[F_CARDS_RISK],
        -deals * f[F_SWEEP_OPEN],
    )


@njit(cache=True)
def _value(st, rules, tbl, p, f):
    """Player p's estimated margin at the round's end, from the end of one of the first four batches (two players).
    f: scratch, as _features."""
    sure, x = _features(st, rules, tbl, p, f)
    coef = VALUE_COEF[st[L.PLY] // L.PLIES_PER_BATCH - 1]
    total = float(sure)
    for j in range(N_VALUE):
        total += coef[j] * x[j]
    return total
