"""The report tables, computed from prepared round records (no files, no charts).

Every mean excludes void rounds and carries a cluster-robust 95% interval: rounds
of one deal (a mirrored pair) count as one sample. Shares (win rates, sweep counts)
carry a Wilson interval, which stays open at 0% and 100%.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from casino_sim.core.record import BATCHES, CATEGORIES
from casino_sim.reports.load import headline_rows, matchup_info, pair_values, policy_name, seat_rows, side_groups
from casino_sim.reports.stats import cluster_diff_ci, cluster_mean_ci, cluster_wilson, mean_ci, running_mean_ci

BATCH_COLUMNS = [f"sweeps_b{b}" for b in range(1, BATCHES + 1)]


def _matchup_fields(info: pd.DataFrame, mu) -> dict:
    """The columns that name matchup `mu`: rules, matchup, both policies and whether it is mirrored."""
    cols = ("rules", "matchup", "policy_a", "policy_b")
    return {c: info.at[mu, c] for c in cols} | {"mirrored": bool(info.at[mu, "mirrored"])}


def policy_fields(info: pd.DataFrame, mu: int, side: int) -> dict:
    return {"rules": info.at[mu, "rules"], "matchup": info.at[mu, "matchup"], "policy": policy_name(info, mu, side)}


# A policy's rows, whatever the number of players: the fields that name it (rules, matchup, policy) and a column
# of its rows by name (cluster and the figures), one row per player of a non-void round
Group = tuple[dict, Callable[[str], np.ndarray]]


def seat_groups(df: pd.DataFrame, seats: pd.DataFrame, read: Callable[[str], np.ndarray] | None = None):
    """The Group of each policy of each matchup of two-player records `df` from their seat_rows `seats`: a column
    it lacks is `read(name)`, one value per row of `seats` (the anatomy makes its columns only when asked)."""
    info = matchup_info(df)
    for mu, side, idx in side_groups(seats):
        every = idx.all()  # one policy in both seats: every row, no copy

        def column(name: str, every=every, idx=idx) -> np.ndarray:
            x = seats[name].to_numpy() if name in seats.columns else read(name)
            return x if every else x[idx]

        yield policy_fields(info, mu, side), column


def score_rows(groups, n: bool = True) -> pd.DataFrame:
    """Mean points per round per category (and the total) of each Group (`n`: with the count of clusters)."""
    rows = []
    for fields, column in groups:
        c = column("cluster")  # once per policy, not once per category
        for cat in (*CATEGORIES, "total"):
            est = cluster_mean_ci(column(cat), c).as_dict()
            rows.append({**fields, "category": cat, **(est if n else _drop_n(est))})
    return pd.DataFrame(rows)


def sweep_tables(groups, batches: list[str], top: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per Group: mean sweeps per round (batch 0) and per round in each of the `batches` columns; and the share of
    its rounds with k sweeps, k = 0 .. `top` (the most seen), with intervals."""
    rates, dist = [], []
    for fields, column in groups:
        c, sweeps = column("cluster"), column("n_sweeps")
        for batch, col in enumerate(["n_sweeps", *batches]):
            rates.append({**fields, "batch": batch, **cluster_mean_ci(column(col), c).as_dict()})
        for k in range(top + 1):
            dist.append({**fields, "sweeps": k, **cluster_wilson(sweeps == k, c).as_dict()})
    return pd.DataFrame(rates), pd.DataFrame(dist).rename(columns={"mean": "share"})


def score_breakdown_table(df: pd.DataFrame) -> pd.DataFrame:
    """Mean points per round per category (and the total) for each policy of each matchup."""
    return score_rows(seat_groups(df, seat_rows(df, [*CATEGORIES, "total"])))


