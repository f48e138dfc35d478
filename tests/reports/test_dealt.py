"""Card values from a run's own deals: the decks made again are the ones played, the estimate is the clustered
mean it claims to be, and it agrees with the swap replays' controlled experiment (and fails to when they differ)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from casino_sim.core.cards import BIG_CASINO, LITTLE_CASINO, format_card
from casino_sim.core.deal import deck_slots
from casino_sim.core.rules import get_rules
from casino_sim.experiments.card_value import card_values
from casino_sim.reference.seats import turn_order
from casino_sim.reports.cardagree import agreement
from casino_sim.reports.cardvalue import card_value_table
from casino_sim.reports.dealt import deal_card_values, opponent_weights, place_margins
from casino_sim.reports.stats import cluster_mean_ci
from casino_sim.runner.redeal import dealt_decks
from tests.support.policies import get_policy
from tests.support.runs import simulate_dir

RUNS = {  # name: (rules, games)
    "two players": ("strict", False),
    "three players": ("italian:players=3", False),
    "teams": ("brazilian:players=4", False),
    "whole games": ("brazilian", True),
}


@pytest.fixture(scope="module", params=sorted(RUNS))
def played(request, tmp_path_factory):
    rules, games = RUNS[request.param]
    path = tmp_path_factory.mktemp("run")
    df = simulate_dir(path, deals=150, rules=rules, games=games, chunk_deals=40, seed=11, card_deals=0)
    return df, json.loads((path / "manifest.json").read_text())["config"], get_rules(rules)


def _live_decks(df, config):
    live = df[df["void"] == 0].reset_index(drop=True)
    wave = live["round_no"].to_numpy() if "round_no" in live.columns else None
    return live, dealt_decks(config, live["deal_id"].to_numpy(), wave)


def test_the_decks_made_again_deal_the_tracked_cards_where_the_records_say(played):
    df, config, rules = played
    live, decks = _live_decks(df, config)
    places, batches = deck_slots(rules.players)
    for name, card in (("ten_diamonds", BIG_CASINO), ("two_spades", LITTLE_CASINO)):
        pos = np.argmax(decks == card, axis=1)
        n = rules.players
        player = [turn_order(int(d), n)[p] if p < n else n for d, p in zip(live["dealer"], places[pos])]
        assert np.array_equal(player, live[f"{name}_dealt_to"].to_numpy())
        assert np.array_equal(batches[pos], live[f"{name}_dealt_batch"].to_numpy())


def test_the_estimate_is_the_clustered_mean_of_the_holders_margin_over_its_opponents(played):
    df, config, rules = played
    values, by_batch = deal_card_values(df, config, rules)
    assert list(values.columns) == [
        "card", "to_me_minus_to_opponent", "ci_lo", "ci_hi", "to_me_minus_to_table", "table_ci_lo", "table_ci_hi",
        "rounds",
    ]  # fmt: skip
    live, decks = _live_decks(df, config)
    m = place_margins(live, rules)
    vs = m - m @ opponent_weights(rules.players, rules.teams)
    places, batches = deck_slots(rules.players)
    for card in (BIG_CASINO, LITTLE_CASINO, 0, 51):
        place = places[np.argmax(decks == card, axis=1)]
        hand = np.flatnonzero(place < rules.players)
        cluster = pd.factorize(live["deal_id"].to_numpy()[hand])[0]
        row = values.set_index("card").loc[format_card(card)]
        want = cluster_mean_ci(vs[hand, place[hand]], cluster)
        assert row["rounds"] == len(hand)
        assert np.allclose(row[["to_me_minus_to_opponent", "ci_lo", "ci_hi"]], [want.mean, want.lo, want.hi])
        table = cluster_mean_ci(m[hand, place[hand]], cluster)  # the table's mean margin is 0 exactly
        assert np.allclose(
            row[["to_me_minus_to_table", "table_ci_lo", "table_ci_hi"]], [table.mean, table.lo, table.hi]
        )
    ten = by_batch[by_batch["card"] == "TD"]
    assert ten["batch"].tolist() == list(range(1, 49 // (4 * rules.players) + 1)) and ten["rounds"].sum() > 0
    assert ten["rounds"].sum() == values.set_index("card").loc["TD", "rounds"]


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    """The same policy's card values both ways: 4,000 deals of greedy against itself, and 300 deals of swaps."""
    path = tmp_path_factory.mktemp("deal")
    df = simulate_dir(path, deals=4_000, policy_a="greedy", policy_b="greedy", seed=5, card_deals=0)
    config = json.loads((path / "manifest.json").read_text())["config"]
    deal, _ = deal_card_values(df, config, get_rules("strict"))
    swaps = card_value_table(card_values(get_policy("greedy"), 300, seed=6))
    return deal, swaps


def test_the_deal_and_the_swap_replays_agree_on_all_52_cards(both):
    deal, swaps = both
    said = agreement(deal, swaps)
    assert said.cards == 52 and said.agree, said.sentence()


@pytest.mark.parametrize("shift", ["the 10♦ alone", "every card"])
def test_the_joint_test_fails_when_the_estimates_really_differ(both, shift):
    deal, swaps = both
    opponent = swaps["variant"] == "opponent"
    moved = opponent & ((swaps["card"] == BIG_CASINO) if shift == "the 10♦ alone" else True)
    gap = 3.0 if shift == "the 10♦ alone" else 0.4  # points a round: the 10♦ worth 3 more, or every card 0.4
    shifted = swaps.assign(**{c: swaps[c] + gap * moved for c in ("mean", "ci_lo", "ci_hi")})
    said = agreement(deal, shifted)
    assert not said.agree, said.sentence()
    assert "differ" in said.sentence()
