"""docs/rules.md section 9, the worked example of the rule texts, move by move.

Table 5♣ 8♦. A (player 0) plays 2♥ on 5♣ and announces 7, holding 7♦ and 7♠.
B trails K♣. A adds 7♦: the build is (5♣+2♥)+(7♦). B trails 3♣. A plays 7♠
and captures the 4 cards; 8♦ K♣ 3♣ remain: no sweep. A could not announce 14,
nor change the value of the multiple build.

A also holds A♦ and 8♠ so that "cannot change the value of the multiple build"
is tested against a card that *would* raise a simple build of 7 to 8 (the 8♠
keeps a capturing card for the 8).
"""

import pytest

from casino_sim.reference import IllegalMove, apply_move, check_move, legal_moves
from tests.support.positions import build_of, card, move, names, position

RULE_SETS = ["strict", "brazilian", "italian"]


def start(rules):
    return position("2H 7D 7S AD 8S", "KC 3C 9S 4H", loose="5C 8D", rules=rules)


def play_line(rules):
    """The five plays of the example, checking each is listed as legal before applying it."""
    pos = start(rules)
    line = [
        move("build", "2H", "5C", value=7),
        move("trail", "KC"),
        move("add", "7D", builds=[7], value=7),
        move("trail", "3C"),
        move("capture", "7S", builds=[7], value=7),
    ]
    positions = [pos]
    for m in line:
        assert m in legal_moves(pos), f"{m} should be legal in {pos.to_json()}"
        pos = apply_move(pos, m)
        positions.append(pos)
    return positions


@pytest.mark.parametrize("rules", RULE_SETS)
def test_s8_step1_a_builds_seven_on_five(rules):
    _, p1, *_ = play_line(rules)
    b = build_of(p1, 7)
    assert names(b.cards) == {"5C", "2H"}
    assert b.owner == 0
    assert b.is_simple
    assert names(p1.loose) == {"8D"}
    assert names(p1.hands[0]) == {"7D", "7S", "AD", "8S"}
    assert p1.to_move == 1


@pytest.mark.parametrize("rules", RULE_SETS)
def test_s8_step2_b_trails_king(rules):
    _, _, p2, *_ = play_line(rules)
    assert names(p2.loose) == {"8D", "KC"}
    assert build_of(p2, 7).owner == 0  # a trail does not touch the build
    assert p2.to_move == 0


@pytest.mark.parametrize("rules", RULE_SETS)
def test_s8_step3_a_adds_seven_making_a_multiple_build(rules):
    _, _, p2, p3, *_ = play_line(rules)
    b = build_of(p3, 7)
    assert names(b.cards) == {"5C", "2H", "7D"}
    assert b.value == 7
    assert not b.is_simple  # (5+2)+(7): two groups
    assert b.owner == 0
    assert len(p3.builds) == 1
    assert names(p3.hands[0]) == {"7S", "AD", "8S"}


@pytest.mark.parametrize("rules", RULE_SETS)
def test_s8_step5_a_captures_the_four_cards_no_sweep(rules):
    *_, p4, p5 = play_line(rules)
    assert names(p4.loose) == {"8D", "KC", "3C"}
    assert names(p5.captured[0]) == {"5C", "2H", "7D", "7S"}
    assert len(p5.captured[0]) == 4
    assert p5.captured[1] == frozenset()
    assert names(p5.loose) == {"8D", "KC", "3C"}
    assert p5.builds == ()
    assert p5.sweeps == (0, 0)
    assert p5.last_capturer == 0


@pytest.mark.parametrize("rules", RULE_SETS)
def test_s8_fourteen_cannot_be_announced(rules):
    _, _, p2, *_ = play_line(rules)
    # A holds 7D with a build of 7 on the table: 7 + 7 = 14 is no value.
    for m in legal_moves(p2):
        assert m.value is None or 1 <= m.value <= 10
    fourteen = move("increase", "7D", builds=[7], value=14)
    reason = check_move(p2, fourteen)
    assert reason is not None and "1..10" in reason
    with pytest.raises(IllegalMove):
        apply_move(p2, fourteen)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_s8_build_was_raisable_while_simple(rules):
    """Control for the next test: A♦ on the simple 7 gives a legal increase to 8."""
    _, _, p2, *_ = play_line(rules)
    assert move("increase", "AD", builds=[7], value=8) in legal_moves(p2)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_s8_multiple_build_cannot_change_value(rules):
    *_, p3, p4, _ = play_line(rules)
    # B to move at p3 holds 3C 9S 4H: 7+3 would be 10 if the build were simple.
    assert not [m for m in legal_moves(p3) if m.kind == "increase"]
    reason = check_move(p3, move("increase", "3C", builds=[7], value=10))
    assert reason is not None and "multiple" in reason
    # A at p4 holds A♦ and 8♠: no raise of the multiple 7 to 8.
    assert not [m for m in legal_moves(p4) if m.kind == "increase"]
    reason = check_move(p4, move("increase", "AD", builds=[7], value=8))
    assert reason is not None and "multiple" in reason


def test_s8_strict_a_keeps_or_spends_the_seven_on_the_build():
    """Strict: A owns the build and holds one 7: the 7S is only played to take the build, no trail."""
    *_, p4, _ = play_line("strict")
    moves = legal_moves(p4)
    assert move("capture", "7S", builds=[7], value=7) in moves
    assert move("capture", "8S", loose="8D", value=8) in moves  # keeps 7S: legal
    for m in moves:
        assert m.kind != "trail"
        if m.card == card("7S"):
            assert m.kind == "capture" and m.builds == (7,)
    assert "may not trail" in check_move(p4, move("trail", "AD"))
