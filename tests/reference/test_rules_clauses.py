"""One test (at least) per clause of docs/rules.md sections 1-8, named after its clause: s1 cards, players and the deal
(sections 1-2), s2 the five plays (3), s3 ownership and obligations (4), s4 end of round and scoring (7), s5 the
game (8), s6 the rule sets and the questions the sources leave open (5-6).

Each test builds a small position from card strings, asks the reference
engine for its legal moves or applies a play, and checks what the rule says.
Where a clause differs between rule sets, the test is run for each of them.
"""

import random

import pytest

from casino_sim.core.cards import DECK, format_card, parse_card, value_of
from casino_sim.core.rules import BRAZILIAN, ITALIAN, STRICT, get_rules
from casino_sim.reference import IllegalMove, Position, apply_move, check_move, legal_moves
from casino_sim.reference import game as game_module
from casino_sim.reference.game import game_winner, play_game
from casino_sim.reference.round import RoundResult, deal_batch, finish_round, play_round
from casino_sim.reference.score import CATEGORIES, Score, score_round
from tests.support.positions import build_of, card, move, names, of_kind, position

ALL = ["strict", "brazilian", "italian"]


def loose_sets(moves):
    return {frozenset(names(m.loose)) for m in moves}


def shuffled_deck(seed):
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    return deck


def random_chooser(seed):
    rng = random.Random(seed)
    return lambda pos, moves: rng.choice(moves)


# --------------------------------------------------------------------------
# Section 1: cards and deal
# --------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1])
def test_s1_deal_first_batch_four_each_and_four_to_table(dealer):
    deck = shuffled_deck(11)
    pos = deal_batch(Position(rules=STRICT, to_move=1 - dealer), deck, 0, dealer)
    h0, h1, table = pos.hands[0], pos.hands[1], pos.loose
    assert len(h0) == len(h1) == len(table) == 4
    assert not (h0 & h1) and not (h0 & table) and not (h1 & table)
    assert h0 | h1 | table == set(deck[:12])  # 40 remain in the stock


@pytest.mark.parametrize("rules", ALL)
@pytest.mark.parametrize("dealer", [0, 1])
def test_s1_six_batches_four_each_none_to_table_after_the_first(rules, dealer):
    result = play_round(get_rules(rules), shuffled_deck(3 + dealer), dealer, random_chooser(5))
    deals = [e for e in result.events if e.kind == "deal"]
    assert [e.batch for e in deals] == list(range(6))
    dealt = []
    for e in deals:
        non_dealer_hand, dealer_hand, table = e.cards
        assert len(non_dealer_hand) == len(dealer_hand) == 4
        assert len(table) == (4 if e.batch == 0 else 0)
        dealt += [*non_dealer_hand, *dealer_hand, *table]
    assert sorted(dealt) == list(DECK)  # every card dealt exactly once


@pytest.mark.parametrize("rules", ALL)
@pytest.mark.parametrize("dealer", [0, 1])
def test_s1_round_is_48_plays_non_dealer_first_turns_alternate(rules, dealer):
    result = play_round(get_rules(rules), shuffled_deck(20 + dealer), dealer, random_chooser(21))
    plays = [e for e in result.events if e.kind == "play"]
    assert len(plays) == 48
    assert [e.player for e in plays] == [(1 - dealer + i) % 2 for i in range(48)]
    for b in range(6):
        batch = [e for e in plays if e.batch == b]
        assert len(batch) == 8 and batch[0].player == 1 - dealer


def test_s1_capture_gives_no_extra_turn():
    pos = position("7S 9D", "2C", loose="3C 4H")
    after = apply_move(pos, move("capture", "7S", "3C 4H", value=7))
    assert after.to_move == 1


@pytest.mark.parametrize("rules", ALL)
def test_s1_figures_take_no_part_in_sums_or_builds(rules):
    pos = position("JS QS", "2C", loose="JD AC 9H QH", rules=rules)
    moves = legal_moves(pos)
    for m in moves:
        assert m.kind in ("trail", "capture")  # a figure never builds, increases or adds
    assert loose_sets(of_kind(moves, "capture", "JS")) == {frozenset({"JD"})}
    assert loose_sets(of_kind(moves, "capture", "QS")) == {frozenset({"QH"})}
    # a number card never counts a figure in its sum
    pos = position("TS", "2C", loose="KD 9H AC JC", rules=rules)
    for m in of_kind(legal_moves(pos), "capture", "TS"):
        assert names(m.loose) == {"9H", "AC"}


# --------------------------------------------------------------------------
# Section 2: the five kinds of play
# --------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ALL)
def test_s2_trail_puts_the_card_on_the_table_loose(rules):
    pos = position("9S 2D", "3C", loose="KH", rules=rules)
    assert move("trail", "9S") in legal_moves(pos)
    after = apply_move(pos, move("trail", "9S"))
    assert names(after.loose) == {"KH", "9S"}
    assert names(after.hands[0]) == {"2D"}
    assert after.captured == (frozenset(), frozenset()) and after.builds == ()


