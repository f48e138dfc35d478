"""The round's last plays valued without a search: the final point difference of a two-player round whose plays
are over, and of its last card (the mover's one card, the other hand empty), read from the position.

The exact search (exact.py) ends every line here: at its leaves, and at the last play, which would otherwise
cost a node per move.
"""

from __future__ import annotations

from numba import njit

from casino_sim.kernels import layout as L
from casino_sim.kernels.apply import _apply
from casino_sim.kernels.bits import (
    ACE_MASK,
    BELOW_VALUE,
    BIG_CASINO,
    CARD_CODE,
    CARD_VALUE,
    LITTLE_CASINO,
    NUMBER_MASK,
    RANK_MASK,
    SPADE_MASK,
    VALUE_MASK,
    ctz,
    popcount,
)
from casino_sim.kernels.tables import TABLE_OFFSET

INF = 1_000_000
NO_VALUE = -INF - 1  # _last_card: the last card has no legal play


@njit(cache=True, inline="always")
def _copy(src, dst):
    """dst[:] = src, a state row: inlined, so a caller hands over no arrays (and counts no references for them)."""
    for j in range(L.STATE_SIZE):
        dst[j] = src[j]


@njit(cache=True, inline="always")
def _pile_points(pile, sweeps, rules):
    """A two-player round's points of one player's final pile and sweeps: score.py _score's total, summed at once."""
    points = popcount(pile & ACE_MASK) + 2 * ((pile >> BIG_CASINO) & 1) + ((pile >> LITTLE_CASINO) & 1)
    if popcount(pile) >= rules[L.R_MOST_CARDS_AT_LEAST]:
        points += rules[L.R_MOST_CARDS_POINTS]
    if popcount(pile & SPADE_MASK) >= rules[L.R_MOST_SPADES_AT_LEAST]:
        points += rules[L.R_MOST_SPADES_POINTS]
    return points + sweeps * rules[L.R_SWEEP_POINTS]


@njit(cache=True, inline="always")
def _margin_of(st, rules, mine, theirs, sweeps):
    """The mover's final point difference when the piles end as mine and theirs, the mover with `sweeps` sweeps."""
    p = st[L.TO_MOVE]
    return _pile_points(mine, sweeps, rules) - _pile_points(theirs, st[L.SWEEPS + 1 - p], rules)


@njit(cache=True, inline="always")
def _final_margin(st, rules):
    """The player to move's final point difference in a two-player round whose plays are over: what is left on the
    table goes to the last capturer (_finish), then _score's totals; read from st without changing it (a leaf of
    the search, where copying the state and writing the score rows cost more than this sum). A void round: 0."""
    last = st[L.LAST_CAPTURER]
    if last < 0:
        return 0
    rest = st[L.LOOSE]
    for v in range(1, 11):
        rest |= st[L.BUILD + v]
    p = st[L.TO_MOVE]
    mine = st[L.CAPTURED + p] | (rest if last == p else 0)
    theirs = st[L.CAPTURED + 1 - p] | (rest if last != p else 0)
    return _margin_of(st, rules, mine, theirs, st[L.SWEEPS + p])


@njit(cache=True, _nrt=False)
def _last_play(st, rules, mv, n, after):
    """The best final point difference of the round's last play (the mover's one card, the other hand empty)
    among its n moves in mv, without a node per move: a capture makes the mover the last capturer, who takes the
    rest, so every capture ends with the same piles and differs only in whether it sweeps (_apply's rule: it leaves
    no loose card and no build); a trail leaves the rest to the last capturer (_final_margin). Any other kind is
    played out on `after` (a state row)."""
    p = st[L.TO_MOVE]
    rest = st[L.LOOSE]
    for v in range(1, 11):
        rest |= st[L.BUILD + v]
    mine, theirs, sweeps, last = st[L.CAPTURED + p], st[L.CAPTURED + 1 - p], st[L.SWEEPS + p], st[L.LAST_CAPTURER]
    best = -INF
    for i in range(n):
        kind, took = mv[i, 0], (1 << mv[i, 1]) | rest
        if kind == L.TRAIL and last < 0:  # a void round
            value = 0
        elif kind == L.CAPTURE or kind == L.TRAIL:
            ours = kind == L.CAPTURE or last == p
            swept = 0
            if kind == L.CAPTURE:  # a sweep leaves no loose card, and no build but the one it takes
                taken_build = st[L.BUILD + ctz(mv[i, 3])] if mv[i, 3] else 0
                swept = 1 if ((st[L.LOOSE] & ~mv[i, 2]) | (rest & ~st[L.LOOSE] & ~taken_build)) == 0 else 0
            value = _margin_of(st, rules, mine | (took if ours else 0), theirs | (0 if ours else took), sweeps + swept)
        else:
            _copy(st, after)
            _apply(after, rules, kind, mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4])
            value = -_final_margin(after, rules)
        best = max(best, value)
    return best


