"""Property tests over random deals and random legal play, for all three rule sets.

Each example shuffles a deck and plays one round with random legal choices,
checking invariants after every play. The reference engine takes ~20 ms a
round (more when every legal move is also applied), so example counts are
kept small.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino_sim.core.cards import DECK, is_spade
from casino_sim.core.rules import get_rules
from casino_sim.reference import Position, apply_move, check_move
from casino_sim.reference.invariants import check_invariants
from casino_sim.reference.round import play_round
from tests.support.rounds import plausible_moves

ALL = ["strict", "brazilian", "italian"]

ROUND = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

seeds = st.integers(min_value=0, max_value=2**32 - 1)
dealers = st.integers(min_value=0, max_value=1)


def deck_of(seed):
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    return deck


def placed(pos: Position) -> list[int]:
    return pos.all_cards()


class Checker:
    """A random chooser that checks the invariants on every position it is shown."""

    def __init__(self, seed, deck, dealer, apply_all=False):
        self.rng = random.Random(seed ^ 0x5EED)
        self.deck = deck
        self.dealer = dealer
        self.apply_all = apply_all
        self.plies = 0
        self.previous = None  # (position before, move) of the last play

    def dealt_so_far(self):
        """Cards dealt when ply `self.plies` is about to be played."""
        batch = self.plies // 8
        return 12 + 8 * batch

    def __call__(self, pos, moves):
        self.check_previous_play(pos)
        assert check_invariants(pos, self.deck) == []  # the one list (core/invariants.py)
        assert len(placed(pos)) == self.dealt_so_far()  # each batch dealt on time
        # there is always a legal move, and the list is distinct and canonical
        assert moves
        assert moves == sorted(set(moves), key=lambda m: m.sort_key())
        if self.apply_all:
            for m in moves:
                assert check_move(pos, m) is None
                after = apply_move(pos, m)
                assert Position.from_json(after.to_json()) == after
                assert check_invariants(after, self.deck) == []
        m = self.rng.choice(moves)
        self.previous = (pos, m)
        self.plies += 1
        return m

    def check_previous_play(self, pos):
        if self.previous is None:
            return
        before, m = self.previous
        if self.plies % 8 == 0:
            return  # a new batch was dealt in between
        p = before.to_move
        assert pos.to_move == 1 - p
        assert len(pos.hands[p]) == len(before.hands[p]) - 1
        assert m.card not in pos.hands[p]
        assert Position.from_json(pos.to_json()) == pos


def run_round(rules_name, seed, dealer, apply_all=False):
    rules = get_rules(rules_name)
    deck = deck_of(seed)
    checker = Checker(seed, deck, dealer, apply_all=apply_all)
    result = play_round(rules, deck, dealer, checker)
    assert checker.plies == 48
    return rules, result


@pytest.mark.parametrize("rules_name", ALL)
@ROUND
@given(seed=seeds, dealer=dealers)
def test_prop_random_round_invariants_and_end(rules_name, seed, dealer):
    _, result = run_round(rules_name, seed, dealer)
    final = result.final
    if result.void:  # nobody captured: nothing scored
        assert final.last_capturer is None and result.score.totals == (0, 0)
        return
    # every card in the two piles, and the points add up: 11 (8 when the cards tie 26-26) plus sweep points
    assert check_invariants(final, deck_of(seed), result.score) == []
    # sweeps are exactly the plays that emptied the table (the remainder is none)
    swept = [e.player for e in result.events if e.kind == "play" and e.sweep]
    assert final.sweeps == (swept.count(0), swept.count(1))
    # the spade prize always goes to someone (13 spades cannot tie)
    sp = [sum(map(is_spade, final.captured[p])) for p in (0, 1)]
    assert result.score.points[sp.index(max(sp))]["spades"] == 1


@pytest.mark.parametrize("rules_name", ALL)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, dealer=dealers)
def test_prop_every_legal_move_applies_to_a_valid_position(rules_name, seed, dealer):
    run_round(rules_name, seed, dealer, apply_all=True)


@pytest.mark.parametrize("rules_name", ALL)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds)
def test_prop_moves_outside_the_legal_list_are_rejected(rules_name, seed):
    """Random plausible moves not in legal_moves are refused by apply_move with a reason."""
    from casino_sim.reference import IllegalMove

    rules = get_rules(rules_name)
    deck = deck_of(seed)
    rng = random.Random(seed)
    checked = 0

    def chooser(pos, moves):
        nonlocal checked
        for m in plausible_moves(pos, rng):
            reason = check_move(pos, m)
            if m in moves:
                assert reason is None
            else:
                assert isinstance(reason, str) and reason
                with pytest.raises(IllegalMove):
                    apply_move(pos, m)
                checked += 1
        return rng.choice(moves)

    play_round(rules, deck, seed % 2, chooser)
    assert checked > 0


MANY = [
    "brazilian:players=3",
    "brazilian:players=4",
    "italian:players=3",
    "italian:players=4",
    "italian:players=4,teams=true",
]
MANY_ROUND = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("rules_name", MANY)
@MANY_ROUND
@given(seed=seeds, dealer=st.integers(min_value=0, max_value=3))
def test_prop_random_many_player_rounds_keep_the_invariants(rules_name, seed, dealer):
    """Whole random rounds of three and four players: every position keeps the invariants and round-trips."""
    from casino_sim.reference.record import round_record

    rules = get_rules(rules_name)
    n, dealer, deck = rules.players, dealer % rules.players, deck_of(seed)
    rng = random.Random(seed)
    movers = []

    def chooser(pos, moves):
        assert check_invariants(pos, deck) == [] and moves
        assert Position.from_json(pos.to_json()) == pos and pos.dealer == dealer
        movers.append(pos.to_move)
        return rng.choice(moves)

    result = play_round(rules, deck, dealer, chooser)
    assert movers == [(dealer + 1 + i) % n for i in range(48)]  # 48 plays, turns in order from the dealer's left
    rec = round_record(result)
    assert rec["plies"] == 48 and rec["dealer_seat"] == dealer
    if result.void:
        assert result.score.totals == (0,) * rules.n_sides
        return
    assert check_invariants(result.final, deck, result.score) == []
    places = [c[: -len("_seat")] for c in rec if c.endswith("_seat")]
    assert sum(rec[f"{p}_n_cards"] for p in places) == 52
    assert sum(rec[f"{p}_n_sweeps"] for p in places) == sum(result.final.sweeps)
    assert sum(rec[f"{p}_plays_{k}"] for p in places for k in ("trail", "capture", "build", "increase", "add")) == 48
    if rules.teams:  # a team's total: its members' own points and the team's prizes
        for team in ("first", "dealer"):
            members = ("first", "third") if team == "first" else ("second", "dealer")
            own = sum(rec[f"{m}_total"] for m in members)
            assert rec[f"team_{team}_total"] == own + rec[f"team_{team}_cards"] + rec[f"team_{team}_spades"]
        assert rec["team_first_n_cards"] + rec["team_dealer_n_cards"] == 52
    else:
        assert sorted(rec[f"{p}_total"] for p in places) == sorted(result.score.totals)
