"""Three and four players on the reference engine (docs/rules.md section 11): deal, turns, obligations, scores, game."""

import numpy as np
import pytest

from casino_sim.core.cards import DECK, format_card, parse_card
from casino_sim.core.deal import batches
from casino_sim.core.rules import get_rules
from casino_sim.reference import Position, apply_move, legal_moves
from casino_sim.reference.game import game_winner, play_game
from casino_sim.reference.round import RoundResult, deal_batch, finish_round, play_round, round_context, start_position
from casino_sim.reference.score import score_round
from casino_sim.reference.seats import dealers_fitting, turn_order
from tests.support.positions import move, names, of_kind, table

B4 = "brazilian:players=4"  # partnerships by default
I4T = "italian:players=4,teams=true"


# ---------------------------------------------------------------- deal and turns


@pytest.mark.parametrize("players,dealer", [(2, 0), (2, 1), (3, 0), (3, 2), (4, 1), (4, 3)])
def test_deal_order_the_player_after_the_dealer_first_then_the_table(players, dealer):
    deck = list(DECK)
    pos = deal_batch(
        start_position(get_rules("brazilian" if players == 2 else f"brazilian:players={players}"), dealer),
        deck,
        0,
        dealer,
    )
    order = turn_order(dealer, players)
    assert order[0] == (dealer + 1) % players and order[-1] == dealer
    for i, p in enumerate(order):
        assert pos.hands[p] == frozenset(deck[4 * i : 4 * i + 4])
    assert pos.loose == frozenset(deck[4 * players : 4 * players + 4])
    later = deal_batch(pos, deck, 1, dealer)  # the next batch: 4 each in the same order, none to the table
    for i, p in enumerate(order):
        start = 4 * players + 4 + 4 * i
        assert later.hands[p] == frozenset(deck[start : start + 4])
    assert later.loose == pos.loose


def test_two_players_deal_as_always():
    deck = list(range(52))
    pos = deal_batch(start_position(get_rules("strict"), 1), deck, 0, 1)
    assert pos.hands[0] == frozenset(range(4)) and pos.hands[1] == frozenset(range(4, 8))  # non-dealer, dealer
    assert pos.loose == frozenset(range(8, 12))
    assert pos.dealer is None and len(pos.hands) == 2


@pytest.mark.parametrize("players,expected", [(2, 6), (3, 4), (4, 3)])
def test_batches_and_plies(players, expected):
    assert batches(players) == expected
    rules = get_rules("strict" if players == 2 else f"italian:players={players}")
    movers = []
    result = play_round(rules, list(DECK), players - 1, lambda pos, moves: movers.append(pos.to_move) or moves[-1])
    assert len(result.moves) == 48 == len(movers)
    assert [e.batch for e in result.events if e.kind == "deal"] == list(range(expected))
    assert movers == [i % players for i in range(48)]  # dealer n-1: player 0 first, turns in order


def test_dealer_passes_to_the_next_player_and_stays_after_a_void_round():
    rules = get_rules("italian:players=3")
    rng = np.random.default_rng(4)
    game = play_game(rules, rng, [lambda pos, moves: moves[int(rng.integers(len(moves)))]] * 3)
    dealers = [r.dealer for r in game.rounds]
    for before, after, rnd in zip(dealers, dealers[1:], game.rounds):
        assert after == (before if rnd.void else (before + 1) % 3)
    assert game.winner is not None and len(game.totals) == 3


def test_a_void_round_is_dealt_again_by_the_same_dealer(monkeypatch):
    import casino_sim.reference.game as game_module

    real, dealt = game_module.play_round, []

    def void_first(rules, deck, dealer, choose):
        dealt.append(dealer)
        if len(dealt) == 1:  # the first round: nobody captures
            return finish_round(RoundResult(dealer=dealer), start_position(rules, dealer))
        return real(rules, deck, dealer, choose)

    monkeypatch.setattr(game_module, "play_round", void_first)
    rng = np.random.default_rng(3)
    game = play_game(get_rules(B4), rng, [lambda pos, moves: moves[int(rng.integers(len(moves)))]] * 4)
    assert game.rounds[0].void and game.rounds[0].score.totals == (0, 0)
    assert dealt[1] == dealt[0] and dealt[2] == (dealt[1] + 1) % 4


