"""A position of docs/notation.md: hands, loose cards, builds, capture piles, obligations."""

from __future__ import annotations

from dataclasses import dataclass, replace

from casino_sim.core.cards import CardError, format_card, format_cards, is_figure, parse_card, value_of
from casino_sim.core.errors import UserError
from casino_sim.core.rules import STRICT, RulesError, RuleSet, get_rules
from casino_sim.reference.groups import splits_into_groups
from casino_sim.reference.moves import COUNT_WORDS, PLAYER_VALUES
from casino_sim.reference.seats import dealers_fitting, side_of

POSITION_FIELDS = (
    "rules",
    "to_move",
    "dealer",
    "hands",
    "loose",
    "builds",
    "captured",
    "sweeps",
    "last_capturer",
    "must_act",
)


class PositionError(UserError):
    """A position that is malformed or breaks the rules."""


@dataclass(frozen=True)
class Build:
    """A build: its announced value, its cards and its owner (one player, never a team)."""

    value: int
    cards: frozenset[int]
    owner: int

    @property
    def is_simple(self) -> bool:
        """A build of one group: its cards sum to its value."""
        return sum(value_of(c) for c in self.cards) == self.value


@dataclass(frozen=True)
class Position:
    """The state a player sees at the table; hands may be None when unknown.

    `hands`, `captured`, `sweeps` and `must_act` hold one entry per player (2 to 4). `dealer` is None for a
    two-player position that does not name it (it is read off the cards where needed, as always).
    """

    rules: RuleSet = STRICT
    to_move: int = 0
    hands: tuple = (frozenset(), frozenset())
    loose: frozenset[int] = frozenset()
    builds: tuple[Build, ...] = ()  # ascending by value, at most one per value
    captured: tuple = (frozenset(), frozenset())
    sweeps: tuple[int, int] = (0, 0)
    last_capturer: int | None = None
    must_act: tuple[bool, bool] = (False, False)
    dealer: int | None = None

    @property
    def players(self) -> int:
        return len(self.hands)

    def next_player(self, p: int) -> int:
        """The player who plays after p."""
        return (p + 1) % self.players

    def partners(self, a: int, b: int) -> bool:
        """Whether a and b score for the same side (the same player, or partners)."""
        return side_of(self.rules, a) == side_of(self.rules, b)

    def build_of(self, value: int) -> Build | None:
        """The build of that value, if any (decision 1: at most one)."""
        for b in self.builds:
            if b.value == value:
                return b
        return None

    def owns_build(self, player: int) -> bool:
        return any(b.owner == player for b in self.builds)

    @property
    def table_empty(self) -> bool:
        return not self.loose and not self.builds

    def all_cards(self) -> list[int]:
        """Every card the position places somewhere known."""
        out = list(self.loose)
        for h in self.hands:
            if h is not None:
                out.extend(h)
        for b in self.builds:
            out.extend(b.cards)
        for pile in self.captured:
            out.extend(pile)
        return out

    def seen_by(self, player: int) -> Position:
        """The position as `player` sees it: the other hands unknown (None)."""
        return replace(self, hands=tuple(hand if q == player else None for q, hand in enumerate(self.hands)))

    def to_json(self) -> dict:
        """The JSON object of docs/notation.md, cards in canonical order."""
        head = {"rules": self.rules.name, "to_move": self.to_move}
        if self.dealer is not None:
            head["dealer"] = self.dealer
        return {
            **head,
            "hands": [None if h is None else format_cards(h) for h in self.hands],
            "loose": format_cards(self.loose),
            "builds": [{"value": b.value, "cards": format_cards(b.cards), "owner": b.owner} for b in self.builds],
            "captured": [format_cards(p) for p in self.captured],
            "sweeps": list(self.sweeps),
            "last_capturer": self.last_capturer,
            "must_act": list(self.must_act),
        }

    @staticmethod
    def from_json(obj) -> Position:
        """Parse and validate a position of docs/notation.md; PositionError says what is wrong."""
        return _parse_position(obj)


def _player(x, what: str, n: int = 2) -> int:
    if isinstance(x, bool) or x not in range(n):
        raise PositionError(f"{what} must be {PLAYER_VALUES[n]}, got {x!r}")
    return x


def _per_player(obj, key: str, default, rules: RuleSet) -> list:
    """The list of one entry per player under `key`; its length must match the rules' players."""
    n = rules.players
    val = obj.get(key, default)
    if val is None:
        val = default
    if not isinstance(val, list) or len(val) != n:
        got = f"{len(val)} entries" if isinstance(val, list) else type(val).__name__
        raise PositionError(f"{key} must be a list of {n} entries, one per player of {rules.name}, got {got}")
    return val


def _cards(tokens, where: str) -> list[int]:
    if not isinstance(tokens, list):
        raise PositionError(f"{where} must be a list of cards")
    try:
        return [parse_card(t) for t in tokens]
    except CardError as e:
        raise PositionError(f"{where}: {e}") from None


