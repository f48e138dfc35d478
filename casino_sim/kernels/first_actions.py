"""A turn's legal first actions in the factored encoding (kernels/factored.py) without listing its moves, and the
moves of one chosen play: the batched environment's turn (kernels/batch_step.py).

factored.py's `_turn` lists every legal move (movegen) to learn which plays are legal; most of a batched step was
that. A play is legal when one set of loose cards completes it, and only its existence matters for the mask:
- a set of loose number cards splitting into groups of v exists exactly when one group does (that group alone is
  such a set), so the subset sums of the loose number cards up to 10 (one bit mask, a shift a card) answer every
  capture, build and add: a capture of cv needs a sum cv, a build or add of v with a card of cv < v a sum v - cv
  (the card's group), a new build of v with a card of v a sum v (a group beside it);
- a play that takes a build (a capture of its build, an add with the card alone, an increase) needs no loose card.
The rule checks (trailing barred, keeping a card of every owned build's value) are movegen's, in its order, so the
mask is the set of play ids of movegen's moves (tests/research/test_first_actions.py checks it on random and piled
tables). Once a play is chosen, `_family` writes its moves alone, as movegen writes them, for factored.py's `_take`.
"""

from __future__ import annotations

from numba import njit

from casino_sim.kernels import layout as L
from casino_sim.kernels.bits import BELOW_VALUE, CARD_VALUE, NUMBER_MASK, POW5, RANK_MASK, ctz, popcount
from casino_sim.kernels.factored import (
    C_CHOSEN,
    C_FAM,
    C_N,
    C_NEED,
    C_PLAYER,
    ILLEGAL,
    LOOSE_ID,
    N_IDS,
    OK,
    OVERFLOW,
    SLOTS,
    VALUES,
    _dealt,
    _played,
    _take,
)
from casino_sim.kernels.movegen import _build_info, _groups, _hand_values, _obliged_trails, _values_left
from casino_sim.kernels.moverow import _put

TRAIL_SLOT, CAPTURE_SLOT, CAPTURE_BUILD_SLOT = 0, 1, 2  # research/encoding.py's slots of a card
BUILD_SLOT, INCREASE_SLOT, ADD_SLOT = 2, 2 + VALUES, 2 + 2 * VALUES  # + the value
SUMS = (1 << 11) - 1  # subset sums 0 to 10


@njit(cache=True, inline="always")
def _sums(ln):
    """Bit s set for every sum s <= 10 of a subset of the loose number cards `ln` (bit 0: the empty set)."""
    reach = 1
    while ln:
        reach |= (reach << CARD_VALUE[ctz(ln)]) & SUMS
        ln &= ln - 1
    return reach


@njit(cache=True)
def _card_slots(c, loose, reach, info):
    """The legal slots of card c (bit k: slot k), info = (present, owned, simple, held, twice, may_trail): movegen's
    plays of c, each kept when a set of loose cards completes it."""
    present, owned, simple, held, twice, may_trail = info
    cv = CARD_VALUE[c]
    rest = _values_left(held, twice, cv)
    lacking = owned & ~rest  # owned builds left without a capturing card if the play does not touch them
    slots = 0
    if may_trail and lacking == 0:
        slots |= 1 << TRAIL_SLOT
    if cv == 0:  # a figure takes a loose figure of its rank (italian: the three, when a figure of it is loose)
        if lacking == 0 and loose & RANK_MASK[c >> 2] != 0:
            slots |= 1 << CAPTURE_SLOT
        return slots
    if lacking == 0 and (reach >> cv) & 1:
        slots |= 1 << CAPTURE_SLOT
    if (present >> cv) & 1 and (lacking & ~(1 << cv)) == 0:
        slots |= 1 << CAPTURE_BUILD_SLOT  # the build alone will do
    if lacking == 0:
        targets = rest & ~((1 << cv) - 1)  # v >= cv, v held in the rest of the hand
        while targets:
            v = ctz(targets)
            targets &= targets - 1
            if (present >> v) & 1:
                if v == cv or (reach >> (v - cv)) & 1:  # the card alone onto the build, or with its group
                    slots |= 1 << (ADD_SLOT + v)
            elif (reach >> (v if v == cv else v - cv)) & 1:
                slots |= 1 << (BUILD_SLOT + v)
    sm = simple
    while sm:  # increase a simple build b to w = b + cv: the build and the card will do
        b = ctz(sm)
        sm &= sm - 1
        w = b + cv
        if w > 10:
            break
        if (rest >> w) & 1 and ((owned & ~(1 << b)) & ~rest) == 0:
            slots |= 1 << (INCREASE_SLOT + w)
    return slots


@njit(cache=True)
def _fast_turn(st, rules, ctl, buf):
    """factored.py's _turn, its mask from _card_slots: the player to move, no play chosen, no moves listed yet
    (`_family` lists the chosen play's). The mask must be clear but for the loose cards' ids (as the batch leaves
    it: each writer clears what it set, a reset all). Returns OK."""
    mv, mask = buf[0], buf[4]
    ctl[C_PLAYER] = st[L.TO_MOVE]
    ctl[C_FAM] = -1
    ctl[C_CHOSEN] = 0
    ctl[C_N] = 0
    mask[LOOSE_ID:] = 0  # the rest is clear already: _clear_plays, or factored.py's _options or round's end
    p = st[L.TO_MOVE]
    h, loose = st[L.HAND + p], st[L.LOOSE]
    present, owned, simple = _build_info(st, p)
    may_trail = not (rules[L.R_NO_TRAIL_WHILE_OWNER] != 0 and owned != 0)
    may_trail = may_trail and not (rules[L.R_NEXT_TURN_OBLIGATION] != 0 and st[L.MUST_ACT + p] != 0)
    held, twice = _hand_values(h)
    info = (present, owned, simple, held, twice, may_trail)
    reach = _sums(loose & NUMBER_MASK)
    any_play = False
    hm = h
    while hm:
        c = ctz(hm)
        hm &= hm - 1
        slots = _card_slots(c, loose, reach, info)
        any_play = any_play or slots != 0
        while slots:
            mask[c * SLOTS + ctz(slots)] = 1
            slots &= slots - 1
    if not any_play:  # rare: no play at all but the trails an obligation yields to (movegen's own rule)
        for r in range(_obliged_trails(st, rules, mv)):
            mask[mv[r, L.M_CARD] * SLOTS + TRAIL_SLOT] = 1
    return OK


