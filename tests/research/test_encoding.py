"""The factored action encoding (casino_sim/research/encoding.py and choice.py): every legal move of both engines is
one action sequence and every sequence one legal move, on sampled positions and on tables piled high by always-trail
play, where the move lists run to billions; and an id means the same card, kind and value in every position."""

from __future__ import annotations

import itertools
import time

import numpy as np
import pytest

from casino_sim.core.cards import N_CARDS, is_figure, value_of
from casino_sim.core.limits import MOVE_LIMIT
from casino_sim.core.rules import get_rules
from casino_sim.engines import engine_names, get_engine
from casino_sim.reference.apply import _shape_error
from casino_sim.reference.movegen import count_legal_moves, legal_families, obligation_broken
from casino_sim.reference.moves import Move
from casino_sim.reference.play import play
from casino_sim.research import GameState, IllegalAction
from casino_sim.research.choice import Choice, Turn, settle
from casino_sim.research.encoding import (
    DONE,
    LOOSE,
    NUM_ACTIONS,
    SLOTS,
    TRAIL,
    describe,
    meaning,
    play_action,
)
from tests.research.test_core import TABLES

LISTED = 4_000  # positions with at most this many legal moves are checked against the engines' whole lists


def trail_first(legal: list[int]) -> int:
    """The always-trail policy in factored ids: the lowest card's trail, or the first action when none is legal."""
    return next((a for a in legal if a < LOOSE and a % SLOTS == TRAIL), legal[0])


def positions(name: str, choose, seed: int, every: int = 1) -> list:
    """The positions met at the player's turns of a seeded round played by `choose(legal, rng)`, every `every`-th."""
    state, rng, seen = GameState(get_rules(name)), np.random.default_rng(seed), []
    while not state.over:
        state.deal_random(rng)
        if state.over:
            break
        if state.choice is None and len(state.round.plays) % every == 0:
            seen.append(state.round.position)
        state.apply(choose(state.legal_actions(), rng))
    return seen


def sequences(pos) -> list[tuple[list[int], Move]]:
    """Every (actions asked, move) of the factored encoding at `pos`, walked through the choices as GameState
    walks them (Turn, Choice, settle)."""
    turn, out = Turn(pos), []

    def walk(x, options, actions):
        if isinstance(x, Move):
            out.append((actions, x))
            return
        assert len(options) > 1  # a step with one option is taken for the player
        for a in options:
            walk(*settle(x.after(a)), [*actions, a])

    for a in turn.legal_actions():
        walk(*settle(Choice(turn.families[a])), [a])
    return out


def random_sequence(pos, rng: np.random.Generator) -> tuple[list[int], Move]:
    """One action sequence drawn at random step by step, and its move."""
    state = Turn(pos)
    actions = [int(rng.choice(state.legal_actions()))]
    while (move := state.step(actions[-1])) is None:
        actions.append(int(rng.choice(state.legal_actions())))
    return actions, move


def assert_means(actions: list[int], move: Move) -> None:
    """The first action names the move's card, kind and value, the others its loose cards, ascending (or DONE)."""
    m = meaning(actions[0])
    assert (m.step, m.card, m.kind) == ("play", move.card, move.kind)
    assert m.value == move.value or move.kind == "trail" or (move.kind == "capture" and is_figure(move.card))
    assert m.takes_build == (move.kind == "capture" and bool(move.builds))
    named = [meaning(a).card for a in actions[1:] if a != DONE]
    assert named == sorted(named) and set(named) <= set(move.loose)


SAMPLED = [(name, seed) for seed, name in enumerate(TABLES, 1)]


