"""Sweeps and the anatomy of a round with three or four players, per policy, from the players' side rows
(reports/places.py side_rows(by_team=False)), in the layout of the two-player tables so their charts and
report lines serve both."""

from __future__ import annotations

import numpy as np
import pandas as pd

from casino_sim.core.record import PLAY_KINDS
from casino_sim.reports.anatomy import quantity_rows
from casino_sim.reports.stats import cluster_mean_ci, cluster_wilson


def _policies(players: pd.DataFrame, label: str, rules: str):
    """(fields, rows of one policy) for each policy of the players' rows, in order of appearance."""
    for policy, g in players.groupby("policy", sort=False):
        yield {"rules": rules, "matchup": label, "policy": policy}, g


def sweep_places_tables(players: pd.DataFrame, label: str, rules: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per policy, a player's sweeps per round (batch 0) and in each batch, and the share of its rounds with k
    sweeps (reports.tables' sweep_rate_table and sweep_distribution_table)."""
    batches = [c for c in players.columns if c.startswith("sweeps_b")]
    top = int(players["n_sweeps"].max()) if len(players) else 0
    rates, dist = [], []
    for fields, g in _policies(players, label, rules):
        c = g["cluster"].to_numpy()
        for batch, col in enumerate(["n_sweeps", *batches]):
            rates.append({**fields, "batch": batch, **cluster_mean_ci(g[col].to_numpy(), c).as_dict()})
        for k in range(top + 1):
            dist.append({**fields, "sweeps": k, **cluster_wilson(g["n_sweeps"].to_numpy() == k, c).as_dict()})
    return pd.DataFrame(rates), pd.DataFrame(dist).rename(columns={"mean": "share"})


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
    rows = []
    for fields, g in _policies(seats, label, rules):
        rows += quantity_rows(lambda name, g=g: g[name].to_numpy(), fields)
    return pd.DataFrame(rows)
