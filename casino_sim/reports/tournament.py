"""Tournament tables from the games of every pairing: win-rate and margin matrices, ratings with intervals.

Ratings are Bradley-Terry strengths fitted to the game wins, shown on the Elo
scale; their intervals come from resampling mirrored pairs of games within
each pairing (a pair shares its shuffles, so it is the unit of sampling).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from casino_sim.reports import captions, charts
from casino_sim.reports.headlines import ci_text
from casino_sim.reports.load import STRING_COLUMNS, label_matchups
from casino_sim.reports.output import atomic_write, csv_bytes, save_figure, write_table
from casino_sim.reports.separation import ahead, beats
from casino_sim.reports.stats import bradley_terry, cluster_wilson, elo_from_strengths
from casino_sim.reports.tables import games_table
from casino_sim.reports.verdict import RATE
from casino_sim.reports.verdict import Verdict as Difference
from casino_sim.reports.webpage import write_page
from casino_sim.runner.rundir import RunDir

BOOTSTRAP = 300
WIN_TEST = "each win rate's 95% interval above 50%"  # the test behind "strongest" and "beats"


def matches_table(games: pd.DataFrame, policies: list[str]) -> pd.DataFrame:
    """Both directions of every pairing: policy vs opponent, games, win rate and margin with intervals."""
    t = games_table(games)
    keep = [
        "rules",
        "games",
        "wins_a",
        "win_rate_a_mean",
        "win_rate_a_ci_lo",
        "win_rate_a_ci_hi",
        "margin_mean",
        "margin_ci_lo",
        "margin_ci_hi",
        "rounds_mean",
    ]
    fwd = t.rename(columns={"policy_a": "policy", "policy_b": "opponent"})[["policy", "opponent", *keep]]
    back = fwd.rename(columns={"policy": "opponent", "opponent": "policy"}).copy()
    back["wins_a"] = back["games"] - back["wins_a"]
    back["win_rate_a_mean"] = 1 - fwd["win_rate_a_mean"]
    back["win_rate_a_ci_lo"], back["win_rate_a_ci_hi"] = 1 - fwd["win_rate_a_ci_hi"], 1 - fwd["win_rate_a_ci_lo"]
    back["margin_mean"] = -fwd["margin_mean"]
    back["margin_ci_lo"], back["margin_ci_hi"] = -fwd["margin_ci_hi"], -fwd["margin_ci_lo"]
    both = pd.concat([fwd, back[fwd.columns]], ignore_index=True)
    both = both.rename(columns=lambda c: c.replace("win_rate_a", "win_rate").replace("wins_a", "wins"))
    order = {p: i for i, p in enumerate(policies)}
    both = both.sort_values(["policy", "opponent"], key=lambda s: s.map(order), ignore_index=True)
    return both


def matrix(matches: pd.DataFrame, policies: list[str], column: str) -> pd.DataFrame:
    """policies x policies of `column` (row: the policy, column: its opponent); NaN on the diagonal."""
    m = matches.pivot(index="policy", columns="opponent", values=column)
    return m.reindex(index=policies, columns=policies)


def _pair_wins(games: pd.DataFrame) -> tuple[dict[tuple[str, str], np.ndarray], int]:
    """Per pairing (A, B): A's wins in each sample of games (a mirrored pair: 0, 0.5, ..., 2); and the games
    of a sample (2; with three or four players and no teams, one per seating both ways)."""
    a_side, winner = games["mirror"].to_numpy(), games["winner"].to_numpy()  # mirror: A's seat (or side)
    won = np.where(winner < 0, 0.5, (winner == a_side).astype(np.float64))
    cluster, out = games["cluster"].to_numpy(), {}
    for (a, b), idx in games.groupby(["policy_a", "policy_b"], observed=True).indices.items():
        out[(str(a), str(b))] = np.bincount(cluster[idx], weights=won[idx])[np.unique(cluster[idx])]
    return out, int(np.bincount(cluster).max()) if len(cluster) else 2


def _wins_matrix(pair_wins: dict, policies: list[str], per: int, pick=None) -> np.ndarray:
    index = {p: i for i, p in enumerate(policies)}
    w = np.zeros((len(policies), len(policies)))
    for (a, b), x in pair_wins.items():
        s = x if pick is None else x[pick[(a, b)]]
        w[index[a], index[b]] += s.sum()
        w[index[b], index[a]] += per * len(s) - s.sum()
    return w


def _win_rate_ci(pair_wins: dict, policies: list[str], per: int) -> tuple[np.ndarray, np.ndarray]:
    """Each policy's game win rate over all its opponents: Wilson 95% bounds, a sample of `per` games (a
    mirrored pair) as one cluster."""
    shares = {p: [] for p in policies}
    for (a, b), x in pair_wins.items():
        shares[a].append(x / per)
        shares[b].append(1 - x / per)
    est = []
    for p in policies:
        s = np.concatenate(shares[p]) if shares[p] else np.zeros(0)
        est.append(cluster_wilson(np.repeat(s, per), np.repeat(np.arange(len(s)), per)))
    return np.array([e.lo for e in est]), np.array([e.hi for e in est])


def ratings_table(games: pd.DataFrame, policies: list[str], seed: int = 0) -> pd.DataFrame:
    """Per policy: Bradley-Terry strength, Elo rating (mean 1500) with a bootstrap 95% interval, and its
    game win rate over all opponents with a Wilson interval; sorted best first."""
    pairs, per = _pair_wins(games)
    wins = _wins_matrix(pairs, policies, per)
    elo = elo_from_strengths(bradley_terry(wins))
    rng = np.random.default_rng(seed)
    boot = np.array(
        [
            elo_from_strengths(
                bradley_terry(
                    _wins_matrix(pairs, policies, per, {k: rng.integers(0, len(x), len(x)) for k, x in pairs.items()}),
                    iters=2000,
                )
            )
            for _ in range(BOOTSTRAP)
        ]
    )
    played = wins + wins.T
    lo, hi = _win_rate_ci(pairs, policies, per)
    t = pd.DataFrame(
        {
            "policy": policies,
            "strength": bradley_terry(wins),
            "elo": elo,
            "elo_ci_lo": np.percentile(boot, 2.5, axis=0),
            "elo_ci_hi": np.percentile(boot, 97.5, axis=0),
            "games": played.sum(axis=1).astype(np.int64),
            "win_rate": wins.sum(axis=1) / played.sum(axis=1),
            "win_rate_ci_lo": lo,
            "win_rate_ci_hi": hi,
        }
    )
    return t.sort_values("elo", ascending=False, ignore_index=True)


def tournament_games(folders, policies: list[str] | None = None) -> pd.DataFrame:
    """The games of every pairing's run folder as one labelled table (games of one policy against the field
    as two-sided games of the pairing, by `policies`' order: field_view)."""
    df = pd.concat([RunDir(f).read_table("games") for f in folders], ignore_index=True)
    if "s2_final" in df.columns:
        df = field_view(df, policies)
    for c in STRING_COLUMNS:
        df[c] = df[c].astype("category")
    return label_matchups(df, "game_id")


