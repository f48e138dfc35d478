"""Rounds seen by side: each player, or each team, of every round of three or four players, by place and policy;
and the place view of two-player records, their seats as players under the same column names (seat_players).

A side is a player (named by its place in the turn order: first, second, third, dealer) or, with teams, a team
(team_first: the first and third places; team_dealer: the second and the dealer). Policy A sits at player
`mirror` of a round (runner.deals.rotations), so A's side is known even when A and B are the same policy. The
rounds of one deal share their cards: they form one cluster of the intervals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from casino_sim.core.errors import InputError
from casino_sim.core.record import BUILD_FATES, CATEGORIES, PLAY_KINDS, TEAMS
from casino_sim.reports.load import live_rounds, seat_column, seat_rows
from casino_sim.reports.tables import seat_groups

SIDE_FIELDS = (*CATEGORIES, "total", "n_cards", "n_spades", "n_sweeps", *(f"plays_{k}" for k in PLAY_KINDS))
TEAM_OWN = ("cards", "spades", "total", "n_cards", "n_spades")  # a team's own columns; the rest sum its members


def has_teams(df: pd.DataFrame) -> bool:
    """Whether the records are of two teams (team_first, team_dealer)."""
    return "team_first_total" in df.columns


def place_names(df: pd.DataFrame) -> list[str]:
    """The places of the records, in turn order (first, second, [third,] dealer)."""
    return [c.removesuffix("_seat") for c in df.columns if c.endswith("_seat")]


def side_rows(df: pd.DataFrame, by_team: bool = True) -> pd.DataFrame:
    """One row per side of every non-void round: cluster (deal), side, policy, is_a, the SIDE_FIELDS, the build
    fates and sweeps by batch, margin (its total minus the mean of the other sides'), won (1 for the one highest
    total, 1/k for k tied there), last_capture, remainder_cards (taken with the remainder), prize_cards and
    prize_spades (the points for most cards and spades of its side, its team's with teams) and nobody_cards (no
    side scored most cards).

    With teams the sides are the teams; `by_team` False takes the players instead, each with its own pile's
    points (its team's prizes apart)."""
    if len(df) == 0:
        raise InputError("no round records")
    live = df[live_rounds(df)]
    places = place_names(df)
    n = len(places)
    names = np.stack([live[f"policy_{p}"].astype(str).to_numpy() for p in range(n)], axis=1)
    seat = np.stack([live[f"{q}_seat"].to_numpy().astype(np.int64) for q in places], axis=1)
    policy = names[np.arange(len(live))[:, None], seat]  # the policy in each place
    is_a = seat == live["mirror"].to_numpy()[:, None]
    last = live["last_capturer"].to_numpy()[:, None] == seat
    teams = has_teams(df)
    fields = [*SIDE_FIELDS, *BUILD_FATES, *(c.removeprefix("first_") for c in df.columns if "first_sweeps_b" in c)]
    team_of = [TEAMS[q % 2] for q in range(n)]  # with teams: first and third places against second and dealer

    def prize(q: int, cat: str) -> np.ndarray:
        return live[f"team_{team_of[q]}_{cat}" if teams else f"{places[q]}_{cat}"].to_numpy()

    groups = [(f"team_{t}", (i, i + 2)) for i, t in enumerate(TEAMS)] if by_team and teams else []
    groups = groups or [(place, (q,)) for q, place in enumerate(places)]
    parts = []
    for side, members in groups:
        own = side.startswith("team_")
        cols = {
            f: live[f"{side}_{f}"].to_numpy()
            if own and f in TEAM_OWN
            else sum(live[f"{places[q]}_{f}"].to_numpy() for q in members)
            for f in fields
        }
        pol = policy[:, members[0]]
        for q in members[1:]:  # a team of two policies: both, in alphabetical order
            other = policy[:, q]
            lo, hi = np.where(pol <= other, pol, other), np.where(pol <= other, other, pol)
            pol = np.where(pol == other, pol, np.char.add(np.char.add(lo, "+"), hi))
        took = np.any(last[:, members], axis=1)
        parts.append(
            {
                "side": side,
                "policy": pol,
                "is_a": np.any(is_a[:, members], axis=1),
                **cols,
                "last_capture": took,
                "remainder_cards": np.where(took, live["remainder"].to_numpy(), 0),
                "prize_cards": prize(members[0], "cards"),
                "prize_spades": prize(members[0], "spades"),
            }
        )
    nobody = sum(prize(q, "cards") for q in range(len(TEAMS) if teams else n)) == 0  # teams: place q stands for team q
    totals = np.stack([p["total"] for p in parts], axis=1).astype(np.float64)
    k = totals.shape[1]
    top = totals.max(axis=1, keepdims=True)
    share = (totals == top) / (totals == top).sum(axis=1, keepdims=True)
    margin = totals - (totals.sum(axis=1, keepdims=True) - totals) / (k - 1)
    cluster = pd.factorize(live["deal_id"].to_numpy(), sort=True)[0].astype(np.int64)
    frames = [
        pd.DataFrame(
            {
                "cluster": cluster,
                "deal_id": live["deal_id"].to_numpy(),
                **p,
                "margin": margin[:, s],
                "won": share[:, s],
                "nobody_cards": nobody,
            }
        )
        for s, p in enumerate(parts)
    ]
    return pd.concat(frames, ignore_index=True)


# The player-row columns of side_rows that two-player records keep under other names, made from seat s's columns
SEAT_PLAYER = {
    "last_capture": lambda df, s: df["last_capturer"].to_numpy() == s,
    "remainder_cards": lambda df, s: np.where(df["last_capturer"].to_numpy() == s, df["remainder"].to_numpy(), 0),
    "prize_cards": lambda df, s: df[f"s{s}_cards"].to_numpy(),
    "prize_spades": lambda df, s: df[f"s{s}_spades"].to_numpy(),
    "nobody_cards": lambda df, s: df["s0_cards"].to_numpy() + df["s1_cards"].to_numpy() == 0,
}


def seat_players(df: pd.DataFrame):
    """The place view of prepared two-player records: the Group (reports/tables.py) of each policy of each matchup,
    one player row per seat of a non-void round (seat_rows), its columns named as side_rows names a player's.

    A column is made from the seat columns when it is read and dropped after: all of them at once were the largest
    part of the reports' memory peak on a million deals."""
    live = live_rounds(df)

    def column(name: str) -> np.ndarray:
        if name not in SEAT_PLAYER:
            return seat_column(df, live, name)
        return np.concatenate([SEAT_PLAYER[name](df, s)[live] for s in (0, 1)])

    return seat_groups(df, seat_rows(df, []), column)


def policy_groups(rows: pd.DataFrame, fields: dict):
    """The Group (reports/tables.py) of each policy of side rows, in order of appearance: `fields` (rules,
    matchup) and the policy name it, its columns are the rows'."""
    for policy, g in rows.groupby("policy", sort=False):
        yield {**fields, "policy": policy}, lambda name, g=g: g[name].to_numpy()


def player_margins(df) -> np.ndarray:
    """(rounds, players): the margin of each player's side, its total minus the mean of the other sides' (0 in
    a void round). `df`: n-player records, a DataFrame or the engines' dict of columns."""
    places = [c.removesuffix("_seat") for c in df if c.endswith("_seat")]
    n = len(places)
    seat = np.stack([np.asarray(df[f"{q}_seat"], np.int64) for q in places], axis=1)
    rows = np.arange(len(seat))[:, None]
    if "team_first_total" in df:  # a player's side: the team of place 0 (first) or of place 1
        team = np.stack([np.asarray(df[f"team_{t}_total"], np.float64) for t in TEAMS], axis=1)
        margin = team - team[:, ::-1]
        out = np.zeros((len(seat), n))
        out[rows, seat] = margin[:, np.arange(n) % 2]
        return out
    totals = np.stack([np.asarray(df[f"{q}_total"], np.float64) for q in places], axis=1)
    out = np.zeros((len(seat), n))
    out[rows, seat] = totals - (totals.sum(axis=1, keepdims=True) - totals) / (n - 1)
    return out