@pytest.mark.parametrize("rules", ["strict", "brazilian"])
def test_s2_capture_figure_takes_exactly_one(rules):
    pos = position("KS", "2C", loose="KC KD KH QS 5H", rules=rules)
    caps = of_kind(legal_moves(pos), "capture", "KS")
    assert loose_sets(caps) == {frozenset({"KC"}), frozenset({"KD"}), frozenset({"KH"})}
    assert all(m.value is None and m.builds == () for m in caps)
    reason = check_move(pos, move("capture", "KS", "KC KD KH"))
    assert reason is not None and "exactly one" in reason


@pytest.mark.parametrize("rules", ALL)
def test_s2_capture_figure_only_of_the_same_rank(rules):
    pos = position("KS", "2C", loose="QS JD", rules=rules)
    assert of_kind(legal_moves(pos), "capture") == []
    assert check_move(pos, move("capture", "KS", "QS")) is not None


def test_s6_italian_figure_capture_fourth_takes_all_three():
    pos = position("KS", "2C", loose="KC KD KH 5H", rules="italian")
    caps = of_kind(legal_moves(pos), "capture", "KS")
    assert loose_sets(caps) == {frozenset({"KC"}), frozenset({"KD"}), frozenset({"KH"}), frozenset({"KC", "KD", "KH"})}
    after = apply_move(pos, move("capture", "KS", "KC KD KH"))
    assert names(after.captured[0]) == {"KS", "KC", "KD", "KH"}
    assert names(after.loose) == {"5H"}


def test_s6_italian_figure_capture_with_two_loose_takes_one():
    pos = position("KS", "2C", loose="KC KD 5H", rules="italian")
    caps = of_kind(legal_moves(pos), "capture", "KS")
    assert loose_sets(caps) == {frozenset({"KC"}), frozenset({"KD"})}
    assert check_move(pos, move("capture", "KS", "KC KD")) is not None


@pytest.mark.parametrize("rules", ALL)
def test_s2_capture_number_every_combination_of_groups_is_a_move(rules):
    pos = position("7S", "2C", loose="7C 3C 4H 2D 5D KH", rules=rules)
    groups = [{"7C"}, {"3C", "4H"}, {"2D", "5D"}]
    expected = set()
    for mask in range(1, 8):  # every non-empty combination of the three groups
        expected.add(frozenset().union(*(g for i, g in enumerate(groups) if mask >> i & 1)))
    caps = of_kind(legal_moves(pos), "capture", "7S")
    assert loose_sets(caps) == expected
    assert len(caps) == 7
    assert all(m.value == 7 and m.builds == () for m in caps)


@pytest.mark.parametrize("rules", ALL)
def test_s2_capture_each_card_belongs_to_one_group(rules):
    pos = position("7S", "9C", loose="2C 5D 5H", rules=rules)
    caps = of_kind(legal_moves(pos), "capture", "7S")
    assert loose_sets(caps) == {frozenset({"2C", "5D"}), frozenset({"2C", "5H"})}
    reason = check_move(pos, move("capture", "7S", "2C 5D 5H", value=7))
    assert reason is not None and "groups of 7" in reason


@pytest.mark.parametrize("rules", ALL)
def test_s2_capture_may_take_the_build_of_its_value(rules):
    pos = position("7S", "7D", loose="7C 9H", builds=[(7, "5C 2H", 1)], rules=rules)
    caps = of_kind(legal_moves(pos), "capture", "7S")
    assert {(frozenset(names(m.loose)), m.builds) for m in caps} == {
        (frozenset({"7C"}), ()),
        (frozenset(), (7,)),
        (frozenset({"7C"}), (7,)),
    }


@pytest.mark.parametrize("rules", ALL)
def test_s2_capture_played_card_goes_to_the_pile_with_the_taken_cards(rules):
    pos = position("7S 9D", "2C", loose="3C 4H 8S", rules=rules)
    after = apply_move(pos, move("capture", "7S", "3C 4H", value=7))
    assert names(after.captured[0]) == {"7S", "3C", "4H"}
    assert names(after.hands[0]) == {"9D"}
    assert names(after.loose) == {"8S"}
    assert after.last_capturer == 0


@pytest.mark.parametrize("rules", ALL)
def test_s2_build_create_simple(rules):
    pos = position("2H 7D", "2C", loose="5C 8D", rules=rules)
    assert move("build", "2H", "5C", value=7) in legal_moves(pos)
    after = apply_move(pos, move("build", "2H", "5C", value=7))
    b = build_of(after, 7)
    assert names(b.cards) == {"2H", "5C"} and b.is_simple and b.owner == 0
    assert names(after.loose) == {"8D"}


@pytest.mark.parametrize("rules", ALL)
def test_s2_build_create_single_card_group_on_equal_loose_card(rules):
    pos = position("7S 7D", "2C", loose="7C", rules=rules)
    assert move("build", "7S", "7C", value=7) in legal_moves(pos)
    b = build_of(apply_move(pos, move("build", "7S", "7C", value=7)), 7)
    assert names(b.cards) == {"7S", "7C"} and not b.is_simple  # (7)+(7): multiple