@njit(cache=True)
def _family(st, rules, tbl, ctl, buf, action):
    """The moves of the play `action` (a first action) into buf's moves, as movegen writes them, each with its first
    action; OVERFLOW (ctl[C_NEED] as movegen's) when they outgrow the buffers."""
    mv, fam, sc_code, sc_mask = buf[0], buf[1], buf[2], buf[3]
    card, slot = action // SLOTS, action % SLOTS
    loose = st[L.LOOSE]
    ln = loose & NUMBER_MASK
    crowded = popcount(ln & BELOW_VALUE[10]) > L.MAX_SCRATCH_BITS  # movegen's test: the same moves, the same way
    cv = CARD_VALUE[card]
    v = cv if slot <= CAPTURE_BUILD_SLOT else (slot - BUILD_SLOT - 1) % VALUES + 1
    q = popcount(ln & BELOW_VALUE[v])
    if (1 << q) > sc_code.shape[0] and not crowded and slot != TRAIL_SLOT and cv != 0:
        ctl[C_N], ctl[C_NEED] = -1, -q
        return OVERFLOW
    sc_code[0] = 0
    sc_mask[0] = 0
    extra = 0 if cv == v else POW5[cv - 1]  # the played card joins a group of a build or add to a higher value
    n, scratch = 0, (sc_code, sc_mask)
    if slot == TRAIL_SLOT:
        n = _put(mv, 0, L.TRAIL, card, 0, 0, -1)
    elif cv == 0:  # a loose figure of the rank each (movegen's order), and with italian rules all three of it
        for f in range(card & ~3, (card & ~3) + 4):
            if (loose >> f) & 1:
                n = _put(mv, n, L.CAPTURE, card, 1 << f, 0, -1)
        if rules[L.R_FIGURE_CAPTURE] == 1 and popcount(loose & RANK_MASK[card >> 2]) == 3:
            n = _put(mv, n, L.CAPTURE, card, loose & RANK_MASK[card >> 2], 0, -1)
    elif slot <= CAPTURE_BUILD_SLOT:
        builds = 0 if slot == CAPTURE_SLOT else 1 << cv
        n = _groups(mv, 0, tbl, scratch, ln, 0, crowded, cv, 0, L.CAPTURE, card, builds)[0]
    elif slot < INCREASE_SLOT + 1:
        n = _groups(mv, 0, tbl, scratch, ln, 0, crowded, v, extra, L.BUILD_K, card, 0)[0]
    elif slot < ADD_SLOT + 1:
        b = v - cv
        bmask = (1 << b) | ((1 << v) if st[L.BUILD + v] != 0 else 0)  # merged with the build of w if any
        n = _groups(mv, 0, tbl, scratch, ln, 0, crowded, v, 0, L.INCREASE, card, bmask)[0]
    else:
        n = _groups(mv, 0, tbl, scratch, ln, 0, crowded, v, extra, L.ADD, card, 1 << v)[0]
    if n > mv.shape[0]:
        ctl[C_N], ctl[C_NEED] = -1, n
        return OVERFLOW
    for r in range(n):
        fam[r] = action
    ctl[C_N] = n
    return OK


@njit(cache=True)
def _fast_act(st, rules, ctl, tbl, buf, action):
    """factored.py's _act on _fast_turn's turns: ILLEGAL when the mask does not hold the action; OVERFLOW, nothing
    played, when the chosen play's moves outgrow the buffers (the caller plays the action another way); else OK."""
    if ctl[C_PLAYER] < 0 or ctl[C_N] < 0 or action < 0 or action >= N_IDS or buf[4][action] == 0:
        return ILLEGAL
    if ctl[C_FAM] >= 0:
        r = _take(ctl, buf, action)
    elif _family(st, rules, tbl, ctl, buf, action) != OK:
        return OVERFLOW
    elif ctl[C_N] == 1:  # most plays: one move, no card to name (factored.py's _take would clear the whole mask)
        _clear_plays(buf[4], st[L.HAND + ctl[C_PLAYER]])
        r = 0
    else:
        r = _take(ctl, buf, action)
    if r >= 0 and _played(st, rules, ctl, buf, buf[0][r]):
        return _fast_turn(st, rules, ctl, buf)
    return OK


@njit(cache=True, inline="always")
def _clear_plays(mask, hand):
    """Clear the first actions of the cards in `hand` (every legal action of a turn is one)."""
    while hand:
        c = ctz(hand)
        hand &= hand - 1
        mask[c * SLOTS : (c + 1) * SLOTS] = 0


@njit(cache=True)
def _fast_deal(st, rules, deck, ctl, picks, buf):
    """factored.py's _deal of the cards `picks` (cards), then _fast_turn once the batch is complete. Returns OK."""
    if _dealt(st, rules, deck, ctl, picks, False):
        return _fast_turn(st, rules, ctl, buf)
    return OK
