"""The move record of docs/notation.md: kind, card, loose, builds, value."""

from __future__ import annotations

from dataclasses import dataclass

from casino_sim.core.cards import CardError, format_card, is_figure, parse_card, parse_cards, pretty_card, pretty_cards
from casino_sim.core.errors import UserError
from casino_sim.core.record import PLAY_KINDS

KINDS = PLAY_KINDS  # trail, capture, build, increase, add
KIND_ORDER = {k: i for i, k in enumerate(KINDS)}
PLAYER_NAMES = ("A", "B", "C", "D")  # players 0..3 in words

# docs/notation.md's words by player count, for every file's and position's errors (words, not a rule): a player
# field's values ("dealer must be 0 or 1"), and the count of per-player entries ("sweeps must be two counts")
PLAYER_VALUES = {2: "0 or 1", 3: "a player 0..2", 4: "a player 0..3"}
COUNT_WORDS = {2: "two", 3: "3", 4: "4"}


class MoveError(UserError):
    """A move text that is not a well-formed move record."""


@dataclass(frozen=True, order=False)
class Move:
    """One play. Two moves are the same move when all five fields are equal."""

    kind: str
    card: int
    loose: tuple[int, ...] = ()  # canonical order
    builds: tuple[int, ...] = ()  # ascending build values
    value: int | None = None

    def sort_key(self) -> tuple:
        """Canonical order of docs/notation.md (`casino-sim moves`): kind, card, value, loose, builds."""
        return (KIND_ORDER[self.kind], self.card, -1 if self.value is None else self.value, self.loose, self.builds)

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "card": format_card(self.card),
            "loose": [format_card(c) for c in self.loose],
            "builds": list(self.builds),
            "value": self.value,
        }

    @staticmethod
    def from_json(obj) -> Move:
        """Parse a move record; MoveError says which field is wrong."""
        if not isinstance(obj, dict):
            raise MoveError("a move must be a JSON object with kind, card, loose, builds, value")
        unknown = set(obj) - {"kind", "card", "loose", "builds", "value"}
        if unknown:
            raise MoveError(f"unknown move field {sorted(unknown)[0]!r}")
        kind = obj.get("kind")
        if kind not in KIND_ORDER:
            raise MoveError(f"bad move kind {kind!r} (choose from: {', '.join(KINDS)})")
        if "card" not in obj:
            raise MoveError("the move has no card")
        try:
            c = parse_card(obj["card"])
            loose = parse_cards(obj.get("loose", []) or [])
        except CardError as e:
            raise MoveError(str(e)) from None
        if len(set(loose)) != len(loose):
            raise MoveError("a loose card is named twice in the move")
        builds = obj.get("builds", []) or []
        if not isinstance(builds, list) or not all(isinstance(b, int) and not isinstance(b, bool) for b in builds):
            raise MoveError(f"builds must be a list of build values, got {builds!r}")
        if len(set(builds)) != len(builds):
            raise MoveError("a build value is named twice in the move")
        value = obj.get("value")
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise MoveError(f"value must be a number or null, got {value!r}")
        return Move(kind, c, tuple(sorted(loose)), tuple(sorted(builds)), value)

    def describe(self, player: int) -> str:
        """The play in words, as a person would tell it."""
        who = PLAYER_NAMES[player]
        card = pretty_card(self.card)
        loose = pretty_cards(self.loose)
        if self.kind == "trail":
            return f"{who} trails {card}"
        if self.kind == "capture":
            taken = [loose] if loose else []
            if self.builds:
                taken.append(f"the build of {self.builds[0]}")
            verb = "takes" if is_figure(self.card) else "captures"
            return f"{who} plays {card} and {verb} {' and '.join(taken)}"
        if self.kind == "build":
            return f"{who} plays {card} on {loose} and builds {self.value}"
        if self.kind == "add":
            extra = f" with {loose}" if loose else ""
            return f"{who} adds {card}{extra} to the build of {self.value}"
        # increase
        old = self.builds[0]
        text = f"{who} plays {card} on the build of {old} and raises it to {self.value}"
        if len(self.builds) > 1:
            text += f", merging with the build of {self.builds[1]}"
        if loose:
            text += f", taking in {loose}"
        return text


def sort_moves(moves) -> list[Move]:
    """Distinct moves in canonical order (decision 5: sets of cards identify a play)."""
    return sorted(set(moves), key=Move.sort_key)