@pytest.mark.parametrize("rules", ALL)
def test_s2_build_create_card_alone_plus_loose_pair(rules):
    pos = position("7S 7D", "2C", loose="3C 4H", rules=rules)
    assert move("build", "7S", "3C 4H", value=7) in legal_moves(pos)
    b = build_of(apply_move(pos, move("build", "7S", "3C 4H", value=7)), 7)
    assert names(b.cards) == {"7S", "3C", "4H"} and not b.is_simple


@pytest.mark.parametrize("rules", ALL)
def test_s2_build_played_card_must_be_in_a_group(rules):
    # 3+4 on the table make 7, but a 2 cannot join them as a group of 7
    pos = position("2S 7D 9D", "2C", loose="3C 4H", rules=rules)
    twos = [m for m in legal_moves(pos) if m.card == card("2S") and m.kind in ("build", "add")]
    assert all(m.value != 7 for m in twos)
    assert move("build", "2S", "3C 4H", value=9) in twos  # (2+3+4) is one group of 9
    assert check_move(pos, move("build", "2S", "3C 4H", value=7)) is not None


@pytest.mark.parametrize("rules", ALL)
def test_s2_build_holds_at_least_two_cards(rules):
    pos = position("7S 7D", "2C", loose="", rules=rules)
    assert [m for m in legal_moves(pos) if m.kind != "trail"] == []
    reason = check_move(pos, move("build", "7S", value=7))
    assert reason is not None and "at least one loose card" in reason


@pytest.mark.parametrize("rules", ALL)
def test_s2_build_value_from_1_to_10(rules):
    pos = position("9S 5D TD TH", "2C", loose="6C AC", rules=rules)
    moves = legal_moves(pos)
    values = {m.value for m in moves if m.kind == "build"}
    assert values and max(values) <= 10
    assert move("build", "9S", "AC", value=10) in moves
    assert check_move(pos, move("build", "5D", "6C", value=11)) is not None
    # the smallest build: an ace on an ace, announced as 1 (two groups) or 2 (one group)
    pos = position("AS AH 2D", "2C", loose="AC", rules=rules)
    moves = legal_moves(pos)
    assert move("build", "AS", "AC", value=1) in moves
    assert move("build", "AS", "AC", value=2) in moves


@pytest.mark.parametrize("rules", ALL)
def test_s2_increase_simple_build(rules):
    pos = position("2S 7D", "5H", builds=[(5, "3C 2H", 1)], rules=rules, to_move=0)
    m = move("increase", "2S", builds=[5], value=7)
    assert m in legal_moves(pos)
    after = apply_move(pos, m)
    assert after.build_of(5) is None
    b = build_of(after, 7)
    assert names(b.cards) == {"3C", "2H", "2S"} and b.is_simple and b.owner == 0


@pytest.mark.parametrize("rules", ALL)
def test_s2_increase_loose_cards_cannot_add_to_the_sum(rules):
    pos = position("2S 7D 8D", "5H", loose="AC", builds=[(5, "3C 2H", 1)], rules=rules)
    incs = of_kind(legal_moves(pos), "increase", "2S")
    assert incs and all(m.value == 7 and m.loose == () for m in incs)
    assert check_move(pos, move("increase", "2S", "AC", builds=[5], value=8)) is not None


@pytest.mark.parametrize("rules", ALL)
def test_s2_increase_may_take_loose_groups_of_the_new_value(rules):
    pos = position("2S 7D", "5H", loose="7C 3H 4D 6S", builds=[(5, "3C 2H", 1)], rules=rules)
    incs = of_kind(legal_moves(pos), "increase", "2S")
    assert loose_sets(incs) == {frozenset(), frozenset({"7C"}), frozenset({"3H", "4D"}), frozenset({"7C", "3H", "4D"})}
    after = apply_move(pos, move("increase", "2S", "7C 3H 4D", builds=[5], value=7))
    b = build_of(after, 7)
    assert names(b.cards) == {"3C", "2H", "2S", "7C", "3H", "4D"} and not b.is_simple
    assert names(after.loose) == {"6S"}


@pytest.mark.parametrize("rules", ALL)
def test_s6_raise_a_multiple_build_never(rules):
    pos = position("AS 3S 8S TS", "5H", builds=[(7, "5C 2H 7D", 1)], rules=rules)
    assert of_kind(legal_moves(pos), "increase") == []
    for c, w in (("AS", 8), ("3S", 10)):
        reason = check_move(pos, move("increase", c, builds=[7], value=w))
        assert reason is not None and "multiple" in reason


@pytest.mark.parametrize("rules", ALL)
def test_s2_add_card_equal_to_the_value(rules):
    pos = position("7S 7H", "5H", builds=[(7, "5C 2H", 1)], rules=rules)
    m = move("add", "7S", builds=[7], value=7)
    assert m in legal_moves(pos)
    b = build_of(apply_move(pos, m), 7)
    assert names(b.cards) == {"5C", "2H", "7S"} and b.value == 7 and not b.is_simple and b.owner == 0


