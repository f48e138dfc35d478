"""The report tables of round records: one maker per kind for every number of players (no files, no charts).

Each maker takes records (a run folder, a DataFrame, or their view: reports/views.py) and reads them by side
(reports/places.py). Every mean excludes void rounds and carries a cluster-robust 95% interval: the rounds of one
deal (its seatings) count as one sample. Shares (win rates, sweep counts) carry a Wilson interval, which stays open
at 0% and 100%. A's headline is its side's margin, its points minus the mean of the other sides' (two players: A's
points minus B's), per round, averaged over the seatings of each deal.

Two players' tables have always had their own shape in three places, read from the view's Shape (reports/places.py)
rather than a branch at each: the summary's tie rate (three or four players: the count of sides), the seat table
(dealer against first player and a row of both policies; three or four: every place and team) and the score table's
rules column.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from casino_sim.core.record import CATEGORIES
from casino_sim.reports.load import matchup_info
from casino_sim.reports.places import Group, Sides
from casino_sim.reports.stats import cluster_diff_ci, cluster_mean_ci, cluster_wilson, mean_ci, running_mean_ci
from casino_sim.reports.views import RoundView, view_of


def _matchup_fields(info: pd.DataFrame, mu) -> dict:
    """The columns that name matchup `mu`: rules, matchup, both policies and whether it is mirrored."""
    cols = ("rules", "matchup", "policy_a", "policy_b")
    return {c: info.at[mu, c] for c in cols} | {"mirrored": bool(info.at[mu, "mirrored"])}


def _drop_n(d: dict) -> dict:
    return {k: v for k, v in d.items() if not k.endswith("_n")}


def score_rows(groups: Iterable[Group]) -> pd.DataFrame:
    """Mean points per round per category (and the total) of each Group, with the count of its rows."""
    rows = []
    for fields, column in groups:
        c = column("cluster")  # once per policy, not once per category
        for cat in (*CATEGORIES, "total"):
            rows.append({**fields, "category": cat, **cluster_mean_ci(column(cat), c).as_dict()})
    return pd.DataFrame(rows)


def sweep_tables(groups: Iterable[Group], batches: list[str], top: int) -> tuple[pd.DataFrame, pd.DataFrame]:
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


def score_breakdown_table(data) -> pd.DataFrame:
    """Mean points per round of a side (a player, or a team's two piles together) in each category and in total,
    per policy of each matchup (two players' table also names its rules)."""
    view = view_of(data)
    return score_rows(view.sides.groups(view.info, view.shape.score_fields))


def sweep_frequency_tables(data) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per policy, a player's sweeps per round (batch 0) and in each batch, and the share of its rounds with k
    sweeps (k up to the most seen), from one pass."""
    view = view_of(data)
    players = view.players
    batches = [c.removeprefix("first_") for c in view.df.columns if c.startswith("first_sweeps_b")]
    top = int(players.column("n_sweeps").max()) if len(players) else 0
    return sweep_tables(players.groups(view.info, ("rules", "matchup")), batches, top)


def sweep_rate_table(data) -> pd.DataFrame:
    """Mean sweeps per round (batch 0) and per round in each batch, per policy."""
    return sweep_frequency_tables(data)[0]


def sweep_distribution_table(data) -> pd.DataFrame:
    """Share of a policy's rounds with k sweeps, k = 0 .. the most seen, with intervals."""
    return sweep_frequency_tables(data)[1]


def seat_advantage_table(data) -> pd.DataFrame:
    """The seat advantage: two players' table of dealer against first player (dealer_first); three or four
    players', of every place and team (seat_places)."""
    view = view_of(data)
    return SEAT_TABLES[view.shape.seat](view)


def dealer_first(view: RoundView) -> pd.DataFrame:
    """Two players: mean points as dealer and as first player, and dealer minus first, per policy of each matchup
    (a matchup of two different policies also gets a "(both)" row over every seat)."""
    info, sides = view.info, view.sides
    dealer, mu = sides.names.index("dealer"), sides.record("mu")

    def seats(read) -> tuple:
        return read("total"), read("cluster"), read("side") == dealer

    groups = [(fields, *seats(column)) for fields, column in sides.groups(info, ("rules", "matchup"))]
    rows = []
    for m in info.index:
        own = [g for g in groups if g[0]["matchup"] == info.at[m, "matchup"]]
        if info.at[m, "policy_a"] != info.at[m, "policy_b"]:
            every = [mu == m] * len(sides.names)
            both = {"rules": info.at[m, "rules"], "matchup": info.at[m, "matchup"], "policy": "(both)"}
            own.append((both, *seats(lambda name, every=every: sides.column(name, every))))
        for fields, total, cluster, dealt in own:
            row = dict(fields)
            row |= cluster_mean_ci(total[dealt], cluster[dealt]).as_dict("dealer_")
            row |= cluster_mean_ci(total[~dealt], cluster[~dealt]).as_dict("first_")
            row |= cluster_diff_ci(total, cluster, dealt).as_dict("diff_")
            rows.append(row)
    return pd.DataFrame(rows).drop(columns="diff_n")


def seat_places(*tables: Sides) -> pd.DataFrame:
    """Per place (or team) of the turn order, all policies pooled ("all") and per policy when there are several:
    mean points, the advantage (points minus the mean of the other sides'), sweeps and win share per round.
    Each of `tables` is a Sides (teams, then places: their rows follow each other)."""
    rows = []
    for sides in tables:
        codes, first = np.unique(sides.column("policy"), return_index=True)
        groups = [("all", [None] * len(sides.names))]
        if len(codes) > 1:
            groups += [(sides.policies[p], [code == p for code in sides.policy]) for p in codes[np.argsort(first)]]
        for name, picks in groups:
            for s, place in enumerate(sides.names):
                alone = [p if i == s else False for i, p in enumerate(picks)]
                v = {k: sides.column(k, alone) for k in ("cluster", "total", "margin", "n_sweeps", "won")}
                c = v["cluster"]
                if not len(c):
                    continue
                rows.append(
                    {
                        "policy": name,
                        "side": place,
                        "rounds": len(c),
                        **_drop_n(cluster_mean_ci(v["total"], c).as_dict("points_")),
                        **_drop_n(cluster_mean_ci(v["margin"], c).as_dict("advantage_")),
                        **_drop_n(cluster_mean_ci(v["n_sweeps"], c).as_dict("sweeps_")),
                        **_drop_n(cluster_wilson(v["won"], c).as_dict("win_rate_")),
                    }
                )
    return pd.DataFrame(rows)


def every_place(view: RoundView) -> pd.DataFrame:
    """seat_places of the view's sides: its teams, then its players, with teams; its players without."""
    return seat_places(*((view.sides, view.players) if view.sides.teams else (view.sides,)))


SEAT_TABLES = {"dealer_first": dealer_first, "seat_places": every_place}  # the seat table's maker by Shape.seat


def a_rounds(sides: Sides) -> list[np.ndarray]:
    """Per side, the mask of the non-void rounds in which A sits on it (one side a round)."""
    return [sides.of_side("is_a", s) for s in range(len(sides.names))]


def deal_margins(view: RoundView) -> dict[int, np.ndarray]:
    """Per matchup, A's margin per deal in deal order: the mean over the deal's non-void seatings."""
    sides, on_a = view.sides, a_rounds(view.sides)
    per_deal = pd.Series(sides.column("margin", on_a)).groupby(sides.column("cluster", on_a), sort=True).mean()
    mu_of = np.zeros(int(view.df["cluster"].max()) + 1, np.int64)
    mu_of[view.df["cluster"].to_numpy()] = view.df["mu"].to_numpy()
    mu = mu_of[per_deal.index.to_numpy()]
    return {int(m): per_deal.to_numpy()[mu == m] for m in view.info.index}


def summary_table(data) -> pd.DataFrame:
    """Per matchup: A's margin per deal (the mean over its seatings) with its interval, A's round win rate (the
    one highest total; a shared top counts its share, a two-player tie half), the mean totals of A's side and of
    the others', and the counts (rounds of whole games, a `game_id` column, also count their games). Two players
    add the tie rate, three or four the number of sides."""
    view = view_of(data)
    df, info, sides, shape = view.df, view.info, view.sides, view.shape
    on_a, margins = a_rounds(sides), deal_margins(view)
    mu, mu_live, void = df["mu"].to_numpy(), sides.record("mu"), df["void"].to_numpy()
    rows = []
    for m in info.index:
        in_mu, here = mu == m, mu_live == m
        a = {
            k: _read(sides, k, [x & here for x in on_a], shape.by_round) for k in ("cluster", "won", "total", "margin")
        }
        b = {k: _read(sides, k, [~x & here for x in on_a], shape.by_round) for k in ("cluster", "total")}
        row = {
            **_matchup_fields(info, m),
            "rounds": int(in_mu.sum()),
            "void_rounds": int((void[in_mu] != 0).sum()),
            "deals": len(margins[m]),
        }
        if "game_id" in df.columns:
            row["games"] = len(df.loc[in_mu, ["game_id", "mirror"]].drop_duplicates())
        row |= _drop_n(mean_ci(margins[m]).as_dict("diff_"))
        row |= _drop_n(cluster_wilson(a["won"], a["cluster"]).as_dict("win_rate_a_"))
        row |= _drop_n(cluster_mean_ci(a["total"], a["cluster"]).as_dict("total_a_"))
        row |= _drop_n(cluster_mean_ci(b["total"], b["cluster"]).as_dict("total_b_"))
        counts = {
            "tie_rate": float((a["margin"] == 0).mean()) if len(a["margin"]) else float("nan"),
            "sides": len(sides.names),
        }
        rows.append(_before(row, shape.count[1], shape.count[0], counts[shape.count[0]]))
    return pd.DataFrame(rows)


def _before(row: dict, prefix: str, key: str, value) -> dict:
    """`row` with `key: value` before its first column starting with `prefix` (the shape's place for it)."""
    at = next(i for i, k in enumerate(row) if k.startswith(prefix))
    items = list(row.items())
    return dict([*items[:at], (key, value), *items[at:]])


def _read(sides: Sides, name: str, picks: list[np.ndarray], by_round: bool) -> np.ndarray:
    """Column `name` of the side rows `picks`, side by side; `by_round` (two players' summary, a side a round at
    most): in the order of their rounds, as a cluster of whole games has always summed A's and B's points."""
    if not by_round:
        return sides.column(name, picks)
    first, second = (sides.column(name, [None if i == s else False for i in (0, 1)]) for s in (0, 1))
    return np.where(picks[0], first, second)[picks[0] | picks[1]]


def convergence_table(data, points: int = 1000) -> pd.DataFrame:
    """Running mean of the headline (per deal, in deal order) and its band, at ~`points` deal counts spaced
    geometrically (early deals matter most to the eye)."""
    view = view_of(data)
    info = view.info
    rows = [
        running_table(info.at[m, "rules"], info.at[m, "matchup"], x, points)
        for m, x in deal_margins(view).items()
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
    a_side = games["mirror"].to_numpy().astype(np.int64)  # A's seat (or team) in the game
    winner = games["winner"].to_numpy()
    finals = games.filter(regex=r"^s\d_final$").to_numpy()  # one column per side
    won = np.where(winner < 0, 0.5, (winner == a_side).astype(np.float64))  # no winner: counts half
    a_final = finals[np.arange(len(games)), a_side]
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
