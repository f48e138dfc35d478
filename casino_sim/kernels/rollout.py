"""The rollout policy and the analyser's numbers: sampled worlds, each move played out by the base policy.

Determinised Monte Carlo: the hidden cards (the other hands, the stock) are
dealt at random consistently with what the mover has seen, each candidate move
is played out to the round's end by the base policy, and the mover's margin
(_margin: two players, their point difference) is summed per move. The candidates sit in buf.mv.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.core.featurespec import P_HORIZON
from casino_sim.kernels import layout as L
from casino_sim.kernels.apply import _apply
from casino_sim.kernels.bits import FULL_MASK, VALUE_MASK, popcount
from casino_sim.kernels.choose import _by_score, _full_scores, _heuristic_index
from casino_sim.kernels.movegen import _movegen
from casino_sim.kernels.rng import _below, _next
from casino_sim.kernels.score import _finish, _score
from casino_sim.kernels.state import _batch_start, _deal_batch
from casino_sim.kernels.value import _value


@njit(cache=True, _nrt=False)
def _sample_world(st, rules, sim, sorted_unseen, unseen_cards, n_unseen, rng, world_deck, known):
    """Deal the unseen cards at random into sim's other hands, consistently with what the mover knows.

    The other players' hands, in turn order from the mover's left, take the shuffled cards in turn, each
    keeping its size; the stock goes into world_deck at the deck positions of the batches still to come.
    Every player holds a card of each build they own (the keep-a-capturing-card rule tells the mover so):
    deals that break it are rejected and drawn again from the same stream, so one stream still gives one
    world. Each draw restarts from the sorted cards. With `known` the other hands are kept (sim has them)
    and only the stock is shuffled.
    """
    p = st[L.TO_MOVE]
    n = rules[L.R_PLAYERS]
    hidden = 0  # the cards of the other hands, dealt first
    if not known:
        for q in range(n):
            if q != p:
                hidden += popcount(st[L.HAND + q])
    for _attempt in range(100_000):
        for i in range(n_unseen):
            unseen_cards[i] = sorted_unseen[i]
        for i in range(n_unseen - 1, 0, -1):  # Fisher-Yates
            j = _below(rng, i + 1)
            t = unseen_cards[i]
            unseen_cards[i] = unseen_cards[j]
            unseen_cards[j] = t
        if known:
            break
        ok = True
        k = 0
        for d in range(1, n):
            q = p + d if p + d < n else p + d - n
            hand = 0
            for i in range(k, k + popcount(st[L.HAND + q])):
                hand |= 1 << unseen_cards[i]
            k += popcount(st[L.HAND + q])
            sim[L.HAND + q] = hand
            for v in range(1, 11):
                if st[L.OWNER + v] == q and not (hand & VALUE_MASK[v]):
                    ok = False
        if ok:
            break
    start = _batch_start(n, st[L.PLY] // (L.HAND_SIZE * n) + 1)  # first deck position of the next batch
    for i in range(hidden, n_unseen):
        world_deck[start + i - hidden] = unseen_cards[i]


@njit(cache=True)
def _sorted_unseen(st, rules, known, sorted_unseen):
    """The cards the mover has not seen (less the other hands when known), ascending; returns their count."""
    p = st[L.TO_MOVE]
    seen = st[L.HAND + p] | st[L.LOOSE] | st[L.CAPTURED] | st[L.CAPTURED + 1] | st[L.CAPTURED + 2] | st[L.CAPTURED + 3]
    if known:
        for q in range(rules[L.R_PLAYERS]):
            seen |= st[L.HAND + q]
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


@njit(cache=True, inline="always")
def _margin(rules, score, p):
    """The mover's margin at the round's end: their side's points less the other side's (teams); else their points
    less the best other player's (with two players, the opponent's)."""
    n = rules[L.R_PLAYERS]
    if rules[L.R_TEAMS] != 0:
        side = L.SIDE_OF[p]
        return score[n + side, L.S_TOTAL] - score[n + 1 - side, L.S_TOTAL]
    best = -1
    for q in range(n):
        if q != p and score[q, L.S_TOTAL] > best:
            best = score[q, L.S_TOTAL]
    return score[p, L.S_TOTAL] - best


@njit(cache=True, inline="always")
def _side_points(rules, score, p, out):
    """out[0], out[1]: the points of the mover's side and of the other side at the round's end (two sides)."""
    n = rules[L.R_PLAYERS]
    if rules[L.R_TEAMS] != 0:
        side = L.SIDE_OF[p]
        out[0], out[1] = score[n + side, L.S_TOTAL], score[n + 1 - side, L.S_TOTAL]
    else:
        out[0], out[1] = score[p, L.S_TOTAL], score[1 - p, L.S_TOTAL]


@njit(cache=True)
def _base_seats(base_kind, base_w, base_want, seats):
    """Every seat of a play-out plays the base policy."""
    ints, weights, wants = seats
    for s in range(L.MAX_PLAYERS):
        ints[s, L.P_KIND] = base_kind
        for j in range(base_w.shape[0]):
            weights[s, j] = base_w[j]
            wants[s, j] = base_want[j]


@njit(cache=True, inline="always")
def _play_out(sim, rules, tbl, deck, buf, stream, stop):
    """Play on from sim to play `stop` (PLIES: the round's end), every seat the base policy of buf.base: the plays
    and draws of the round loop (play.py _play_on) for such seats, without its record, trace and checks. Returns
    a status (OK = fine)."""
    ints, weights, wants = buf.base
    kind, w, want, mv = ints[0, L.P_KIND], weights[0], wants[0], buf.work_mv
    players = rules[L.R_PLAYERS]
    while sim[L.PLY] < stop:
        if (sim[L.HAND] | sim[L.HAND + 1] | sim[L.HAND + 2] | sim[L.HAND + 3]) == 0:  # every hand is empty
            _deal_batch(sim, deck, sim[L.PLY] // (L.HAND_SIZE * players), players)
        n = _movegen(sim, rules, tbl, mv, buf.sc_code, buf.sc_mask)
        if n <= 0 or n > mv.shape[0]:
            return L.NEED_SCRATCH if n < 0 else L.NO_MOVES if n == 0 else L.NEED_MOVES
        if kind == L.HEURISTIC:
            i = _heuristic_index(sim, rules, tbl, mv, n, w, want, stream, buf.after, buf.f, buf.scores)
        else:  # random
            i = _below(stream, n)
        _apply(sim, rules, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4])
    return L.OK


@njit(cache=True, inline="always")
def _stop(st, rules, horizon):
    """Where a play-out from st stops: `horizon` batch ends on (1: the end of the current batch), but the round's
    end when that would be the last batch's start, when horizon is 0, and with three or four players."""
    if horizon == 0 or rules[L.R_PLAYERS] != 2:  # the value estimate is fitted to two players' batch ends
        return L.PLIES
    end = (st[L.PLY] // L.PLIES_PER_BATCH + horizon) * L.PLIES_PER_BATCH
    return L.PLIES if end >= L.PLIES - L.PLIES_PER_BATCH else end


@njit(cache=True, _nrt=False)
def _world_diffs(st, rules, tbl, n, world, opp_known, n_unseen, buf, acc, pts, stop):
    """Play each of the n moves out in one world to play `stop` (_stop): acc[i] += the mover's margin at the round's
    end (_margin), or its estimate where the play-out stopped at a batch's end (value.py); when pts has rows (two
    sides; play-outs to the round's end), pts[i] = both sides' points (_side_points).

    world: (its seed, crn, rng). With crn every move replays the world's own stream (the same hidden cards and
    play-out choices); without, each move draws a fresh stream from rng. Returns a play-out status (OK = fine).
    """
    world_seed, crn, rng = world
    p = st[L.TO_MOVE]
    mv, sim, stream, score, deck = buf.mv, buf.sim, buf.stream, buf.score, buf.world_deck
    h0 = h1 = h2 = h3 = 0  # with crn, the world's hands as the first move's deal drew them
    drawn = np.uint64(0)  # and its stream after that deal: the next moves replay both, without dealing again
    for i in range(n):
        for j in range(L.STATE_SIZE):
            sim[j] = st[j]
        if crn and i > 0:
            sim[L.HAND], sim[L.HAND + 1], sim[L.HAND + 2], sim[L.HAND + 3] = h0, h1, h2, h3
            stream[0] = drawn
        else:
            stream[0] = world_seed if crn else _next(rng)
            _sample_world(st, rules, sim, buf.sorted_unseen, buf.unseen_cards, n_unseen, stream, deck, opp_known)
            h0, h1, h2, h3, drawn = sim[L.HAND], sim[L.HAND + 1], sim[L.HAND + 2], sim[L.HAND + 3], stream[0]
        _apply(sim, rules, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4])
        status = _play_out(sim, rules, tbl, deck, buf, stream, stop)
        if status != L.OK:
            return status
        if sim[L.PLY] < L.PLIES:
            acc[i] += _value(sim, rules, tbl, p, buf.f)
            continue
        _finish(sim)
        _score(sim, rules, score)
        acc[i] += _margin(rules, score, p)
        if pts.shape[0] > 0:
            _side_points(rules, score, p, pts[i])
    return L.OK


@njit(cache=True)
def _world_seed(base_seed, k):
    """The seed of world k: worlds are spaced by the golden gamma so their streams do not overlap."""
    return base_seed + np.uint64(k) * np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def _cut(m, k, z, mv, sums, cross, keep):
    """Drop the moves clearly behind the leader after k worlds, the others keeping their order: how many are left.

    The leader is the first move of the highest sum. A move goes when its mean deficit to the leader exceeds
    z standard errors of their paired differences (world by world: with crn the same worlds), or when it
    scored as the leader in every world so far (an equivalent move: the leader stands for it). sums[i] is
    move i's summed margin, cross[i, j] (j <= i) the sum of its margins' products with move j's.
    """
    if k < 2:
        return m
    lead = 0
    for i in range(1, m):
        if sums[i] > sums[lead]:
            lead = i
    kept = 0
    for i in range(m):
        gap = sums[lead] - sums[i]
        squares = cross[lead, lead] + cross[i, i] - 2.0 * cross[max(i, lead), min(i, lead)]  # of the differences
        spread = max(squares - gap * gap / k, 0.0)  # (k - 1) times the differences' variance
        if i == lead or squares != 0.0 and not (gap > 0.0 and gap * gap * (k - 1) > z * z * k * spread):
            keep[kept] = i
            kept += 1
    for a in range(kept):  # keep[a] >= a: a row is read before it is written over
        i = keep[a]
        for j in range(L.MOVE_FIELDS):
            mv[a, j] = mv[i, j]
        sums[a] = sums[i]
        for b in range(a + 1):
            cross[a, b] = cross[i, keep[b]]
    return kept


@njit(cache=True, inline="always")
def _highest(values, n):
    """The index of the first of values[:n]'s highest: the move a sum or mean of play-outs chooses."""
    best = 0
    for i in range(1, n):
        if values[i] > values[best]:
            best = i
    return best


@njit(cache=True)
def _race(st, rules, tbl, n, ints, n_unseen, base_seed, rng, buf, no_points):
    """The rollout's worlds as a race: every P_RACE worlds the moves clearly behind the leader stop (_cut), and
    the search stops when one is left. The moves left sit at the front of buf.mv: (index among them, status)."""
    crn = ints[L.P_CRN] != 0
    z = ints[L.P_RACE_Z] / 1000.0
    sums = buf.means  # zeroed by the caller
    world = np.empty(n)
    cross = np.zeros((n, n))
    keep = np.empty(n, np.int64)
    m = n
    stop = _stop(st, rules, ints[P_HORIZON])
    for k in range(ints[L.P_WORLDS]):
        for i in range(m):
            world[i] = 0.0
        seed = _world_seed(base_seed, k)
        status = _world_diffs(st, rules, tbl, m, (seed, crn, rng), False, n_unseen, buf, world, no_points, stop)
        if status != L.OK:
            return -1, status
        for i in range(m):
            sums[i] += world[i]
            for j in range(i + 1):
                cross[i, j] += world[i] * world[j]
        if (k + 1) % ints[L.P_RACE] == 0:
            m = _cut(m, k + 1, z, buf.mv, sums, cross, keep)
            if m == 1:
                break
    return _highest(sums, m), L.OK


@njit(cache=True)
def _keep_top(st, rules, tbl, n, top, base_w, base_want, buf):
    """Keep at the front of buf.mv only the `top` moves the heuristic base scores highest, best first (equal
    scores in move order): the moves worth playing out. Returns top."""
    mv, scores = buf.mv, buf.scores
    _full_scores(st, rules, tbl, mv, n, base_w, base_want, buf.after, buf.f, scores)
    order = _by_score(scores, n, np.empty(n, np.int64))
    kept = np.empty((top, L.MOVE_FIELDS), np.int64)
    for t in range(top):
        for j in range(L.MOVE_FIELDS):
            kept[t, j] = mv[order[t], j]
    for t in range(top):
        for j in range(L.MOVE_FIELDS):
            mv[t, j] = kept[t, j]
    return top


@njit(cache=True)
def _rollout_index(st, rules, tbl, n, ints, base_w, base_want, rng, buf):
    """The rollout policy (int row `ints`): the move of buf.mv with the best mean point difference. (index, status).

    With common random numbers (crn) every move is played out in the same K
    worlds with the same play-out streams, so differences between moves are
    not drowned by the luck of the worlds.
    """
    if n == 1:
        return 0, L.OK
    if 0 < ints[L.P_TOP] < n and ints[L.P_BASE_KIND] == L.HEURISTIC:
        n = _keep_top(st, rules, tbl, n, ints[L.P_TOP], base_w, base_want, buf)
        if n == 1:  # the base's own best: nothing to play out
            return 0, L.OK
    n_unseen = _sorted_unseen(st, rules, False, buf.sorted_unseen)
    _base_seats(ints[L.P_BASE_KIND], base_w, base_want, buf.base)
    means = buf.means
    for i in range(n):
        means[i] = 0.0
    base_seed = _next(rng)
    no_points = np.empty((0, 2))  # the policy needs only the margins
    if ints[L.P_RACE] > 0:
        return _race(st, rules, tbl, n, ints, n_unseen, base_seed, rng, buf, no_points)
    stop, crn = _stop(st, rules, ints[P_HORIZON]), ints[L.P_CRN] != 0
    for k in range(ints[L.P_WORLDS]):
        seed = _world_seed(base_seed, k)
        status = _world_diffs(st, rules, tbl, n, (seed, crn, rng), False, n_unseen, buf, means, no_points, stop)
        if status != L.OK:
            return -1, status
    return _highest(means, n), L.OK


@njit(cache=True)
def _rollout_diffs(st, rules, tbl, n, base_kind, base_w, base_want, opp_known, rng, buf, out, pts):
    """out[k, i]: the mover's point difference at the round's end after move i of buf.mv in world k (crn); when
    pts has rows (two sides), pts[k, i] the points of the mover's side and of the other side.

    The analyser's kernel: the same worlds and play-outs as the rollout policy
    with crn, kept per world so that intervals and "how often best" follow.
    Returns a play-out status (OK = fine).
    """
    n_unseen = _sorted_unseen(st, rules, opp_known, buf.sorted_unseen)
    _base_seats(base_kind, base_w, base_want, buf.base)
    base_seed = _next(rng)
    for k in range(out.shape[0]):
        for i in range(n):
            out[k, i] = 0.0
        seed = _world_seed(base_seed, k)
        world_pts = pts[k] if pts.shape[0] > 0 else np.empty((0, 2))
        world = (seed, True, rng)
        status = _world_diffs(st, rules, tbl, n, world, opp_known, n_unseen, buf, out[k], world_pts, L.PLIES)
        if status != L.OK:
            return status
    return L.OK
