"""The batched environment's whole step in one parallel kernel (research/batch.py): each table's action, the deal
due, a fresh round from its next deck where the last one ended, then what a learner reads of it (terminated, each
player's reward, the view of the player to move, a uniform legal action for the next step), while the table's
arrays are in cache. Parallel over chunks of tables (movegen's subset scratch is a chunk's); every table's result
depends on its own arrays only, so the same seeds give the same arrays on any number of threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from casino_sim.kernels import layout as L
from casino_sim.kernels.bits import ctz, popcount
from casino_sim.kernels.factored import (
    C_DEALT,
    C_FAM,
    C_PLAYER,
    CHANCE,
    MASK_WIDTH,
    OK,
    SLOTS,
    TERMINAL,
    _begin,
)
from casino_sim.kernels.first_actions import _fast_act, _fast_deal
from casino_sim.kernels.observe import _observe_over


@njit(cache=True, parallel=True)
def _play_tables(sts, rules, ctls, decks, tbl, bufs, stock, actions, skip, out, view, counter):
    """Every table not marked in `skip`: its action (or, where its round is over, a fresh round from its next deck in
    `stock`), then _finish. out = (status, observation, rewards, terminated, drawn); view as _finish takes it."""
    chunks = bufs[2].shape[0]
    per = (sts.shape[0] + chunks - 1) // chunks
    for c in prange(chunks):
        _play_chunk(c, per, sts, rules, ctls, decks, tbl, bufs, stock, actions, skip, (out, view, counter))


# _nrt=False, for it and every kernel it calls: a table's views and the arrays handed down skip the runtime's atomic
# reference counts, which two threads would bounce between their cores at every table (nothing here allocates)
@njit(cache=True, _nrt=False)
def _play_chunk(c, per, sts, rules, ctls, decks, tbl, bufs, stock, actions, skip, learner):
    """_play_tables for tables c * per to (c + 1) * per, on chunk c's subset scratch; learner = (out, view,
    counter)."""
    out, view, counter = learner
    mvs, fams, codes, subsets, legal, scores, hists = bufs
    n = rules[L.R_PLAYERS]
    for i in range(c * per, min((c + 1) * per, sts.shape[0])):
        if skip[i]:
            continue
        st, ctl, deck = sts[i], ctls[i], decks[i]
        buf = (mvs[i], fams[i], codes[c], subsets[c], legal[i], scores[i], hists[i])
        if ctl[C_PLAYER] == TERMINAL:
            ahead, upcoming = stock
            for k in range(52):  # a loop: a slice copy may allocate (it checks the two for overlap)
                deck[k] = upcoming[i, ahead[i], k]
            ahead[i] += 1
            _begin(st, rules, ctl, st[L.DEALER])
            status = _fast_deal(st, rules, deck, ctl, deck[: 4 * n + 4], buf)
        else:
            status = _fast_act(st, rules, ctl, tbl, buf, actions[i])
            if status == OK and ctl[C_PLAYER] == CHANCE:
                start = ctl[C_DEALT]
                status = _fast_deal(st, rules, deck, ctl, deck[start : start + 4 * n], buf)
        out[0][i] = status
        _finish(i, sts, rules, ctls, decks, bufs, out, view, counter)


@njit(cache=True, parallel=True)
def _finish_rows(rows, sts, rules, ctls, decks, bufs, out, view, counter):
    """_finish for the tables `rows` (those played apart from the batch this step)."""
    for k in prange(rows.shape[0]):
        _finish(rows[k], sts, rules, ctls, decks, bufs, out, view, counter)


@njit(cache=True, _nrt=False)
def _finish(i, sts, rules, ctls, decks, bufs, out, view, counter):
    """Table i's terminated flag, rewards (each player's side points, or with zero_sum their difference, where the
    round is over; else 0), the view of its player to move and a uniform legal action drawn from (seed, counter).
    view = (field offsets, totals, each player's side, each table's seed, zero_sum)."""
    _, observation, rewards, terminated, drawn = out
    offsets, totals, side, seeds, zero_sum = view
    ctl = ctls[i]
    over = ctl[C_PLAYER] == TERMINAL
    terminated[i] = over
    for p in range(side.shape[0]):
        rewards[i, p] = 0.0
        if over:
            own = _side_total(rules, bufs[5][i], side[p])
            rewards[i, p] = own - _side_total(rules, bufs[5][i], 1 - side[p]) if zero_sum else own
    _observe_over(sts[i], rules, ctl, totals, max(ctl[C_PLAYER], 0), offsets, decks[i], bufs[6][i], observation[i])
    drawn[i] = _pick(bufs[4][i], seeds[i], counter, _regions(sts[i], ctl))


@njit(cache=True, inline="always")
def _regions(st, ctl):
    """The regions of the mask that can hold a legal action, as a mask of SLOTS-wide regions (region c: the plays of
    card c; the two after the cards: the loose cards and DONE): those of the cards in the mover's hand, or the loose
    cards' while a play is being chosen, or none once the round is over or a card is due."""
    if ctl[C_PLAYER] < 0:
        return 0
    if ctl[C_FAM] >= 0:
        return 3 << 52
    return st[L.HAND + ctl[C_PLAYER]]


@njit(cache=True, inline="always")
def _side_total(rules, score, s):
    """Side s's round points from the score rows: the team's row with teams, else player s's."""
    n = rules[L.R_PLAYERS]
    return score[n + s, L.S_TOTAL] if rules[L.R_TEAMS] != 0 else score[s, L.S_TOTAL]


@njit(cache=True, inline="always")
def _words(region, after):
    """The mask's 8-byte words that overlap the ids of a region and start at or after the word `after` (a region's
    last word may be the next one's first): (first, end)."""
    return max(region * SLOTS // 8, after), min(((region + 1) * SLOTS + 7) // 8, MASK_WIDTH // 8)


@njit(cache=True)
def _pick(legal, seed, counter, regions):
    """A uniformly drawn legal action of one table's mask (0 when none), every legal one in `regions` (_regions):
    splitmix64 of (seed, counter), reduced by multiply-shift. The mask's bytes are 0 or 1, so a word's popcount
    counts its legal actions; only the regions' words are read (a word's few bytes)."""
    words = legal.view(np.uint64)
    k, end, m = 0, 0, regions
    while m:
        first, end = _words(ctz(m), end)
        m &= m - 1
        for w in range(first, end):
            k += popcount(np.int64(words[w]))
    x = np.uint64(seed) + np.uint64(counter) * np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    x = x ^ (x >> np.uint64(31))
    pick = np.int64(((x >> np.uint64(32)) * np.uint64(k)) >> np.uint64(32))
    end, m = 0, regions
    while m:
        first, end = _words(ctz(m), end)
        m &= m - 1
        for w in range(first, end):
            c = popcount(np.int64(words[w]))
            if pick >= c:
                pick -= c
                continue
            for a in range(8 * w, 8 * w + 8):
                if legal[a]:
                    if pick == 0:
                        return a
                    pick -= 1
    return 0
