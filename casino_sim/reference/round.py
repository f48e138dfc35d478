"""One round: the deal in batches, the plays, the remainder to the last capturer, the score."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from casino_sim.core.rules import RuleSet
from casino_sim.reference.movegen import legal_moves, mover_hand
from casino_sim.reference.moves import Move
from casino_sim.reference.play import play
from casino_sim.reference.position import Position, PositionError
from casino_sim.reference.score import VOID_SCORE, Score, score_round

HAND_SIZE = 4
BATCHES = 6
PLIES = 48

Chooser = Callable[[Position, list[Move]], Move]


@dataclass
class Event:
    """One line of a round's story: a deal, a play, the remainder, or a void round."""

    kind: str  # "deal", "play", "remainder", "void"
    player: int | None = None
    move: Move | None = None
    sweep: bool = False
    batch: int = 0
    cards: tuple = ()  # deal: (non-dealer's hand, dealer's hand, table); remainder: the cards
    taken: frozenset = frozenset()  # play: the cards it put in the mover's pile
    owners: tuple = ()  # play: the owners of the builds the move names (move.builds), before the play


@dataclass
class RoundResult:
    dealer: int
    events: list[Event] = field(default_factory=list)
    final: Position | None = None
    score: Score = VOID_SCORE
    void: bool = False

    @property
    def moves(self) -> list[Move]:
        return [e.move for e in self.events if e.kind == "play"]


def deal_batch(pos: Position, deck: Sequence[int], batch: int, dealer: int) -> Position:
    """Deal batch (0..5) from the deck: non-dealer 4, dealer 4, and in batch 0 the table 4."""
    start = 0 if batch == 0 else 12 + (batch - 1) * 8
    first, second = 1 - dealer, dealer
    hands = [None, None]
    hands[first] = frozenset(deck[start : start + 4])
    hands[second] = frozenset(deck[start + 4 : start + 8])
    loose = frozenset(deck[8:12]) if batch == 0 else pos.loose
    return replace(pos, hands=(hands[0], hands[1]), loose=loose)


def play_round(rules: RuleSet, deck: Sequence[int], dealer: int, choose: Chooser) -> RoundResult:
    """Play a whole round from a shuffled deck; `choose` picks each play from the legal moves."""
    deck = [int(c) for c in deck]
    if sorted(deck) != list(range(52)):
        raise ValueError("the deck must hold each of the 52 cards once")
    result = RoundResult(dealer=dealer)
    pos = Position(rules=rules, to_move=1 - dealer)
    for batch in range(BATCHES):
        pos = deal_batch(pos, deck, batch, dealer)
        result.events.append(
            Event(
                "deal",
                batch=batch,
                cards=(pos.hands[1 - dealer], pos.hands[dealer], pos.loose if batch == 0 else frozenset()),
            )
        )
        for _ in range(2 * HAND_SIZE):
            before = pos
            move = choose(pos, legal_moves(pos))
            pos = play(pos, move)
            mover = before.to_move
            result.events.append(
                Event(
                    "play",
                    player=mover,
                    move=move,
                    sweep=pos.sweeps != before.sweeps,
                    batch=batch,
                    taken=pos.captured[mover] - before.captured[mover],
                    owners=tuple(before.build_of(v).owner for v in move.builds),
                )
            )
    return finish_round(result, pos)


def finish_round(result: RoundResult, pos: Position) -> RoundResult:
    """Remainder to the last capturer (not a sweep), then the score; void if nobody captured."""
    if pos.last_capturer is None:
        result.void = True
        result.events.append(Event("void"))
        result.final = pos
        return result
    if pos.builds:  # the keep-a-capturing-card rule makes every owner take their build
        raise RuntimeError(f"engine bug: builds remain at the end of the round: {pos.builds}")
    p = pos.last_capturer
    rest = pos.loose
    if rest:
        result.events.append(Event("remainder", player=p, cards=tuple(sorted(rest))))
    captured = (pos.captured[0] | rest, pos.captured[1]) if p == 0 else (pos.captured[0], pos.captured[1] | rest)
    pos = replace(pos, loose=frozenset(), builds=(), captured=captured)
    result.final = pos
    result.score = score_round(pos.rules, pos.captured, pos.sweeps)
    return result


def round_context(pos: Position) -> tuple[int, int, int]:
    """(opponent's hand size, dealer, plays made this round) implied by the position.

    PositionError says which card counts a real deal would show instead.
    """
    p = pos.to_move
    own = len(mover_hand(pos))
    hidden = pos.hands[1 - p] is None
    out = len(pos.all_cards()) - own - (0 if hidden else len(pos.hands[1 - p]))  # table, builds and piles
    ply = out - 4  # 4 cards were dealt to the table; each play since moved one card out of a hand
    if hidden:
        opp = own if ply % 8 == (8 - 2 * own) % 8 else own - 1
    else:
        opp = len(pos.hands[1 - p])
    if not (1 <= own <= HAND_SIZE and opp in (own, own - 1) and 0 <= ply < PLIES and ply % 8 == 8 - own - opp):
        raise PositionError(
            "this position cannot arise in a round, so hidden cards cannot be sampled: "
            + _why_no_deal(p, own, None if hidden else opp, out)
        )
    dealer = p if own == opp + 1 else 1 - p
    return opp, dealer, ply


def _why_no_deal(p: int, own: int, opp: int | None, out: int) -> str:
    """What a real deal would show, for hands of `own` (to move) and `opp` cards (None: hidden)."""
    holds = f"player {p} (to move) holds {_cards(own)}"
    if not 1 <= own <= HAND_SIZE:
        return f"{holds}, but a player holds 1 to {HAND_SIZE} cards on their turn"
    if opp is not None and opp not in (own, own - 1):
        return (
            f"{holds} and player {1 - p} holds {opp}, but the player to move holds as many cards as "
            "the other (first to play in the batch) or one more (the dealer)"
        )
    fits = []
    for o in (own, own - 1) if opp is None else (opp,):
        counts = [4 + 8 - own - o + 8 * batch for batch in range(BATCHES)]
        fits.append(f"{', '.join(map(str, counts[:-1]))} or {counts[-1]} cards when player {1 - p} holds {o}")
    other = f"player {1 - p}'s hand is hidden" if opp is None else f"player {1 - p} holds {opp}"
    return (
        f"{holds} and {other}, so the table, builds and capture piles together must hold 4 (dealt to the "
        f"table) + 8 per earlier batch + the cards played in this batch: {'; '.join(fits)}; they hold {out}"
    )


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"
