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

from casino_sim.core.featurespec import KIND_ID
from casino_sim.engine.apply import _apply
from casino_sim.engine.bits import FULL_MASK, VALUE_MASK, popcount
from casino_sim.engine.features import _immediate_score, _move_features, _needs_after, _view, _weighted
from casino_sim.engine.movegen import _movegen
from casino_sim.engine.rng import _below, _next
from casino_sim.engine.score import S_TOTAL, _finish, _score
from casino_sim.engine.state import BUILD, CAPTURED, HAND, LOOSE, OWNER, PLIES, PLY, STATE_SIZE, TO_MOVE, _deal_batch

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
def _sample_world(st, sorted_unseen, unseen_cards, n_unseen, rng, world_deck, opp_known):
    """Deal the unseen cards at random, consistently with what the mover knows.

    Returns the opponent's hand mask and puts the stock into world_deck at the
    deck positions of the batches still to come. The opponent holds a card of
    every build they own (the keep-a-capturing-card rule tells the mover so):
    hands that break it are rejected and drawn again from the same stream, so
    one stream still gives one world. Each draw restarts from the sorted cards.
    With opp_known the opponent keeps their hand and only the stock is shuffled.
    """
    p = st[TO_MOVE]
    h = 0 if opp_known else popcount(st[HAND + 1 - p])
    need = 0  # values the opponent must hold
    for v in range(1, 11):
        if st[OWNER + v] == 1 - p and not opp_known:
            need |= VALUE_MASK[v]
    opp = st[HAND + 1 - p] if opp_known else 0
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
    start = 12 + (st[PLY] // 8) * 8  # first deck position of the next batch
    for i in range(h, n_unseen):
        world_deck[start + i - h] = unseen_cards[i]
    return opp


@njit(cache=True)
def _sorted_unseen(st, opp_known, sorted_unseen):
    """The cards the mover has not seen (less the opponent's hand when known), ascending; returns their count."""
    p = st[TO_MOVE]
    seen = st[HAND + p] | st[LOOSE] | st[CAPTURED] | st[CAPTURED + 1]
    if opp_known:
        seen |= st[HAND + 1 - p]
    for v in range(1, 11):
        seen |= st[BUILD + v]
    unseen = FULL_MASK & ~seen
    n_unseen = 0
    while unseen:
        low = unseen & -unseen
        sorted_unseen[n_unseen] = popcount(low - 1)
        n_unseen += 1
        unseen ^= low
    return n_unseen


@njit(cache=True)
def _base_rows(base_kind, base_w, base_want, kinds2, weights2, wants2):
    """Both seats of a play-out play the base policy."""
    for s in range(2):
        kinds2[s] = base_kind
        for j in range(base_w.shape[0]):
            weights2[s, j] = base_w[j]
            wants2[s, j] = base_want[j]


@njit(cache=True)
def _world_diffs(
    st,
    rules,
    tbl,
    mv,
    n,
    crn,
    world_seed,
    opp_known,
    rng,
    work_mv,
    sc_code,
    sc_mask,
    after,
    f,
    scores,
    sim,
    world_deck,
    sorted_unseen,
    unseen_cards,
    n_unseen,
    kinds2,
    weights2,
    wants2,
    score,
    stream,
    acc,
):
    """Play each of the n moves out in one world: acc[i] += the mover's point difference at the round's end.

    With crn every move replays the world's own stream (the same hidden cards
    and play-out choices); without, each move draws a fresh stream from rng.
    Returns a play-out status (0 = fine).
    """
    p = st[TO_MOVE]
    for i in range(n):
        stream[0] = world_seed if crn else _next(rng)
        opp = _sample_world(st, sorted_unseen, unseen_cards, n_unseen, stream, world_deck, opp_known)
        for j in range(STATE_SIZE):
            sim[j] = st[j]
        sim[HAND + 1 - p] = opp
        _apply(sim, rules, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4])
        status = _play_out(
            sim, rules, tbl, world_deck, kinds2, weights2, wants2, stream, work_mv, sc_code, sc_mask, after, f, scores
        )
        if status != 0:
            return status
        _finish(sim)
        _score(sim, rules, score)
        acc[i] += score[p, S_TOTAL] - score[1 - p, S_TOTAL]
    return 0


@njit(cache=True)
def _world_seed(base_seed, k):
    """The seed of world k: worlds are spaced by the golden gamma so their streams do not overlap."""
    return base_seed + np.uint64(k) * np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def _rollout_index(
    st,
    rules,
    tbl,
    mv,
    n,
    ints,
    base_w,
    base_want,
    rng,
    work_mv,
    sc_code,
    sc_mask,
    after,
    f,
    scores,
    sim,
    world_deck,
    sorted_unseen,
    unseen_cards,
    kinds2,
    weights2,
    wants2,
    means,
    score,
    stream,
):
    """Determinised Monte Carlo: the move with the best mean point difference over sampled worlds.

    With common random numbers (crn) every move is played out in the same K
    worlds with the same play-out streams, so differences between moves are
    not drowned by the luck of the worlds.
    """
    if n == 1:
        return 0, 0
    n_unseen = _sorted_unseen(st, False, sorted_unseen)
    _base_rows(ints[P_BASE_KIND], base_w, base_want, kinds2, weights2, wants2)
    for i in range(n):
        means[i] = 0.0
    base_seed = _next(rng)
    for k in range(ints[P_WORLDS]):
        status = _world_diffs(
            st,
            rules,
            tbl,
            mv,
            n,
            ints[P_CRN],
            _world_seed(base_seed, k),
            False,
            rng,
            work_mv,
            sc_code,
            sc_mask,
            after,
            f,
            scores,
            sim,
            world_deck,
            sorted_unseen,
            unseen_cards,
            n_unseen,
            kinds2,
            weights2,
            wants2,
            score,
            stream,
            means,
        )
        if status != 0:
            return -1, status
    best = 0
    for i in range(1, n):
        if means[i] > means[best]:
            best = i
    return best, 0


@njit(cache=True)
def _rollout_diffs(
    st,
    rules,
    tbl,
    mv,
    n,
    base_kind,
    base_w,
    base_want,
    opp_known,
    rng,
    work_mv,
    sc_code,
    sc_mask,
    after,
    f,
    scores,
    sim,
    world_deck,
    sorted_unseen,
    unseen_cards,
    kinds2,
    weights2,
    wants2,
    score,
    stream,
    out,
):
    """out[k, i]: the mover's point difference at the round's end after move i in world k (common random numbers).

    The analyser's kernel: the same worlds and play-outs as the rollout policy
    with crn, kept per world so that intervals and "how often best" follow.
    Returns a play-out status (0 = fine).
    """
    n_unseen = _sorted_unseen(st, opp_known, sorted_unseen)
    _base_rows(base_kind, base_w, base_want, kinds2, weights2, wants2)
    base_seed = _next(rng)
    for k in range(out.shape[0]):
        for i in range(n):
            out[k, i] = 0.0
        status = _world_diffs(
            st,
            rules,
            tbl,
            mv,
            n,
            True,
            _world_seed(base_seed, k),
            opp_known,
            rng,
            work_mv,
            sc_code,
            sc_mask,
            after,
            f,
            scores,
            sim,
            world_deck,
            sorted_unseen,
            unseen_cards,
            n_unseen,
            kinds2,
            weights2,
            wants2,
            score,
            stream,
            out[k],
        )
        if status != 0:
            return status
    return 0
