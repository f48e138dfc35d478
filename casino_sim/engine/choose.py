"""Policies inside the engine: random, weighted heuristic and rollout, chosen by an integer id.

A policy is a row of plain arrays (no jitted functions passed around, which
would defeat numba's cache): kind (policies.policy.KIND_ID), weights (one per
feature), and for rollout: worlds, crn, the base policy's kind and weights.

Play-outs continue a round from any state: they deal the next batch when both
hands are empty, so one loop serves whole rounds and rollouts alike.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.engine.apply import _apply
from casino_sim.engine.bits import FULL_MASK, VALUE_MASK, popcount
from casino_sim.engine.features import _immediate_score, _move_features, _needs_after, _view, _weighted
from casino_sim.engine.movegen import _movegen
from casino_sim.engine.rng import _below, _next
from casino_sim.engine.score import S_TOTAL, _finish, _score
from casino_sim.engine.state import BUILD, CAPTURED, HAND, LOOSE, OWNER, PLY, PLIES, STATE_SIZE, TO_MOVE, _deal_batch
from casino_sim.featurespec import KIND_ID

RANDOM = KIND_ID["random"]
HEURISTIC = KIND_ID["heuristic"]
ROLLOUT = KIND_ID["rollout"]

# status of a play-out (0 = fine); the wrapper grows buffers and replays the whole row
NEED_MOVES = 1
NEED_SCRATCH = 2
NO_MOVES = 3

# policy parameter rows: P_* index the int row, weights sit in a float row
P_KIND = 0
P_WORLDS = 1
P_CRN = 2
P_BASE_KIND = 3
P_INTS = 4


@njit(cache=True)
def _heuristic_index(st, rules, tbl, mv, n, w, want, rng, after, f, scores):
    """The move with the highest weighted feature sum; ties broken by rng."""
    best = -np.inf
    immediate = not _needs_after(want)
    view = _view(st)
    for i in range(n):
        if immediate:  # greedy and its kind: score straight from the move record
            scores[i] = _immediate_score(st, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], w)
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


@njit(cache=True)
def _play_out(st, rules, tbl, deck, kinds, weights, wants, rng, mv, sc_code, sc_mask, after, f, scores):
    """Play the round on from `st` to its last play, seat s choosing with simple policy s.

    Returns a status (0 = fine).
    """
    while st[PLY] < PLIES:
        if st[HAND] == 0 and st[HAND + 1] == 0:
            _deal_batch(st, deck, st[PLY] // 8)
        n = _movegen(st, rules, tbl, mv, sc_code, sc_mask)
        if n < 0:
            return NEED_SCRATCH
        if n > mv.shape[0] or n > scores.shape[0]:
            return NEED_MOVES
        if n == 0:
            return NO_MOVES
        s = st[TO_MOVE]
        i = _simple_index(st, rules, tbl, mv, n, kinds[s], weights[s], wants[s], rng, after, f, scores)
        _apply(st, rules, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4])
    return 0


@njit(cache=True)
def _sample_world(st, sorted_unseen, unseen_cards, n_unseen, rng, world_deck):
    """Deal the unseen cards at random, consistently with what the mover knows.

    Returns the opponent's hand mask and puts the stock into world_deck at the
    deck positions of the batches still to come. The opponent holds a card of
    every build they own (the keep-a-capturing-card rule tells the mover so):
    hands that break it are rejected and drawn again from the same stream, so
    one stream still gives one world. Each draw restarts from the sorted cards.
    """
    p = st[TO_MOVE]
    h = popcount(st[HAND + 1 - p])
    need = 0  # values the opponent must hold
    for v in range(1, 11):
        if st[OWNER + v] == 1 - p:
            need |= VALUE_MASK[v]
    opp = 0
    for attempt in range(100_000):
        for i in range(n_unseen):
            unseen_cards[i] = sorted_unseen[i]
        for i in range(n_unseen - 1, 0, -1):  # Fisher-Yates
            j = _below(rng, i + 1)
            t = unseen_cards[i]
            unseen_cards[i] = unseen_cards[j]
            unseen_cards[j] = t
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
    start = 12 + (st[PLY] // 8) * 8  # first deck position of the next batch
    for i in range(h, n_unseen):
        world_deck[start + i - h] = unseen_cards[i]
    return opp


@njit(cache=True)
def _rollout_index(st, rules, tbl, mv, n, ints, base_w, base_want, rng, work_mv, sc_code, sc_mask,
                   after, f, scores, sim, world_deck, sorted_unseen, unseen_cards, kinds2, weights2, wants2,
                   means, score, stream):
    """Determinised Monte Carlo: the move with the best mean point difference over sampled worlds.

    With common random numbers (crn) every move is played out in the same K
    worlds with the same play-out streams, so differences between moves are
    not drowned by the luck of the worlds.
    """
    if n == 1:
        return 0, 0
    p = st[TO_MOVE]
    worlds = ints[P_WORLDS]
    seen = st[HAND + p] | st[LOOSE] | st[CAPTURED] | st[CAPTURED + 1]
    for v in range(1, 11):
        seen |= st[BUILD + v]
    unseen = FULL_MASK & ~seen
    n_unseen = 0
    while unseen:
        low = unseen & -unseen
        sorted_unseen[n_unseen] = popcount(low - 1)
        n_unseen += 1
        unseen ^= low
    for s in range(2):
        kinds2[s] = ints[P_BASE_KIND]
        for j in range(base_w.shape[0]):
            weights2[s, j] = base_w[j]
            wants2[s, j] = base_want[j]
    for i in range(n):
        means[i] = 0.0
    base_seed = _next(rng)
    for k in range(worlds):
        world_seed = base_seed + np.uint64(k) * np.uint64(0x9E3779B97F4A7C15)
        for i in range(n):
            stream[0] = world_seed if ints[P_CRN] else _next(rng)
            opp = _sample_world(st, sorted_unseen, unseen_cards, n_unseen, stream, world_deck)
            for j in range(STATE_SIZE):
                sim[j] = st[j]
            sim[HAND + 1 - p] = opp
            _apply(sim, rules, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4])
            status = _play_out(sim, rules, tbl, world_deck, kinds2, weights2, wants2, stream, work_mv,
                               sc_code, sc_mask, after, f, scores)
            if status != 0:
                return -1, status
            _finish(sim)
            _score(sim, rules, score)
            means[i] += score[p, S_TOTAL] - score[1 - p, S_TOTAL]
    best = 0
    for i in range(1, n):
        if means[i] > means[best]:
            best = i
    return best, 0
