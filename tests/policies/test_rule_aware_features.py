"""Heuristic features price points by the rule set played: a sweep is worth nothing in brazilian."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim import kernels as engine
from casino_sim.core.cards import parse_card as C
from casino_sim.core.rules import RULESETS
from casino_sim.policies import FEATURE_NAMES, move_features
from casino_sim.policies.arrays import policy_arrays
from casino_sim.reference import Position, legal_moves
from casino_sim.runner.deals import deal_rows, rotations
from tests.support.policies import get_policy

SWEEP, SWEEP_OPEN = FEATURE_NAMES.index("sweep"), FEATURE_NAMES.index("sweep_open")


@pytest.mark.parametrize("rules, points", [("strict", 1), ("italian", 1), ("brazilian", 0)])
def test_a_sweep_and_an_open_sweep_are_priced_by_the_rule_set(rules, points):
    sweep_pos = Position.from_json({"rules": rules, "hands": [["3H", "5C"], ["2C", "4C"]], "loose": ["3D"]})
    sweep = next(m for m in legal_moves(sweep_pos) if m.kind == "capture")
    assert move_features(sweep_pos, sweep)[SWEEP] == points
    # trailing the 5 next to the 3 leaves a table an 8 sweeps: a risk only where a sweep scores
    trail = next(m for m in legal_moves(sweep_pos) if m.kind == "trail" and m.card == C("5C"))
    open_risk = move_features(sweep_pos, trail)[SWEEP_OPEN]
    assert (open_risk > 0) == (points > 0)


@pytest.mark.parametrize("rules, sweeps", [("strict", True), ("italian", True), ("brazilian", False)])
def test_greedy_takes_a_sweep_over_an_ace_only_where_the_sweep_scores(rules, sweeps):
    # 8 takes 7+A and sweeps (3 cards, an ace, the sweep); A takes the A (2 cards, 2 aces, a spade), 7 stays
    pos = Position.from_json({"rules": rules, "hands": [["8H", "AS"], ["2C"]], "loose": ["7D", "AC"]})
    move = get_policy("greedy").choose(pos, legal_moves(pos), np.random.default_rng(0))
    assert move.kind == "capture" and (move.card == C("8H")) == sweeps


def sweeps_per_deal(rules_name: str, deals: int = 300) -> float:
    """Sweeps both expert players make per deal, in the numba engine."""
    policies = (get_policy("expert"), get_policy("expert"))
    out = engine.play_rows(
        deal_rows(5, 0, deals, rotations([0, 1], True)), RULESETS[rules_name], *policy_arrays(policies)
    )
    return float(np.mean(out["first_n_sweeps"] + out["dealer_n_sweeps"]))


def test_experts_leave_sweepable_tables_only_where_a_sweep_scores_nothing():
    """In brazilian neither expert guards the table against a sweep that scores nothing, so many more are made."""
    strict, italian, brazilian = (sweeps_per_deal(r) for r in ("strict", "italian", "brazilian"))
    assert brazilian > 1.3 * strict and brazilian > 1.3 * italian, (strict, italian, brazilian)