@njit(cache=True, inline="always")
def _last_card(st, rules, tbl):
    """_last_play's value read from the position, without its moves: NO_VALUE when the one card has no legal
    play (the caller then generates the moves, which say why). movegen.py's rules for a last card: with the
    rest of the hand empty, an owned build may only be captured, so the mover may trail only owning none (and
    not obliged to act), and may capture plainly only owning none, or take its one build of the card's value.
    Every capture gives the mover the rest of the table, so only whether some capture sweeps matters: one
    that takes every loose card and leaves no build (the loose cards of the card's value or less, the smaller
    ones splitting into groups of it, and no build but the one taken)."""
    p = st[L.TO_MOVE]
    c = ctz(st[L.HAND + p])
    loose, builds, present, owned = st[L.LOOSE], 0, 0, 0
    for v in range(1, 11):
        if st[L.BUILD + v] != 0:
            builds |= st[L.BUILD + v]
            present |= 1 << v
            if st[L.OWNER + v] == p:
                owned |= 1 << v
    rest = loose | builds
    mine, theirs, sweeps, last = st[L.CAPTURED + p], st[L.CAPTURED + 1 - p], st[L.SWEEPS + p], st[L.LAST_CAPTURER]
    took = (1 << c) | rest
    best = NO_VALUE
    if owned == 0 and not (rules[L.R_NEXT_TURN_OBLIGATION] != 0 and st[L.MUST_ACT + p] != 0):  # a trail
        ours = last == p
        best = (
            0
            if last < 0
            else _margin_of(st, rules, mine | (took if ours else 0), theirs | (0 if ours else took), sweeps)
        )
    cv = CARD_VALUE[c]
    capture, sweep = False, False
    if cv == 0 and owned == 0:  # a figure takes one loose figure of its rank; italian: all three when three are
        figs = loose & RANK_MASK[c >> 2]
        capture = figs != 0
        whole = popcount(figs) == 1 or (rules[L.R_FIGURE_CAPTURE] == 1 and popcount(figs) == 3)
        sweep = capture and builds == 0 and loose == figs and whole
    elif cv != 0:
        with_build = (present >> cv) & 1 == 1 and (owned & ~(1 << cv)) == 0
        if owned == 0 or with_build:
            ln = loose & NUMBER_MASK
            capture = with_build or (ln & VALUE_MASK[cv]) != 0 or _sums_to(ln & BELOW_VALUE[cv], cv)
            code = 0
            m = ln & BELOW_VALUE[cv]
            while m:
                code += CARD_CODE[ctz(m)]
                m &= m - 1
            sweep = (
                capture
                and loose == ln & BELOW_VALUE[cv + 1]
                and (builds == 0 or (with_build and builds == st[L.BUILD + cv]))
                and tbl[TABLE_OFFSET[cv] + code] != 0
            )
    if capture:
        best = max(best, _margin_of(st, rules, mine | took, theirs, sweeps + (1 if sweep else 0)))
    return best


@njit(cache=True, inline="always")
def _sums_to(cards, v):
    """Whether some of the number cards `cards` (values below v) sum to v: reachable sums as bits."""
    sums = 1
    while cards:
        sums |= sums << CARD_VALUE[ctz(cards)]
        cards &= cards - 1
    return (sums >> v) & 1 == 1
