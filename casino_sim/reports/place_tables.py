"""The report tables of a three- or four-player run, from its side rows (reports/places.py), with 95% intervals.

A's headline is its side's margin: its total minus the mean of the other sides' totals, per round, averaged
over the seatings of each deal (each deal one sample). Other figures are per round, clustered by deal.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from casino_sim.reports.anatomy import anatomy_rows
from casino_sim.reports.places import policy_groups
from casino_sim.reports.stats import cluster_mean_ci, cluster_wilson, mean_ci
from casino_sim.reports.tables import _drop_n, running_table, score_rows, sweep_tables


def seat_order(df: pd.DataFrame) -> list[str]:
    """The policies of the records in the order the run seated them (--seats' order): seating m puts the first
    seat's policy at player m, the k-th at player m + k (runner.deals.rotations), and `mirror` is m."""
    n = sum(c.startswith("policy_") for c in df.columns)
    m = int(df["mirror"].iloc[0]) if len(df) else 0
    return [str(df[f"policy_{(m + k) % n}"].iloc[0]) for k in range(n)] if len(df) else []


def matchup_label(sides: pd.DataFrame, order: list[str] = ()) -> tuple[str, str, str]:
    """(A, the others, "A vs others"): A's side's policy and the other sides' policies, in seat_order `order`."""
    a = ", ".join(dict.fromkeys(sides.loc[sides["is_a"], "policy"]))
    others = list(dict.fromkeys(sides.loc[~sides["is_a"], "policy"]))
    b = ", ".join(sorted(others, key=lambda p: order.index(p) if p in order else len(order)))
    return a, b, f"{a} vs {b}"


def deal_margins(sides: pd.DataFrame) -> np.ndarray:
    """A's margin per deal (the mean over its non-void seatings), in deal order."""
    a = sides[sides["is_a"].to_numpy()]
    return a.groupby("deal_id", sort=True)["margin"].mean().to_numpy()


def summary_places_table(df: pd.DataFrame, sides: pd.DataFrame) -> pd.DataFrame:
    """One row: A's margin over the other sides per deal, A's win rate (the one highest total; a shared top
    counts its share), the mean totals of A's side and of the others', and the counts."""
    a, b, label = matchup_label(sides, seat_order(df))
    on_a = sides["is_a"].to_numpy()
    rows_a, rows_b = sides[on_a], sides[~on_a]
    row = {
        "rules": str(df["rules"].iloc[0]),
        "matchup": label,
        "policy_a": a,
        "policy_b": b,
        "mirrored": bool(df["mirror"].max() > 0),
        "rounds": len(df),
        "void_rounds": int((df["void"].to_numpy() != 0).sum()),
        "deals": int(df["deal_id"].nunique()),
        "sides": int(sides["side"].nunique()),
    }
    row |= _drop_n(mean_ci(deal_margins(sides)).as_dict("diff_"))
    row |= _drop_n(cluster_wilson(rows_a["won"], rows_a["cluster"]).as_dict("win_rate_a_"))
    row |= _drop_n(cluster_mean_ci(rows_a["total"], rows_a["cluster"]).as_dict("total_a_"))
    row |= _drop_n(cluster_mean_ci(rows_b["total"], rows_b["cluster"]).as_dict("total_b_"))
    return pd.DataFrame([row])


def seat_places_table(*tables: pd.DataFrame) -> pd.DataFrame:
    """Per place (or team) of the turn order, all policies pooled ("all") and per policy when there are several:
    mean points, the advantage (points minus the mean of the other sides'), sweeps and win share per round.
    Each of `tables` is a side_rows (teams, then places: their rows follow each other)."""
    groups = []
    for sides in tables:
        groups += [("all", sides), *(sides.groupby("policy", sort=False) if sides["policy"].nunique() > 1 else [])]
    rows = []
    for policy, g in groups:
        for side, s in g.groupby("side", sort=False):
            c = s["cluster"]
            rows.append(
                {
                    "policy": policy,
                    "side": side,
                    "rounds": len(s),
                    **_drop_n(cluster_mean_ci(s["total"], c).as_dict("points_")),
                    **_drop_n(cluster_mean_ci(s["margin"], c).as_dict("advantage_")),
                    **_drop_n(cluster_mean_ci(s["n_sweeps"], c).as_dict("sweeps_")),
                    **_drop_n(cluster_wilson(s["won"], c).as_dict("win_rate_")),
                }
            )
    return pd.DataFrame(rows)


def score_places_table(sides: pd.DataFrame, label: str) -> pd.DataFrame:
    """Mean points per round of a side (player or team) in each category and in total, per policy (the
    score_breakdown chart's table)."""
    return score_rows(policy_groups(sides, {"matchup": label}), n=False)


def convergence_places_table(df: pd.DataFrame, sides: pd.DataFrame, points: int = 1000) -> pd.DataFrame:
    """Running mean of A's margin per deal with its band, as reports.tables.convergence_table lays it out."""
    return running_table(str(df["rules"].iloc[0]), matchup_label(sides, seat_order(df))[2], deal_margins(sides), points)


def sweep_places_tables(players: pd.DataFrame, label: str, rules: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per policy, a player's sweeps per round (batch 0) and in each batch, and the share of its rounds with k
    sweeps: the two-player tables' maker (reports/tables.py sweep_tables) over the players' side rows."""
    batches = [c for c in players.columns if c.startswith("sweeps_b")]
    top = int(players["n_sweeps"].max()) if len(players) else 0
    return sweep_tables(policy_groups(players, {"rules": rules, "matchup": label}), batches, top)


def anatomy_places_table(players: pd.DataFrame, label: str, rules: str) -> pd.DataFrame:
    """Per policy, the anatomy of its players' rounds (reports/anatomy.py anatomy_rows): builds are a player's own;
    most cards and spades are won by its side (its team, with teams), or tied when no side scores them."""
    return anatomy_rows(policy_groups(players, {"rules": rules, "matchup": label}))