def _parse_position(obj) -> Position:
    if not isinstance(obj, dict):
        raise PositionError("a position must be a JSON object")
    unknown = set(obj) - set(POSITION_FIELDS)
    if unknown:
        raise PositionError(f"unknown position field {sorted(unknown)[0]!r}")
    try:
        rules = get_rules("strict" if obj.get("rules") is None else obj["rules"])
    except RulesError as e:
        raise PositionError(str(e)) from None
    n = rules.players
    to_move = _player(obj.get("to_move", 0), "to_move", n)

    hands = []
    for p, h in enumerate(_per_player(obj, "hands", [None] * n, rules)):
        hands.append(None if h is None else frozenset(_check_unique(_cards(h, f"hands[{p}]"), f"hands[{p}]")))
    loose = _cards(obj.get("loose", []) or [], "loose")

    builds_raw = obj.get("builds", []) or []
    if not isinstance(builds_raw, list):
        raise PositionError("builds must be a list")
    builds = []
    for i, b in enumerate(builds_raw):
        builds.append(_parse_build(b, i, n))
    values = [b.value for b in builds]
    dup = {v for v in values if values.count(v) > 1}
    if dup:
        raise PositionError(f"two builds of value {min(dup)}: the table holds at most one build per value")

    piles = [
        _cards(pile or [], f"captured[{p}]") for p, pile in enumerate(_per_player(obj, "captured", [[]] * n, rules))
    ]
    sweeps = _per_player(obj, "sweeps", [0] * n, rules)
    if not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in sweeps):
        raise PositionError(f"sweeps must be {COUNT_WORDS[n]} counts >= 0, got {sweeps!r}")
    lc = obj.get("last_capturer")
    if lc is not None:
        lc = _player(lc, "last_capturer", n)
    must_act = _per_player(obj, "must_act", [False] * n, rules)
    if not all(isinstance(m, bool) for m in must_act):
        raise PositionError(f"must_act must be {COUNT_WORDS[n]} booleans, got {must_act!r}")
    dealer = _dealer(obj.get("dealer"), [None if h is None else len(h) for h in hands], to_move)

    pos = Position(
        rules=rules,
        to_move=to_move,
        hands=tuple(hands),
        loose=frozenset(loose),
        builds=tuple(sorted(builds, key=lambda b: b.value)),
        captured=tuple(frozenset(pile) for pile in piles),
        sweeps=tuple(sweeps),
        last_capturer=lc,
        must_act=tuple(must_act),
        dealer=dealer,
    )
    # a card twice anywhere (this also bounds the count at 52)
    counted = list(loose) + [c for pile in piles for c in pile]
    for h in hands:
        counted.extend(h or ())
    for b in builds:
        counted.extend(b.cards)
    _check_unique(counted, "the position")
    return pos


def _check_unique(cards: list[int], where: str) -> list[int]:
    seen = set()
    for c in cards:
        if c in seen:
            raise PositionError(f"card {format_card(c)} appears twice in {where}")
        seen.add(c)
    return cards


def names_dealer(players: int) -> bool:
    """Whether a position of `players` players names its dealer: three or four do; a two-player position need not,
    its hand sizes say who deals (docs/notation.md, positions). The one place this notation rule is written."""
    return players > 2


def _dealer(given, sizes: list[int | None], to_move: int) -> int | None:
    """The dealer: given, or read off the hand sizes (docs/notation.md); two-player positions need not name one."""
    n = len(sizes)
    if given is not None:
        dealer = _player(given, "dealer", n)
        if dealer not in dealers_fitting(sizes, to_move):
            raise PositionError(
                f"dealer {dealer} contradicts the hand sizes {_sizes(sizes)} with player {to_move} to move: "
                f"{SHAPE_RULE}"
            )
        return dealer
    if not names_dealer(n):
        return None
    fits = dealers_fitting(sizes, to_move)
    if not fits:
        raise PositionError(
            f"hands of {_sizes(sizes)} cards with player {to_move} to move cannot be a deal of {n} players: "
            f"{SHAPE_RULE}"
        )
    if len(fits) > 1:
        raise PositionError(
            f'the dealer cannot be read from the hands ({_sizes(sizes)} cards, a hidden hand): give "dealer" '
            f"(one of {', '.join(map(str, fits))})"
        )
    return fits[0]


def _sizes(sizes: list[int | None]) -> str:
    return "[" + ", ".join("?" if s is None else str(s) for s in sizes) + "]"


SHAPE_RULE = (
    "the player to move holds 0 to 4 cards, those who have played since the player after the dealer began this "
    "turn around the table hold one fewer, and the rest as many (the dealer plays last)"
)


def _parse_build(b, i: int, n: int = 2) -> Build:
    where = f"builds[{i}]"
    if not isinstance(b, dict):
        raise PositionError(f"{where} must be an object with value, cards, owner")
    unknown = set(b) - {"value", "cards", "owner"}
    if unknown:
        raise PositionError(f"{where}: unknown field {sorted(unknown)[0]!r}")
    v = b.get("value")
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 10:
        raise PositionError(f"{where}: value must be 1..10, got {v!r}")
    cards = _check_unique(_cards(b.get("cards"), f"{where}.cards"), where)
    owner = _player(b.get("owner"), f"{where}.owner", n)
    figs = [c for c in cards if is_figure(c)]
    if figs:
        raise PositionError(f"{where}: a figure ({format_card(figs[0])}) cannot be in a build")
    if len(cards) < 2:
        raise PositionError(f"{where}: a build holds at least two cards")
    if not splits_into_groups(cards, v):
        raise PositionError(f"{where}: cards {' '.join(format_cards(cards))} do not split into groups of {v}")
    return Build(v, frozenset(cards), owner)
