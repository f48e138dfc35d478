"""Rounds seen by side, for every number of players: one row per side of every non-void round, its columns made
when they are read.

Records name each player's columns by place in the turn order (first, [second, third,] dealer; format 2,
docs/reports.md). A side is a player or, with teams, a team (team_first: the first and third places; team_dealer:
the second and the dealer). Policy A sits at player `mirror` of a round (runner.deals.rotations), so A's side is
known even when A and B are the same policy. The rounds of one deal of a matchup share their cards: they form one
cluster of the intervals (reports/load.py label_matchups).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from casino_sim.core.errors import InputError
from casino_sim.core.record import TEAMS
from casino_sim.reports.load import has_teams, live_rounds

TEAM_OWN = ("cards", "spades", "total", "n_cards", "n_spades")  # a team's own columns; the rest sum its members
# A policy's rows, whatever the number of players: the fields that name it (rules, matchup, policy) and a column
# of its rows by name (cluster and the figures), one row per side of a non-void round
Group = tuple[dict, Callable[[str], np.ndarray]]
# Which of each side's rounds to read: per side, a mask of the non-void rounds (None: every one, False: none)
Picks = Sequence[np.ndarray | bool | None]


@dataclass(frozen=True)
class Shape:
    """The shape of a player count's tables, chosen once from the records (shape_of): two players' tables have
    always had their own (docs/reports.md), which every number keeps to its last digit. Not a rule of the game:
    the layout of the tables, as data the makers read rather than a branch at each."""

    members: Callable[[np.ndarray], list]  # each side's members from the players of each place (Sides.members)
    a_first: bool  # a matchup's groups: A's before B's, else as their rows first show them
    score_fields: tuple[str, ...]  # the fields that name a policy's rows of the score table
    seat: str  # the seat table's maker (reports/tables.py SEAT_TABLES)
    count: tuple[str, str]  # the summary's count column (tie_rate or sides) and the column it goes before
    by_round: bool  # the summary reads A's and the others' rows in the order of their rounds (a side a round)
    text: str  # report.md's words (reports/index.py TEXTS)


# Two players: player p's rows are their place in each round (whether they dealt, else first), player by player
HEADS_UP = Shape(
    members=lambda seat: [(seat[:, 1] == p,) for p in (0, 1)],
    a_first=True,
    score_fields=("rules", "matchup"),
    seat="dealer_first",
    count=("tie_rate", "total_a_"),
    by_round=True,
    text="seats",
)
# Three or four players: the rows place by place
AROUND = Shape(
    members=lambda seat: [(q,) for q in range(seat.shape[1])],
    a_first=False,
    score_fields=("matchup",),
    seat="seat_places",
    count=("sides", "diff_"),
    by_round=False,
    text="places",
)


def shape_of(columns) -> Shape:
    """The tables' shape of records with these columns: two players' (no second place) or every place's."""
    return AROUND if "second_seat" in columns else HEADS_UP


def place_names(df: pd.DataFrame) -> list[str]:
    """The places of the records, in turn order (first, [second, third,] dealer)."""
    return [c.removesuffix("_seat") for c in df.columns if c.endswith("_seat")]


