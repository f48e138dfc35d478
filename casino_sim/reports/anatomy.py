"""The anatomy of a round, per policy of each matchup: its kinds of play, the fates of its builds, what it
captures and which prizes it wins (docs/reports.md defines each quantity in docs/rules.md's words).

Like the other tables: void rounds are left out, rounds of one deal (a mirrored pair) are one cluster,
shares carry a cluster-robust Wilson interval and means a cluster-robust Student-t one.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from casino_sim.core.errors import InputError
from casino_sim.core.record import PLAY_KINDS
from casino_sim.reports.load import ANATOMY_COLUMNS, live_rounds, seat_column, seat_rows
from casino_sim.reports.stats import cluster_mean_ci, cluster_wilson
from casino_sim.reports.tables import seat_groups

PLAY_SHARE = "share of plays"
PER_ROUND = "per round"
ROUND_SHARE = "share of rounds"
# (quantity, unit, label): the rows of the table for each policy, in order (docs/reports.md defines each)
QUANTITIES = (
    *((f"share_{k}", PLAY_SHARE, k) for k in PLAY_KINDS),
    ("builds_made", PER_ROUND, "made"),
    ("builds_captured_own", PER_ROUND, "captured by itself"),
    ("builds_lost", PER_ROUND, "lost to the opponent"),
    ("cards", PER_ROUND, "cards"),
    ("spades", PER_ROUND, "spades"),
    ("remainder_cards", PER_ROUND, "taken with the remainder"),
    ("last_capture", ROUND_SHARE, "last capture"),
    ("most_cards_won", ROUND_SHARE, "most cards won"),
    ("most_cards_tied", ROUND_SHARE, "most cards tied"),
    ("most_spades_won", ROUND_SHARE, "most spades won"),
)
UNITS = {q: unit for q, unit, _ in QUANTITIES}
LABELS = {q: label for q, _, label in QUANTITIES}


def _seat_columns(df: pd.DataFrame) -> pd.DataFrame:
    """The per-seat columns of the quantities that are not record columns, added to a copy of df.

    They keep the records' narrow integers (a round has 48 plays and 40 cards): every estimate reads them as
    float64 anyway, and int64 columns were 8 bytes a seat more at the report's memory peak on a million deals."""
    last, rest = df["last_capturer"].to_numpy(), df["remainder"].to_numpy()
    cards = [df[f"s{s}_cards"].to_numpy() > 0 for s in (0, 1)]
    extra = {}
    for s in (0, 1):
        plays = sum(df[f"s{s}_plays_{k}"].to_numpy().astype(np.int16) for k in PLAY_KINDS)
        extra |= {f"s{s}_plays": plays, f"s{s}_remainder_cards": np.where(last == s, rest, 0)}
        extra |= {f"s{s}_last_capture": last == s, f"s{s}_most_cards_won": cards[s]}
        extra |= {f"s{s}_most_cards_tied": ~cards[0] & ~cards[1], f"s{s}_most_spades_won": df[f"s{s}_spades"] > 0}
        extra |= {f"s{s}_cards": df[f"s{s}_n_cards"], f"s{s}_spades": df[f"s{s}_n_spades"]}
    return df.assign(**extra)


def _play_share(count: np.ndarray, plays: np.ndarray, cluster: np.ndarray):
    """The share of the plays that are of one kind, over every play of the rows (each row: a round's plays)."""
    share = np.divide(count, plays, out=np.zeros(len(count)), where=plays > 0)
    return cluster_wilson(share, cluster, trials=plays)


def anatomy_table(df: pd.DataFrame) -> pd.DataFrame:
    """One row per quantity of QUANTITIES per policy of each matchup: mean (a share or a mean), ci_lo, ci_hi, n.

    n counts plays for the shares of plays, else the policy's non-void rounds (seats).
    """
    missing = [c for c in ANATOMY_COLUMNS if c not in df.columns]
    if missing:
        raise InputError(
            f"the round records lack the anatomy column {missing[0]} (a run of an older casino-sim): "
            "run simulate again to report the anatomy of a round"
        )
    per_seat = _seat_columns(df)
    live = live_rounds(per_seat)  # seat_rows' rounds, so the columns line up with its rows
    # each quantity's seat column is made when quantity_rows reads it and dropped after: all of them at once
    # were the largest part of the reports' memory peak on a million deals
    groups = seat_groups(per_seat, seat_rows(per_seat, []), lambda name: seat_column(per_seat, live, name))
    rows = [row for fields, column in groups for row in quantity_rows(column, fields)]
    return pd.DataFrame(rows)


ROUND_QUANTITIES = [q for q, _, _ in QUANTITIES if not q.startswith("share_")]  # one value per seat and round


def quantity_rows(column: Callable[[str], np.ndarray], fields: dict) -> list[dict]:
    """The rows of QUANTITIES (after `fields`: rules, matchup, policy) of one policy's seats: `column(name)` is
    its column cluster, plays, plays_{kind} or one of the ROUND_QUANTITIES, one row per seat of a round."""
    c, plays = column("cluster"), column("plays")
    ests = {f"share_{k}": _play_share(column(f"plays_{k}"), plays, c) for k in PLAY_KINDS}
    for q in ROUND_QUANTITIES:
        x = column(q)
        ests[q] = cluster_wilson(x, c) if UNITS[q] == ROUND_SHARE else cluster_mean_ci(x, c)
    return [{**fields, "quantity": q, "unit": unit, **ests[q].as_dict()} for q, unit, _ in QUANTITIES]
