"""The heuristic features with three and four players: the numba kernel equal to the Python spec bit for bit.

The threats are the opponents' hands (a partner's is not one); the stock is what the other hands leave of the
unseen cards. Both engines must read it so on random positions of every player count, teams on and off.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from casino_sim.core.rules import get_rules
from casino_sim.kernels.api import _generate
from casino_sim.kernels.codec import move_of_row, row_of_move
from casino_sim.kernels.features import _immediate_score, _move_features, _view, features_scratch
from casino_sim.kernels.tables import split_table
from casino_sim.policies import move_features
from casino_sim.policies.features import FEATURE_INDEX, knowledge_of, weighted_sum
from casino_sim.reference.position import Position
from tests.support.nplayer import cards, raw_state
from tests.support.policies import get_policy
from tests.support.rounds import positions_by_random_play

RISK = [FEATURE_INDEX[name] for name in ("points_at_risk", "cards_at_risk", "sweep_open")]
SPECS = [
    "brazilian:players=3",
    "italian:players=3",
    "brazilian:players=4",  # teams
    "brazilian:players=4,teams=false",
    "italian:players=4",  # no teams
    "italian:players=4,teams=true",
]


def state_of(pos: Position) -> np.ndarray:
    """The kernel's state of a fully known n-player position (what the features read)."""
    return raw_state(
        hands=[cards(*h) for h in pos.hands],
        loose=cards(*pos.loose),
        piles=[cards(*c) for c in pos.captured],
        to_move=pos.to_move,
        builds={b.value: (cards(*b.cards), b.owner) for b in pos.builds},
        must_act=[p for p, m in enumerate(pos.must_act) if m],
        last=-1 if pos.last_capturer is None else pos.last_capturer,
    )


@pytest.mark.parametrize("spec", SPECS)
def test_numba_features_equal_python_features_bit_for_bit(spec):
    """Every feature of every legal move, on the positions of whole random rounds (the last batch included)."""
    rules = get_rules(spec)
    r, tbl = rules.as_array(), split_table()
    after, f = features_scratch()
    want = np.ones(len(f), dtype=np.int64)
    expert = get_policy("expert").weights
    seen = {"checked": 0, "last batch": 0, "partner holds cards": 0, "risk": 0}
    for pos in positions_by_random_play(rules, 3, seed=14)[::2]:
        st = state_of(pos)
        view = _view(st, r, True)
        know = knowledge_of(pos)
        last_batch = view[1] == view[2]
        assert last_batch == (know.stock_size == 0)
        seen["last batch"] += last_batch
        seen["partner holds cards"] += rules.teams and len(pos.hands[(pos.to_move + 2) % 4]) > 0
        for row in _generate(st, r):
            move = move_of_row(row)
            kind, card, loose, builds, value = row_of_move(move)
            _move_features(st, r, tbl, kind, card, loose, builds, value, view, after, want, f)
            expected = move_features(pos, move, know)
            assert np.array_equal(f, expected), (pos.to_json(), move)
            immediate = _immediate_score(st, r, kind, card, loose, builds, value, last_batch, expert)
            no_risk = expected.copy()
            no_risk[RISK] = 0.0
            assert immediate == weighted_sum(no_risk, expert), (pos.to_json(), move)
            seen["checked"] += 1
            seen["risk"] += expected[FEATURE_INDEX["cards_at_risk"]] > 0
    assert seen["checked"] > 150 and seen["last batch"] > 0 and seen["risk"] > 50
    assert seen["partner holds cards"] > 0 or not rules.teams


def hidden(pos: Position) -> Position:
    """The position as the mover sees it: every other hand hidden."""
    return dataclasses.replace(pos, hands=tuple(h if q == pos.to_move else None for q, h in enumerate(pos.hands)))


@pytest.mark.parametrize("spec", ["italian:players=3", "brazilian:players=4"])
def test_hidden_hands_give_the_same_knowledge(spec):
    """The mover does not see the other hands: their sizes follow from the deal, so the features do not change."""
    positions = positions_by_random_play(get_rules(spec), 2, seed=3)
    for pos in positions:
        assert knowledge_of(hidden(pos)) == knowledge_of(pos), pos.to_json()


def test_a_partners_cards_are_no_threat():
    """The same deals with and without teams: with teams the partner's hand leaves the threats, so risk falls."""
    teams, alone = get_rules("brazilian:players=4"), get_rules("brazilian:players=4,teams=false")
    lower = 0
    for pos in positions_by_random_play(teams, 2, seed=5)[::3]:
        other = dataclasses.replace(pos, rules=alone)
        with_partner, without = knowledge_of(pos), knowledge_of(other)
        partner = len(pos.hands[(pos.to_move + 2) % 4])
        assert with_partner.opp_hand_size == without.opp_hand_size - partner
        assert with_partner.stock_size == without.stock_size  # the partner's hand is not the stock either
        for move in [m for m in _legal(pos) if m.kind == "trail"]:
            risk_teams = move_features(pos, move)[RISK]
            risk_alone = move_features(other, move)[RISK]
            assert np.all(risk_teams <= risk_alone)
            lower += bool(np.any(risk_teams < risk_alone))
    assert lower > 5


def _legal(pos: Position):
    return [move_of_row(row) for row in _generate(state_of(pos), pos.rules.as_array())]