# ---------------------------------------------------------------- the italian obligation


def bound_after_building(rules: str, loose: str, hands=("7D 9C", "4H 6D TS", "7H QS 5D", "3D 8H AS")):
    """A (player 0, first to play) has just built 7 on 5C and holds a 7; B is to move; A is bound."""
    return table(
        rules, list(hands), loose=loose, builds=[(7, "5C 2H", 0)], to_move=1, must_act=[True] + [False] * 3, dealer=3
    )


def test_italian_obligation_survives_a_partners_capture_and_ends_with_an_opponents():
    pos = bound_after_building(I4T, "8D 4C")
    pos = apply_move(pos, move("trail", "TS"))
    assert pos.must_act[0]  # an opponent's trail: still bound
    pos = apply_move(pos, move("capture", "7H", builds=[7], value=7))  # C, the partner, takes the build
    assert pos.must_act[0]  # a partner's capture frees nobody
    freed = apply_move(pos, move("capture", "8H", "8D", value=8))  # D, an opponent, captures
    assert not freed.must_act[0]
    still = apply_move(pos, move("trail", "3D"))
    assert still.to_move == 0 and still.must_act[0]
    assert of_kind(legal_moves(still), "trail") == []  # 7D can take 4C 3D: A may not trail
    assert not apply_move(bound_after_building(I4T, "8D 4C"), move("capture", "4H", "4C", value=4)).must_act[0]


def test_italian_partner_took_the_build_and_left_no_play_so_the_builder_may_trail():
    hands = ("7D KC", "TS 6D 2D", "7H QS 5D", "8H 3D AS")
    pos = bound_after_building(I4T, "TH JH", hands)
    pos = apply_move(pos, move("trail", "TS"))
    pos = apply_move(pos, move("capture", "7H", builds=[7], value=7))  # the partner takes A's build
    pos = apply_move(pos, move("trail", "8H"))
    assert pos.to_move == 0 and pos.must_act[0]
    # 7D and KC can neither capture nor build on TH JH TS 8H: the obligation leaves no play, so A may trail
    legal = legal_moves(pos)
    assert {m.kind for m in legal} == {"trail"} and len(legal) == 2
    assert apply_move(pos, move("trail", "KC")).loose >= {parse_card("KC")}


def test_italian_builder_bound_while_a_capture_is_possible():
    pos = table(
        I4T,
        ["9C 4C", "6D 2D", "QS 5D", "3D 8H"],
        loose="8D 4H",
        to_move=0,
        must_act=[True, False, False, False],
        dealer=3,
        captured=["", "", "", ""],
    )
    legal = legal_moves(pos)
    assert of_kind(legal, "trail") == []
    assert move("capture", "4C", "4H", value=4) in legal


def test_italian_individual_four_any_other_player_frees_the_builder():
    pos = bound_after_building("italian:players=4", "8D 4C")
    assert not apply_move(pos, move("capture", "4H", "4C", value=4)).must_act[0]
    assert apply_move(pos, move("trail", "4H")).must_act[0]
    assert not apply_move(pos, move("build", "6D", "4C", value=10)).must_act[0]  # B builds: A is free


# ---------------------------------------------------------------- scores


def piles_of(*groups: list[str]) -> tuple[frozenset[int], ...]:
    return tuple(frozenset(parse_card(t) for t in g) for g in groups)


def split(counts: list[int]) -> tuple[frozenset[int], ...]:
    """The deck in canonical order cut into piles of these sizes (a rank's four suits stay together)."""
    cards = [format_card(c) for c in DECK]
    out, at = [], 0
    for n in counts:
        out.append(cards[at : at + n])
        at += n
    return piles_of(*out)


def test_brazilian_teams_count_partners_piles_together():
    piles = split([14, 12, 14, 12])  # team 0: 28 cards, team 1: 24
    score = score_round(get_rules(B4), piles, (0, 0, 0, 0))
    assert len(score.points) == 2
    assert score.points[0]["cards"] == 3 and score.points[1]["cards"] == 0
    assert sum(score.totals) == 3 + 1 + 4 + 2 + 1  # no sweep points in brazilian


def test_brazilian_teams_tie_for_most_cards_gives_nobody():
    score = score_round(get_rules(B4), split([13, 13, 13, 13]), (2, 0, 0, 1))
    assert score.points[0]["cards"] == score.points[1]["cards"] == 0
    assert sum(p["sweeps"] for p in score.points) == 0