def sweep_frequency_tables(df: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """sweep_rate_table and sweep_distribution_table of two-player records, from one pass."""
    seats = seat_rows(df, ["n_sweeps", *BATCH_COLUMNS])
    top = int(seats["n_sweeps"].max()) if len(seats) else 0
    return sweep_tables(seat_groups(df, seats), BATCH_COLUMNS, top)


def sweep_rate_table(df: pd.DataFrame) -> pd.DataFrame:
    """Mean sweeps per round (batch 0) and per round in each batch 1..6, per policy."""
    return sweep_frequency_tables(df)[0]


def sweep_distribution_table(df: pd.DataFrame) -> pd.DataFrame:
    """Share of a policy's rounds with k sweeps, k = 0 .. the most seen, with intervals."""
    return sweep_frequency_tables(df)[1]


def seat_advantage_table(df: pd.DataFrame) -> pd.DataFrame:
    """Mean points as dealer and as first player, and dealer minus first, per policy.

    A matchup of two different policies also gets a "(both)" row over every seat.
    """
    info = matchup_info(df)
    seats = seat_rows(df, ["total"])
    cl, total, dealer = seats["cluster"].to_numpy(), seats["total"].to_numpy(), seats["is_dealer"].to_numpy()
    groups = list(side_groups(seats))
    for mu in info.index:
        if info.at[mu, "policy_a"] != info.at[mu, "policy_b"]:
            groups.append((mu, -1, seats["mu"].to_numpy() == mu))
    rows = []
    for mu, side, idx in sorted(groups, key=lambda g: (g[0], g[1] < 0, g[1])):
        x, c, d = total[idx], cl[idx], dealer[idx]
        row = {
            "rules": info.at[mu, "rules"],
            "matchup": info.at[mu, "matchup"],
            "policy": "(both)" if side < 0 else policy_name(info, mu, side),
        }
        row |= cluster_mean_ci(x[d], c[d]).as_dict("dealer_")
        row |= cluster_mean_ci(x[~d], c[~d]).as_dict("first_")
        row |= cluster_diff_ci(x, c, d).as_dict("diff_")
        rows.append(row)
    return pd.DataFrame(rows).drop(columns="diff_n")


def summary_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per matchup: mean A-minus-B points per deal (mirrored: per pair, the average of both
    seatings) with its interval, A's round win rate (ties count half), mean totals, counts.

    Rounds of whole games (a `game_id` column) also get `games`; their deal is a game (or mirrored pair)."""
    info = matchup_info(df)
    heads = headline_rows(df)
    pairs = pair_values(df)
    rows = []
    for mu in info.index:
        in_mu = df["mu"].to_numpy() == mu
        h = heads[heads["mu"].to_numpy() == mu]
        c = h["cluster"].to_numpy()
        d = h["diff"].to_numpy()
        row = {
            **_matchup_fields(info, mu),
            "rounds": int(in_mu.sum()),
            "void_rounds": int((df["void"].to_numpy()[in_mu] != 0).sum()),
            "deals": len(pairs.get(mu, [])),
        }
        if "game_id" in df.columns:
            row["games"] = len(df.loc[in_mu, ["game_id", "mirror"]].drop_duplicates())
        row |= _drop_n(mean_ci(pairs.get(mu, [])).as_dict("diff_"))
        row |= _drop_n(cluster_wilson(np.where(d > 0, 1.0, np.where(d == 0, 0.5, 0.0)), c).as_dict("win_rate_a_"))
        row["tie_rate"] = float((d == 0).mean()) if len(d) else float("nan")
        row |= _drop_n(cluster_mean_ci(h["total_a"].to_numpy(), c).as_dict("total_a_"))
        row |= _drop_n(cluster_mean_ci(h["total_b"].to_numpy(), c).as_dict("total_b_"))
        rows.append(row)
    return pd.DataFrame(rows)


def _drop_n(d: dict) -> dict:
    return {k: v for k, v in d.items() if not k.endswith("_n")}


def convergence_table(df: pd.DataFrame, points: int = 1000) -> pd.DataFrame:
    """Running mean of the headline (per deal, in deal order) and its band, at ~`points`
    deal counts spaced geometrically (early deals matter most to the eye)."""
    info = matchup_info(df)
    rows = [
        running_table(info.at[mu, "rules"], info.at[mu, "matchup"], x, points)
        for mu, x in pair_values(df).items()
        if len(x)
    ]
    return pd.concat(rows, ignore_index=True)


def running_table(rules: str, matchup: str, x: np.ndarray, points: int = 1000) -> pd.DataFrame:
    """The running mean of samples x and its band at ~`points` counts spaced geometrically: convergence's rows."""
    mean, lo, hi = running_mean_ci(x)
    at = np.unique(np.geomspace(1, len(x), num=min(points, len(x))).round().astype(np.int64))
    return pd.DataFrame(
        {
            "rules": rules,
            "matchup": matchup,
            "deals": at,
            "mean": mean[at - 1],
            "ci_lo": lo[at - 1],
            "ci_hi": hi[at - 1],
        }
    )


def games_table(games: pd.DataFrame) -> pd.DataFrame:
    """Per matchup of whole games: A's game win rate and A-minus-B final points per game (B: the mean of the
    other sides with three or four), with intervals (the games of a mirrored pair, or of every seating, share
    their shuffles, so they are one sample), and game length."""
    info = matchup_info(games)
    a_seat = games["a_seat"].to_numpy()
    winner = games["winner"].to_numpy()
    finals = games.filter(regex=r"^s\d_final$").to_numpy()  # one column per side
    won = np.where(winner < 0, 0.5, (winner == a_seat).astype(np.float64))  # no winner: counts half
    a_final = finals[np.arange(len(games)), a_seat]
    margin = (a_final - (finals.sum(axis=1) - a_final) / (finals.shape[1] - 1)).astype(np.float64)
    mu, cl = games["mu"].to_numpy(), games["cluster"].to_numpy()
    rows = []
    for m in info.index:
        idx = mu == m
        win = cluster_wilson(won[idx], cl[idx]).as_dict("win_rate_a_")
        rows.append(
            {
                **_matchup_fields(info, m),
                "games": int(idx.sum()),
                "wins_a": float(won[idx].sum()),
                **_drop_n(win),
                **_drop_n(cluster_mean_ci(margin[idx], cl[idx]).as_dict("margin_")),
                "rounds_mean": float(games["rounds"].to_numpy()[idx].mean()),
                "void_rounds": int(games["void_rounds"].to_numpy()[idx].sum()),
            }
        )
    return pd.DataFrame(rows)
