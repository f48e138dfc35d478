"""A whole round for 2, 3 or 4 players on the one round loop: its moves and score rows, without a record.

_play_round_n is the raw entry point for n players (api.py's play_round_n_*): seats play random, a heuristic,
a rollout, the searcher, or a script (play i is the canonical move script[i] % count). The searcher's exact last
batch is two-player (kernels/search.py). _play_rounds_n plays many rounds for their score rows only (the seated
comparisons of knockout and tune); simulate's rows and their records, whole games included, are rows.py's, for every
player count.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from casino_sim.kernels import layout as L
from casino_sim.kernels.bits import popcount
from casino_sim.kernels.buffers import _new_scratch
from casino_sim.kernels.exact import _search_space_for
from casino_sim.kernels.score import _finish, _score
from casino_sim.kernels.search import _play_to_end
from casino_sim.kernels.state import _start_round


# _nrt=False: no reference counts in the round loop, as rows.py's _play_block (which says why, and which callees
# allocate and so set their own _nrt=True)
@njit(cache=True, _nrt=False)
def _play_round_n(st, rules, tbl, deck, dealer, seats, buf, rng, script, trace, search):
    """Play the round dealt from `deck` by `dealer` into st, its moves into trace (PLIES, MOVE_FIELDS) and its
    score rows into buf.score. Returns (status, how many cards the last capturer took as the remainder).
    search: the search arrays for the seats (exact.py _search_space_for)."""
    _start_round(st, rules, deck, dealer)
    status = _play_to_end(
        st, rules, tbl, deck, seats, buf, rng, (buf.quiet[0], trace, script, buf.quiet[3]), None, search
    )
    if status != L.OK:
        return status, 0
    rest = st[L.LOOSE]
    for v in range(1, 11):
        rest |= st[L.BUILD + v]
    _finish(st)
    _score(st, rules, buf.score)
    return L.OK, popcount(rest) if st[L.LAST_CAPTURER] >= 0 else 0


@njit(cache=True)
def _play_rounds_n(rules, tbl, deals, seats, idx, cap, bits, totals, status, search):
    """Play rounds idx (deals: decks (k, 52), dealers, seeds) one after another with one Scratch: totals[i, r]
    is score row r's total of round i; status[i] != 0 marks a round to replay with larger buffers. search:
    search.py's search_switch of the seats."""
    decks, dealers, seeds = deals
    buf = _new_scratch(cap, bits)
    search = _search_space_for(search, cap)
    st = np.zeros(L.STATE_SIZE, dtype=np.int64)
    deck = np.zeros(52, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    no_script = np.zeros(0, dtype=np.int64)
    for r in range(idx.shape[0]):
        i = idx[r]
        for j in range(52):
            deck[j] = decks[i, j]
        rng[0] = seeds[i]
        status[i], _ = _play_round_n(st, rules, tbl, deck, dealers[i], seats, buf, rng, no_script, buf.quiet[1], search)
        for k in range(totals.shape[1]):
            totals[i, k] = buf.score[k, L.S_TOTAL]
