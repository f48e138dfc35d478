"""The last play valued from the position (lastplay.py _last_card) equals the best of its moves played out
(_last_play over the move generator's moves), in every rule set, on the last play of every batch of many rounds."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from casino_sim.core.rules import RULESETS
from casino_sim.kernels import layout as L
from casino_sim.kernels.apply import _apply
from casino_sim.kernels.lastplay import NO_VALUE, _last_card, _last_play
from casino_sim.kernels.movegen import _movegen
from casino_sim.kernels.rng import _below
from casino_sim.kernels.state import _deal_batch, _start_round
from casino_sim.kernels.tables import split_table


@njit(cache=True)
def _compare(rules, tbl, decks, seed, takes):
    """Play each deck's round at random (takes: a capture or build preferred 2 times in 3, so that builds are
    owned at the end); at each batch's last play count (checked, unequal, no value without n == 0, owned
    builds, both capture and trail legal)."""
    st, deck, after = np.zeros(L.STATE_SIZE, np.int64), np.zeros(52, np.int64), np.zeros(L.STATE_SIZE, np.int64)
    mv = np.zeros((1 << 12, L.MOVE_FIELDS), np.int64)
    sc_code, sc_mask = np.zeros(1 << 16, np.int64), np.zeros(1 << 16, np.int64)
    rng = np.full(1, seed, np.uint64)
    checked = unequal = lost = owned = mixed = 0
    for r in range(decks.shape[0]):
        deck[:] = decks[r]
        _start_round(st, rules, deck, r & 1)
        while st[L.PLY] < L.PLIES:
            if (st[L.HAND] | st[L.HAND + 1]) == 0:
                _deal_batch(st, deck, st[L.PLY] // 8, 2)
            n = _movegen(st, rules, tbl, mv, sc_code, sc_mask)
            p = st[L.TO_MOVE]
            if st[L.HAND + 1 - p] == 0 and (st[L.HAND + p] & (st[L.HAND + p] - 1)) == 0:
                checked += 1
                value = _last_card(st, rules, tbl)
                if value == NO_VALUE:
                    lost += n != 0
                else:
                    unequal += value != _last_play(st, rules, mv, n, after)
                for v in range(1, 11):
                    owned += st[L.BUILD + v] != 0 and st[L.OWNER + v] == p
                kinds = 0
                for i in range(n):
                    kinds |= 1 << mv[i, 0]
                mixed += (kinds >> L.CAPTURE) & 1 == 1 and (kinds >> L.TRAIL) & 1 == 1
            if n <= 0:
                break
            i = _below(rng, n)
            if takes:
                for k in range(n):
                    if mv[k, 0] != L.TRAIL and _below(rng, 3) != 0:
                        i = k
                        break
            _apply(st, rules, mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3], mv[i, 4])
    return checked, unequal, lost, owned, mixed


@pytest.mark.parametrize("rules_name", list(RULESETS))
@pytest.mark.parametrize("takes", [False, True])
def test_the_last_card_is_valued_as_its_moves_played_out(rules_name, takes):
    decks = np.argsort(np.random.default_rng(7).random((20_000, 52)), axis=1).astype(np.int64)
    rules = RULESETS[rules_name].as_array()
    checked, unequal, lost, owned, mixed = _compare(rules, split_table(), decks, 7, takes)
    assert checked == 6 * len(decks)
    assert (unequal, lost) == (0, 0)
    assert owned > 100 and mixed > 1000  # the sample reaches owned builds and a choice of capture or trail
