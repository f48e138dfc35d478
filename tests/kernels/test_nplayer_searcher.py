"""The searcher with three or four players: no exact last batch (the hidden split is unknown), so it plays as
its rollout throughout; with two players its last batch is still exact."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim.core.rules import get_rules
from tests.support.nplayer import seated_round
from tests.support.policies import get_policy, policy_from_dict


def searching(kind: str):
    params = {"worlds": 3, "base": "greedy", "crn": True}
    return policy_from_dict({"name": f"{kind}-3", "kind": kind, "params": params}, "test", "test")


def rounds(spec: str, kind: str, n_rounds: int = 3) -> list[np.ndarray]:
    rules = get_rules(spec)
    policies = (searching(kind),) + (get_policy("greedy"),) * (rules.players - 1)
    rng = np.random.default_rng(21)
    decks = [rng.permutation(52) for _ in range(n_rounds)]
    return [seated_round(rules, d, 2 % rules.players, policies, 7 + i)[0] for i, d in enumerate(decks)]


@pytest.mark.parametrize("spec", ["italian:players=3", "brazilian:players=4"])
def test_the_searcher_plays_as_its_rollout_with_more_than_two_players(spec):
    for searcher, rollout in zip(rounds(spec, "searcher"), rounds(spec, "rollout")):
        assert np.array_equal(searcher, rollout)


def test_with_two_players_the_searcher_still_solves_the_last_batch():
    pairs = list(zip(rounds("strict", "searcher", 8), rounds("strict", "rollout", 8)))
    assert all(np.array_equal(s[:40], r[:40]) for s, r in pairs)  # the same before the last batch
    assert any(not np.array_equal(s, r) for s, r in pairs)  # and somewhere the exact values decide otherwise
