"""Sweeps and the anatomy of a round with three or four players, per policy, from the players' side rows
(reports/places.py side_rows(by_team=False)): the two-player tables' makers (reports/tables.py sweep_tables,
reports/anatomy.py quantity_rows) over these rows, so the tables, their charts and report lines serve both."""

from __future__ import annotations

import numpy as np
import pandas as pd

from casino_sim.core.record import PLAY_KINDS
from casino_sim.reports.anatomy import quantity_rows
from casino_sim.reports.places import policy_groups
from casino_sim.reports.tables import sweep_tables


def sweep_places_tables(players: pd.DataFrame, label: str, rules: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per policy, a player's sweeps per round (batch 0) and in each batch, and the share of its rounds with k
    sweeps (reports.tables' sweep_rate_table and sweep_distribution_table)."""
    batches = [c for c in players.columns if c.startswith("sweeps_b")]
    top = int(players["n_sweeps"].max()) if len(players) else 0
    return sweep_tables(policy_groups(players, {"rules": rules, "matchup": label}), batches, top)


def anatomy_places_table(players: pd.DataFrame, label: str, rules: str) -> pd.DataFrame:
    """Per policy, the anatomy of its players' rounds (reports/anatomy.py QUANTITIES): builds are a player's
    own; most cards and spades are won by its side (its team, with teams), or tied when no side scores them."""
    seats = players.assign(
        plays=sum(players[f"plays_{k}"].to_numpy().astype(np.int64) for k in PLAY_KINDS),
        cards=players["n_cards"],
        spades=players["n_spades"],
        most_cards_won=players["prize_cards"].to_numpy() > 0,
        most_cards_tied=players["nobody_cards"],
        most_spades_won=players["prize_spades"].to_numpy() > 0,
    )
    groups = policy_groups(seats, {"rules": rules, "matchup": label})
    return pd.DataFrame([row for fields, column in groups for row in quantity_rows(column, fields)])