@pytest.mark.parametrize("rules", ALL)
def test_s2_add_card_with_loose_cards_forms_a_new_group(rules):
    pos = position("3S 7H", "5H", loose="4C 9D", builds=[(7, "5C 2H", 1)], rules=rules)
    m = move("add", "3S", "4C", builds=[7], value=7)
    assert m in legal_moves(pos)
    after = apply_move(pos, m)
    b = build_of(after, 7)
    assert names(b.cards) == {"5C", "2H", "3S", "4C"} and b.value == 7
    assert names(after.loose) == {"9D"}
    # the value does not change: no add announces another value
    assert all(m.value == 7 for m in of_kind(legal_moves(pos), "add"))


@pytest.mark.parametrize("rules", ALL)
def test_s2_add_to_a_multiple_build(rules):
    pos = position("7S 7H", "5H", builds=[(7, "5C 2H 7D", 1)], rules=rules)
    m = move("add", "7S", builds=[7], value=7)
    assert m in legal_moves(pos)
    assert len(build_of(apply_move(pos, m), 7).cards) == 4


# --------------------------------------------------------------------------
# Section 3: ownership and obligations (keep-a-capturing-card: every rule set)
# --------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ALL)
def test_s3_owner_is_the_last_to_increase_or_add(rules):
    pos = position("2S 7D", "5H", builds=[(5, "3C 2H", 1)], rules=rules)
    assert build_of(apply_move(pos, move("increase", "2S", builds=[5], value=7)), 7).owner == 0
    pos = position("7S 7D", "5H", builds=[(7, "3C 4H", 1)], rules=rules)
    assert build_of(apply_move(pos, move("add", "7S", builds=[7], value=7)), 7).owner == 0


@pytest.mark.parametrize("rules", ALL)
def test_s3_opponent_change_ends_previous_owner_obligations(rules):
    # A (0) owns the 5 and holds its only 5; B raises it to 7.
    pos = position("5S 9D", "2S 7D", builds=[(5, "3C 2H", 0)], rules=rules, to_move=1)
    after = apply_move(pos, move("increase", "2S", builds=[5], value=7))
    assert build_of(after, 7).owner == 1
    moves = legal_moves(after)
    # A may now spend the 5 (and, in strict, trail: A owns nothing)
    assert move("trail", "5S") in moves
    assert move("trail", "9D") in moves


@pytest.mark.parametrize("rules", ALL)
def test_s3_keep_a_capturing_card_for_a_new_build(rules):
    pos = position("2H 9S", "3C", loose="5C", rules=rules)
    assert all(m.value != 7 for m in legal_moves(pos))
    reason = check_move(pos, move("build", "2H", "5C", value=7))
    assert reason is not None and "keep a card of value 7" in reason
    pos = position("2H 7S", "3C", loose="5C", rules=rules)
    assert move("build", "2H", "5C", value=7) in legal_moves(pos)


@pytest.mark.parametrize("rules", ALL)
def test_s3_keep_a_capturing_card_for_an_increase(rules):
    pos = position("2S 9D", "5H", builds=[(5, "3C 2H", 1)], rules=rules)
    assert of_kind(legal_moves(pos), "increase") == []
    assert "keep a card of value 7" in check_move(pos, move("increase", "2S", builds=[5], value=7))


@pytest.mark.parametrize("rules", ALL)
def test_s3_keep_a_capturing_card_for_an_add(rules):
    pos = position("7S 9D", "5H", builds=[(7, "5C 2H", 1)], rules=rules)
    assert of_kind(legal_moves(pos), "add") == []
    assert "keep a card of value 7" in check_move(pos, move("add", "7S", builds=[7], value=7))
    pos = position("3S 9D", "5H", loose="4C", builds=[(7, "5C 2H", 1)], rules=rules)
    assert of_kind(legal_moves(pos), "add") == []


@pytest.mark.parametrize("rules", ALL)
def test_s3_keep_a_capturing_card_never_spend_the_last_one_except_on_the_build(rules):
    pos = position("7S 3D", "5H", loose="7C", builds=[(7, "5C 2H", 0)], rules=rules)
    moves = legal_moves(pos)
    assert move("capture", "7S", "7C", value=7) not in moves
    assert move("capture", "7S", "7C", builds=[7], value=7) in moves
    assert move("capture", "7S", builds=[7], value=7) in moves
    assert "keep a card of value 7" in check_move(pos, move("capture", "7S", "7C", value=7))
    # with a second 7 in hand, the first may take the loose 7 alone
    pos = position("7S 7H", "5H", loose="7C", builds=[(7, "5C 2H", 0)], rules=rules)
    assert move("capture", "7S", "7C", value=7) in legal_moves(pos)


@pytest.mark.parametrize("rules", ALL)
def test_s3_keep_a_capturing_card_for_every_build_owned(rules):
    pos = position("7S 8S", "5H", builds=[(7, "5C 2H", 0), (8, "6C 2D", 0)], rules=rules)
    moves = legal_moves(pos)
    assert move("capture", "7S", builds=[7], value=7) in moves
    assert move("capture", "8S", builds=[8], value=8) in moves
    # every legal move leaves a card for each build still owned
    for m in moves:
        after = apply_move(pos, m)
        held = {value_of(c) for c in after.hands[0]}
        for b in after.builds:
            if b.owner == 0:
                assert b.value in held


