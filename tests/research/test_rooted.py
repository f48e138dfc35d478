"""A round entered at a position (casino_sim/research/rooted.py): worlds drawn from what the mover saw, played on to
the round's end like the round itself."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim.core.cards import value_of
from casino_sim.core.rules import get_rules
from casino_sim.reference.round import deal_end, play_round
from casino_sim.reference.seats import turn_order
from casino_sim.research import CHANCE, TERMINAL, GameState
from casino_sim.research.rooted import draw_world, rooted_state
from tests.research.test_core import TABLES, random_play


def midround(name: str, plays: int, seed: int) -> GameState:
    """A seeded round dealt and played at random for `plays` plays."""
    return random_play(GameState(get_rules(name)), np.random.default_rng(seed), plays)


@pytest.mark.parametrize("name", TABLES)
@pytest.mark.parametrize("plays", [0, 7, 29])
def test_a_world_keeps_what_the_mover_saw_and_deals_the_rest(name, plays):
    real = midround(name, plays, seed=plays + 1)
    real.deal_random(np.random.default_rng(0))
    pos, p = real.round.position, real.round.position.to_move
    world, stock = draw_world(pos.seen_by(p), np.random.default_rng(3))
    assert world.seen_by(p) == pos.seen_by(p)
    assert [len(h) for h in world.hands] == [len(h) for h in pos.hands]
    assert sorted(world.all_cards() + stock) == list(range(52))
    assert all(any(value_of(c) == b.value for c in world.hands[b.owner]) for b in world.builds)
    assert draw_world(pos, np.random.default_rng(3)) == (world, stock)  # the hidden hands are never read


@pytest.mark.parametrize("name", TABLES)
def test_a_rooted_round_plays_on_like_the_round(name):
    """Entered at the start, a rooted round is a round: its world's deck and its plays, played again on the
    reference engine, give the same score."""
    rules, rng = get_rules(name), np.random.default_rng(8)
    start = GameState(rules)
    start.deal_random(rng)
    rooted = rooted_state(start.round.position, np.random.default_rng(1))
    first = rooted.round.position
    assert rooted.player == first.to_move == 0 and len(rooted.round.dealt) == deal_end(rules.players, 0)
    deck = [c for q in turn_order(rooted.round.dealer, rules.players) for c in sorted(first.hands[q])]
    deck += sorted(first.loose)
    while not rooted.over:
        if rooted.player == CHANCE:
            deck.append(int(rng.choice(rooted.legal_actions())))
            rooted.apply(deck[-1])
        else:
            rooted.apply(int(rng.choice(rooted.legal_actions())))
    assert rooted.player == TERMINAL and sorted(deck) == list(range(52))
    moves = iter(move for _, move in rooted.round.plays)
    result = play_round(rules, deck, rooted.round.dealer, lambda pos, legal: next(moves))
    assert result.score.totals == rooted.round.side_points()


@pytest.mark.parametrize("name", TABLES)
def test_a_rooted_round_entered_mid_batch_deals_the_stock_when_due(name):
    real = midround(name, 11, seed=5)
    pos = real.round.position
    rooted = rooted_state(pos, np.random.default_rng(2))
    assert rooted.round.batch == real.round.batch and rooted.player == real.player
    random_play(rooted, np.random.default_rng(6))
    assert rooted.player == TERMINAL and len(rooted.round.dealt) == 52 and len(rooted.round.plays) == 48
    assert rooted.round.result.void or sum(len(pile) for pile in rooted.round.result.final.captured) == 52
