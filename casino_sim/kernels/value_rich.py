"""A richer value estimate at a batch's end (a searcher's `estimate = "rich"`): the linear estimate's terms
(value.py) and twenty more, fitted the same way (value_rich_weights.py, written by scripts/fit_value.py --estimate
rich).

The even-odds chances of most cards and most spades are one curve each; the fit here weighs several, each with the
count needed shifted by a few cards (a player who takes cards faster, or the dealer, who takes the last loose cards,
reaches the count sooner), and the dealer's share of each; then what the loose cards hold for the first mover (how
many, spades, figures, their values) and the aces still in the stock. Two players only; docs/policies.md, "The deep
rung".
"""

from __future__ import annotations

from numba import njit

from casino_sim.kernels import layout as L
from casino_sim.kernels.bits import ACE_MASK, FULL_MASK, NUMBER_MASK, SPADE_MASK, popcount
from casino_sim.kernels.value import VALUE_FEATURES, _features, _reaches, _weighed
from casino_sim.kernels.value_rich_weights import RICH_COEF

CARD_SHIFTS, CARD_DEALER_SHIFTS = (-4, -2, 2, 4), (-2, 0, 2)
SPADE_SHIFTS, SPADE_DEALER_SHIFTS = (-2, -1, 1, 2), (-1, 0, 1)
RICH_FEATURES = VALUE_FEATURES + tuple(
    [f"most cards, even odds, {d:+d} cards" for d in CARD_SHIFTS]
    + [f"most cards, even odds, {d:+d} cards, both players' chances to the dealer" for d in CARD_DEALER_SHIFTS]
    + [f"most spades, even odds, {d:+d} spades" for d in SPADE_SHIFTS]
    + [f"most spades, even odds, {d:+d} spades, both players' chances to the dealer" for d in SPADE_DEALER_SHIFTS]
    + [
        "most spades, even odds, with the loose spades the first mover's",
        "loose cards, to the first mover",
        "loose spades, to the first mover",
        "loose figures, to the first mover",
        "the loose number cards' values, in tens, to the first mover",
        "aces in the stock, to the dealer",
    ]
)


@njit(cache=True, inline="always")
def _apart(left, need, have, other, d):
    """Each player's chance of reaching `need` with d more than they have, the mover's less the other's."""
    return _reaches(left, need - have - d) - _reaches(left, need - other - d)


@njit(cache=True, inline="always")
def _both(left, need, have, other, d, deals):
    """Both players' chances of reaching `need` with d more, to the dealer (deals: 1 if the mover deals, else -1)."""
    return deals * (_reaches(left, need - have - d) + _reaches(left, need - other - d))


@njit(cache=True, inline="always")
def _curves(left, need, have, other, deals, apart, both):
    """A "most" category's chances with the count shifted: by each of the 4 shifts `apart` the mover's less the
    other's (_apart), by each of the 3 shifts `both` both players' to the dealer (_both)."""
    return (
        _apart(left, need, have, other, apart[0]),
        _apart(left, need, have, other, apart[1]),
        _apart(left, need, have, other, apart[2]),
        _apart(left, need, have, other, apart[3]),
        _both(left, need, have, other, both[0], deals),
        _both(left, need, have, other, both[1], deals),
        _both(left, need, have, other, both[2], deals),
    )


@njit(cache=True)
def _rich_features(st, rules, tbl, p, f):
    """(the sure margin so far, RICH_FEATURES) from player p's view at a batch's end; f: scratch, as value.py's."""
    sure, x = _features(st, rules, tbl, p, f)
    o = 1 - p
    pile, theirs, table = st[L.CAPTURED + p], st[L.CAPTURED + o], st[L.LOOSE]
    cards, their_cards = popcount(pile), popcount(theirs)
    left, need = 52 - cards - their_cards, rules[L.R_MOST_CARDS_AT_LEAST]
    spades, their_spades = popcount(pile & SPADE_MASK), popcount(theirs & SPADE_MASK)
    s_left, s_need = 13 - spades - their_spades, rules[L.R_MOST_SPADES_AT_LEAST]
    deals = 1.0 if st[L.DEALER] == p else -1.0
    loose_spades = popcount(table & SPADE_MASK)
    first = 0 if st[L.DEALER] == p else loose_spades  # the loose spades, given to the first mover
    numbers, value = table & NUMBER_MASK, 0
    while numbers:
        low = numbers & -numbers
        value += (popcount(low - 1) >> 2) + 1
        numbers ^= low
    stock = FULL_MASK & ~(pile | theirs | table)
    sp = L.R_MOST_SPADES_POINTS
    cards_curves = _curves(left, need, cards, their_cards, deals, CARD_SHIFTS, CARD_DEALER_SHIFTS)
    spade_curves = _curves(s_left, s_need, spades, their_spades, deals, SPADE_SHIFTS, SPADE_DEALER_SHIFTS)
    return sure, x + cards_curves + spade_curves + (
        rules[sp] * _apart(s_left - loose_spades, s_need, spades + first, their_spades + loose_spades - first, 0),
        -deals * popcount(table),
        -deals * loose_spades,
        -deals * popcount(table & ~NUMBER_MASK),
        -deals * value / 10.0,
        deals * popcount(stock & ACE_MASK),
    )


@njit(cache=True)
def _rich_value(st, rules, tbl, p, f):
    """Player p's estimated margin at the round's end from the end of one of the first four batches (two players),
    by the richer fit. f: scratch, as value.py's _value."""
    sure, x = _rich_features(st, rules, tbl, p, f)
    return _weighed(sure, x, RICH_COEF[st[L.PLY] // L.PLIES_PER_BATCH - 1])