def test_s3_no_trailing_while_owning_a_build_strict():
    pos = position("7S 9D", "5H", builds=[(7, "5C 2H", 0)], rules="strict")
    assert of_kind(legal_moves(pos), "trail") == []
    assert "may not trail" in check_move(pos, move("trail", "9D"))
    with pytest.raises(IllegalMove, match="may not trail"):
        apply_move(pos, move("trail", "9D"))


@pytest.mark.parametrize("rules", ["brazilian", "italian"])
def test_s6_no_trailing_rule_absent_brazilian_and_italian(rules):
    pos = position("7S 9D", "5H", builds=[(7, "5C 2H", 0)], rules=rules)
    moves = legal_moves(pos)
    assert move("trail", "9D") in moves
    assert move("trail", "7S") not in moves  # keep-a-capturing-card still holds


@pytest.mark.parametrize("rules", ALL)
def test_s3_any_player_may_capture_any_build(rules):
    pos = position("7H", "7S 2C", builds=[(7, "5C 2H", 0)], rules=rules, to_move=1)
    m = move("capture", "7S", builds=[7], value=7)
    assert m in legal_moves(pos)
    after = apply_move(pos, m)
    assert names(after.captured[1]) == {"7S", "5C", "2H"} and after.builds == ()


@pytest.mark.parametrize("rules", ALL)
def test_s3_loose_card_never_added_to_a_build_to_capture_it_at_another_value(rules):
    pos = position("8S", "5H", loose="AC", builds=[(7, "5C 2H", 1)], rules=rules)
    assert all(m.builds == () for m in of_kind(legal_moves(pos), "capture"))
    assert check_move(pos, move("capture", "8S", "AC", builds=[7], value=8)) is not None


# --------------------------------------------------------------------------
# Section 4: end of round and scoring
# --------------------------------------------------------------------------

SPADES_HEARTS = [format_card(c) for c in DECK if format_card(c)[1] in "SH"]
DIAMONDS_CLUBS = [format_card(c) for c in DECK if format_card(c)[1] in "DC"]


def piles(*tokens_lists):
    return tuple(frozenset(parse_card(t) for t in ts) for ts in tokens_lists)


def split_30_22():
    """Player 0: all spades and hearts plus AD 2D 3D TD (30 cards, 13 spades, 3 aces, 10D, 2S)."""
    extra = ["AD", "2D", "3D", "TD"]
    p0 = SPADES_HEARTS + extra
    p1 = [t for t in DIAMONDS_CLUBS if t not in extra]
    return piles(p0, p1)


@pytest.mark.parametrize("rules", ALL)
def test_s4_points_by_category(rules):
    s = score_round(get_rules(rules), split_30_22(), (0, 0))
    assert s.points[0] == {"cards": 3, "spades": 1, "aces": 3, "ten_diamonds": 2, "two_spades": 1, "sweeps": 0}
    assert s.points[1] == {"cards": 0, "spades": 0, "aces": 1, "ten_diamonds": 0, "two_spades": 0, "sweeps": 0}
    assert s.totals == (10, 1) and sum(s.totals) == 11
    assert set(s.points[0]) == set(CATEGORIES)


@pytest.mark.parametrize("rules", ALL)
def test_s4_tie_for_most_cards_gives_nobody(rules):
    s = score_round(get_rules(rules), piles(SPADES_HEARTS, DIAMONDS_CLUBS), (0, 0))
    assert s.points[0]["cards"] == s.points[1]["cards"] == 0
    assert s.points[0]["spades"] == 1
    assert s.totals == (1 + 2 + 1, 2 + 2)  # spades, aces, 2S | aces, 10D
    assert sum(s.totals) == 8


def test_s4_tie_for_most_spades_gives_nobody():
    # only reachable with piles that do not hold the whole deck: 6 spades each
    spades = [t for t in SPADES_HEARTS if t[1] == "S"]
    s = score_round(STRICT, piles(spades[:6] + ["3H"], spades[7:] + ["4H"]), (0, 0))
    assert s.points[0]["spades"] == s.points[1]["spades"] == 0


@pytest.mark.parametrize("rules", ALL)
def test_s4_sweep_capture_that_empties_the_table(rules):
    pos = position("7S 9D", "2C", loose="3C 4H", rules=rules)
    after = apply_move(pos, move("capture", "7S", "3C 4H", value=7))
    assert after.sweeps == (1, 0)
    # a capture leaving a loose card or a build is no sweep
    pos = position("7S 9D", "2C", loose="3C 4H KD", rules=rules)
    assert apply_move(pos, move("capture", "7S", "3C 4H", value=7)).sweeps == (0, 0)
    pos = position("7S 9D", "2C", loose="3C 4H", builds=[(9, "5S 4S", 1)], rules=rules)
    assert apply_move(pos, move("capture", "7S", "3C 4H", value=7)).sweeps == (0, 0)


def _last_play_position(rules, loose, mover_card, last_capturer):
    """Every card placed: mover holds one card, opponent none, the table `loose`, the rest captured."""
    used = set(loose.split()) | {mover_card}
    rest = [format_card(c) for c in DECK if format_card(c) not in used]
    return position(
        mover_card,
        "",
        loose=loose,
        rules=rules,
        captured=(" ".join(rest[:20]), " ".join(rest[20:])),
        last_capturer=last_capturer,
    )


