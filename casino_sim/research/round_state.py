"""One round dealt card by card and played by move index: the framework-free state the research adapters wrap.

The deal is the deck in the order reference/round.py deals it (each batch's hands in turn order from the player
after the dealer, then in the first batch 4 cards to the table), one card at a time, so a chance node deals one card
and a shuffled deck is the sequence of chance outcomes. A play is the 0-based index of a move in the position's
legal moves in the engine's canonical order (the numbering `casino-sim moves` prints, minus one), or a move known to
be legal (`play_move`, what the factored encoding of research/choice.py plays).
"""

from __future__ import annotations

from casino_sim.core.cards import N_CARDS
from casino_sim.core.deal import HAND_SIZE, PLIES
from casino_sim.core.errors import UserError
from casino_sim.core.rules import RuleSet
from casino_sim.engines import get_engine
from casino_sim.reference.moves import Move
from casino_sim.reference.play import play
from casino_sim.reference.position import Position
from casino_sim.reference.round import RoundResult, deal_batch, deal_end, finish_round, start_position
from casino_sim.reference.seats import side_of


class IllegalAction(UserError):
    """An action id that is not a legal action of the state: not a card left to deal, or past the legal moves."""


class RoundState:
    """A round of docs/rules.md: cards dealt one at a time (`deal`), then moves played by index (`play`).

    `position` is the engine's Position (each batch appears in it once all its cards are dealt), `dealt` the deck
    so far in deal order, `plays` every (player, Move) of the round, and `result` the reference engine's
    RoundResult (remainder, score, void) once the 48th play is made.
    """

    def __init__(self, rules: RuleSet, dealer: int, engine: str = "reference"):
        self.rules = rules
        self.dealer = dealer
        self.engine = get_engine(engine)
        self.position: Position = start_position(rules, dealer)
        self.dealt: list[int] = []
        self.plays: list[tuple[int, Move]] = []
        self.result: RoundResult | None = None
        self._moves: list[Move] | None = None

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def batch(self) -> int:
        """The batch being dealt or played: 0 to batches - 1."""
        return min(len(self.plays) // (self.players * HAND_SIZE), PLIES // (self.players * HAND_SIZE) - 1)

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def dealing(self) -> bool:
        """Whether the next event is a card dealt (a chance node)."""
        return not self.over and len(self.dealt) < deal_end(self.players, self.batch)

    def undealt(self) -> list[int]:
        """The cards not dealt yet this round, ascending: the outcomes of the next deal."""
        taken = set(self.dealt)
        return [c for c in range(N_CARDS) if c not in taken]

    def deal(self, card: int) -> None:
        """Deal the next card of the deck; the batch reaches the hands and table once its last card is dealt."""
        if not self.dealing or not isinstance(card, int) or card in self.dealt or not 0 <= card < N_CARDS:
            raise IllegalAction(f"{card!r} is not a card to deal here")
        self.dealt.append(card)
        if len(self.dealt) == deal_end(self.players, self.batch):
            self.position = deal_batch(self.position, self.dealt, self.batch, self.dealer)
            self._moves = None

    @property
    def to_move(self) -> int | None:
        """The player to move, or None while dealing and once the round is over."""
        return None if self.dealing or self.over else self.position.to_move

    def legal_moves(self) -> list[Move]:
        """The legal moves of the player to move in the engine's canonical order (empty while dealing)."""
        if self.to_move is None:
            return []
        if self._moves is None:
            self._moves = self.engine.legal_moves(self.position)
        return self._moves

    def play(self, action: int) -> Move:
        """Play the legal move of that index; the round ends (remainder, score) after its 48th play."""
        moves = self.legal_moves()
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < len(moves):
            raise IllegalAction(f"action {action!r} is not a legal move here (0 to {len(moves) - 1})")
        return self.play_move(moves[action])

    def play_move(self, move: Move) -> Move:
        """Play a move known to be legal here (a legal_moves entry, or the factored encoding's, research/choice.py)."""
        self.plays.append((self.position.to_move, move))
        # a move of legal_moves needs no second check: on the reference engine it is played as apply_move would
        # after checking it (IS-MCTS's play-outs take 1.7x as long with the check); other engines apply it
        checked = self.engine.name != "reference"
        self.position = self.engine.apply_move(self.position, move) if checked else play(self.position, move)
        self._moves = None
        if len(self.plays) == PLIES:
            self.result = finish_round(RoundResult(dealer=self.dealer), self.position)
        return move

    def side_points(self) -> tuple[int, ...]:
        """The round's points of each side (a player, or a team): all 0 before the end and for a void round."""
        return self.result.score.totals if self.result else (0,) * self.rules.n_sides

    def points(self) -> list[int]:
        """The round's points of each player: their side's points (partners share their team's)."""
        sides = self.side_points()
        return [sides[side_of(self.rules, p)] for p in range(self.players)]
