"""Bad input at the engine level: each is refused with an error that says what is wrong."""

import pytest

from casino_sim.core.cards import CardError, format_card, parse_card, parse_cards
from casino_sim.core.rules import STRICT, RulesError, get_rules
from casino_sim.reference import IllegalMove, Position, PositionError, apply_move, check_move, legal_moves
from casino_sim.reference.moves import Move, MoveError
from casino_sim.reference.round import play_round
from tests.support.positions import move, position

BASE = {
    "rules": "strict",
    "to_move": 0,
    "hands": [["7D", "7S", "2H"], ["KC", "3C", "9H"]],
    "loose": ["8D"],
    "builds": [{"value": 7, "cards": ["5C", "2D"], "owner": 0}],
}


def with_(**changes):
    return {**BASE, **changes}


# ---------------------------------------------------------------- cards


@pytest.mark.parametrize("token", ["1X", "ZZ", "", "7", "11S", "T", "10", "7SS", "0H", "AX", "1♠", "KK"])
def test_malformed_card_error_names_the_token(token):
    with pytest.raises(CardError) as err:
        parse_card(token)
    assert repr(token) in str(err.value)


@pytest.mark.parametrize("token", [7, None, ["7S"]])
def test_non_string_card_is_refused(token):
    with pytest.raises(CardError):
        parse_card(token)


@pytest.mark.parametrize(
    "token,canonical",
    [("TD", "TD"), ("10♦", "TD"), ("7s", "7S"), ("as", "AS"), ("10h", "TH"), ("K♣", "KC"), ("q♥", "QH")],
)
def test_accepted_card_forms(token, canonical):
    assert format_card(parse_card(token)) == canonical


def test_a_string_is_not_a_list_of_cards():
    with pytest.raises(CardError):
        parse_cards("7S")


@pytest.mark.parametrize("where", ["loose", "hand", "build", "captured"])
def test_malformed_card_in_a_position_names_the_token_and_place(where):
    if where == "loose":
        obj = with_(loose=["8D", "XQ"])
    elif where == "hand":
        obj = with_(hands=[["7D", "7S", "XQ"], ["KC"]])
    elif where == "build":
        obj = with_(builds=[{"value": 7, "cards": ["5C", "XQ"], "owner": 0}])
    else:
        obj = with_(captured=[["XQ"], []])
    with pytest.raises(PositionError) as err:
        Position.from_json(obj)
    assert "XQ" in str(err.value)


def test_malformed_card_in_a_move_names_the_token():
    with pytest.raises(MoveError, match="7Z"):
        Move.from_json({"kind": "capture", "card": "7Z", "loose": [], "builds": [], "value": 7})
    with pytest.raises(MoveError, match="3Y"):
        Move.from_json({"kind": "capture", "card": "7S", "loose": ["3Y"], "builds": [], "value": 7})


# ---------------------------------------------------------------- duplicates


@pytest.mark.parametrize(
    "obj",
    [
        with_(loose=["8D", "7D"]),  # hand and table
        with_(hands=[["7D", "7S", "2H", "7S"], ["KC"]]),  # twice in one hand
        with_(hands=[["7D", "7S"], ["7S"]]),  # in both hands
        with_(loose=["8D", "5C"]),  # table and build
        with_(captured=[["2D"], []]),  # build and pile
        with_(captured=[["4S"], ["4S"]]),  # both piles
        with_(loose=["8D", "8D"]),  # twice on the table
        with_(loose=["8D", "8d"]),  # same card, other spelling
    ],
)
def test_duplicate_card_is_refused(obj):
    with pytest.raises(PositionError, match="appears twice"):
        Position.from_json(obj)


def test_duplicate_card_error_names_the_card():
    with pytest.raises(PositionError, match="7D"):
        Position.from_json(with_(loose=["8D", "7D"]))


def test_no_more_than_52_cards():
    # 53 card tokens can only be made with a repeat
    every = [format_card(c) for c in range(52)]
    with pytest.raises(PositionError, match="twice"):
        Position.from_json({"hands": [None, None], "loose": every + ["AS"]})


# ---------------------------------------------------------------- impossible builds


