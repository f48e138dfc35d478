"""How far a round has come, read from a position's card counts, and the message when no deal fits."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from casino_sim.core.rules import STRICT
from casino_sim.policies.decide import choose_move
from casino_sim.reference import Position, PositionError
from casino_sim.reference.round import play_round, round_context
from tests.support.policies import get_policy


def refusal(obj: dict) -> str:
    with pytest.raises(PositionError, match="cannot arise in a round") as err:
        round_context(Position.from_json(obj))
    return str(err.value)


@pytest.mark.parametrize("dealer", [0, 1])
def test_every_position_of_a_real_round_fits_with_or_without_the_opponents_hand(dealer):
    rng = np.random.default_rng(7 + dealer)
    seen = []

    def chooser(pos, moves):
        p = pos.to_move
        truth = (len(pos.hands[1 - p]), dealer, len(seen))
        assert round_context(pos) == truth
        hidden = pos.hands[: 1 - p] + (None,) + pos.hands[2 - p :]
        assert round_context(replace(pos, hands=hidden)) == truth
        seen.append(pos)
        return moves[int(rng.integers(len(moves)))]

    play_round(STRICT, rng.permutation(52), dealer, chooser)
    assert len(seen) == 48


def test_refusal_names_the_card_counts_that_would_fit():
    message = refusal({"hands": [["7D", "7S", "2H"], ["KC", "3C", "9H"]], "loose": ["5C", "8D"]})
    assert "player 0 (to move) holds 3 cards and player 1 holds 3" in message
    assert "6, 14, 22, 30, 38 or 46 cards" in message
    assert message.endswith("they hold 2")
    # four more cards in the piles make it the third play of the first batch (docs/rules.md's worked example)
    fixed = {
        "hands": [["7D", "7S", "2H"], ["KC", "3C", "9H"]],
        "loose": ["5C", "8D"],
        "captured": [["4S", "4H"], ["JS", "JD"]],
    }
    assert round_context(Position.from_json(fixed)) == (3, 1, 2)


def test_refusal_with_a_hidden_hand_names_both_hand_sizes():
    message = refusal({"hands": [["2C"], None], "loose": ["9C"]})
    assert "player 1's hand is hidden" in message
    assert "10, 18, 26, 34, 42 or 50 cards when player 1 holds 1" in message
    assert "11, 19, 27, 35, 43 or 51 cards when player 1 holds 0" in message


@pytest.mark.parametrize(
    "hands,fragment",
    [
        ([["2C", "3C", "4C", "5C", "6C"], None], "holds 5 cards, but a player holds 1 to 4"),
        ([[], ["KC"]], "holds 0 cards, but a player holds 1 to 4"),
        ([["2C", "3C", "4C"], ["KC"]], "player 1 holds 1, but the player to move holds as many cards"),
    ],
)
def test_refusal_says_which_hand_size_is_impossible(hands, fragment):
    assert fragment in refusal({"hands": hands, "loose": ["9C", "9D", "9H", "9S"]})


def test_more_than_a_full_stock_is_refused_not_crashed():
    """2 + 2 cards in hand and nothing else seen would leave 48 in the stock, more than any deal leaves."""
    pos = Position.from_json({"hands": [["7D", "7S"], ["KC", "3C"]]})
    with pytest.raises(PositionError, match="8, 16, 24, 32, 40 or 48 cards when player 1 holds 2; they hold 0"):
        choose_move(pos, get_policy("rollout"), seed=0)
