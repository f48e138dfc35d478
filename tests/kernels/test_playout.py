"""A rollout's play-outs (rollout.py _play_out, a lean loop of their own) play what the round loop plays."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim.core.rules import get_rules
from casino_sim.kernels import layout as L
from casino_sim.kernels.buffers import _new_scratch
from casino_sim.kernels.codec import world_state
from casino_sim.kernels.play import _play_on
from casino_sim.kernels.rollout import _base_seats, _play_out
from casino_sim.kernels.tables import split_table
from tests.support.policies import get_policy
from tests.support.rounds import play_random_rounds


@pytest.mark.parametrize("spec", ["strict", "brazilian", "italian", "brazilian:players=3", "italian:players=4"])
def test_a_play_out_ends_where_the_round_loop_ends_with_the_same_draws(spec):
    """From positions of random play, every seat the base policy (tuned, random), the same seed: the same final
    state and the same generator state, so the same plays, draws included."""
    rules = get_rules(spec)
    reached = []
    play_random_rounds(rules, 6, 77, lambda pos, moves, deck: reached.append((pos, deck)))
    tuned = get_policy("tuned").weights
    arr, tbl, buf = rules.as_array(), split_table(), _new_scratch(L.MOVE_CAP * 8, L.SCRATCH_BITS + 6)
    for base_kind, weights in ((L.HEURISTIC, tuned), (L.RANDOM, np.zeros_like(tuned))):
        _base_seats(base_kind, weights, (weights != 0).astype(np.int64), buf.base)
        for k, (pos, deck) in enumerate(reached[::5]):
            st, _ = world_state(pos)
            deck = np.asarray(deck, dtype=np.int64)
            loop, out = st.copy(), st.copy()
            loop_rng, out_rng = np.array([k + 1], np.uint64), np.array([k + 1], np.uint64)
            status, _ = _play_on(loop, arr, tbl, deck, buf.base, buf, buf.work_mv, loop_rng, buf.quiet, None, -1)
            assert status == L.OK
            assert _play_out(out, arr, tbl, deck, buf, out_rng, L.PLIES) == L.OK
            assert np.array_equal(loop, out) and loop_rng[0] == out_rng[0], (spec, base_kind, pos.to_json())
            assert out[L.PLY] == L.PLIES