@pytest.mark.parametrize(
    "build,fragment",
    [
        ({"value": 7, "cards": ["5C", "2D", "KH"], "owner": 0}, "figure"),
        ({"value": 7, "cards": ["QC", "QH"], "owner": 0}, "figure"),
        ({"value": 7, "cards": ["5C", "3D"], "owner": 0}, "groups of 7"),
        ({"value": 7, "cards": ["5C", "2D", "3H"], "owner": 0}, "groups of 7"),
        ({"value": 10, "cards": ["9C", "9D", "2H"], "owner": 0}, "groups of 10"),  # sums to 20, no split
        ({"value": 5, "cards": ["9C", "AH"], "owner": 0}, "groups of 5"),  # a card above the value
        ({"value": 7, "cards": ["7C"], "owner": 0}, "at least two cards"),
        ({"value": 7, "cards": [], "owner": 0}, "at least two cards"),
        ({"value": 11, "cards": ["5C", "6D"], "owner": 0}, "1..10"),
        ({"value": 0, "cards": ["5C", "6D"], "owner": 0}, "1..10"),
        ({"value": 7, "cards": ["5C", "2D"], "owner": 2}, "0 or 1"),
        ({"value": 7, "cards": ["5C", "2D"], "owner": 0, "colour": "red"}, "unknown field"),
    ],
)
def test_impossible_build_is_refused(build, fragment):
    with pytest.raises(PositionError) as err:
        Position.from_json(with_(builds=[build]))
    assert fragment in str(err.value)


def test_two_builds_of_one_value_are_refused():
    obj = with_(
        builds=[{"value": 7, "cards": ["5C", "2D"], "owner": 0}, {"value": 7, "cards": ["4C", "3D"], "owner": 1}]
    )
    with pytest.raises(PositionError, match="two builds of value 7"):
        Position.from_json(obj)


def test_valid_multiple_build_is_accepted():
    pos = Position.from_json(with_(builds=[{"value": 8, "cards": ["5C", "3D", "6H", "2S"], "owner": 1}]))
    assert not pos.build_of(8).is_simple
    pos = Position.from_json(with_(builds=[{"value": 8, "cards": ["5C", "5D", "3H", "3S"], "owner": 1}]))
    assert pos.build_of(8).cards == frozenset(map(parse_card, ["5C", "5D", "3H", "3S"]))


# ---------------------------------------------------------------- rule sets and other fields


@pytest.mark.parametrize("name", ["french", "Strict", "", "STRICT ", 3])
def test_unknown_rule_set(name):
    with pytest.raises(RulesError) as err:
        get_rules(name)
    assert "strict" in str(err.value) and "brazilian" in str(err.value) and "italian" in str(err.value)


def test_unknown_rule_set_in_a_position():
    with pytest.raises(PositionError, match="french"):
        Position.from_json(with_(rules="french"))


@pytest.mark.parametrize(
    "spec,fragment",
    [
        ("strict:players=3", "strict is a two-player rule set"),
        ("brazilian:players=5", "players must be 2, 3 or 4, got 5"),
        ("italian:players=1", "players must be 2, 3 or 4, got 1"),
        ("italian:players=3,teams=true", "teams=true needs players=4"),
        ("brazilian:teams=true", "teams=true needs players=4"),
        ("italian:players=4,teams=maybe", "teams must be true or false"),
        ("brazilian:players=four", "players must be a whole number"),
    ],
)
def test_bad_player_options(spec, fragment):
    with pytest.raises(RulesError, match=fragment):
        get_rules(spec)


@pytest.mark.parametrize(
    "spec,canonical,players,teams",
    [
        ("brazilian:players=4", "brazilian:players=4", 4, True),  # seed 002: four play in partnerships
        ("brazilian:players=4,teams=true", "brazilian:players=4", 4, True),  # one rule set, one name
        ("brazilian:players=4,teams=false", "brazilian:players=4,teams=false", 4, False),
        ("italian:players=4", "italian:players=4", 4, False),  # seed 004 names no partnerships
        ("italian:players=4,teams=true", "italian:players=4,teams=true", 4, True),
        ("italian:players=3", "italian:players=3", 3, False),
        ("brazilian:players=2", "brazilian", 2, False),
    ],
)
def test_player_options(spec, canonical, players, teams):
    rules = get_rules(spec)
    assert (rules.name, rules.players, rules.teams) == (canonical, players, teams)
    assert get_rules(rules.name) == rules
    assert rules.n_sides == (2 if teams else players)


