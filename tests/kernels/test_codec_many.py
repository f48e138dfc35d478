"""The codec with three and four players: positions to numba states and back, and the worlds' starting state
(every hidden hand at its size, the dealer and the ply), checked against rounds whose every play is known."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from casino_sim.core.rules import get_rules
from casino_sim.kernels import layout as L
from casino_sim.kernels.codec import position_to_state, state_to_position, unseen_hand, world_state
from casino_sim.reference.round import play_round

SPECS = ("italian:players=3", "brazilian:players=4", "italian:players=4,teams=true")


def _positions(spec: str, seed: int):
    """(position, its dealer, plays made so far) before every play of two random reference rounds."""
    rules, rng, out = get_rules(spec), np.random.default_rng(seed), []
    for dealer in (0, rules.players - 1):
        plies = iter(range(48))

        def choose(pos, moves, dealer=dealer, plies=plies):
            out.append((pos, dealer, next(plies)))
            return moves[rng.integers(len(moves))]

        play_round(rules, [int(c) for c in rng.permutation(52)], dealer, choose)
    return out


@pytest.mark.parametrize("spec", SPECS)
def test_a_position_survives_the_state(spec):
    for pos, dealer, _ in _positions(spec, 1):
        st = position_to_state(pos)
        assert st[L.DEALER] == dealer
        assert state_to_position(st, pos.rules) == pos
        hidden = tuple(p == pos.to_move for p in range(pos.players))
        shown = state_to_position(st, pos.rules, hidden)
        assert shown == replace(pos, hands=tuple(h if k else None for h, k in zip(pos.hands, hidden)))


@pytest.mark.parametrize("spec", SPECS)
def test_the_world_state_of_a_hidden_table(spec):
    """Other hands hidden: each becomes cards of its true size, none seen by the mover; the dealer and ply are the
    round's. All shown: the state holds them as they are."""
    for pos, dealer, ply in _positions(spec, 2):
        p = pos.to_move
        hidden = replace(pos, hands=tuple(h if q == p else None for q, h in enumerate(pos.hands)))
        st, known = world_state(hidden)
        assert not known and (st[L.DEALER], st[L.PLY]) == (dealer, ply)
        others = 0
        for q in range(pos.players):
            assert bin(int(st[L.HAND + q])).count("1") == len(pos.hands[q])
            others |= 0 if q == p else int(st[L.HAND + q])
        assert others & ~unseen_hand(hidden) == 0  # only cards the mover has not seen
        st, known = world_state(pos)
        assert known and all(st[L.HAND + q] == sum(1 << c for c in pos.hands[q]) for q in range(pos.players))
