"""A run's equity table (reports/win_chances.py, docs/equity.md) as files: every score pair's chance of winning the
game with its 95% interval (equity.csv, equity.json) and the heatmap (equity.png, equity.svg)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from casino_sim.core.errors import InputError
from casino_sim.core.rules import RuleSet, get_rules
from casino_sim.reports.load import read_manifest, read_rounds
from casino_sim.reports.output import save_figure, write_table
from casino_sim.reports.win_chances import game_steps, resampled_counts, round_outcomes, win_chances

RESAMPLES = 400  # bootstrap resamples of the deals: enough for the 2.5% and 97.5% points to settle
COLUMNS = ["player_score", "opponent_score", "player_deals", "win_chance", "ci_lo", "ci_hi"]


def role_points(df: pd.DataFrame) -> np.ndarray:
    """(N, 2) points of each complete round: the side that did not deal, then the dealer's side (two players,
    or four in two teams: the first player's team and the dealer's)."""
    df = df[df["void"] == 0]
    teams = "team_first_total" in df.columns
    if not teams and ("second_total" in df.columns or "first_total" not in df.columns):
        raise InputError("the equity table is for two sides: two players, or four in teams (teams=true)")
    return df[side_totals(teams)].to_numpy()


def side_totals(teams: bool) -> list[str]:
    """The record columns of the two sides' points: the first player's and the dealer's (two players), or their
    teams'."""
    return [f"{'team_' if teams else ''}{side}_total" for side in ("first", "dealer")]


def _one_policy(df: pd.DataFrame) -> str:
    policies = pd.unique(df[[c for c in df.columns if c.startswith("policy_")]].astype(str).to_numpy().ravel())
    if len(policies) != 1:
        raise InputError(
            f"the equity table needs a run where every player plays the same policy, this one has {', '.join(policies)}"
        )
    return str(policies[0])


def equity_table(df: pd.DataFrame, rules: RuleSet, resamples: int = RESAMPLES, seed: int = 0) -> pd.DataFrame:
    """COLUMNS for every score pair below the target, the player to deal or not, from one policy's rounds.

    The player is either side: both sides play the same policy, so each round counts once with the side that did
    not deal as side 0 and once mirrored (the two copies stay in one deal's cluster when resampled).
    """
    df = df[df["void"] == 0]
    if not len(df):  # every round void
        raise InputError("the run has no complete rounds")
    points = role_points(df)
    both = np.concatenate([points, points[:, ::-1]])
    outcomes = round_outcomes(both, np.repeat([1, 0], len(points)))  # side 1 dealt the rounds as recorded
    steps = game_steps(rules, outcomes.points)
    chance = win_chances(rules, outcomes, steps=steps)
    counts = resampled_counts(outcomes, np.tile(df["deal_id"].to_numpy(), 2), resamples, np.random.default_rng(seed))
    lo, hi = np.percentile(win_chances(rules, outcomes, counts, steps), [2.5, 97.5], axis=0)
    x, y, deals = np.meshgrid(np.arange(rules.target), np.arange(rules.target), [False, True], indexing="ij")
    cell = (x.ravel(), y.ravel(), np.where(deals.ravel(), 0, 1))  # the player is side 0; side d deals
    return pd.DataFrame(
        {
            "player_score": x.ravel(),
            "opponent_score": y.ravel(),
            "player_deals": deals.ravel(),
            "win_chance": chance[cell],
            "ci_lo": lo[cell],
            "ci_hi": hi[cell],
        }
    )


def equity_chart(table: pd.DataFrame, title: str) -> Figure:
    """Two heatmaps of the chance to win (in %), the player not dealing and dealing, with contours at 10, 25, 50, 75
    and 90%; rows the player's score."""
    target = int(table["player_score"].max()) + 1
    fig = Figure(figsize=(12, 5.6), layout="constrained")
    axes = fig.subplots(1, 2)
    for ax, deals in zip(axes, (False, True)):
        part = table[table["player_deals"] == deals].sort_values(["player_score", "opponent_score"])
        grid = part["win_chance"].to_numpy().reshape(target, target) * 100
        im = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=100, origin="lower")
        lines = ax.contour(grid, levels=[10, 25, 50, 75, 90], colors="k", linewidths=0.6)
        ax.clabel(lines, fmt="%d%%", fontsize=7)
        ax.set_xticks(range(0, target, 5))
        ax.set_yticks(range(0, target, 5))
        ax.set_xlabel("opponent's score")
        ax.set_ylabel("player's score")
        ax.set_title(f"the player {'deals' if deals else 'does not deal'} the next round", fontsize=10)
    fig.colorbar(im, ax=axes, label="chance to win the game (%)", shrink=0.8)
    fig.suptitle(title, fontsize=11)
    return fig


def run_equity(run_dir: str | Path, resamples: int = RESAMPLES, seed: int = 0) -> tuple[pd.DataFrame, str, RuleSet]:
    """The equity table of a run of one policy against itself, with that policy's name and the run's rules."""
    manifest = read_manifest(run_dir)
    rules = get_rules(manifest.get("config", {}).get("rules", "strict"))
    if rules.n_sides != 2:
        raise InputError("the equity table is for two sides: two players, or four in teams (teams=true)")
    policies = [f"policy_{p}" for p in range(rules.players)]
    df = read_rounds(run_dir, ["deal_id", "void", *side_totals(rules.teams), *policies], optional=("game_id",))
    if "game_id" in df.columns:
        raise InputError(f"{run_dir} holds whole games (--games): the equity table is made from a run of rounds")
    policy = _one_policy(df)
    return equity_table(df, rules, resamples, seed), policy, rules


def write_equity(run_dir: str | Path, out: str | Path, resamples: int = RESAMPLES, seed: int = 0) -> pd.DataFrame:
    """The equity table of a run of one policy against itself into `out`; returns the table."""
    table, policy, rules = run_equity(run_dir, resamples, seed)
    write_table(table, out, "equity")
    title = f"{policy} against itself, {rules.name}, game to {rules.target}: chance to win from each score"
    save_figure(equity_chart(table, title), out, "equity")
    return table
