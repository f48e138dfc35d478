"""Move features for weighted heuristic policies: the readable spec the numba kernel mirrors.

Each feature is a number a policy file weighs. They look only at what the mover
knows: their own hand, the table, the capture piles and the other hands' sizes;
unseen cards are the other hands and the stock together. The threats are the
cards in the opponents' hands (every other player, less a partner): exactly the
players who move before the mover plays again, with what they hold (docs/policies.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from casino_sim.core.cards import BIG_CASINO, LITTLE_CASINO, N_CARDS, is_ace, is_figure, is_spade, rank_of
from casino_sim.core.featurespec import (  # noqa: F401 (re-exported)
    FEATURE_INDEX,
    FEATURE_NAMES,
    FEATURES,
    N_FEATURES,
    p_holds_any,
)
from casino_sim.reference.groups import group_subsets
from casino_sim.reference.moves import Move
from casino_sim.reference.play import play
from casino_sim.reference.position import Position, PositionError
from casino_sim.reference.round import round_context
from casino_sim.reference.seats import expected_sizes, opponents


def weighted_sum(features, weights) -> float:
    """Sum of feature times weight, left to right (the kernel's order, so scores match bit for bit)."""
    total = 0.0
    for f, w in zip(features, weights):
        if w != 0.0:
            total += f * w
    return total


def sure_points(c: int) -> int:
    """Points a card is worth on its own: ace 1, 10♦ 2, 2♠ 1."""
    return 2 if c == BIG_CASINO else 1 if (c == LITTLE_CASINO or is_ace(c)) else 0


@dataclass(frozen=True)
class Knowledge:
    """What the mover cannot see: the unseen cards, how many the opponents hold, how many all other hands hold.

    With two players both counts are the opponent's hand; a partner's hand is unseen but not an opponent's.
    """

    unseen: frozenset[int]
    opp_hand_size: int
    other_hands_size: int

    @property
    def stock_size(self) -> int:
        return len(self.unseen) - self.other_hands_size

    def p_holds_any(self, cards) -> float:
        """Probability that the opponents' hands together hold at least one of these unseen cards."""
        return p_holds_any(len(self.unseen), self.opp_hand_size, len(self.unseen & frozenset(cards)))


def knowledge_of(pos: Position) -> Knowledge:
    """The mover's view: unseen = the deck less own hand, table and capture piles."""
    p = pos.to_move
    seen = set(pos.hands[p]) | set(pos.loose) | set().union(*pos.captured)
    for b in pos.builds:
        seen |= b.cards
    unseen = frozenset(range(N_CARDS)) - seen
    sizes = _hand_sizes(pos)
    others = [q for q in range(pos.players) if q != p]
    opp = sum(sizes[q] for q in others if opponents(pos.rules, p, q))
    return Knowledge(unseen, min(opp, len(unseen)), min(sum(sizes[q] for q in others), len(unseen)))


def _hand_sizes(pos: Position) -> list[int]:
    """Each player's hand size; a hidden hand's follows from the deal (those who played this lap hold one fewer)."""
    if all(h is not None for h in pos.hands):
        return [len(h) for h in pos.hands]
    own = len(pos.hands[pos.to_move])
    try:
        dealt = expected_sizes(round_context(pos)[1], pos.to_move, pos.players, own)
    except PositionError:  # a hand-made position no deal leads to: assume hands of equal size
        dealt = [own] * pos.players
    return [s if h is None else len(h) for h, s in zip(pos.hands, dealt)]


def _best_capture(pos: Position, card_value: int, rank: int | None, score) -> float:
    """The most `score` one opponent capture with a card of that value (or figure rank) can take."""
    if rank is not None:
        return max((score((c,)) for c in pos.loose if is_figure(c) and rank_of(c) == rank), default=0.0)
    build = pos.build_of(card_value)
    in_build = tuple(build.cards) if build else ()
    numbers = [c for c in pos.loose if not is_figure(c)]
    best = score(in_build) if build else 0.0
    for t in group_subsets(numbers, card_value):
        if t or build:
            best = max(best, score(t + in_build))
    return best


def _threats(after: Position, know: Knowledge):
    """(probability, capture value, figure rank) for each card kind the opponent might hold."""
    for v in range(1, 11):
        cards = [(v - 1) * 4 + s for s in range(4)]
        yield know.p_holds_any(cards), v, None
    for r in (10, 11, 12):
        yield know.p_holds_any([r * 4 + s for s in range(4)]), 0, r


def _whole_table_capturable(after: Position, v: int, rank: int | None) -> bool:
    loose_figs = [c for c in after.loose if is_figure(c)]
    if rank is not None:
        return not after.builds and len(after.loose) == 1 and loose_figs and rank_of(loose_figs[0]) == rank
    if loose_figs or any(b.value != v for b in after.builds):
        return False
    numbers = list(after.loose)
    return any(len(t) == len(numbers) for t in group_subsets(numbers, v))


def move_features(pos: Position, move: Move, know: Knowledge | None = None) -> np.ndarray:
    """The feature vector of one legal move, in FEATURE_NAMES order."""
    know = know or knowledge_of(pos)
    p = pos.to_move
    after = play(pos, move)
    f = np.zeros(N_FEATURES)
    taken = after.captured[p] - pos.captured[p]
    f[0] = len(taken)
    f[1] = sum(map(is_spade, taken))
    f[2] = sum(map(is_ace, taken))
    f[3] = BIG_CASINO in taken
    f[4] = LITTLE_CASINO in taken
    f[5] = pos.rules.sweep_points if after.sweeps[p] > pos.sweeps[p] else 0  # a sweep's points in this rule set
    if move.kind in ("build", "increase", "add"):
        f[6] = 1
        f[7] = len(after.build_of(move.value).cards)
    if not after.table_empty:
        for prob, v, rank in _threats(after, know):
            if prob == 0.0:
                continue
            f[8] += prob * _best_capture(after, v, rank, lambda cs: sum(map(sure_points, cs)))
            f[9] += prob * _best_capture(after, v, rank, len)
            if _whole_table_capturable(after, v, rank):
                f[10] = max(f[10], prob)
        f[10] *= pos.rules.sweep_points  # priced as the sweep the opponent would make (x1 in strict: the same bits)
    if move.kind == "trail":
        f[11] = sure_points(move.card)
        f[14] = 1
    f[12] = sum(sure_points(c) for c in after.loose if c in (BIG_CASINO, LITTLE_CASINO))
    if move.kind == "capture" and know.stock_size == 0:
        f[13] = len(after.loose)
    return f
