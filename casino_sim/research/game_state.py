"""A round, or whole games to the target, as one sequence of actions: what the OpenSpiel and PettingZoo adapters
wrap (docs/research.md).

Every action is an int: at a chance node the card dealt (0 to 51, docs/notation.md's card codes), at a player's
turn an id of the factored encoding (research/encoding.py: a play, then its loose cards where it has a choice of
them; the default) or, with encoding "index", the index of a legal move. The first dealer is the last player, so
player 0 leads the first round; in whole games the deal then passes to the next player after each round, and a
void round is dealt again by the same dealer with no points (reference/game.py play_game).
"""

from __future__ import annotations

from collections.abc import Sequence
from copy import copy as shallow_copy

import numpy as np

from casino_sim.core.rules import RuleSet
from casino_sim.reference.game import MAX_ROUNDS, game_winner
from casino_sim.reference.moves import Move
from casino_sim.reference.seats import side_of
from casino_sim.research.choice import Choice, Turn
from casino_sim.research.encoding import ENCODINGS
from casino_sim.research.round_state import IllegalAction, RoundState

CHANCE = -1  # the player id of a chance node, as OpenSpiel numbers it
TERMINAL = -4  # the player id once the round or game is over, as OpenSpiel numbers it


class GameState:
    """One round (`whole_game` False: the round's points are the returns) or rounds until a side wins the game.

    `round` is the RoundState being played, `totals` each side's points of the finished rounds, `winner` the
    winning side of a whole game, `actions` every action so far (replaying them from a new GameState gives this one),
    `turn_start` the index in `actions` where the current player's turn began (a factored play takes several).
    """

    def __init__(self, rules: RuleSet, whole_game: bool = False, engine: str = "reference", encoding: str = "factored"):
        if encoding not in ENCODINGS:
            raise ValueError(f"encoding must be one of {', '.join(ENCODINGS)}, got {encoding!r}")
        self.rules = rules
        self.whole_game = whole_game
        self.engine = engine
        self.encoding = encoding
        self._turn: Turn | None = None  # the factored decisions of the player to move, made when first asked
        self.turn_start = 0
        self.totals = [0] * rules.n_sides
        self.rounds = 0  # finished rounds, void ones included
        self.winner: int | None = None
        self.round = RoundState(rules, rules.players - 1, engine)
        self.round_start = 0  # the index in `actions` where the current round began
        self.actions: list[int] = []
        self.movers: list[int] = []  # who made each action: a player, or CHANCE

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def over(self) -> bool:
        return self.winner is not None if self.whole_game else self.round.over

    @property
    def player(self) -> int:
        """The player to move, or CHANCE while a card is dealt, or TERMINAL when it is over."""
        if self.over:
            return TERMINAL
        return CHANCE if self.round.dealing else self.round.position.to_move

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(card, probability) of each card the next deal may give: every undealt card, equally likely."""
        cards = self.round.undealt()
        return [(c, 1.0 / len(cards)) for c in cards]

    @property
    def turn(self) -> Turn:
        """The factored decisions of the player to move (research/choice.py)."""
        if self._turn is None:
            self._turn = Turn(self.round.position)
        return self._turn

    @property
    def choice(self) -> Choice | None:
        """The factored play being chosen (its loose cards named so far), or None between plays."""
        return None if self._turn is None else self._turn.choice

    def legal_actions(self) -> list[int]:
        """The actions of the current player (the cards left to deal at a chance node): ascending."""
        if self.over:
            return []
        if self.round.dealing:
            return self.round.undealt()
        if self.encoding == "index":
            return list(range(len(self.round.legal_moves())))
        return list(self.turn.legal_actions())

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move, in canonical order (with encoding "index", action i plays
        legal_moves()[i]). A table piled high has millions: the factored encoding never lists them."""
        return [] if self.over else self.round.legal_moves()

    def move_of(self, action: int) -> Move | None:
        """The move a legal action of the player to move plays here, or None when a choice of cards follows."""
        return self.round.legal_moves()[action] if self.encoding == "index" else self.turn.preview(action)

    def actions_for(self, move: Move) -> list[int]:
        """The actions that play a legal move from here (with the factored encoding, those of its play still to
        take); IllegalAction when it is not legal here."""
        if self.encoding == "factored":
            return self.turn.actions_for(move)
        moves = self.legal_moves()
        if move not in moves:
            raise IllegalAction(f"{move.describe(self.player)} is not a legal move here")
        return [moves.index(move)]

    def apply(self, action: int) -> None:
        """Deal a card (chance node), or take the player's action (a factored id: the move is played once its
        actions complete it; an index: the move of that index); a finished round of a whole game is scored and the
        next one begins (the deal passing on, or the same dealer again after a void round)."""
        action = int(action)
        if self.over:
            raise IllegalAction("the game is over: no action applies")
        mover = self.player
        if self.round.dealing:
            self.round.deal(action)
        elif self.encoding == "index":
            self.round.play(action)
        else:
            move = self.turn.step(action)
            if move is not None:
                self.round.play_move(move)
                self._turn = None
        self.actions.append(action)
        self.movers.append(mover)
        if self.choice is None:
            self.turn_start = len(self.actions)
        if self.round.over and self.whole_game:
            self._next_round()

    def _next_round(self) -> None:
        """Score the finished round into the totals and decide the game, or begin the next round."""
        self.rounds += 1
        dealer = self.round.dealer
        if not self.round.result.void:
            points = self.round.side_points()
            self.totals = [t + p for t, p in zip(self.totals, points)]
            self.winner = game_winner(self.rules, self.totals, points)
            if self.winner is not None:
                return
            dealer = (dealer + 1) % self.players
        if self.rounds >= MAX_ROUNDS:
            raise RuntimeError(f"no winner after {MAX_ROUNDS} rounds")
        self.round = RoundState(self.rules, dealer, self.engine)
        self.round_start = len(self.actions)

    def returns(self) -> list[float]:
        """Each player's return: the round's points of their side; in whole games 1 for each player of the
        winning side and -1 / (sides - 1) for the others (zero-sum). All 0 until the end."""
        if not self.whole_game:
            return [float(p) for p in self.round.points()]
        if self.winner is None:
            return [0.0] * self.players
        lose = -1.0 / (self.rules.n_sides - 1)
        return [1.0 if side_of(self.rules, p) == self.winner else lose for p in range(self.players)]

    def differences(self) -> list[float]:
        """Each player's return as a point difference (two sides only): their side's round points less the other
        side's, zero-sum. All 0 until the end."""
        sides = self.round.side_points()
        return [float(sides[side_of(self.rules, p)] - sides[1 - side_of(self.rules, p)]) for p in range(self.players)]

    def deal_random(self, rng: np.random.Generator) -> None:
        """Deal every card due now (the chance nodes up to the next player's turn) from rng: what an environment
        without chance nodes does."""
        while not self.over and self.round.dealing:
            cards = self.round.undealt()
            self.apply(cards[int(rng.integers(len(cards)))])

    def deal_deck(self, deck: Sequence[int]) -> None:
        """Deal every card due now from a shuffled deck (deck[i] is the round's i-th card dealt)."""
        for card in list(deck)[len(self.round.dealt) :]:
            if self.over or not self.round.dealing:
                return
            self.apply(int(card))

    def clone(self) -> GameState:
        """An independent copy (the positions are immutable and shared)."""
        other = GameState.__new__(GameState)
        other.__dict__.update(self.__dict__)
        other.totals, other.actions, other.movers = list(self.totals), list(self.actions), list(self.movers)
        other.round = _copy_round(self.round)
        other._turn = shallow_copy(self._turn)  # a Turn replaces its choice and options, never changes them in place
        return other


def _copy_round(r: RoundState) -> RoundState:
    copy = RoundState.__new__(RoundState)
    copy.__dict__.update(r.__dict__)
    copy.dealt, copy.plays = list(r.dealt), list(r.plays)
    return copy


def replay(
    rules: RuleSet, whole_game: bool, actions: Sequence[int], engine: str = "reference", encoding: str = "factored"
) -> GameState:
    """The state reached by playing `actions` from the start."""
    state = GameState(rules, whole_game, engine, encoding)
    for a in actions:
        state.apply(a)
    return state