@pytest.mark.parametrize("rules", ALL)
def test_s4_sweep_with_the_very_last_card(rules):
    pos = _last_play_position(rules, "4C 5D", "9S", last_capturer=1)
    after = apply_move(pos, move("capture", "9S", "4C 5D", value=9))
    assert after.sweeps == (1, 0)
    result = finish_round(RoundResult(dealer=1), after)
    assert not result.void
    assert result.score.points[0]["sweeps"] == get_rules(rules).sweep_points
    assert not [e for e in result.events if e.kind == "remainder"]


@pytest.mark.parametrize("rules", ALL)
def test_s4_remainder_to_the_last_capturer_is_not_a_sweep(rules):
    pos = _last_play_position(rules, "3C KD 9H", "QS", last_capturer=1)
    after = apply_move(pos, move("trail", "QS"))  # the last card is a trail
    result = finish_round(RoundResult(dealer=0), after)
    final = result.final
    assert final.loose == frozenset() and final.builds == ()
    assert names(final.captured[1]) >= {"3C", "KD", "9H", "QS"}
    assert final.sweeps == (0, 0)
    assert result.score.points[1]["sweeps"] == 0
    [rem] = [e for e in result.events if e.kind == "remainder"]
    assert rem.player == 1 and names(rem.cards) == {"3C", "KD", "9H", "QS"}
    assert len(final.captured[0]) + len(final.captured[1]) == 52


def test_s4_void_round_when_nobody_captured():
    pos = position("", "", loose=" ".join(format_card(c) for c in DECK))
    result = finish_round(RoundResult(dealer=0), pos)
    assert result.void
    assert result.score.totals == (0, 0)


# --------------------------------------------------------------------------
# Section 5: the game; section 6: game options
# --------------------------------------------------------------------------


def test_s5_first_to_21_at_a_rounds_end_higher_total_wins():
    assert game_winner(STRICT, [21, 15], (5, 5)) == 0
    assert game_winner(STRICT, [22, 25], (5, 5)) == 1
    assert game_winner(STRICT, [25, 22], (5, 5)) == 0
    assert game_winner(STRICT, [20, 19], (9, 9)) is None
    assert game_winner(STRICT, [20, 20], (9, 9)) is None


def test_s5_tie_at_21_or_more_plays_another_round():
    assert game_winner(STRICT, [21, 21], (5, 5)) is None
    assert game_winner(STRICT, [24, 24], (5, 5)) is None


def _score(a, b):
    zero = {k: 0 for k in CATEGORIES}
    return Score(({**zero, "cards": a}, {**zero, "cards": b}))


def _scripted_game(monkeypatch, rules, script, first_dealer_draw=0):
    """Run play_game with play_round replaced by a script of (a, b) scores or 'void'."""
    calls = []
    script = list(script)

    def fake_play_round(rules_, deck, dealer, choose):
        calls.append(dealer)
        item = script.pop(0)
        if item == "void":
            return RoundResult(dealer=dealer, void=True)
        return RoundResult(dealer=dealer, score=_score(*item))

    class FixedRng:
        def integers(self, n):
            return first_dealer_draw

        def permutation(self, n):
            return list(range(n))

    monkeypatch.setattr(game_module, "play_round", fake_play_round)
    game = play_game(rules, FixedRng(), (None, None))
    return game, calls, script


def test_s5_tie_at_21_plays_another_complete_round(monkeypatch):
    game, dealers, left = _scripted_game(monkeypatch, STRICT, [(10, 10), (11, 11), (3, 2), (9, 9)])
    assert game.totals == [24, 23] and game.winner == 0
    assert len(game.rounds) == 3 and left == [(9, 9)]


def test_s5_points_added_only_at_the_end_of_complete_rounds(monkeypatch):
    game, _, left = _scripted_game(monkeypatch, STRICT, [(8, 3), (8, 3), (4, 9), (2, 9), (1, 1)])
    # 8+8+4 = 20 < 21 after three rounds: no early claim; round 4 gives 22 v 24
    assert game.totals == [22, 24] and game.winner == 1 and left == [(1, 1)]


@pytest.mark.parametrize("first", [0, 1])
def test_s1_dealer_alternates_each_round(monkeypatch, first):
    _, dealers, _ = _scripted_game(monkeypatch, STRICT, [(5, 5)] * 4 + [(3, 1)], first_dealer_draw=first)
    assert dealers == [first, 1 - first, first, 1 - first, first]


def test_s4_void_round_is_replayed_with_no_points(monkeypatch):
    game, dealers, _ = _scripted_game(monkeypatch, STRICT, ["void", (11, 0), "void", (11, 0)])
    assert game.totals == [22, 0] and game.winner == 0
    assert len(game.rounds) == 4
    scored = [d for d, r in zip(dealers, game.rounds) if not r.void]
    assert scored[0] != scored[1]  # the dealer still alternates between played rounds


