"""The one list of invariants: the numba check and the Python checker name the same breaks, position by position."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from casino_sim.core.cards import is_figure, value_of
from casino_sim.core.invariants import BY_NAME, INVARIANTS
from casino_sim.core.rules import RULESETS
from casino_sim.kernels.check import CHECK_REASONS, position_code
from casino_sim.reference.invariants import CHECKS, check_invariants
from casino_sim.reference.position import Build
from casino_sim.reference.round import play_round
from casino_sim.reference.score import Score
from tests.support.rounds import reached_positions


def test_both_checkers_cover_the_one_list():
    assert list(CHECKS) == [inv.name for inv in INVARIANTS]
    assert CHECK_REASONS == {inv.code: inv.broken for inv in INVARIANTS}
    codes = [inv.code for inv in INVARIANTS]
    assert len(set(codes)) == len(codes) and min(codes) > 3  # clear of the play-out statuses 1..3


def _with(pos, p: int, field: str, cards) -> object:
    """pos with player p's hand or pile replaced."""
    pair = list(getattr(pos, field))
    pair[p] = frozenset(cards)
    return replace(pos, **{field: tuple(pair)})


def _with_build(pos, old: Build, new: Build | None, loose) -> object:
    builds = tuple(sorted((b for b in [*pos.builds, new] if b is not None and b != old), key=lambda b: b.value))
    return replace(pos, builds=builds, loose=frozenset(loose))


def corruptions(pos, deck, rng: random.Random):
    """Positions a little off `pos`: a card lost, doubled or from the stock, a build malformed or its owner bare."""
    p = pos.to_move
    hand, stock = sorted(pos.hands[p]), [int(c) for c in deck[len(pos.all_cards()) :]]
    yield _with(pos, p, "hands", hand[1:])  # a card lost
    yield _with(pos, p, "captured", pos.captured[p] | {hand[0]})  # a card in a hand and a pile
    if stock:
        yield replace(pos, loose=pos.loose | {rng.choice(stock)})  # a stock card on the table too
        yield _with(pos, p, "hands", [*hand[1:], stock[0]])  # a dealt card swapped for one of the stock
    for b in pos.builds:
        total = sum(map(value_of, b.cards))
        figures = [c for c in pos.loose if is_figure(c)]
        odd = [c for c in pos.loose if not is_figure(c) and (total + value_of(c)) % b.value]
        if figures:
            yield _with_build(pos, b, replace(b, cards=b.cards | {figures[0]}), pos.loose - {figures[0]})
        if odd:  # the numba check tests a build's sum: a sum that is no multiple of the value
            yield _with_build(pos, b, replace(b, cards=b.cards | {odd[0]}), pos.loose - {odd[0]})
        one = min(b.cards)
        yield _with_build(pos, b, replace(b, cards=frozenset({one})), pos.loose | (b.cards - {one}))
        other = (b.owner + 1) % pos.players
        if b.value not in map(value_of, pos.hands[other]):
            yield _with_build(pos, b, replace(b, owner=other), pos.loose)


def _agree(pos, deck, score=None) -> str | None:
    """Both checkers' verdict, asserted equal: the name of the first invariant broken, or None."""
    names = check_invariants(pos, deck, score)
    code = position_code(pos, deck, score)
    assert code == (BY_NAME[names[0]].code if names else 0), (names, code, pos.to_json())
    return names[0] if names else None


@pytest.mark.parametrize("rules", list(RULESETS))
def test_both_checkers_agree_on_reached_positions_and_their_corruptions(rules):
    rng, hit = random.Random(3), set()
    for pos, _, deck in reached_positions(rules)[0][::5]:
        assert _agree(pos, deck) is None
        hit.update(_agree(bad, deck) for bad in corruptions(pos, deck, rng))
    assert hit == {"cards", "builds", "owners"}


@pytest.mark.parametrize("rules", list(RULESETS))
def test_both_checkers_agree_on_the_end_of_rounds(rules):
    """The final position with its score: all 52 cards in the piles, and points that add up."""
    rng, hit = np.random.default_rng(8), set()
    for _ in range(10):
        deck = rng.permutation(52)
        result = play_round(
            RULESETS[rules], deck, int(rng.integers(2)), lambda pos, moves: moves[rng.integers(len(moves))]
        )
        if result.void:
            continue
        final, score = result.final, result.score
        assert _agree(final, deck, score) is None
        more = Score((score.points[0], {**score.points[1], "aces": score.points[1]["aces"] + 1}))
        hit.add(_agree(final, deck, more))
        card = min(final.captured[0])
        hit.add(_agree(_with(_with(final, 0, "captured", final.captured[0] - {card}), 0, "hands", [card]), deck, score))
    assert hit == {"cards", "points"}
