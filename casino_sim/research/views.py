"""What one player may see of a GameState, as text and as a fixed-size float vector (docs/research.md lists the
fields): the observation (the table now and the player's own hand) and the information state (that, and the
round so far: the player's hands as dealt, the table's first cards and every play).

A batch's cards appear once its last card is dealt (as the engine deals a batch at once); the other players'
hands and the stock are never shown, nor the play another player is still choosing under the factored encoding.
In whole games both views hold the totals of the finished rounds and the current round; earlier rounds are not
recalled play by play.
"""

from __future__ import annotations

import json

import numpy as np

from casino_sim.core.cards import N_CARDS, pretty_cards
from casino_sim.core.deal import HAND_SIZE, PLIES, batches
from casino_sim.reference.moves import KINDS, PLAYER_NAMES
from casino_sim.reference.round import deal_end, hand_slots, table_slots
from casino_sim.research.choice import Choice
from casino_sim.research.encoding import SLOTS, VALUES, describe
from casino_sim.research.game_state import GameState
from casino_sim.research.round_state import RoundState


def play_width(players: int) -> int:
    """The floats of one play in `plays`: player, kind, card, loose cards, builds named, value."""
    return players + len(KINDS) + N_CARDS + N_CARDS + VALUES + VALUES


def view_layout(players: int, sides: int, recall: bool, choosing: bool = True) -> list[tuple[str, tuple[int, ...]]]:
    """(name, shape) of each field of the vector, in order; `choosing` adds the play the observer is choosing under
    the factored encoding, `recall` the information state's fields."""
    n, b = players, batches(players)
    pieces = [
        ("observer", (n,)),
        ("to_move", (n,)),
        ("dealer", (n,)),
        ("hand", (N_CARDS,)),
        ("hand_sizes", (n,)),
        ("loose", (N_CARDS,)),
        ("builds", (VALUES, N_CARDS)),
        ("build_owners", (VALUES, n)),
        ("captured", (n, N_CARDS)),
        ("sweeps", (n,)),
        ("last_capturer", (n,)),
        ("must_act", (n,)),
        ("batch", (b,)),
        ("totals", (sides,)),
    ]
    if choosing:
        pieces += [("choice_card", (N_CARDS,)), ("choice_play", (SLOTS,)), ("choice_loose", (N_CARDS,))]
    if recall:
        pieces += [("dealt", (b, N_CARDS)), ("table_dealt", (N_CARDS,)), ("plays", (PLIES, play_width(n)))]
    return pieces


def dealt_hands(r: RoundState, player: int) -> list[list[int]]:
    """The player's hand as dealt in each batch whose deal is complete."""
    n = r.players
    return [
        [r.dealt[i] for i in hand_slots(n, r.dealer, b, player)]
        for b in range(batches(n))
        if len(r.dealt) >= deal_end(n, b)
    ]


def table_dealt(r: RoundState) -> list[int]:
    """The 4 cards dealt face up to the table, once the first batch is dealt."""
    return [r.dealt[i] for i in table_slots(r.players)] if len(r.dealt) >= deal_end(r.players, 0) else []


