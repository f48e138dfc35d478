"""The numba engine's round record of every player count equals the reference engine's, column by column."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim.core.record import record_columns
from casino_sim.core.rules import get_rules
from casino_sim.engines import get_engine

RULES = [
    "strict",
    "brazilian",
    "italian",
    "brazilian:players=3",
    "italian:players=3",
    "brazilian:players=4",  # teams
    "brazilian:players=4,teams=false",
    "italian:players=4",  # individual
    "italian:players=4,teams=true",
]


@pytest.mark.parametrize("name", RULES)
def test_scripted_rounds_record_the_same_on_both_engines(name):
    rules = get_rules(name)
    fates = 0
    for k in range(8):
        rng = np.random.default_rng([k, rules.players, rules.teams])
        deck, dealer = rng.permutation(52), int(rng.integers(rules.players))
        script = rng.integers(0, 1000, 48)
        moves, want = get_engine("reference").play_scripted(rules, deck, dealer, script)
        got_moves, got = get_engine("numba").play_scripted(rules, deck, dealer, script)
        assert got_moves == list(moves)
        assert list(got) == record_columns(rules.players, rules.teams) == list(want)
        assert got == want, {c: (want[c], got[c]) for c in want if want[c] != got[c]}
        assert want["plies"] == 48 and sum(want[c] for c in want if "_plays_" in c) == 48  # every play counted
        assert want["ten_diamonds_captured_by"] in range(rules.players)  # every card ends in a pile
        fates += sum(want[c] for c in want if c.endswith(("_builds_captured_own", "_builds_lost")))
    assert fates > 0  # the rounds compared builds' fates, not only zeros


def test_the_record_adds_up():
    """Independently of the reference: places are the players in turn order, team piles sum their members."""
    rules = get_rules("brazilian:players=4")
    rng = np.random.default_rng(11)
    _, rec = get_engine("numba").play_scripted(rules, rng.permutation(52), 2, rng.integers(0, 1000, 48))
    assert [rec[f"{q}_seat"] for q in ("first", "second", "third", "dealer")] == [3, 0, 1, 2]
    assert rec["team_first_n_cards"] == rec["first_n_cards"] + rec["third_n_cards"]
    assert rec["void"] == 0 and rec["team_first_n_cards"] + rec["team_dealer_n_cards"] == 52
    own = ("aces", "ten_diamonds", "two_spades", "sweeps")
    for team, members in (("first", ("first", "third")), ("dealer", ("second", "dealer"))):
        prizes = rec[f"team_{team}_cards"] + rec[f"team_{team}_spades"]
        assert rec[f"team_{team}_total"] == prizes + sum(rec[f"{m}_{c}"] for m in members for c in own)
