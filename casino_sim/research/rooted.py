"""A round entered at a position, as the player to move sees it: a world drawn from what they have seen, as a
GameState the research adapters can search from (the IS-MCTS policy, docs/research.md).

A policy is given a position, not the round's story, so the state starts there: the hidden cards (the other hands
and the stock) are dealt at random as the rollout policy deals its worlds (kernels/rollout.py), each other hand
keeping its size and every other owner of a build holding a card of its value (the keep-a-capturing-card rule
tells the mover so). The plays before the position are unknown to the state: only their number is kept, so the
batches, the deal of the stock and the end of the round come when they should. Its views hold no story (use the
observation, not the information state); its worlds are drawn again from the position with `draw_world`.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from casino_sim.core.cards import N_CARDS, value_of
from casino_sim.reference.position import Position
from casino_sim.reference.round import round_context
from casino_sim.reference.seats import expected_sizes, turn_order
from casino_sim.research.game_state import GameState
from casino_sim.research.resample import ATTEMPTS
from casino_sim.research.round_state import RoundState

UNKNOWN_PLAY = (None, None)  # a play made before the position: who made it and what it was are not kept


def draw_world(seen: Position, rng: np.random.Generator) -> tuple[Position, list[int]]:
    """(the position with every hand dealt, the stock) drawn uniformly from the worlds the player to move cannot
    tell from `seen`; only the mover's hand and what lies on the table and in the piles are read."""
    p, n = seen.to_move, seen.players
    seen = seen.seen_by(p)
    _, dealer, _ = round_context(seen)
    sizes = expected_sizes(dealer, p, n, len(seen.hands[p]))
    unseen = sorted(set(range(N_CARDS)) - set(seen.all_cards()))
    others = [q for q in turn_order(p, n) if q != p]
    for _ in range(ATTEMPTS):
        cards = [int(c) for c in rng.permutation(unseen)]
        hands, k = list(seen.hands), 0
        for q in others:
            hands[q], k = frozenset(cards[k : k + sizes[q]]), k + sizes[q]
        if all(b.owner == p or any(value_of(c) == b.value for c in hands[b.owner]) for b in seen.builds):
            return replace(seen, hands=tuple(hands)), sorted(cards[k:])
    raise RuntimeError(f"no world where every owner holds a card of their build in {ATTEMPTS} draws")


def rooted_state(
    seen: Position, rng: np.random.Generator, engine: str = "reference", encoding: str = "factored"
) -> GameState:
    """A one-round GameState at a world drawn from `seen` (draw_world), its stock still to deal as chance nodes."""
    _, dealer, ply = round_context(seen.seen_by(seen.to_move))
    world, stock = draw_world(seen, rng)
    state = GameState(world.rules, whole_game=False, engine=engine, encoding=encoding)
    r = state.round = RoundState(world.rules, dealer, engine)
    r.position = world
    in_stock = set(stock)
    r.dealt = [c for c in range(N_CARDS) if c not in in_stock]  # the order of cards dealt is not kept either
    r.plays = [UNKNOWN_PLAY] * ply
    return state