def test_brazilian_three_players_strictly_the_most_and_a_tie_gives_nobody():
    rules = get_rules("brazilian:players=3")
    score = score_round(rules, split([20, 16, 16]), (0, 0, 0))
    assert [p["cards"] for p in score.points] == [3, 0, 0]  # 20 is the most, though short of 27
    tie = score_round(rules, split([20, 20, 12]), (0, 0, 0))
    assert [p["cards"] for p in tie.points] == [0, 0, 0]


def test_brazilian_spades_tie_among_three():
    # 13 spades as 5, 5, 3: the most is shared, nobody takes the point
    spades = [t for t in (format_card(c) for c in DECK) if t[1] == "S"]
    others = [t for t in (format_card(c) for c in DECK) if t[1] != "S"]
    piles = piles_of(spades[:5] + others[:13], spades[5:10] + others[13:26], spades[10:] + others[26:])
    score = score_round(get_rules("brazilian:players=3"), piles, (0, 0, 0))
    assert [p["spades"] for p in score.points] == [0, 0, 0]


def test_italian_individual_thresholds():
    rules = get_rules("italian:players=4")
    score = score_round(rules, split([20, 12, 10, 10]), (1, 0, 2, 0))
    assert [p["cards"] for p in score.points] == [0, 0, 0, 0]  # the most, but short of 27
    assert [p["sweeps"] for p in score.points] == [1, 0, 2, 0]
    score = score_round(rules, split([27, 9, 8, 8]), (0, 0, 0, 0))
    assert [p["cards"] for p in score.points] == [3, 0, 0, 0]


def test_italian_teams_threshold_on_the_team_and_sweeps_add_up():
    score = score_round(get_rules(I4T), split([14, 13, 13, 12]), (1, 0, 2, 1))
    assert score.points[0]["cards"] == 3  # 27 together
    assert score.points[0]["sweeps"] == 3 and score.points[1]["sweeps"] == 1


def test_aces_and_casinos_go_to_whoever_holds_them():
    piles = piles_of(["AS", "AH"], ["TD"], ["2S", "AD"], ["AC"])
    score = score_round(get_rules("brazilian:players=4,teams=false"), piles, (0, 0, 0, 0))
    assert [p["aces"] for p in score.points] == [2, 0, 1, 1]
    assert score.points[1]["ten_diamonds"] == 2 and score.points[2]["two_spades"] == 1


# ---------------------------------------------------------------- game


@pytest.mark.parametrize(
    "rules,totals,points,winner",
    [
        ("italian:players=3", [22, 22, 10], [5, 5, 2], None),  # the highest total shared: another round
        ("italian:players=3", [22, 21, 10], [5, 4, 2], 0),
        ("italian:players=3", [15, 20, 10], [5, 4, 2], None),  # nobody at the target
        ("italian:players=4", [12, 25, 25, 30], [1, 2, 3, 4], 3),  # the single highest wins
        ("brazilian:players=4,round_win_points=6", [6, 5], [6, 5], 0),  # 6 in one round wins at once
        ("brazilian:players=3,target=31", [25, 30, 12], [3, 4, 4], None),
    ],
)
def test_game_winner_with_many_sides(rules, totals, points, winner):
    assert game_winner(get_rules(rules), totals, points) == winner


def test_a_whole_team_game_keeps_team_totals():
    rules = get_rules(B4)
    rng = np.random.default_rng(11)
    game = play_game(rules, rng, [lambda pos, moves: moves[int(rng.integers(len(moves)))]] * 4)
    assert len(game.totals) == 2 and max(game.totals) >= 21
    assert game.totals[game.winner] == max(game.totals) and game.totals.count(max(game.totals)) == 1
    assert game.totals == [sum(r.score.totals[s] for r in game.rounds) for s in (0, 1)]


# ---------------------------------------------------------------- positions


FOUR = {
    "rules": B4,
    "to_move": 2,
    "hands": [["7D", "7S", "9C"], ["4H", "6D", "TS"], ["7H", "4C", "QS", "5D"], ["3D", "8H", "AS", "2S"]],
    "loose": ["8D", "3S", "4D", "KC"],
    "builds": [{"value": 7, "cards": ["5C", "2H"], "owner": 0}],
}