def field_view(games: pd.DataFrame, policies: list[str]) -> pd.DataFrame:
    """Games of three or four players, one policy alone against the other in every other seat, as games of
    two sides: side 0 the pairing's policy listed first, side 1 the other; a side wins when one of its seats
    does, and scores the mean final total of its seats. Both ways of a pairing (A alone, then B alone) play
    the same shuffles, so their games of one shuffle sequence are one sample, and either side has one seat
    as often as the other."""
    order = {p: i for i, p in enumerate(policies)}
    seats = games.filter(regex=r"^policy_\d$").astype(str).to_numpy()
    finals = games.filter(regex=r"^s\d_final$").to_numpy().astype(np.float64)
    lone = seats[np.arange(len(games)), games["mirror"].to_numpy()]
    other = np.where(seats[:, 0] == lone, seats[:, 1], seats[:, 0])
    lone_first = np.array([order[a] < order[b] for a, b in zip(lone, other)])
    first, second = np.where(lone_first, lone, other), np.where(lone_first, other, lone)
    mine = seats == first[:, None]
    winner = games["winner"].to_numpy()
    won_first = mine[np.arange(len(games)), np.maximum(winner, 0)]
    view = games[["game_id", "rules", "first_dealer", "rounds", "void_rounds"]].copy()
    view["players"] = np.int8(seats.shape[1])
    view.insert(1, "mirror", np.zeros(len(games), np.int8))
    view.insert(2, "policy_0", first)
    view.insert(3, "policy_1", second)
    view.insert(5, "winner", np.where(winner < 0, -1, np.where(won_first, 0, 1)).astype(np.int8))
    view.insert(6, "s0_final", (finals * mine).sum(axis=1) / mine.sum(axis=1))
    view.insert(7, "s1_final", (finals * ~mine).sum(axis=1) / (~mine).sum(axis=1))
    return view


def make_tournament(
    folders, policies: list[str], seed: int = 0, manifest: dict | None = None
) -> tuple[dict[str, pd.DataFrame], Callable, int]:
    """The tournament's tables (matches, ratings, win_rate_matrix, margin_matrix) from its pairing folders, its
    chart (its footer names the tournament of `manifest`) drawn when called, and the seats at a table of one policy
    alone against the other (field_view; 0: games of two sides, mirrored)."""
    games = tournament_games(folders, policies)
    matches = matches_table(games, policies)
    ratings = ratings_table(games, policies, seed)
    win = tuple(matrix(matches, policies, f"win_rate_{k}") for k in ("mean", "ci_lo", "ci_hi"))
    margin = tuple(matrix(matches, policies, f"margin_{k}") for k in ("mean", "ci_lo", "ci_hi"))
    tables = {"matches": matches, "ratings": ratings, "win_rate_matrix": win[0], "margin_matrix": margin[0]}
    field = int(games["players"].iloc[0]) if "players" in games.columns else 0
    caption = captions.run_caption(manifest or {})
    return tables, lambda: captions.add_caption(charts.tournament_chart(win, margin, ratings), caption), field