class View:
    """One player's view of a GameState: `tensor` (float32, view_layout's fields end to end), `dict` (each field
    as a named, shaped view into it), and `text`. The same class serves OpenSpiel's observer and PettingZoo."""

    def __init__(self, players: int, sides: int, recall: bool, choosing: bool = True):
        self.recall, self.choosing = recall, choosing
        self.layout = view_layout(players, sides, recall, choosing)
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in self.layout), np.float32)
        self.dict = {}
        start = 0
        for name, shape in self.layout:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[start : start + size].reshape(shape)
            start += size

    def set_from(self, state: GameState, player: int) -> None:
        """Fill the tensor with what `player` may see of `state`."""
        self.tensor.fill(0)
        d, r = self.dict, state.round
        pos = r.position
        d["observer"][player] = 1
        if state.player >= 0:
            d["to_move"][state.player] = 1
        d["dealer"][r.dealer] = 1
        d["hand"][list(pos.hands[player])] = 1
        d["hand_sizes"][:] = [len(h) for h in pos.hands]
        d["loose"][list(pos.loose)] = 1
        for build in pos.builds:
            d["builds"][build.value - 1, list(build.cards)] = 1
            d["build_owners"][build.value - 1, build.owner] = 1
        for q, pile in enumerate(pos.captured):
            d["captured"][q, list(pile)] = 1
        d["sweeps"][:] = pos.sweeps
        if pos.last_capturer is not None:
            d["last_capturer"][pos.last_capturer] = 1
        d["must_act"][:] = pos.must_act
        d["batch"][r.batch] = 1
        d["totals"][:] = state.totals
        choice = own_choice(state, player)
        if self.choosing and choice is not None:
            d["choice_card"][choice.family.card] = 1
            d["choice_play"][choice.action % SLOTS] = 1
            d["choice_loose"][list(choice.chosen)] = 1
        if self.recall:
            for b, hand in enumerate(dealt_hands(r, player)):
                d["dealt"][b, hand] = 1
            d["table_dealt"][table_dealt(r)] = 1
            for ply, (mover, move) in enumerate(r.plays):
                _set_play(d["plays"][ply], r.players, mover, move)

    def string_from(self, state: GameState, player: int) -> str:
        """What `player` may see of `state` as text: a head line and the position of docs/notation.md in JSON
        (the other hands null); with recall, then the round so far, one line per deal and per play."""
        r = state.round
        lines = [f"player {player} {where(state)}", json.dumps(r.position.seen_by(player).to_json())]
        choice = own_choice(state, player)
        if choice is not None:
            lines.append(self.choice_line(choice, player))
        if self.recall:
            lines += _story(r, player)
        return "\n".join(lines)

    @staticmethod
    def choice_line(choice: Choice, player: int) -> str:
        """The play being chosen in words: `choosing: A plays 7♥ and builds 9, naming 2♠`."""
        named = f", naming {pretty_cards(choice.chosen)}" if choice.chosen else ""
        return f"choosing: {describe(player, choice.action)}{named}"


def own_choice(state: GameState, player: int) -> Choice | None:
    """The factored play `player` is choosing, shown to them alone (the others see the play once it is made)."""
    return state.choice if state.player == player else None


def where(state: GameState) -> str:
    """How far the round (and game) has come: the dealer, the batch, and in whole games the round and totals."""
    text = f"dealer {state.round.dealer} batch {state.round.batch}"
    if state.whole_game:
        text += f" round {state.rounds + 1} totals {' '.join(map(str, state.totals))}"
    return text


def _set_play(row: np.ndarray, players: int, mover: int, move) -> None:
    """One play's floats: mover one-hot, kind one-hot, card, loose cards, builds named, value one-hot."""
    at = 0
    for width, hot in (
        (players, [mover]),
        (len(KINDS), [KINDS.index(move.kind)]),
        (N_CARDS, [move.card]),
        (N_CARDS, list(move.loose)),
        (VALUES, [v - 1 for v in move.builds]),
        (VALUES, [] if move.value is None else [move.value - 1]),
    ):
        row[[at + i for i in hot]] = 1
        at += width


def _story(r: RoundState, player: int) -> list[str]:
    """The round as `player` saw it: their hand at each deal, the table's first cards, then every play in words."""
    lines = []
    per_batch = r.players * HAND_SIZE
    table = table_dealt(r)
    for b, hand in enumerate(dealt_hands(r, player)):
        lines.append(f"deal {b + 1}: {PLAYER_NAMES[player]} holds {pretty_cards(sorted(hand))}")
        if b == 0:
            lines.append(f"table: {pretty_cards(sorted(table))}")
        lines += [move.describe(mover) for mover, move in r.plays[b * per_batch : (b + 1) * per_batch]]
    return lines
