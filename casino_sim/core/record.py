"""The per-round record of a simulation: its integer columns, shared by both engines' recorders.

Two players (record_columns()): seats are 0 and 1. Cards 10♦ and 2♠ are tracked from the deal to their capture;
sweeps are counted by the batch (1..6) in which they fell. The anatomy columns
count each seat's plays by kind and the fates of its builds (docs/reports.md).
"""

from __future__ import annotations

from casino_sim.core.cards import BIG_CASINO, LITTLE_CASINO

CATEGORIES = ("cards", "spades", "aces", "ten_diamonds", "two_spades", "sweeps")  # the points of a round, in order
CATEGORY_LABELS = {
    "cards": "most cards",
    "spades": "most spades",
    "aces": "aces",
    "ten_diamonds": "10♦ (big casino)",
    "two_spades": "2♠ (little casino)",
    "sweeps": "sweeps",
}  # each category as the tables, charts and the terminal game name it
BATCHES = 6  # a two-player round deals six batches (n players: 24 // n)
TABLE = 2  # "dealt to" code for a card dealt face up to the table
REMAINDER_PLY = 49  # "captured at ply" code for a card taken with the remainder
TRACKED = {"ten_diamonds": BIG_CASINO, "two_spades": LITTLE_CASINO}
PLAY_KINDS = ("trail", "capture", "build", "increase", "add")  # docs/rules.md section 3; docs/notation.md order
# Per seat: builds made (created, or the opponent's increased or added to: the seat becomes their owner), its
# builds captured by itself, and its builds captured by the opponent; the owner is the one at the capture.
BUILD_FATES = ("builds_made", "builds_captured_own", "builds_lost")
ANATOMY = tuple(f"plays_{k}" for k in PLAY_KINDS) + BUILD_FATES  # per-seat columns, after the tracked cards


PLACES = ("first", "second", "third")  # places in the turn order before the dealer's (docs/rules.md section 11)
SEAT_FIELDS = ("seat", *CATEGORIES, "total", "n_cards", "n_spades", "n_sweeps", *(f"plays_{k}" for k in PLAY_KINDS))
TEAM_FIELDS = ("total", "cards", "spades", "n_cards", "n_spades")
TEAMS = ("first", "dealer")  # team_first: the first and third places; team_dealer: the second and the dealer


def record_columns(players: int = 2, teams: bool = False) -> list[str]:
    """Every integer column of a round record, in a fixed order (three or four players: many_record_columns)."""
    if players != 2:
        return many_record_columns(players, teams)
    cols = ["dealer", "void", "plies", "last_capturer", "remainder"]
    for s in (0, 1):
        cols += [f"s{s}_{cat}" for cat in CATEGORIES] + [
            f"s{s}_total",
            f"s{s}_n_cards",
            f"s{s}_n_spades",
            f"s{s}_n_sweeps",
        ]
        cols += [f"s{s}_sweeps_b{b}" for b in range(1, BATCHES + 1)]
    for name in TRACKED:
        cols += [f"{name}_dealt_to", f"{name}_dealt_batch", f"{name}_captured_by", f"{name}_captured_ply"]
    for s in (0, 1):  # last, so that the columns above keep their places
        cols += [f"s{s}_{c}" for c in ANATOMY]
    return cols


def column_owner(players: int, dealer: int, player: int) -> str:
    """The prefix of a player's columns in a round dealt by `dealer`: its seat (`s0`, `s1`) with two players, its
    place in the turn order (first, second, third, dealer) with three or four."""
    if players == 2:
        return f"s{player}"
    return (*PLACES[: players - 1], "dealer")[(player - dealer - 1) % players]


def many_record_columns(players: int, teams: bool) -> list[str]:
    """The columns of a three- or four-player round, seats named by their place in the turn order.

    `{place}_seat` is the player in that place (first, second, third, dealer); `last_capturer` and `dealer` are
    players. With teams, the majority prizes are the teams' (`team_{first,dealer}_cards`, `_spades`) and a
    seat's points are those of its own pile (aces, 10♦, 2♠, sweeps): a team's total is its members' totals plus
    its prizes. Then each place's builds (BUILD_FATES) and sweeps by batch (1 .. 12 / players), and where the
    10♦ and 2♠ were dealt (a player, or `players` for the table; batch) and who captured them at which play.
    """
    cols = ["dealer", "void", "plies", "last_capturer", "remainder"]
    for place in (*PLACES[: players - 1], "dealer"):
        cols += [f"{place}_{f}" for f in SEAT_FIELDS]
    if teams:
        cols += [f"team_{t}_{f}" for t in TEAMS for f in TEAM_FIELDS]
    for place in (*PLACES[: players - 1], "dealer"):  # after the columns above, so that they keep their places
        cols += [f"{place}_{f}" for f in BUILD_FATES]
        cols += [f"{place}_sweeps_b{b}" for b in range(1, BATCHES * 2 // players + 1)]
    for name in TRACKED:
        cols += [f"{name}_dealt_to", f"{name}_dealt_batch", f"{name}_captured_by", f"{name}_captured_ply"]
    return cols
