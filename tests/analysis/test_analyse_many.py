"""The analyser with three and four players: every hidden hand sampled, the margin of a team or of the best other
player, and no exact column (the last batch's hidden split is unknown), said in the output."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from casino_sim.analysis import analyse, analysis_json
from casino_sim.analysis.analyse import margin_words
from casino_sim.core.cards import parse_card as C
from casino_sim.core.deal import HAND_SIZE
from casino_sim.core.rules import get_rules
from casino_sim.reference import Position, legal_moves, play
from casino_sim.reference.round import RoundResult, deal_batch, finish_round, start_position
from casino_sim.reference.seats import sides
from tests.support.cli import assert_one_line_error, run
from tests.support.policies import get_policy
from tests.support.positions import table

GREEDY = get_policy("greedy")
MANY = ["brazilian:players=3", "brazilian:players=4", "italian:players=4", "italian:players=3"]


def played_to(seed: int, ply: int, rules: str) -> Position:
    """The position after `ply` random plays of a seeded deal of rules.players players (every hand known)."""
    rs = get_rules(rules)
    n = rs.players
    rng = np.random.default_rng(seed)
    dealer, deck = int(rng.integers(n)), [int(c) for c in rng.permutation(52)]
    pos = start_position(rs, dealer)
    for k in range(ply + 1):
        if not any(pos.hands):
            pos = deal_batch(pos, deck, k // (HAND_SIZE * n), dealer)
        if k == ply:
            return pos
        moves = legal_moves(pos)
        pos = play(pos, moves[int(rng.integers(len(moves)))])


def seen_by_mover(pos: Position) -> Position:
    return replace(pos, hands=tuple(h if q == pos.to_move else None for q, h in enumerate(pos.hands)))


def margin(pos: Position, me: int) -> int:
    """docs/rules.md section 11 by hand: the mover's side's round points less the other side's (teams), or less the best
    other player's (alone), from the reference engine's score of the finished round."""
    totals = finish_round(RoundResult(dealer=0), pos).score.totals
    if pos.rules.teams:
        mine = next(i for i, side in enumerate(sides(pos.rules, pos.players)) if me in side)
        return totals[mine] - totals[1 - mine]
    return totals[me] - max(t for q, t in enumerate(totals) if q != me)


@pytest.mark.parametrize("rules", MANY)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_last_play_is_valued_at_the_rounds_margin(rules, seed):
    # the last play of the round: every other hand is empty, so every world is the same and the estimate is exact
    pos = played_to(seed, 47, rules)
    a = analyse(seen_by_mover(pos), GREEDY, worlds=5, seed=0)
    assert {m.move for m in a.moves} == set(legal_moves(pos))
    for m in a.moves:
        assert m.mean == pytest.approx(margin(play(pos, m.move), pos.to_move))
        assert m.low == pytest.approx(m.mean) == pytest.approx(m.high)
    assert not a.has_exact and "no exact column" in a.exact_note


@pytest.mark.parametrize("rules", MANY)
def test_the_exact_note_only_in_the_last_batch(rules):
    n = get_rules(rules).players
    last_batch = 48 - HAND_SIZE * n
    before, inside = (
        analyse(seen_by_mover(played_to(3, ply, rules)), GREEDY, 4, 0) for ply in (last_batch - 1, last_batch)
    )
    assert before.exact_note is None and "exact_note" not in analysis_json(before)
    assert "hidden" not in json.dumps(analysis_json(before))
    data = analysis_json(inside)
    assert data["exact"] is False and "hidden split is unknown" in data["exact_note"]
    assert all(m["exact"] is None for m in data["moves"])


def test_known_hands_are_kept():
    # A leads; B plays next. Trailing the 10♦ gives it to a B holding tens, not to a B holding none.
    hands = ["TD KH 3C 8D", "TS TH TC 2S", "5H 6H 7H 9H"]
    loose = "QC JS 5C 9C"
    tens = table("brazilian:players=3", hands, loose, dealer=2)
    no_tens = table("brazilian:players=3", [hands[0], "2S 2H 4D 6D", hands[2]], loose, dealer=2)

    def trail_big(pos):
        a = analyse(pos, get_policy("expert"), worlds=200, seed=3)
        return next(m for m in a.moves if m.move.kind == "trail" and m.move.card == C("TD"))

    assert trail_big(tens).high < trail_big(no_tens).low


def test_what_the_margin_is_in_words():
    four = table("brazilian:players=4", ["2C 3C", "4C 5C", "6C 7C", "8C 9C"], "KD", to_move=1, dealer=0)
    assert margin_words(four) == "B+D's points minus A+C's"
    alone = table("italian:players=3", ["2C 3C", "4C 5C", "6C 7C"], "KD", to_move=1, dealer=0)
    assert margin_words(alone) == "B's points minus the best other player's"


def test_the_analyse_command_with_four_players():
    pos = seen_by_mover(played_to(5, 41, "brazilian:players=4"))  # the last batch (from play 32)
    text = run("analyse", "-", "--worlds", "20", stdin=json.dumps(pos.to_json()))
    assert text.returncode == 0, text.stderr
    names = "A+C's points minus B+D's" if pos.to_move % 2 == 0 else "B+D's points minus A+C's"
    assert names in text.stdout and "no exact column" in text.stdout and "exact (best play)" not in text.stdout
    for m in legal_moves(pos):
        assert m.describe(pos.to_move) in text.stdout


def test_a_many_player_position_no_deal_reaches_is_one_line():
    pos = played_to(5, 10, "italian:players=3")
    bad = seen_by_mover(pos).to_json()
    bad["loose"] = bad["loose"][:-1]  # one card fewer on the table than the plays so far leave there
    assert_one_line_error(run("analyse", "-", stdin=json.dumps(bad)), "cannot arise")