def test_four_player_position_reads_the_dealer_and_round_trips():
    pos = Position.from_json(FOUR)
    assert pos.dealer == 3 and pos.players == 4
    again = Position.from_json(pos.to_json())
    assert again == pos and pos.to_json()["dealer"] == 3
    assert round_context(pos) == (4, 3, 2)  # the next player holds 4; dealer 3; two plays made
    moves = legal_moves(pos)
    assert move("capture", "7H", builds=[7], value=7) in moves  # a partner's build may be taken
    assert move("capture", "4C", "3S", value=4) not in moves  # 3S is not 4
    after = apply_move(pos, move("capture", "7H", "3S 4D", builds=[7], value=7))
    assert after.to_move == 3 and names(after.captured[2]) == {"7H", "3S", "4D", "5C", "2H"}
    assert after.last_capturer == 2 and after.dealer == 3


def test_three_player_position_with_all_hands_equal_reads_the_dealer_before_the_mover():
    obj = {"rules": "italian:players=3", "to_move": 1, "hands": [["AS"], ["2S"], ["3S"]], "loose": ["4S"]}
    pos = Position.from_json(obj)
    assert pos.dealer == 0 and Position.from_json(pos.to_json()) == pos


def test_hidden_hands_need_the_dealer_when_it_cannot_be_read():
    obj = {**FOUR, "hands": [None, None, FOUR["hands"][2], None]}
    with pytest.raises(Exception, match='give "dealer"'):
        Position.from_json(obj)
    pos = Position.from_json({**obj, "dealer": 3})
    assert pos.dealer == 3
    assert round_context(pos) == (4, 3, 2)


def test_dealers_fitting():
    assert dealers_fitting([3, 3, 4, 4], 2) == [3]
    assert dealers_fitting([2, 2, 2], 0) == [2]
    assert dealers_fitting([4, 3, 4], 0) == []


@pytest.mark.parametrize(
    "change,fragment",
    [
        (
            {"hands": FOUR["hands"][:3]},
            "hands must be a list of 4 entries, one per player of brazilian:players=4, got 3",
        ),
        ({"captured": [[], []]}, "captured must be a list of 4 entries"),
        ({"sweeps": [0, 0, 0]}, "sweeps must be a list of 4 entries"),
        ({"must_act": [False] * 5}, "must_act must be a list of 4 entries"),
        ({"rules": "brazilian:players=3"}, "hands must be a list of 3 entries"),
        ({"dealer": 1}, "dealer 1 contradicts the hand sizes [3, 3, 4, 4] with player 2 to move"),
        ({"dealer": 4}, "dealer must be a player 0..3"),
        ({"to_move": 0}, "cannot be a deal of 4 players"),
        ({"to_move": 4}, "to_move must be a player 0..3"),
        (
            {"hands": [["7D", "7S", "9C"], ["4H"], ["7H", "4C", "QS", "5D"], ["3D", "8H", "AS", "2S"]]},
            "cannot be a deal",
        ),
        ({"builds": [{"value": 7, "cards": ["5C", "2H"], "owner": 5}]}, "builds[0].owner must be a player 0..3"),
        ({"last_capturer": 7}, "last_capturer must be a player 0..3"),
        ({"sweeps": [0, 0, -1, 0]}, "sweeps must be 4 counts"),
    ],
)
def test_bad_many_player_positions_say_what_is_wrong(change, fragment):
    from casino_sim.reference import PositionError

    with pytest.raises(PositionError) as err:
        Position.from_json({**FOUR, **change})
    assert fragment in str(err.value) and "\n" not in str(err.value)


def test_two_player_positions_keep_their_form():
    obj = {"hands": [["7D"], ["8D", "9D"]], "loose": ["7S"]}  # no deal shape is asked of two players
    pos = Position.from_json(obj)
    assert pos.dealer is None and "dealer" not in pos.to_json()


def test_round_context_refuses_card_counts_no_deal_of_four_reaches():
    from casino_sim.reference import PositionError

    pos = Position.from_json({**FOUR, "loose": ["8D", "3S"]})  # two plays made, but only 4 cards out
    with pytest.raises(PositionError, match="cannot arise in a round: with player 2 to move holding 4 cards"):
        round_context(pos)