def test_unknown_rule_option():
    with pytest.raises(RulesError, match="colour"):
        STRICT.with_options(colour=1)
    with pytest.raises(RulesError):
        STRICT.with_options(target=0)


@pytest.mark.parametrize(
    "obj,fragment",
    [
        ([1, 2], "JSON object"),
        (with_(to_move=2), "to_move"),
        (with_(to_move=True), "to_move"),
        (with_(hands=[["7D"]]), "hands"),
        (with_(loose="8D"), "loose"),
        (with_(sweeps=[-1, 0]), "sweeps"),
        (with_(must_act=[1, 0]), "must_act"),
        (with_(last_capturer=3), "last_capturer"),
        (with_(dealr=1), "unknown position field"),
        (with_(dealer=0), "dealer 0 contradicts the hand sizes [3, 3]"),  # both hold 3: player 0 plays first
        (with_(dealer=2), "dealer must be 0 or 1"),
    ],
)
def test_malformed_position_fields(obj, fragment):
    with pytest.raises(PositionError) as err:
        Position.from_json(obj)
    assert fragment in str(err.value)


def test_unknown_hand_of_the_player_to_move():
    pos = Position.from_json(with_(hands=[None, ["KC"]]))
    with pytest.raises(PositionError, match="unknown"):
        legal_moves(pos)
    assert "unknown" in check_move(pos, move("trail", "7D"))


def test_bad_deck_for_a_round():
    with pytest.raises(ValueError, match="52"):
        play_round(STRICT, list(range(51)) + [0], 0, lambda p, m: m[0])


@pytest.mark.parametrize(
    "obj,fragment",
    [
        ({"kind": "steal", "card": "7S"}, "kind"),
        ({"kind": "trail"}, "no card"),
        ({"kind": "capture", "card": "7S", "loose": ["3C", "3C"], "value": 7}, "twice"),
        ({"kind": "capture", "card": "7S", "builds": ["7"], "value": 7}, "builds"),
        ({"kind": "capture", "card": "7S", "value": "7"}, "value"),
        ({"kind": "trail", "card": "7S", "extra": 1}, "unknown move field"),
        ("trail 7S", "JSON object"),
    ],
)
def test_malformed_move_record(obj, fragment):
    with pytest.raises(MoveError) as err:
        Move.from_json(obj)
    assert fragment in str(err.value)


# ---------------------------------------------------------------- illegal moves for apply_move


def illegal(pos, m, *fragments):
    reason = check_move(pos, m)
    assert reason is not None, f"{m} should be illegal"
    for f in fragments:
        assert f in reason, f"{f!r} not in {reason!r}"
    with pytest.raises(IllegalMove) as err:
        apply_move(pos, m)
    assert str(err.value) == reason
    assert m not in legal_moves(pos)


def test_illegal_card_not_in_hand():
    pos = position("7S 9D", "7C", loose="3C 4H")
    illegal(pos, move("capture", "7C", "3C 4H", value=7), "7C", "not in the hand")


def test_illegal_loose_card_not_on_the_table():
    pos = position("7S 9D", "2C", loose="3C 4H")
    illegal(pos, move("capture", "7S", "3C 4D", value=7), "4D", "not a loose card")


def test_illegal_build_not_on_the_table():
    pos = position("7S 9D", "2C", loose="3C 4H")
    illegal(pos, move("capture", "7S", builds=[7], value=7), "no build of value 7")


def test_illegal_trail_while_owning_a_build_strict():
    pos = position("7S 9D", "2C", builds=[(7, "5C 2H", 0)])
    illegal(pos, move("trail", "9D"), "owns a build", "may not trail")


def test_illegal_trail_right_after_building_italian():
    pos = position("7S 9D", "2C", loose="KC", builds=[(7, "5C 2H", 0)], rules="italian", must_act=(True, False))
    illegal(pos, move("trail", "9D"), "may not trail")


@pytest.mark.parametrize("rules", ["strict", "brazilian", "italian"])
def test_illegal_keep_a_capturing_card(rules):
    pos = position("2H 9S", "3C", loose="5C", rules=rules)
    illegal(pos, move("build", "2H", "5C", value=7), "keep a card of value 7")
    pos = position("7S 9D", "3C", loose="7C", builds=[(7, "5C 2H", 0)], rules=rules)
    illegal(pos, move("capture", "7S", "7C", value=7), "keep a card of value 7")