@pytest.mark.parametrize("name, seed", SAMPLED)
def test_every_legal_move_is_one_sequence_and_every_sequence_one_legal_move(name, seed):
    """Random play and always-trail play (which piles the table) meet positions of every kind; where the move list
    can be written out, the sequences' moves are exactly both engines' legal moves, each once."""
    found = positions(name, lambda legal, rng: int(rng.choice(legal)), seed, every=3)
    found += positions(name, lambda legal, rng: trail_first(legal), seed, every=2)
    checked = 0
    for pos in found:
        if count_legal_moves(pos) > LISTED:
            continue
        seqs = sequences(pos)
        moves = [move for _, move in seqs]
        assert len(set(moves)) == len(moves)
        for engine in engine_names():
            assert sorted(moves, key=Move.sort_key) == get_engine(engine).legal_moves(pos), engine
        for actions, move in seqs[:: max(1, len(seqs) // 20)]:
            assert_means(actions, move)
            assert Turn(pos).actions_for(move) == actions
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("name", ["strict", "brazilian", "italian:players=3"])
def test_a_table_piled_high_is_played_in_steps_and_every_move_there_is_reachable(name):
    """Always-trail play piles the loose cards until a position has more legal moves than the engines list
    (MOVE_LIMIT); the encoding still offers its plays at once, every random sequence there is a legal move, and
    moves taken from each family, deep into its sets, are reached by their actions."""
    piled = [pos for pos in positions(name, lambda legal, rng: trail_first(legal), 3) if len(pos.loose) >= 36]
    huge = [pos for pos in piled if count_legal_moves(pos) > MOVE_LIMIT]
    assert huge
    rng = np.random.default_rng(0)
    for pos in huge[:4]:
        start = time.perf_counter()
        turn = Turn(pos)
        assert turn.legal_actions() and time.perf_counter() - start < 5  # seconds, on a loaded machine; ~0.05 s
        for _ in range(30):
            actions, move = random_sequence(pos, rng)
            # legal by apply.py's reasons (its last check lists every move, which a piled table refuses)
            assert _shape_error(pos, move) is None and obligation_broken(pos, move, play(pos, move)) is None
            assert_means(actions, move)
            assert Turn(pos).actions_for(move) == actions
        for family in legal_families(pos):
            deep = int(rng.integers(0, 5000))
            for move in itertools.islice(family.moves(), deep, deep + 2):
                actions = Turn(pos).actions_for(move)
                replayed = Turn(pos)
                assert [replayed.step(a) for a in actions][-1] == move


def test_a_move_that_is_not_legal_has_no_actions():
    pos = positions("strict", lambda legal, rng: int(rng.choice(legal)), 5)[6]
    turn = Turn(pos)
    hand = sorted(pos.hands[pos.to_move])
    absent = next(c for c in range(N_CARDS) if c not in hand and not is_figure(c))
    with pytest.raises(IllegalAction, match="is not a legal move here"):
        turn.actions_for(Move("trail", absent))
    with pytest.raises(IllegalAction, match=r"^action 1768 is not legal here \(legal: \d+"):
        turn.step(DONE)


def test_an_id_means_the_same_card_kind_and_value_everywhere():
    """Each id of a play names one (card, kind, value, takes the build); play_action gives it back; the last 53 are
    the loose cards and DONE. The words follow the id alone."""
    assert NUM_ACTIONS == 52 * 33 + 52 + 1 == 1769
    plays = 0
    for action in range(LOOSE):
        m = meaning(action)
        builds = (m.value,) if m.takes_build or m.kind == "add" else ()
        if m.kind == "increase":
            builds = (m.value - value_of(m.card),)
        possible = m.kind == "trail" or m.kind == "capture" and not (is_figure(m.card) and m.takes_build)
        possible |= m.kind in ("build", "increase", "add") and not is_figure(m.card) and m.value >= value_of(m.card)
        possible &= m.kind != "increase" or m.value > value_of(m.card)
        if possible:
            assert play_action(m.kind, m.card, builds, m.value) == action
            plays += 1
    assert plays == 52 + 12 + 40 * 2 + sum(11 - value_of(c) for c in range(40)) * 2 + sum(
        10 - value_of(c) for c in range(40)
    )
    assert [meaning(LOOSE + c).card for c in range(N_CARDS)] == list(range(N_CARDS))
    assert meaning(DONE).step == "done"
    assert describe(0, play_action("build", 27, (), 9)) == "A plays 7♣ and builds 9"
    assert describe(1, LOOSE + 8) == "B names 3♠" and describe(2, DONE) == "C names no more loose cards"
    with pytest.raises(ValueError, match="is not an id of the encoding"):
        meaning(NUM_ACTIONS)
