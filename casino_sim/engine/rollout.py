"""The rollout policy and the analyser's numbers: sampled worlds, each move played out on the one round loop.

Determinised Monte Carlo: the hidden cards (the opponent's hand, the stock) are
dealt at random consistently with what the mover has seen, each candidate move
is played out to the round's end by the base policy, and the mover's point
difference is summed per move. The candidates sit in buf.mv.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.engine import layout as L
from casino_sim.engine.apply import _apply
from casino_sim.engine.bits import FULL_MASK, VALUE_MASK, popcount
from casino_sim.engine.play import _play_on
from casino_sim.engine.rng import _below, _next
from casino_sim.engine.score import _finish, _score


@njit(cache=True, _nrt=False)
def _sample_world(st, sorted_unseen, unseen_cards, n_unseen, rng, world_deck, opp_known):
    """Deal the unseen cards at random, consistently with what the mover knows.

    Returns the opponent's hand mask and puts the stock into world_deck at the
    deck positions of the batches still to come. The opponent holds a card of
    every build they own (the keep-a-capturing-card rule tells the mover so):
    hands that break it are rejected and drawn again from the same stream, so
    one stream still gives one world. Each draw restarts from the sorted cards.
    With opp_known the opponent keeps their hand and only the stock is shuffled.
    """
    p = st[L.TO_MOVE]
    h = 0 if opp_known else popcount(st[L.HAND + 1 - p])
    need = 0  # values the opponent must hold
    for v in range(1, 11):
        if st[L.OWNER + v] == 1 - p and not opp_known:
            need |= VALUE_MASK[v]
    opp = st[L.HAND + 1 - p] if opp_known else 0
    for _attempt in range(100_000):
        for i in range(n_unseen):
            unseen_cards[i] = sorted_unseen[i]
        for i in range(n_unseen - 1, 0, -1):  # Fisher-Yates
            j = _below(rng, i + 1)
            t = unseen_cards[i]
            unseen_cards[i] = unseen_cards[j]
            unseen_cards[j] = t
        if opp_known:
            break
        opp = 0
        for i in range(h):
            opp |= 1 << unseen_cards[i]
        ok = True
        for v in range(1, 11):
            if (need & VALUE_MASK[v]) and not (opp & VALUE_MASK[v]):
                ok = False
                break
        if ok:
            break
    start = L.BATCH_START[st[L.PLY] // L.PLIES_PER_BATCH + 1]  # first deck position of the next batch
    for i in range(h, n_unseen):
        world_deck[start + i - h] = unseen_cards[i]
    return opp


@njit(cache=True)
def _sorted_unseen(st, opp_known, sorted_unseen):
    """The cards the mover has not seen (less the opponent's hand when known), ascending; returns their count."""
    p = st[L.TO_MOVE]
    seen = st[L.HAND + p] | st[L.LOOSE] | st[L.CAPTURED] | st[L.CAPTURED + 1]
    if opp_known:
        seen |= st[L.HAND + 1 - p]
    for v in range(1, 11):
        seen |= st[L.BUILD + v]
    unseen = FULL_MASK & ~seen
    n_unseen = 0
    while unseen:
        low = unseen & -unseen
        sorted_unseen[n_unseen] = popcount(low - 1)
        n_unseen += 1
        unseen ^= low
    return n_unseen


@njit(cache=True)
def _base_seats(base_kind, base_w, base_want, seats):
    """Both seats of a play-out play the base policy."""
    ints, weights, wants = seats
    for s in range(2):
        ints[s, L.P_KIND] = base_kind
        for j in range(base_w.shape[0]):
            weights[s, j] = base_w[j]
            wants[s, j] = base_want[j]


@njit(cache=True, _nrt=False)
def _world_diffs(st, rules, tbl, n, crn, world_seed, opp_known, n_unseen, rng, buf, acc):
    """Play each of the n moves out in one world: acc[i] += the mover's point difference at the round's end.

    With crn every move replays the world's own stream (the same hidden cards
    and play-out choices); without, each move draws a fresh stream from rng.
    Returns a play-out status (OK = fine).
    """
    p = st[L.TO_MOVE]
    mv, sim, stream, score = buf.mv, buf.sim, buf.stream, buf.score
    for i in range(n):
        stream[0] = world_seed if crn else _next(rng)
        opp = _sample_world(st, buf.sorted_unseen, buf.unseen_cards, n_unseen, stream, buf.world_deck, opp_known)
        for j in range(L.STATE_SIZE):
            sim[j] = st[j]
        sim[L.HAND + 1 - p] = opp
        _apply(sim, rules, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4])
        status, _ = _play_on(sim, rules, tbl, buf.world_deck, buf.base, buf, buf.work_mv, stream, buf.quiet, False, -1)
        if status != L.OK:
            return status
        _finish(sim)
        _score(sim, rules, score)
        acc[i] += score[p, L.S_TOTAL] - score[1 - p, L.S_TOTAL]
    return L.OK


@njit(cache=True)
def _world_seed(base_seed, k):
    """The seed of world k: worlds are spaced by the golden gamma so their streams do not overlap."""
    return base_seed + np.uint64(k) * np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def _rollout_index(st, rules, tbl, n, ints, base_w, base_want, rng, buf):
    """The rollout policy (int row `ints`): the move of buf.mv with the best mean point difference. (index, status).

    With common random numbers (crn) every move is played out in the same K
    worlds with the same play-out streams, so differences between moves are
    not drowned by the luck of the worlds.
    """
    if n == 1:
        return 0, L.OK
    n_unseen = _sorted_unseen(st, False, buf.sorted_unseen)
    _base_seats(ints[L.P_BASE_KIND], base_w, base_want, buf.base)
    means = buf.means
    for i in range(n):
        means[i] = 0.0
    base_seed = _next(rng)
    for k in range(ints[L.P_WORLDS]):
        seed = _world_seed(base_seed, k)
        status = _world_diffs(st, rules, tbl, n, ints[L.P_CRN] != 0, seed, False, n_unseen, rng, buf, means)
        if status != L.OK:
            return -1, status
    best = 0
    for i in range(1, n):
        if means[i] > means[best]:
            best = i
    return best, L.OK


@njit(cache=True)
def _rollout_diffs(st, rules, tbl, n, base_kind, base_w, base_want, opp_known, rng, buf, out):
    """out[k, i]: the mover's point difference at the round's end after move i of buf.mv in world k (crn).

    The analyser's kernel: the same worlds and play-outs as the rollout policy
    with crn, kept per world so that intervals and "how often best" follow.
    Returns a play-out status (OK = fine).
    """
    n_unseen = _sorted_unseen(st, opp_known, buf.sorted_unseen)
    _base_seats(base_kind, base_w, base_want, buf.base)
    base_seed = _next(rng)
    for k in range(out.shape[0]):
        for i in range(n):
            out[k, i] = 0.0
        status = _world_diffs(st, rules, tbl, n, True, _world_seed(base_seed, k), opp_known, n_unseen, rng, buf, out[k])
        if status != L.OK:
            return status
    return L.OK
