"""The anatomy of a round, per policy of each matchup: its kinds of play, the fates of its builds, what it
captures and which prizes it wins (docs/reports.md defines each quantity in docs/rules.md's words).

One maker for every number of players: it reads each policy's player rows (reports/places.py Sides).
Like the other tables: void rounds are left out, rounds of one deal (its seatings) are one cluster,
shares carry a cluster-robust Wilson interval and means a cluster-robust Student-t one.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from casino_sim.core.errors import InputError
from casino_sim.core.record import PLAY_KINDS
from casino_sim.reports.stats import cluster_mean_ci, cluster_wilson
from casino_sim.reports.views import view_of

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


def _play_share(count: np.ndarray, plays: np.ndarray, cluster: np.ndarray):
    """The share of the plays that are of one kind, over every play of the rows (each row: a round's plays)."""
    share = np.divide(count, plays, out=np.zeros(len(count)), where=plays > 0)
    return cluster_wilson(share, cluster, trials=plays)


def anatomy_table(data) -> pd.DataFrame:
    """anatomy_rows of the players of records (a run folder, a DataFrame or their view: reports/views.py); builds
    are a player's own, most cards and spades are won by its side (its team, with teams), or tied when no side
    scores them."""
    view = view_of(data)
    missing = view.missing_anatomy()
    if missing:
        raise InputError(
            f"the round records lack the anatomy column {missing[0]} (a run of an older casino-sim): "
            "run simulate again to report the anatomy of a round"
        )
    return anatomy_rows(view.players.groups(view.info, ("rules", "matchup")))


def anatomy_rows(groups) -> pd.DataFrame:
    """One row per quantity of QUANTITIES per Group (reports/places.py) of player rows, whatever the number of
    players: mean (a share or a mean), ci_lo, ci_hi, n.

    n counts plays for the shares of plays, else the policy's non-void rounds (players).
    """
    return pd.DataFrame([row for fields, column in groups for row in quantity_rows(column, fields)])


ROUND_QUANTITIES = [q for q, _, _ in QUANTITIES if not q.startswith("share_")]  # one value per player and round
# The quantities that are no column of a player row, each made from its columns (Sides names) when read. plays
# keeps the records' narrow integers (a round has 48 plays): every estimate reads it as float64 anyway.
MADE = {
    "plays": lambda column: sum(column(f"plays_{k}").astype(np.int16) for k in PLAY_KINDS),
    "cards": lambda column: column("n_cards"),
    "spades": lambda column: column("n_spades"),
    "most_cards_won": lambda column: column("prize_cards") > 0,
    "most_cards_tied": lambda column: column("nobody_cards"),
    "most_spades_won": lambda column: column("prize_spades") > 0,
}


def quantity_rows(read: Callable[[str], np.ndarray], fields: dict) -> list[dict]:
    """The rows of QUANTITIES (after `fields`: rules, matchup, policy) of one policy's player rows: `read(name)`
    is their column `name` as reports/places.py Sides names it (cluster, plays_{kind}, prize_cards, ...)."""

    def column(name: str) -> np.ndarray:
        return MADE[name](read) if name in MADE else read(name)

    c, plays = column("cluster"), column("plays")
    ests = {f"share_{k}": _play_share(column(f"plays_{k}"), plays, c) for k in PLAY_KINDS}
    for q in ROUND_QUANTITIES:
        x = column(q)
        ests[q] = cluster_wilson(x, c) if UNITS[q] == ROUND_SHARE else cluster_mean_ci(x, c)
    return [{**fields, "quantity": q, "unit": unit, **ests[q].as_dict()} for q, unit, _ in QUANTITIES]