def test_s5_whole_game_with_random_play_no_early_claim():
    import numpy as np

    rng = np.random.default_rng(2024)
    choosers = (random_chooser(1), random_chooser(2))
    game = play_game(STRICT, rng, choosers)
    played = [r for r in game.rounds if not r.void]
    totals = [0, 0]
    for i, r in enumerate(played):
        a, b = r.score.totals
        totals = [totals[0] + a, totals[1] + b]
        if i < len(played) - 1:
            assert max(totals) < 21 or totals[0] == totals[1]
    assert totals == game.totals
    assert max(totals) >= 21 and totals[game.winner] > totals[1 - game.winner]


def test_s6_brazilian_game_target_31_option():
    rules = BRAZILIAN.with_options(target=31)
    assert game_winner(BRAZILIAN, [25, 20], (5, 5)) == 0
    assert game_winner(rules, [25, 20], (5, 5)) is None
    assert game_winner(rules, [31, 20], (5, 5)) == 0
    assert game_winner(rules, [31, 31], (5, 5)) is None


def test_s6_brazilian_single_round_victory_option():
    rules = BRAZILIAN.with_options(round_win_points=6)
    assert game_winner(BRAZILIAN, [6, 5], (6, 5)) is None
    assert game_winner(rules, [6, 5], (6, 5)) == 0
    assert game_winner(rules, [12, 14], (2, 6)) == 1
    assert game_winner(rules, [5, 5], (5, 5)) is None


def test_s6_brazilian_single_round_victory_ends_the_game(monkeypatch):
    game, _, left = _scripted_game(monkeypatch, BRAZILIAN.with_options(round_win_points=6), [(5, 6), (11, 0)])
    assert game.winner == 1 and len(game.rounds) == 1 and left == [(11, 0)]


def test_s6_italian_single_round_higher_score_wins(monkeypatch):
    rules = ITALIAN.with_options(single_round=True)
    assert game_winner(rules, [4, 7], (4, 7)) == 1
    assert game_winner(ITALIAN, [4, 7], (4, 7)) is None
    game, _, left = _scripted_game(monkeypatch, rules, [(4, 3), (0, 11)])
    assert game.winner == 0 and len(game.rounds) == 1


# --------------------------------------------------------------------------
# Section 6: scoring per rule set, italian obligation
# --------------------------------------------------------------------------


@pytest.mark.parametrize("rules,per_sweep", [("strict", 1), ("brazilian", 0), ("italian", 1)])
def test_s6_sweep_points_per_rule_set(rules, per_sweep):
    s = score_round(get_rules(rules), split_30_22(), (2, 1))
    assert s.points[0]["sweeps"] == 2 * per_sweep and s.points[1]["sweeps"] == per_sweep
    assert sum(s.totals) == 11 + 3 * per_sweep


def test_s6_italian_most_cards_for_27_or_more():
    deck = [format_card(c) for c in DECK]
    s = score_round(ITALIAN, piles(deck[:27], deck[27:]), (0, 0))
    assert (s.points[0]["cards"], s.points[1]["cards"]) == (3, 0)
    s = score_round(ITALIAN, piles(deck[:26], deck[26:]), (0, 0))
    assert (s.points[0]["cards"], s.points[1]["cards"]) == (0, 0)


def test_s6_italian_most_spades_for_7_or_more():
    spades = [t for t in SPADES_HEARTS if t[1] == "S"]
    s = score_round(ITALIAN, piles(spades[:7] + DIAMONDS_CLUBS, spades[7:]), (0, 0))
    assert (s.points[0]["spades"], s.points[1]["spades"]) == (1, 0)
    s = score_round(ITALIAN, piles(spades[:6], spades[6:] + DIAMONDS_CLUBS), (0, 0))
    assert (s.points[0]["spades"], s.points[1]["spades"]) == (0, 1)


def _italian_build_then(reply_pos_hand1, reply):
    pos = position("2H 7S 9D", reply_pos_hand1, loose="5C 4C", rules="italian")
    pos = apply_move(pos, move("build", "2H", "5C", value=7))
    assert pos.must_act == (True, False)
    return apply_move(pos, reply)


def test_s6_italian_next_turn_obligation():
    pos = _italian_build_then("KC 4D", move("trail", "KC"))
    assert pos.must_act[0]
    moves = legal_moves(pos)
    assert of_kind(moves, "trail") == []
    assert "may not trail" in check_move(pos, move("trail", "9D"))
    assert move("capture", "7S", builds=[7], value=7) in moves


def test_s6_italian_next_turn_obligation_lifted_when_the_opponent_did_not_trail():
    pos = _italian_build_then("KC 4D", move("capture", "4D", "4C", value=4))
    assert pos.must_act == (False, False)
    assert move("trail", "9D") in legal_moves(pos)


def test_s6_italian_next_turn_obligation_only_the_turn_right_after():
    pos = _italian_build_then("KC 4D QD", move("trail", "KC"))
    pos = apply_move(pos, move("capture", "7S", builds=[7], value=7))  # not a build: obligation ends
    pos = apply_move(pos, move("trail", "QD"))
    assert pos.must_act == (False, False)
    assert move("trail", "9D") in legal_moves(pos)