class Sides:
    """The side rows of prepared round records (reports/load.py prepare): the rows of each side in turn, each side
    one row per non-void round; with teams and `by_team` the sides are the teams, else the players.

    Two players' rows go player by player (player 0's rounds, then player 1's), each row that player's place in
    its round: the order in which their tables have always summed them, so that every interval keeps its last
    digit (a cluster's residuals are summed in row order). Three or four players' go place by place (or team by
    team). A column is made from the records when it is read, for the rows asked for: all of them at once were
    the largest part of the reports' memory peak on a million deals.
    """

    def __init__(self, df: pd.DataFrame, by_team: bool = True):
        if len(df) == 0:
            raise InputError("no round records")
        self.df, self.live = df, live_rounds(df)
        self.every_live = bool(self.live.all())
        self.places = place_names(df)
        self.shape = shape_of(df.columns)
        self.teams = has_teams(df)
        self.seat = np.stack([self.record(f"{q}_seat").astype(np.int8) for q in self.places], axis=1)
        if by_team and self.teams:
            self.names, self.members = [f"team_{t}" for t in TEAMS], [(0, 2), (1, 3)]
        else:
            self.names, self.members = list(self.places), self.shape.members(self.seat)
        self.rounds = len(self.seat)
        self.policies, self.policy = self._policy_codes()

    def __len__(self) -> int:
        return len(self.members) * self.rounds

    def record(self, name: str) -> np.ndarray:
        """Record column `name` of the non-void rounds (no copy when none is void)."""
        x = self.df[name].to_numpy()
        return x if self.every_live else x[self.live]

    def column(self, name: str, picks: Picks | None = None) -> np.ndarray:
        """Column `name` of the side rows (of the rounds `picks` of each side, default all): cluster, mu, deal_id;
        policy (codes into `policies`), side (codes into `names`), is_a, margin (its total less the mean of the other
        sides'), won (1 for the one highest total, 1/k for k tied there); last_capture, remainder_cards (taken with
        the remainder), prize_cards and prize_spades (the points for most cards and spades of its side: its team's
        with teams), nobody_cards (no side scored most cards); or a field of a place's record (total, cards, ...,
        n_sweeps, plays_trail, builds_made, sweeps_b1, ...), its team's own or its members' summed."""
        standing = self._standing(name) if name in ("margin", "won") else None
        parts = []
        for s, p in enumerate(picks or [None] * len(self.members)):
            if p is False:
                continue
            x = self.of_side(name, s) if standing is None else standing[s]
            parts.append(x if p is None else x[p])
        return np.concatenate(parts)

    def of_side(self, name: str, s: int) -> np.ndarray:
        """Column `name` of side s, one value per non-void round."""
        members = self.members[s]
        if name in ("cluster", "mu", "deal_id"):
            return self.record(name)
        if name == "policy":
            return self.policy[s]
        if name in MADE:
            return MADE[name](self, members, s)
        if len(members) > 1 and name in TEAM_OWN:
            return self.record(f"team_{TEAMS[s]}_{name}")
        return sum(self._place(name, q) for q in members)

    def _place(self, name: str, q) -> np.ndarray:
        """Column `name` ({place}_name) of place q of each round: a place, or (two players) whether the round's
        place is the dealer's."""
        if isinstance(q, int):
            return self.record(f"{self.places[q]}_{name}")
        return np.where(q, self.record(f"dealer_{name}"), self.record(f"first_{name}"))

    def seats_of(self, members) -> list[np.ndarray]:
        """The player of each of a side's members in each round."""
        return [
            self.seat[:, q] if isinstance(q, int) else np.where(q, self.seat[:, 1], self.seat[:, 0]) for q in members
        ]

    def prize(self, q, cat: str) -> np.ndarray:
        """The points for most `cat` (cards, spades) of place q's side: its team's with teams."""
        if not self.teams:
            return self._place(cat, q)
        return self.record(f"team_{TEAMS[q % 2]}_{cat}")

    def _standing(self, name: str) -> list[np.ndarray]:
        """Each side's margin, or its share of the one highest total, per round (sums of whole points: exact in any
        order, so side by side rather than along a short axis, which numpy reduces slowly)."""
        totals = [self.of_side("total", s).astype(np.float64) for s in range(len(self.members))]
        if name == "margin":
            every = sum(totals)
            return [t - (every - t) / (len(totals) - 1) for t in totals]
        top = np.maximum.reduce(totals)
        ties = sum((t == top).astype(np.int64) for t in totals)
        return [(t == top) / ties for t in totals]

    def _policy_codes(self) -> tuple[list[str], list[np.ndarray]]:
        """The policy names of the sides, and each side's index into them per round (a team of two policies: both,
        in alphabetical order, "x+y"). Codes, not strings: a string per row was most of the memory of the rows."""
        cats = [pd.Categorical(self.record(f"policy_{p}")) for p in range(self.seat.shape[1])]
        labels = sorted({str(c) for cat in cats for c in cat.categories})
        index = {name: i for i, name in enumerate(labels)}
        player = np.stack([np.array([index[str(c)] for c in cat.categories])[cat.codes] for cat in cats], axis=1)
        rows, width = np.arange(self.rounds), len(labels)
        per_side = []
        for members in self.members:
            code = [player[rows, s] for s in self.seats_of(members)]
            if len(code) == 2:  # a team: one name per pair of policies
                pairs, at = np.unique(code[0] * width + code[1], return_inverse=True)
                named = ["+".join(sorted({labels[x // width], labels[x % width]})) for x in pairs]
                code = [np.array([index.setdefault(name, len(index)) for name in named])[at]]
            per_side.append(code[0].astype(np.int16))
        return list(index), per_side

    def groups(self, info: pd.DataFrame, fields: tuple[str, ...]):
        """The Group of each policy of each matchup (`info`: reports/load.py matchup_info), named by `fields` of its
        matchup (rules, matchup) and its policy. Two players give A's before B's; three or four players their
        policies as their rows first show them."""
        mu, width = self.record("mu").astype(np.int32), len(self.policies)
        keys = [mu * width + p for p in self.policy]  # (matchup, policy) of each side's rounds
        first = {}  # each (matchup, policy) key: its first row
        for s, key in enumerate(keys):
            found, at = np.unique(key, return_index=True)
            for k, r in zip(found.tolist(), at.tolist()):
                first.setdefault(k, s * self.rounds + r)

        def a_first(k: int) -> bool:
            return self.policies[k % width] != info.at[k // width, "policy_a"]

        order = sorted(first, key=lambda k: (k // width, a_first(k) if self.shape.a_first else first[k]))
        for k in order:
            picks = [key == k for key in keys]
            picks = None if all(p.all() for p in picks) else picks  # one policy in every row

            def column(name: str, picks=picks) -> np.ndarray:
                return self.column(name, picks)

            named = {f: info.at[k // width, f] for f in fields}
            yield {**named, "policy": self.policies[k % width]}, column


def _is_a(sides: Sides, members, s: int) -> np.ndarray:
    mirror = sides.record("mirror")
    return np.any([seat == mirror for seat in sides.seats_of(members)], axis=0)


def _last_capture(sides: Sides, members, s: int) -> np.ndarray:
    last = sides.record("last_capturer")
    return np.any([seat == last for seat in sides.seats_of(members)], axis=0)


# The columns of side rows that are no field of the record, each made from the records for side s (its members)
MADE = {
    "side": lambda sides, m, s: np.full(sides.rounds, s, np.int8) if isinstance(m[0], int) else m[0].astype(np.int8),
    "is_a": _is_a,
    "last_capture": _last_capture,
    "remainder_cards": lambda sides, m, s: np.where(_last_capture(sides, m, s), sides.record("remainder"), 0),
    "prize_cards": lambda sides, m, s: sides.prize(m[0], "cards"),
    "prize_spades": lambda sides, m, s: sides.prize(m[0], "spades"),
    "nobody_cards": lambda sides, m, s: (
        sum(sides.prize(q, "cards") for q in range(len(TEAMS) if sides.teams else len(sides.places))) == 0
    ),
}