@pytest.mark.parametrize("rules", ["strict", "brazilian", "italian"])
def test_illegal_raising_a_multiple_build(rules):
    pos = position("AS 8S", "3C", builds=[(7, "5C 2H 7D", 1)], rules=rules)
    illegal(pos, move("increase", "AS", builds=[7], value=8), "multiple", "never change")


def test_illegal_wrong_capture_value():
    pos = position("7S 9D", "2C", loose="3C 4H")
    illegal(pos, move("capture", "7S", "3C 4H", value=8), "value 7")


def test_illegal_capture_loose_cards_not_in_groups():
    pos = position("7S 9D", "2C", loose="3C 4H 2D")
    illegal(pos, move("capture", "7S", "3C 2D", value=7), "groups of 7")


def test_illegal_capture_of_nothing():
    pos = position("7S 9D", "2C", loose="3C 4H")
    illegal(pos, move("capture", "7S", value=7), "must take something")


def test_illegal_capture_of_the_wrong_build():
    pos = position("7S 8D", "2C", builds=[(8, "5C 3H", 1)])
    illegal(pos, move("capture", "7S", builds=[8], value=7), "build of 7")


def test_illegal_figure_capture_of_two():
    pos = position("KS", "2C", loose="KC KD")
    illegal(pos, move("capture", "KS", "KC KD"), "exactly one")


def test_illegal_figure_capture_of_another_rank():
    pos = position("KS", "2C", loose="QC")
    illegal(pos, move("capture", "KS", "QC"), "exactly one")


def test_illegal_wrong_build_value():
    pos = position("2H 8S 7S", "2C", loose="5C")
    illegal(pos, move("build", "2H", "5C", value=8), "groups of 8")


def test_illegal_build_value_out_of_range():
    pos = position("5H 6S", "2C", loose="6C")
    illegal(pos, move("build", "5H", "6C", value=11), "1..10")


def test_illegal_build_with_a_figure():
    pos = position("KS 7S", "2C", loose="5C")
    illegal(pos, move("build", "KS", "5C", value=7), "figure")


def test_illegal_build_from_the_card_alone():
    pos = position("7S 7D", "2C")
    illegal(pos, move("build", "7S", value=7), "at least one loose card")


def test_illegal_create_beside_an_existing_build():
    pos = position("4S 7D", "5H", loose="3C", builds=[(7, "5C 2H", 1)])
    illegal(pos, move("build", "4S", "3C", value=7), "add")


def test_illegal_add_changing_the_value():
    pos = position("3S TD 7D", "5H", builds=[(7, "5C 2H", 1)])
    illegal(pos, move("add", "3S", builds=[7], value=10))


def test_illegal_increase_with_the_wrong_result():
    pos = position("2S 8D 7D", "5H", builds=[(5, "3C 2H", 1)])
    illegal(pos, move("increase", "2S", builds=[5], value=8), "gives 7, not 8")


def test_illegal_increase_above_ten():
    pos = position("6S 9D", "5H", builds=[(5, "3C 2H", 1)])
    illegal(pos, move("increase", "6S", builds=[5], value=11), "1..10")


def test_illegal_increase_not_naming_the_merged_build():
    pos = position("2S 7S", "5H", builds=[(5, "3C 2H", 1), (7, "6D AD", 1)])
    illegal(pos, move("increase", "2S", builds=[5], value=7), "merges")


def test_illegal_trail_with_taken_cards():
    pos = position("9S", "2C", loose="3C")
    illegal(pos, Move("trail", parse_card("9S"), (parse_card("3C"),), (), None), "trail takes no cards")


def test_illegal_move_leaves_the_position_unchanged():
    pos = position("7S 9D", "2C", builds=[(7, "5C 2H", 0)])
    before = pos.to_json()
    with pytest.raises(IllegalMove):
        apply_move(pos, move("trail", "9D"))
    assert pos.to_json() == before


def test_empty_rule_set_name_is_refused_and_null_means_strict():
    from casino_sim.reference import Position, PositionError

    with pytest.raises(PositionError, match="unknown rule set"):
        Position.from_json({"rules": "", "hands": [[], []]})
    assert Position.from_json({"rules": None, "hands": [[], []]}).rules.name == "strict"