def test_s6_italian_next_turn_obligation_from_must_act_field():
    pos = position("9D KS", "2C", loose="5C", rules="italian", must_act=(True, False))
    assert of_kind(legal_moves(pos), "trail") == []
    pos = position("9D KS", "2C", loose="5C", rules="italian")
    assert len(of_kind(legal_moves(pos), "trail")) == 2


def test_s6_brazilian_no_next_turn_obligation():
    pos = position("2H 7S 9D", "KC 4D", loose="5C 4C", rules="brazilian")
    pos = apply_move(pos, move("build", "2H", "5C", value=7))
    pos = apply_move(pos, move("trail", "KC"))
    assert move("trail", "9D") in legal_moves(pos)


# --------------------------------------------------------------------------
# Section 7: decisions
# --------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ALL)
def test_s7_d1_one_build_per_value_merges_on_create(rules):
    pos = position("4S 7D", "5H", loose="3C", builds=[(7, "5C 2H", 1)], rules=rules)
    moves = legal_moves(pos)
    assert [m for m in moves if m.kind == "build" and m.value == 7] == []
    m = move("add", "4S", "3C", builds=[7], value=7)
    assert m in moves
    after = apply_move(pos, m)
    assert len(after.builds) == 1
    b = build_of(after, 7)
    assert names(b.cards) == {"5C", "2H", "3C", "4S"} and not b.is_simple and b.owner == 0
    reason = check_move(pos, move("build", "4S", "3C", value=7))
    assert reason is not None and "add" in reason


@pytest.mark.parametrize("rules", ALL)
def test_s7_d1_one_build_per_value_merges_on_increase(rules):
    pos = position("2S 7S", "5H", builds=[(5, "3C 2H", 1), (7, "6D AD", 1)], rules=rules)
    m = move("increase", "2S", builds=[5, 7], value=7)
    assert m in legal_moves(pos)
    after = apply_move(pos, m)
    assert after.build_of(5) is None and len(after.builds) == 1
    b = build_of(after, 7)
    assert names(b.cards) == {"3C", "2H", "2S", "6D", "AD"} and not b.is_simple and b.owner == 0
    assert check_move(pos, move("increase", "2S", builds=[5], value=7)) is not None


@pytest.mark.parametrize("rules", ALL)
def test_s7_d2_add_may_take_further_loose_groups(rules):
    pos = position("7S 7H", "5H", loose="7C 3H 4D", builds=[(7, "5C 2H", 1)], rules=rules)
    adds = of_kind(legal_moves(pos), "add", "7S")
    assert loose_sets(adds) == {frozenset(), frozenset({"7C"}), frozenset({"3H", "4D"}), frozenset({"7C", "3H", "4D"})}
    after = apply_move(pos, move("add", "7S", "7C 3H 4D", builds=[7], value=7))
    assert names(build_of(after, 7).cards) == {"5C", "2H", "7S", "7C", "3H", "4D"}
    assert after.loose == frozenset()


@pytest.mark.parametrize("rules", ALL)
def test_s7_d2_increase_may_take_further_loose_groups(rules):
    pos = position("AS 8D", "5H", loose="8C 6H 2D", builds=[(7, "5C 2H", 1)], rules=rules)
    incs = of_kind(legal_moves(pos), "increase", "AS")
    assert loose_sets(incs) == {frozenset(), frozenset({"8C"}), frozenset({"6H", "2D"}), frozenset({"8C", "6H", "2D"})}


@pytest.mark.parametrize("rules", ALL)
def test_s7_d3_owner_may_increase_and_add_to_own_build(rules):
    pos = position("2S 7D 7H", "5H", builds=[(5, "3C 2H", 0)], rules=rules)
    moves = legal_moves(pos)
    assert move("increase", "2S", builds=[5], value=7) in moves
    pos = position("7S 7H", "5H", builds=[(7, "3C 4H", 0)], rules=rules)
    assert move("add", "7S", builds=[7], value=7) in legal_moves(pos)


@pytest.mark.parametrize("rules", ALL)
def test_s7_d4_capture_takes_the_build_with_loose_groups(rules):
    pos = position("7S", "5H", loose="3C 4H 7C 9D", builds=[(7, "5C 2H", 1)], rules=rules)
    m = move("capture", "7S", "3C 4H 7C", builds=[7], value=7)
    assert m in legal_moves(pos)
    after = apply_move(pos, m)
    assert names(after.captured[0]) == {"7S", "3C", "4H", "7C", "5C", "2H"}
    assert names(after.loose) == {"9D"} and after.builds == ()


@pytest.mark.parametrize("rules", ALL)
def test_s7_d5_sets_of_cards_identify_a_play(rules):
    # 3C+4H / 3D+4D and 3C+4D / 3D+4H take the same four cards: one move
    pos = position("7S", "5H", loose="3C 4H 3D 4D", rules=rules)
    moves = legal_moves(pos)
    assert len(moves) == len(set(moves))
    caps = of_kind(moves, "capture", "7S")
    assert len(caps) == 5  # four pairs and the four cards once
    assert frozenset({"3C", "4H", "3D", "4D"}) in loose_sets(caps)
    assert moves == sorted(moves, key=lambda m: m.sort_key())
