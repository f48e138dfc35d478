"""Card codes and the card notation of docs/notation.md.

A card is an int 0..51 = rank_index * 4 + suit_index, ranks A..K and suits
S, H, D, C, so sorting the ints gives the canonical order.
"""

from __future__ import annotations

from collections.abc import Iterable

from casino_sim.core.errors import UserError

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SPADES = 0

N_CARDS = 52
DECK = tuple(range(N_CARDS))


class CardError(UserError):
    """A token that is not a card."""


def card(rank_index: int, suit_index: int) -> int:
    """The card code of a rank index (0 = A .. 12 = K) and a suit index (S H D C)."""
    return rank_index * 4 + suit_index


def rank_of(c: int) -> int:
    """Rank index: 0 = ace .. 9 = ten, 10..12 = J Q K."""
    return c >> 2


def suit_of(c: int) -> int:
    """Suit index: 0 spades, 1 hearts, 2 diamonds, 3 clubs."""
    return c & 3


def value_of(c: int) -> int:
    """Numeric value 1..10 of a number card, 0 for a figure (J Q K)."""
    r = c >> 2
    return r + 1 if r < 10 else 0


def is_figure(c: int) -> bool:
    return (c >> 2) >= 10


def is_spade(c: int) -> bool:
    return (c & 3) == SPADES


def is_ace(c: int) -> bool:
    return (c >> 2) == 0


BIG_CASINO = card(9, 2)  # 10♦
LITTLE_CASINO = card(1, 0)  # 2♠

_SUIT_INPUT = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3, "♤": 0, "♡": 1, "♢": 2, "♧": 3}


def parse_card(token: str) -> int:
    """Parse one card token: `TD`, `10♦`, `7s`, `as`; raise CardError naming the token."""
    if not isinstance(token, str):
        raise CardError(f"bad card {token!r}: expected a string such as 'TD'")
    t = token.strip()
    if len(t) < 2:
        raise CardError(f"bad card {token!r}")
    rank_txt, suit_txt = t[:-1].upper(), t[-1].upper()
    if rank_txt == "10":
        rank_txt = "T"
    if len(rank_txt) != 1 or rank_txt not in RANKS or suit_txt not in _SUIT_INPUT:
        raise CardError(f"bad card {token!r}")
    return card(RANKS.index(rank_txt), _SUIT_INPUT[suit_txt])


def parse_cards(tokens: Iterable[str]) -> list[int]:
    """Parse a list of card tokens (duplicates are left for the caller to judge)."""
    if isinstance(tokens, str) or not isinstance(tokens, Iterable):
        raise CardError(f"expected a list of cards, got {tokens!r}")
    return [parse_card(t) for t in tokens]


def format_card(c: int) -> str:
    """Canonical two-character form, e.g. `TD`."""
    return RANKS[c >> 2] + SUITS[c & 3]


def pretty_card(c: int) -> str:
    """Human-facing form, e.g. `10♦`."""
    r = RANKS[c >> 2]
    return ("10" if r == "T" else r) + SUIT_SYMBOLS[c & 3]


def format_cards(cards: Iterable[int]) -> list[str]:
    """Canonical tokens in canonical order."""
    return [format_card(c) for c in sorted(cards)]


def pretty_cards(cards: Iterable[int]) -> str:
    return " ".join(pretty_card(c) for c in sorted(cards))


def mask_of(cards: Iterable[int]) -> int:
    """The 52-bit mask with one bit per card (bit c for card c)."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, in canonical order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
