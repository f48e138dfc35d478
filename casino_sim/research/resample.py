"""Worlds a player cannot tell from the real one: the cards they have not seen dealt again, consistently with every
play they saw (what OpenSpiel's resample_from_infostate and IS-MCTS need).

As the rollout policy's worlds do (kernels/rollout.py), the unseen cards (the other hands and the stock) are
shuffled into the other players' hands, each keeping its size. Earlier batches are fully seen (every card dealt
in them was played), so only the current batch's hidden cards move: the cards another player has played this
batch stay in their hand as dealt. The round is then replayed action by action on the engine, and a world in which
some play of the batch would be illegal (a build its maker could not capture, a card kept for a build) is drawn
again, so every world is uniform among those consistent with what the player saw.
"""

from __future__ import annotations

import numpy as np

from casino_sim.core.cards import N_CARDS
from casino_sim.reference.round import deal_end, hand_slots
from casino_sim.research.game_state import GameState
from casino_sim.research.round_state import IllegalAction, RoundState

ATTEMPTS = 100_000  # draws before giving up on a world consistent with the plays (never reached in play)


def hidden_slots(r: RoundState, player: int) -> list[int]:
    """The deck positions of the cards dealt so far that `player` has not seen: the other players' unplayed cards
    of the current batch (and every card of a batch whose deal is not complete)."""
    b, n = r.batch, r.players
    first = 0 if b == 0 else deal_end(n, b - 1)
    if len(r.dealt) < deal_end(n, b):
        return list(range(first, len(r.dealt)))
    played = {move.card for _, move in r.plays}
    return [i for q in range(n) if q != player for i in hand_slots(n, r.dealer, b, q) if r.dealt[i] not in played]


def resample(state: GameState, player: int, rng: np.random.Generator) -> GameState:
    """A state with the same information state for `player`, drawn uniformly from those the plays allow."""
    r = state.round
    slots = hidden_slots(r, player)
    if not slots:
        return state.clone()
    hidden = {r.dealt[i] for i in slots}
    pool = np.array([c for c in range(N_CARDS) if c not in r.dealt or c in hidden])
    for _ in range(ATTEMPTS):
        deck = list(r.dealt)
        for i, card in zip(slots, rng.choice(pool, size=len(slots), replace=False)):
            deck[i] = int(card)
        world = replay_round(state, deck)
        if world is not None:
            return world
    raise RuntimeError(f"no world consistent with the plays in {ATTEMPTS} draws")


def replay_round(state: GameState, deck: list[int]) -> GameState | None:
    """`state` with its current round dealt from `deck` (the cards dealt so far, in deal order) and its actions taken
    again, or None when one of them is not legal there. A factored action means the same in every position, so it
    is taken as it is (a play being chosen too); a legal-move index is taken as the index of the same move there."""
    r = state.round
    world = state.clone()
    world.round = RoundState(state.rules, r.dealer, state.engine)
    world.actions, world.movers = state.actions[: state.round_start], state.movers[: state.round_start]
    world._turn, world.turn_start = None, state.round_start
    plays = iter(r.plays)
    for action in state.actions[state.round_start :]:
        if world.round.dealing:
            world.apply(deck[len(world.round.dealt)])
            continue
        try:
            if state.encoding == "index":
                (action,) = world.actions_for(next(plays)[1])
            world.apply(action)
        except IllegalAction:
            return None
    return world
