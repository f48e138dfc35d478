"""kernels/first_actions.py, the batched environment's turn: its legal first actions are the play ids of every legal
move movegen lists, and the moves it writes for a chosen play are that play's moves, at every turn of random and
always-the-first-action play (which piles the table high) on every table."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim.kernels import Table
from casino_sim.kernels import layout as L
from casino_sim.kernels.factored import C_FAM, C_N, CHANCE, N_IDS, OK, OVERFLOW, TERMINAL, _turn, new_buffers
from casino_sim.kernels.first_actions import _family, _fast_turn
from casino_sim.research.options import table_rules
from tests.research.test_openspiel import TABLES, label


def turns(params: dict, seed: int, first: bool, rounds: int):
    """The round state at the start of every turn of `rounds` rounds, each action uniform or the first legal one."""
    rules = table_rules(params["rules"], params.get("players", 2), params.get("teams", False))
    rng, table = np.random.default_rng(seed), Table(rules.as_array())
    for r in range(rounds):
        table.begin(r % rules.players)
        status = OK
        while table.player != TERMINAL and status != OVERFLOW:
            if table.player == CHANCE:
                status = table.deal([int(rng.integers(52 - table.dealt))], True)
                continue
            if table.ctl[C_FAM] < 0:
                yield table.rules, table.st.copy()
            legal = np.flatnonzero(table.mask)
            status = table.act(int(legal[0] if first else rng.choice(legal)))


@pytest.mark.parametrize("first", [False, True], ids=["random", "first"])
@pytest.mark.parametrize("params", TABLES, ids=label)
def test_the_first_actions_and_a_plays_moves_are_movegens(params, first):
    full, fast, tbl = new_buffers(1 << 14, 14), new_buffers(64, 10), Table(np.zeros(1, np.int64)).tbl
    seen = plays = apart = 0
    for rules, st in turns(params, 7, first, 3 if first else 12):
        ctl, quick = np.zeros(16, np.int64), np.zeros(16, np.int64)
        if _turn(st.copy(), rules, tbl, ctl, full) != OK:
            continue  # past the big buffers too: nothing to compare with
        fast[4][:] = 0  # as the batch leaves it before a turn
        assert _fast_turn(st.copy(), rules, quick, fast) == OK
        assert np.array_equal(fast[4][:N_IDS], full[4][:N_IDS])
        moves = full[0][: ctl[C_N]]
        for action in np.flatnonzero(fast[4][:N_IDS]):
            want = {tuple(m) for m in moves[full[1][: ctl[C_N]] == action]}
            if _family(st.copy(), rules, tbl, quick, fast, action) == OVERFLOW:
                below_ten = bin(int(st[L.LOOSE]) & ((1 << 36) - 1)).count("1")  # loose number cards of 1 to 9
                assert len(want) > 64 or below_ten > 10  # past the small buffers' moves or subsets: played apart
                apart += 1
                continue
            got = [tuple(m) for m in fast[0][: quick[C_N]]]
            assert len(got) == len(set(got)) and set(got) == want and (fast[1][: quick[C_N]] == action).all()
            plays += 1
        seen += 1
    assert seen > 20 and plays > seen
    if first:
        assert apart > 0  # the piled tables reach plays past the small buffers
