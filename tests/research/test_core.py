"""The research core (casino_sim/research) without any framework: the deal, the views, whole games, resampling."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim.core.cards import format_card, pretty_card
from casino_sim.core.rules import get_rules
from casino_sim.reference.round import deal_batch, deal_end, start_position
from casino_sim.reference.seats import side_of
from casino_sim.research import CHANCE, TERMINAL, GameState, IllegalAction, View, resample, view_layout
from casino_sim.research.encoding import ENCODINGS, most_round_actions

TABLES = ["strict", "brazilian", "italian:players=3", "brazilian:players=4", "italian:players=4"]


def random_play(state: GameState, rng: np.random.Generator, plays: int = 10_000) -> GameState:
    """Deal and act at random until the end or `plays` actions."""
    for _ in range(plays):
        state.deal_random(rng)
        if state.over:
            break
        state.apply(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("name", TABLES)
def test_a_round_deals_card_by_card_then_plays_48_moves(name, encoding):
    rules = get_rules(name)
    state, rng = GameState(rules, encoding=encoding), np.random.default_rng(4)
    assert state.player == CHANCE and len(state.chance_outcomes()) == 52
    state.deal_random(rng)
    assert len(state.round.dealt) == deal_end(rules.players, 0) and state.player == 0  # the dealer is the last
    assert all(len(h) == 4 for h in state.round.position.hands) and len(state.round.position.loose) == 4
    random_play(state, rng)
    assert state.player == TERMINAL and len(state.round.plays) == 48 and state.movers.count(CHANCE) == 52
    decisions = len(state.actions) - 52  # one a play, and with the factored encoding the loose cards chosen
    assert decisions == 48 if encoding == "index" else 48 < decisions <= most_round_actions(encoding) - 52
    assert state.returns() == [float(p) for p in state.round.points()]


@pytest.mark.parametrize("encoding, says", [("factored", "not legal here"), ("index", "not a legal move here")])
def test_bad_actions_are_refused_in_one_line(encoding, says):
    state = GameState(get_rules("strict"), encoding=encoding)
    state.apply(7)
    with pytest.raises(IllegalAction, match="7 is not a card to deal here"):
        state.apply(7)
    state.deal_random(np.random.default_rng(0))
    with pytest.raises(IllegalAction, match=f"^action 999 is {says}"):
        state.apply(999)
    assert len(state.actions) == 12 and len(state.movers) == 12  # the refused actions left no trace


@pytest.mark.parametrize("name", ["strict", "italian:players=3", "brazilian:players=4"])
def test_whole_games_pass_the_deal_and_pay_the_winners(name):
    rules = get_rules(name)
    state, rng = GameState(rules, whole_game=True), np.random.default_rng(8)
    dealers = [state.round.dealer]
    while not state.over:
        random_play(state, rng, plays=1)
        if state.round.dealer != dealers[-1] or not state.round.plays and len(state.round.dealt) == 0:
            dealers.append(state.round.dealer)
    assert state.winner is not None and state.rounds > 1 and max(state.totals) >= rules.target
    steps = {(b - a) % rules.players for a, b in zip(dealers, dealers[1:])}
    assert steps == {1}  # the deal passes to the next player (no round was void here)
    returns = state.returns()
    assert sum(returns) == pytest.approx(0) and max(returns) == 1.0
    assert [r == 1.0 for r in returns] == [side_of(rules, p) == state.winner for p in range(rules.players)]


@pytest.mark.parametrize("name", TABLES)
def test_a_view_shows_the_own_hand_and_never_another(name):
    rules = get_rules(name)
    state = random_play(GameState(rules), np.random.default_rng(2), plays=5)
    n, me = rules.players, state.player
    for recall in (False, True):
        view = View(n, rules.n_sides, recall)
        assert view.tensor.size == sum(int(np.prod(s)) for _, s in view_layout(n, rules.n_sides, recall))
        view.set_from(state, me)
        text = view.string_from(state, me)
        hand = state.round.position.hands[me]
        assert sorted(np.flatnonzero(view.dict["hand"])) == sorted(hand) and view.dict["observer"][me] == 1
        hidden = [c for q in range(n) if q != me for c in state.round.position.hands[q]]
        assert hidden and not any(view.dict[f][..., c].any() for f in ("hand", "loose", "captured") for c in hidden)
        assert not any(format_card(c) in text or pretty_card(c) in text for c in hidden)
        assert '"hands": [' in text and text.count("null") >= n - 1


@pytest.mark.parametrize("name", TABLES)
def test_resampled_worlds_keep_what_the_player_saw_and_move_what_they_did_not(name):
    rules = get_rules(name)
    rng = np.random.default_rng(6)
    state = random_play(GameState(rules), rng, plays=4 * rules.players + 2)  # into the second batch
    me = state.player
    view, moved = View(rules.players, rules.n_sides, recall=True), 0
    for _ in range(10):
        world = resample(state, me, rng)
        assert view.string_from(world, me) == view.string_from(state, me)
        view.set_from(world, me)
        seen = view.tensor.copy()
        view.set_from(state, me)
        assert (seen == view.tensor).all()
        assert world.legal_actions() == state.legal_actions() and world.movers == state.movers
        moved += world.round.position.hands != state.round.position.hands
        random_play(world, rng)  # the world plays on to its end
        assert world.over
    assert moved >= 8


@pytest.mark.parametrize("name", ["strict", "brazilian:players=4"])
def test_a_seeded_deck_deals_as_the_engine_deals_it(name):
    rules = get_rules(name)
    deck = np.random.default_rng(11).permutation(52)
    state = GameState(rules)
    state.deal_deck(deck)
    assert state.actions == [int(c) for c in deck[: deal_end(rules.players, 0)]]  # the deck's order, and no more
    dealer = rules.players - 1
    assert state.round.position == deal_batch(start_position(rules, dealer), deck, 0, dealer)
