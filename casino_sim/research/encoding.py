"""The factored action encoding of the research adapters (docs/research.md): one fixed meaning per action id.

A play is chosen in two steps. Its first action names the card played, the kind and the value (`card * SLOTS +
slot`); a play with more than one set of loose cards is then finished by naming its loose cards one at a time in
ascending order (`LOOSE + card`), and `DONE` when the cards named so far are the set wanted. The ids mean the same
in every position, so a policy's output layer has NUM_ACTIONS entries and a legal-action mask is an array of that
length; which ids are legal in a position is docs/rules.md's business (research/choice.py).
"""

from __future__ import annotations

from typing import NamedTuple

from casino_sim.core.cards import N_CARDS, is_figure, pretty_card, value_of
from casino_sim.reference.moves import PLAYER_NAMES
from casino_sim.reference.seats import PLIES

ENCODINGS = ("factored", "index")  # these ids, or the index of a legal move in canonical order (the old one)
VALUES = 10  # build values 1 to 10
TRAIL, CAPTURE, CAPTURE_BUILD = 0, 1, 2  # the first slots of a card; then build, increase and add by value
BUILD, INCREASE, ADD = 2, 2 + VALUES, 2 + 2 * VALUES  # slot = base + value (1 to 10)
SLOTS = 3 + 3 * VALUES  # 33 slots a card
LOOSE = N_CARDS * SLOTS  # LOOSE + c: the loose card c joins the play
DONE = LOOSE + N_CARDS  # the loose cards named so far are the play's
NUM_ACTIONS = DONE + 1  # 1,769


def most_round_actions(encoding: str) -> int:
    """The most actions a round takes, its 52 chance outcomes included: with the factored encoding its 48 plays, a
    DONE for each, and a loose card named at most once a round (a named card leaves the loose cards for good; the
    last card played is never one): 199; with legal-move indices 100."""
    return N_CARDS + PLIES + (N_CARDS - 1 + PLIES if encoding == "factored" else 0)


class Meaning(NamedTuple):
    """What an action id says, whatever the position: a play's card, kind, value and whether it captures the build
    of its value (step "play"), a loose card (step "loose"), or the end of the choice (step "done")."""

    step: str
    card: int | None = None
    kind: str | None = None
    value: int | None = None
    takes_build: bool = False


def slot_of(kind: str, builds: tuple[int, ...], value: int | None) -> int:
    """The slot of a play of this kind, builds and value (docs/notation.md's move fields)."""
    if kind == "trail":
        return TRAIL
    if kind == "capture":
        return CAPTURE_BUILD if builds else CAPTURE
    return {"build": BUILD, "increase": INCREASE, "add": ADD}[kind] + value


def play_action(kind: str, card: int, builds: tuple[int, ...], value: int | None) -> int:
    """The first action of a play: its card, kind and value (a Move's or a movegen Family's fields)."""
    return card * SLOTS + slot_of(kind, builds, value)


def meaning(action: int) -> Meaning:
    """What the id means in any position; ValueError for an id out of range."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} is not an id of the encoding (0 to {NUM_ACTIONS - 1})")
    if action >= DONE:
        return Meaning("done")
    if action >= LOOSE:
        return Meaning("loose", action - LOOSE)
    card, slot = divmod(action, SLOTS)
    if slot == TRAIL:
        return Meaning("play", card, "trail")
    if slot in (CAPTURE, CAPTURE_BUILD):
        value = None if is_figure(card) else value_of(card)
        return Meaning("play", card, "capture", value, slot == CAPTURE_BUILD)
    kind = "build" if slot <= BUILD + VALUES else "increase" if slot <= INCREASE + VALUES else "add"
    return Meaning("play", card, kind, slot - {"build": BUILD, "increase": INCREASE, "add": ADD}[kind])


def describe(player: int, action: int) -> str:
    """The action in words, as its id alone says it (research/choice.py words a play once its cards are known)."""
    m, who = meaning(action), PLAYER_NAMES[player]
    if m.step == "done":
        return f"{who} names no more loose cards"
    card = pretty_card(m.card)
    if m.step == "loose":
        return f"{who} names {card}"
    if m.kind == "trail":
        return f"{who} trails {card}"
    if m.kind == "capture":
        if m.takes_build:
            return f"{who} plays {card} and captures the build of {m.value}"
        return f"{who} plays {card} and {'takes' if is_figure(m.card) else 'captures'} loose cards"
    if m.kind == "build":
        return f"{who} plays {card} and builds {m.value}"
    if m.kind == "increase":
        return f"{who} plays {card} on a build and raises it to {m.value}"
    return f"{who} adds {card} to the build of {m.value}"
