"""The per-round record of a simulation: its integer columns, shared by both engines' recorders (format 2).

Every player count names a player's columns by their place in the turn order (first, second, third, dealer;
`{place}_seat` is the player there), two players included (places first and dealer). Cards 10♦ and 2♠ are tracked
from the deal to their capture; sweeps are counted by the batch in which they fell. The anatomy columns count each
place's plays by kind and the fates of its builds (docs/reports.md).
"""

from __future__ import annotations

from casino_sim.core.cards import BIG_CASINO, LITTLE_CASINO
from casino_sim.core.deal import batches

FORMAT_VERSION = 2  # a run's manifest says which record layout its chunks were written in (none: format 1)
CATEGORIES = ("cards", "spades", "aces", "ten_diamonds", "two_spades", "sweeps")  # the points of a round, in order
CATEGORY_LABELS = {
    "cards": "most cards",
    "spades": "most spades",
    "aces": "aces",
    "ten_diamonds": "10♦ (big casino)",
    "two_spades": "2♠ (little casino)",
    "sweeps": "sweeps",
}  # each category as the tables, charts and the terminal game name it
REMAINDER_PLY = 49  # "captured at ply" code for a card taken with the remainder
TRACKED = {"ten_diamonds": BIG_CASINO, "two_spades": LITTLE_CASINO}
PLAY_KINDS = ("trail", "capture", "build", "increase", "add")  # docs/rules.md section 3; docs/notation.md order
# Per place: builds made (created, or another's increased or added to: the player becomes their owner), its
# builds captured by itself, and its builds captured by another player; the owner is the one at the capture.
BUILD_FATES = ("builds_made", "builds_captured_own", "builds_lost")
ANATOMY = tuple(f"plays_{k}" for k in PLAY_KINDS) + BUILD_FATES  # per-place columns: plays by kind, build fates


PLACES = ("first", "second", "third")  # places in the turn order before the dealer's (docs/rules.md section 11)
SEAT_FIELDS = ("seat", *CATEGORIES, "total", "n_cards", "n_spades", "n_sweeps", *(f"plays_{k}" for k in PLAY_KINDS))
TEAM_FIELDS = ("total", "cards", "spades", "n_cards", "n_spades")
TEAMS = ("first", "dealer")  # team_first: the first and third places; team_dealer: the second and the dealer


def place_names(players: int) -> tuple[str, ...]:
    """The places in the turn order: first, [second, [third,]] dealer."""
    return (*PLACES[: players - 1], "dealer")


def column_owner(players: int, dealer: int, player: int) -> str:
    """The prefix of a player's columns in a round dealt by `dealer`: their place in the turn order."""
    return place_names(players)[(player - dealer - 1) % players]


def record_columns(players: int, teams: bool = False) -> list[str]:
    """Every integer column of a round record, in a fixed order, seats named by their place in the turn order.

    `{place}_seat` is the player in that place (first, second, third, dealer); `last_capturer` and `dealer` are
    players. With teams, the majority prizes are the teams' (`team_{first,dealer}_cards`, `_spades`) and a
    seat's points are those of its own pile (aces, 10♦, 2♠, sweeps): a team's total is its members' totals plus
    its prizes. Then each place's builds (BUILD_FATES) and sweeps by batch (1 .. batches(players)), and where the
    10♦ and 2♠ were dealt (a player, or `players` for the table; batch) and who captured them at which play.
    """
    cols = ["dealer", "void", "plies", "last_capturer", "remainder"]
    for place in place_names(players):
        cols += [f"{place}_{f}" for f in SEAT_FIELDS]
    if teams:
        cols += [f"team_{t}_{f}" for t in TEAMS for f in TEAM_FIELDS]
    for place in place_names(players):  # after the columns above, so that they keep their places
        cols += [f"{place}_{f}" for f in BUILD_FATES]
        cols += [f"{place}_sweeps_b{b}" for b in range(1, batches(players) + 1)]
    for name in TRACKED:
        cols += [f"{name}_dealt_to", f"{name}_dealt_batch", f"{name}_captured_by", f"{name}_captured_ply"]
    return cols
