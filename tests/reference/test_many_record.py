"""The round record of every player count (core/record.py record_columns): seats by place, teams."""

import random

import pytest

from casino_sim.core.cards import DECK
from casino_sim.core.record import record_columns
from casino_sim.core.rules import get_rules
from casino_sim.reference.record import round_record
from casino_sim.reference.round import play_round


def test_every_player_count_names_its_columns_by_place():
    two = record_columns(2)
    assert two[:7] == ["dealer", "void", "plies", "last_capturer", "remainder", "first_seat", "first_cards"]
    assert "dealer_seat" in two and "dealer_sweeps_b6" in two and not any(c.startswith(("s0_", "s1_")) for c in two)
    assert "second_total" not in two and "first_sweeps_b7" not in two
    three = record_columns(3, False)
    assert "first_total" in three and "dealer_plays_capture" in three and "third_total" not in three
    four = record_columns(4, True)
    assert {"third_seat", "team_first_total", "team_dealer_n_spades"} <= set(four)
    assert not any(c.startswith("team_") for c in record_columns(4, False))


@pytest.mark.parametrize("rules_name,dealer", [("brazilian:players=4", 2), ("italian:players=3", 0), ("strict", 1)])
def test_the_record_reads_the_round(rules_name, dealer):
    rules = get_rules(rules_name)
    rng = random.Random(7)
    result = play_round(rules, list(DECK), dealer, lambda pos, moves: rng.choice(moves))
    rec = round_record(result)
    assert list(rec) == record_columns(rules.players, rules.teams)
    assert rec["first_seat"] == (dealer + 1) % rules.players and rec["dealer_seat"] == dealer
    last = [e.player for e in result.events if e.kind == "play" and e.move.kind == "capture"][-1]
    assert rec["last_capturer"] == last == result.final.last_capturer
    for name in ("first", "dealer"):
        seat = rec[f"{name}_seat"]
        assert rec[f"{name}_n_cards"] == len(result.final.captured[seat])
        kinds = [e.move.kind for e in result.events if e.kind == "play" and e.player == seat]
        assert rec[f"{name}_plays_trail"] == kinds.count("trail")
    if rules.teams:
        dealer_side = dealer % 2
        assert rec["team_dealer_total"] == result.score.totals[dealer_side]
        assert rec["team_first_total"] == result.score.totals[1 - dealer_side]