def write_tournament(
    folders, policies: list[str], out, seed: int = 0, manifest: dict | None = None
) -> dict[str, pd.DataFrame]:
    """matches.*, win_rate_matrix.csv, margin_matrix.csv, ratings.*, the chart tournament.png/.svg and
    tournament.md (make_tournament) and the page index.html into `out`; returns the tables."""
    tables, chart, field = make_tournament(folders, policies, seed, manifest)
    write_table(tables["matches"], out, "matches")
    write_table(tables["ratings"], out, "ratings")
    for name in ("win_rate_matrix", "margin_matrix"):
        atomic_write(Path(out) / f"{name}.csv", csv_bytes(tables[name], index=True, index_label="policy"))
    save_figure(chart(), out, "tournament")
    atomic_write(Path(out) / "tournament.md", render_tournament(tables["matches"], tables["ratings"], field).encode())
    write_page(out, manifest or {})
    return tables


def render_tournament(matches: pd.DataFrame, ratings: pd.DataFrame, field: int = 0) -> str:
    """tournament.md: the chart, the ratings and every pairing with its intervals (`field`: the seats at a table of
    field_view's games, one policy alone against the other, say how they were seated; 0: mirrored games)."""
    how = (
        "Mirrored whole games: each shuffle sequence is played twice with the seats swapped, and every "
        "pairing plays the same shuffles. Intervals are 95%; a mirrored pair of games is one sample."
    )
    if field:  # the seating (experiments/tournament.py one_against_the_field), not a player-count branch
        players = field
        how = (
            f"Whole games of {players} players, two policies at a table: each shuffle sequence is played "
            f"with A alone in each of the {players} seats against B in the others, then with B alone against "
            f"A, and every pairing plays the same shuffles; a policy wins a game when one of its seats does, "
            f"and its points are the mean of its seats'. Intervals are 95%; the {2 * players} games of a "
            "shuffle sequence are one sample."
        )
    lines = [
        "# Tournament",
        "",
        "![Tournament](tournament.png) (tournament.svg; tables matches.csv, ratings.csv, "
        "win_rate_matrix.csv, margin_matrix.csv)",
        "",
        how,
        "",
        "## Ratings",
        "",
    ]
    for r in ratings.to_dict("records"):
        lines.append(
            f"- {r['policy']}: Elo {ci_text(dict(r, elo_mean=r['elo']), 'elo_', '.0f')}, wins "
            f"{ci_text(dict(r, win_rate_mean=r['win_rate']), 'win_rate_', '.1%', 'games')} of "
            f"{r['games']:,} games"
        )
    lines += ["", strongest(matches, ratings), "", "## Pairings", ""]
    lines += pairing_lines(matches)
    return "\n".join(lines) + "\n"


def strongest(matches: pd.DataFrame, ratings: pd.DataFrame) -> str:
    """The policy of highest Elo, named the strongest only when it beats every other policy in their own pairing
    (the win rate's 95% interval clear of 50%: a test of their difference, which the ratings' intervals, tied to
    one another by the fit, are not); equal within a point of win rate, or how many games per pairing would decide
    (reports/separation.py)."""
    per_pairing = int(matches["games"].max()) if len(matches) else 0
    if len(ratings) == 0:
        return "No ratings: nothing to rank."
    top = ratings["policy"].iloc[int(np.argmax(ratings["elo"].to_numpy()))]
    own = matches[matches["policy"] == top]
    tests = [
        Difference(r["win_rate_mean"] - 0.5, r["win_rate_ci_lo"] - 0.5, r["win_rate_ci_hi"] - 0.5, RATE)
        for r in own.to_dict("records")
    ]
    verdict = ahead(top, tests, per_pairing)
    if verdict.leader:
        return f"Strongest: {verdict.leader}, beats every other policy in their pairing ({WIN_TEST})."
    return "The ratings' order is not a ranking: " + verdict.no_leader("name the strongest", "games per pairing") + "."


def pairing_lines(matches: pd.DataFrame) -> list[str]:
    """Each pairing once, from the side ahead: "beats" only when its win rate's interval excludes 50%."""
    out = []
    for r in matches.to_dict("records"):
        if r["win_rate_mean"] < 0.5 or (r["win_rate_mean"] == 0.5 and r["policy"] > r["opponent"]):
            continue
        rate = f"{ci_text(r, 'win_rate_', '.1%', 'games')} of {r['games']:,} games"
        margin = f"by {ci_text(r, 'margin_', '+.2f', 'games')} points per game"
        rate_ci = (r["win_rate_mean"], r["win_rate_ci_lo"], r["win_rate_ci_hi"])
        verdict = beats(r["policy"], r["opponent"], *rate_ci, r["games"], RATE, 0.5)
        if verdict.leader:
            out.append(f"- {r['policy']} beats {r['opponent']} in {rate}, {margin}")
        else:
            tell = verdict.no_leader("tell which is stronger", "games", "them")
            out.append(f"- {r['policy']} against {r['opponent']}: wins {rate}, {margin}; {tell}")
    return out
