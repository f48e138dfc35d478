"""Card values with three and four players: deal slots follow the reference deal, a card goes to an opponent
(never a partner), and the 10♦ is worth holding for the holder's team."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim.core.cards import BIG_CASINO
from casino_sim.core.deal import batches
from casino_sim.core.rules import get_rules
from casino_sim.experiments.card_value import card_values, deal_slot, paired_decks
from casino_sim.reference.position import Position
from casino_sim.reference.round import deal_batch, start_position
from tests.support.cli import run
from tests.support.policies import get_policy


@pytest.mark.parametrize("name,dealer", [("italian:players=3", 2), ("brazilian:players=4", 1)])
def test_deal_slots_follow_the_reference_deal(name, dealer):
    rules = get_rules(name)
    n = rules.players
    deck = list(np.random.default_rng(dealer).permutation(52))
    pos: Position = start_position(rules, dealer)
    seen = 0
    for batch in range(batches(n)):
        pos = deal_batch(pos, deck, batch, dealer)
        dealt = n * 4 + (4 if batch == 0 else 0)
        for i in range(seen, seen + dealt):
            seat, b = deal_slot(i, dealer, n)
            assert b == batch + 1
            assert deck[i] in (pos.loose if seat == n else pos.hands[seat])
        seen += dealt
    assert seen == 52


def test_a_card_goes_to_an_opponent_never_a_partner():
    rules = get_rules("brazilian:players=4")  # partners 0 and 2, 1 and 3
    deck = np.random.default_rng(5).permutation(52).astype(np.int8)
    pairs = list(paired_decks(deck, 3, np.random.default_rng(0), rules))
    assert {v for *_, v, _ in pairs} == {"opponent", "stock"}
    for card, seat, batch, variant, paired in pairs:
        assert len(np.flatnonzero(paired != deck)) == 2
        new_seat, new_batch = deal_slot(int(np.flatnonzero(paired == card)[0]), 3, 4)
        if variant == "opponent":
            assert new_batch == batch and new_seat % 2 != seat % 2
        else:
            assert new_batch > batch
    assert all(b < 3 for _, _, b, v, _ in pairs if v == "stock")  # four players deal three batches


def test_the_big_casino_is_worth_holding_for_the_team():
    df = card_values(get_policy("greedy"), 300, "brazilian:players=4", seed=4)
    ten = df[(df.card == BIG_CASINO) & (df.variant == "opponent")]["diff"]
    assert len(ten) > 200  # the 10♦ sits in a hand in most deals
    # the holder's team has it (2 points) and the other team does not: about 4 points of margin, less the luck
    assert ten.mean() - 2.5 * ten.std(ddof=1) / np.sqrt(len(ten)) > 1.0


def test_card_value_command_with_three_players(tmp_path):
    proc = run(
        "card-value", "--policy", "greedy", "--deals", "20", "--rules", "italian:players=3", "--out", str(tmp_path)
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "card_value_heatmap.png").stat().st_size > 0
