"""The factored decisions of one play (research/encoding.py): which action ids are legal in a position, and the move
a sequence of them makes, without writing out the position's moves.

The legal plays are the families of reference/movegen.py (one card, kind, builds and value; legal or not as a
whole, docs/rules.md section 4), each judged by one of its moves. A family with more than one set of loose cards
is then chosen from card by card, in ascending order: a loose card may be named when some set of the family holds
it with the cards named before (GroupSets.extensions asks the count-vector trie), and DONE when the named cards are
a set. A step with one option is taken for the player, so every action asked is a real choice, each legal move is
one sequence of actions, and each sequence one move.
"""

from __future__ import annotations

from typing import NamedTuple

from casino_sim.reference.groups import GroupSets
from casino_sim.reference.movegen import Family, legal_families
from casino_sim.reference.moves import Move
from casino_sim.reference.position import Position
from casino_sim.research.encoding import DONE, LOOSE, play_action
from casino_sim.research.round_state import IllegalAction


def extensions(sets, chosen: tuple[int, ...]) -> tuple[list[int], bool]:
    """(the loose cards that may be named next, whether `chosen` is a set): a GroupSets answers from its trie, a
    short list (a trail's one set, a figure's captures) by looking."""
    if isinstance(sets, GroupSets):
        return sets.extensions(chosen)
    k = len(chosen)
    return sorted({t[k] for t in sets if len(t) > k and t[:k] == chosen}), chosen in sets


class Choice(NamedTuple):
    """A play being chosen: its family and the loose cards named so far (ascending)."""

    family: Family
    chosen: tuple[int, ...] = ()

    @property
    def action(self) -> int:
        """The play's first action."""
        f = self.family
        return play_action(f.kind, f.card, f.builds, f.value)

    def options(self) -> list[int]:
        """The actions that may come next: each loose card that may join (LOOSE + card), then DONE if complete."""
        nxt, whole = extensions(self.family.sets, self.chosen)
        return [LOOSE + c for c in nxt] + ([DONE] if whole else [])

    def after(self, action: int) -> Choice | Move:
        """The choice with one more action (one of options()): the move once DONE ends it."""
        f = self.family
        if action == DONE:
            return Move(f.kind, f.card, self.chosen, f.builds, f.value)
        return Choice(f, (*self.chosen, action - LOOSE))


def settle(x: Choice | Move) -> tuple[Choice | Move, list[int]]:
    """Take every step that has one option: (the move, or the choice where the player has a real choice, and its
    options)."""
    while isinstance(x, Choice):
        options = x.options()
        if len(options) != 1:
            return x, options
        x = x.after(options[0])
    return x, []


class Turn:
    """The decisions of the player to move in `pos`: a play (its first action), then its loose cards if it has a
    choice of them. `legal_actions()` are ascending; `step(action)` answers the move once it is complete."""

    def __init__(self, pos: Position):
        self.pos = pos
        self.families = {play_action(f.kind, f.card, f.builds, f.value): f for f in legal_families(pos)}
        self.choice: Choice | None = None
        self._options = sorted(self.families)

    def legal_actions(self) -> list[int]:
        return self._options

    def _next(self, action: int) -> tuple[Choice | Move, list[int]]:
        if action not in self._options:
            raise IllegalAction(f"action {action!r} is not legal here ({describe_legal(self._options)})")
        return settle(Choice(self.families[action]) if self.choice is None else self.choice.after(action))

    def step(self, action: int) -> Move | None:
        """Take a legal action: the move when it completes one, else None (the same player chooses on)."""
        x, options = self._next(action)
        if isinstance(x, Move):
            return x
        self.choice, self._options = x, options
        return None

    def preview(self, action: int) -> Move | None:
        """The move the legal action would complete here, or None (a choice would follow)."""
        x, _ = self._next(action)
        return x if isinstance(x, Move) else None

    def actions_for(self, move: Move) -> list[int]:
        """The actions that play `move` from here, the steps taken for the player left out; IllegalAction when it is
        not a legal move here (or not the play being chosen)."""
        key = play_action(move.kind, move.card, move.builds, move.value)
        if self.choice is None and key in self.families:
            actions, (x, options) = [key], settle(Choice(self.families[key]))
        elif self.choice is not None and self.choice.action == key:
            actions, x, options = [], self.choice, self._options
        else:
            raise IllegalAction(f"{move.describe(self.pos.to_move)} is not a legal move here")
        while isinstance(x, Choice):
            k = len(x.chosen)
            want = DONE if x.chosen == move.loose else LOOSE + move.loose[k] if k < len(move.loose) else None
            if want not in options or move.loose[:k] != x.chosen:
                raise IllegalAction(f"{move.describe(self.pos.to_move)} is not a legal move here")
            actions.append(want)
            x, options = settle(x.after(want))
        if x != move:
            raise IllegalAction(f"{move.describe(self.pos.to_move)} is not a legal move here")
        return actions


def describe_legal(actions: list[int]) -> str:
    """A short reminder of the legal ids for an error line."""
    shown = ", ".join(map(str, actions[:8]))
    return f"legal: {shown}{', ...' if len(actions) > 8 else ''}"
