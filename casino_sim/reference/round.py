"""One round: the deal in batches, the plays, the remainder to the last capturer, the score."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from casino_sim.core.deal import HAND_SIZE, PLIES, batches
from casino_sim.core.invariants import dealt
from casino_sim.core.rules import RuleSet
from casino_sim.reference.movegen import legal_moves, mover_hand
from casino_sim.reference.moves import Move
from casino_sim.reference.play import play
from casino_sim.reference.position import Position, PositionError, names_dealer
from casino_sim.reference.score import VOID_SCORE, Score, score_round, void_score
from casino_sim.reference.seats import dealers_fitting, expected_sizes, turn_order

Chooser = Callable[[Position, list[Move]], Move]


@dataclass
class Event:
    """One line of a round's story: a deal, a play, the remainder, or a void round."""

    kind: str  # "deal", "play", "remainder", "void"
    player: int | None = None
    move: Move | None = None
    sweep: bool = False
    batch: int = 0
    cards: tuple = ()  # deal: the hands in turn order (the dealer's last), then the table; remainder: the cards
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


def deal_end(players: int, batch: int) -> int:
    """How many cards of the deck are dealt once batch `batch` (0-based) is dealt (core/invariants.py dealt)."""
    return dealt(players)[batch]


def hand_slots(players: int, dealer: int, batch: int, player: int) -> range:
    """The deck positions that deal `player`'s hand of batch `batch` (deal_batch's order)."""
    start = 0 if batch == 0 else deal_end(players, batch - 1)
    i = turn_order(dealer, players).index(player)
    return range(start + i * HAND_SIZE, start + (i + 1) * HAND_SIZE)


def table_slots(players: int) -> range:
    """The deck positions of the 4 cards dealt face up to the table in the first batch."""
    return range(players * HAND_SIZE, (players + 1) * HAND_SIZE)


def deal_batch(pos: Position, deck: Sequence[int], batch: int, dealer: int) -> Position:
    """Deal one batch from the deck in order: 4 to each player from the one after the dealer to the dealer,
    and in batch 0 then 4 face up to the table (two players: non-dealer 4, dealer 4, table 4)."""
    n = pos.players
    hands = tuple(frozenset(deck[i] for i in hand_slots(n, dealer, batch, p)) for p in range(n))
    loose = frozenset(deck[i] for i in table_slots(n)) if batch == 0 else pos.loose
    return replace(pos, hands=hands, loose=loose)


def start_position(rules: RuleSet, dealer: int) -> Position:
    """The empty table before the first deal: the player after the dealer to move."""
    n = rules.players
    if isinstance(dealer, bool) or dealer not in range(n):
        raise ValueError(f"dealer must be a player 0..{n - 1}, got {dealer!r}")
    return Position(
        rules=rules,
        to_move=(dealer + 1) % n,
        hands=(frozenset(),) * n,
        captured=(frozenset(),) * n,
        sweeps=(0,) * n,
        must_act=(False,) * n,
        dealer=dealer if names_dealer(n) else None,
    )


def play_round(
    rules: RuleSet,
    deck: Sequence[int],
    dealer: int,
    choose: Chooser,
    moves_of: Callable[[Position], list[Move]] = legal_moves,
) -> RoundResult:
    """Play a whole round from a shuffled deck; `choose` picks each play from the legal moves (`moves_of`: the
    moves it picks among, when a seat needs fewer than all, as an always-first policy needs the first only)."""
    deck = [int(c) for c in deck]
    if sorted(deck) != list(range(52)):
        raise ValueError("the deck must hold each of the 52 cards once")
    result = RoundResult(dealer=dealer)
    pos = start_position(rules, dealer)
    order = turn_order(dealer, rules.players)
    for batch in range(batches(rules.players)):
        pos = deal_batch(pos, deck, batch, dealer)
        table = pos.loose if batch == 0 else frozenset()
        result.events.append(Event("deal", batch=batch, cards=(*(pos.hands[p] for p in order), table)))
        for _ in range(rules.players * HAND_SIZE):
            before = pos
            move = choose(pos, moves_of(pos))
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
        result.score = void_score(pos.rules.n_sides)
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
    captured = tuple(pile | rest if q == p else pile for q, pile in enumerate(pos.captured))
    pos = replace(pos, loose=frozenset(), builds=(), captured=captured)
    result.final = pos
    result.score = score_round(pos.rules, pos.captured, pos.sweeps)
    return result


def round_context(pos: Position) -> tuple[int, int, int]:
    """(opponent's hand size, dealer, plays made this round) implied by the position.

    PositionError says which card counts a real deal would show instead. With three or four players the
    opponent is the next player to play.
    """
    if names_dealer(pos.players):  # else the dealer is read off the hand sizes, as below
        return _context_of_many(pos)
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


def _context_of_many(pos: Position) -> tuple[int, int, int]:
    """round_context with three or four players: the dealer is the position's (given or read at parsing)."""
    n, p = pos.players, pos.to_move
    own = len(mover_hand(pos))
    fits = dealers_fitting([None if h is None else len(h) for h in pos.hands], p)
    dealer = pos.dealer if pos.dealer is not None else fits[0] if len(fits) == 1 else None
    if dealer not in fits:
        raise PositionError("this position cannot arise in a round: its hand sizes do not fit one dealer")
    sizes = expected_sizes(dealer, p, n, own)
    out = len(pos.all_cards()) - sum(len(h) for h in pos.hands if h is not None)  # table, builds and piles
    lap, place = HAND_SIZE - own, turn_order(dealer, n).index(p)
    ply = out - HAND_SIZE
    if own < 1 or ply < 0 or (ply - lap * n - place) % (HAND_SIZE * n) or ply >= PLIES:
        played = ", ".join(str(lap * n + place + HAND_SIZE * n * b) for b in range(batches(n)))
        raise PositionError(
            f"this position cannot arise in a round: with player {p} to move holding {_cards(own)} and dealer "
            f"{dealer}, the table, builds and capture piles hold 4 + one card per play so far ({played} plays); "
            f"they hold {out}"
        )
    return sizes[pos.next_player(p)], dealer, ply


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
        counts = [4 + 8 - own - o + 8 * batch for batch in range(batches(2))]
        fits.append(f"{', '.join(map(str, counts[:-1]))} or {counts[-1]} cards when player {1 - p} holds {o}")
    other = f"player {1 - p}'s hand is hidden" if opp is None else f"player {1 - p} holds {opp}"
    return (
        f"{holds} and {other}, so the table, builds and capture piles together must hold 4 (dealt to the "
        f"table) + 8 per earlier batch + the cards played in this batch: {'; '.join(fits)}; they hold {out}"
    )


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"
