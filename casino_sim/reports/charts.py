"""Figures drawn from the report tables (small summaries, never raw rounds); every one shows 95% intervals.

Uses matplotlib's Figure directly (no pyplot): no GUI, no global state, Agg/SVG on save.
Every chart the commands write carries a footer naming its run (`run_caption`, `add_caption`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from casino_sim.core.cards import SUIT_SYMBOLS
from casino_sim.core.record import CATEGORIES, CATEGORY_LABELS
from casino_sim.reports.captions import fit_label
from casino_sim.reports.cardvalue import TEN_DIAMONDS, card_label, value_grid

CI_NOTE = "error bars and bands: 95% confidence intervals"
RANK_LABELS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def _finite(a) -> np.ndarray:
    a = np.asarray(a, dtype=np.float64)
    return np.where(np.isfinite(a), a, np.nan)


def yerr(t: pd.DataFrame, prefix: str = "", mean: str | None = None) -> np.ndarray:
    """matplotlib's (2, N) error bars of a table's intervals, below and above each mean (an infinite end: no bar)."""
    m = t[mean or f"{prefix}mean"].to_numpy(dtype=np.float64)
    return np.vstack([_finite(m - t[f"{prefix}ci_lo"].to_numpy()), _finite(t[f"{prefix}ci_hi"].to_numpy() - m)])


def _batch_series(ax, t: pd.DataFrame, i: int, count: int, label: str, capsize: int) -> None:
    """Series i of `count`: means by batch with 95% bars, nudged sideways so the series' bars do not overlap."""
    ax.errorbar(
        t["batch"] + (i - (count - 1) / 2) * 0.08, t["mean"], yerr=yerr(t), marker="o", capsize=capsize, label=label
    )


def _names(t: pd.DataFrame) -> list[str]:
    """Bar names: the policy, with its matchup when the table holds several."""
    if t["matchup"].nunique() > 1:
        return [f"{fit_label(p)}\n({fit_label(m)})" for p, m in zip(t["policy"], t["matchup"])]
    return [fit_label(p) for p in t["policy"]]


def labelled(ax, xlabel: str | None = None, ylabel: str | None = None, title: str | None = None, legend=None) -> None:
    """An axis's labels, title and legend (`legend`: its font size), each when given: the lines every chart (and
    every script's chart) would repeat."""
    if xlabel is not None:
        ax.set_xlabel(xlabel)
    if ylabel is not None:
        ax.set_ylabel(ylabel)
    if title is not None:
        ax.set_title(title)
    if legend is not None:
        ax.legend(fontsize=legend)


def _figure(ncols: int, width: float = 5.0, height: float = 4.0) -> tuple[Figure, list]:
    fig = Figure(figsize=(width * ncols, height), layout="constrained")
    axes = fig.subplots(1, ncols, squeeze=False)[0]
    return fig, list(axes)


def score_breakdown_chart(table: pd.DataFrame) -> Figure:
    """Stacked mean points per category per policy (interval on the total), and each category side by side."""
    fig, (ax, ax2) = _figure(2)
    totals = table[table["category"] == "total"].reset_index(drop=True)
    names = _names(totals)
    x = np.arange(len(totals))
    bottom = np.zeros(len(totals))
    colors = [f"C{i}" for i in range(len(CATEGORIES))]
    for cat, color in zip(CATEGORIES, colors):
        part = table[table["category"] == cat]["mean"].to_numpy()
        ax.bar(x, part, bottom=bottom, color=color, label=CATEGORY_LABELS[cat], width=0.6)
        bottom += part
    ax.errorbar(x, totals["mean"], yerr=yerr(totals), fmt="none", ecolor="black", capsize=6, label="total, 95% CI")
    ax.set_xticks(x, names)
    ax.set_ylabel("mean points per round")
    ax.set_title("Points per round by category")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(0, -0.12), ncols=3)
    width = 0.8 / max(1, len(totals))
    cx = np.arange(len(CATEGORIES))
    for i, ((_, row), name) in enumerate(zip(totals.iterrows(), names)):
        t = table[
            (table["matchup"] == row["matchup"]) & (table["policy"] == row["policy"]) & (table["category"] != "total")
        ]
        ax2.bar(
            cx + (i - (len(totals) - 1) / 2) * width,
            t["mean"],
            width=width,
            yerr=yerr(t),
            capsize=3,
            label=name.replace("\n", " "),
        )
    ax2.set_xticks(cx, [CATEGORY_LABELS[c] for c in CATEGORIES], rotation=30, ha="right", fontsize=8)
    ax2.set_title("Each category (95% CI)")
    ax2.legend(fontsize=7)
    fig.suptitle(f"Score breakdown ({CI_NOTE})", fontsize=9)
    return fig


def sweep_chart(rates: pd.DataFrame, dist: pd.DataFrame) -> Figure:
    """Sweeps per round per policy, their distribution, and the mean per batch 1..6."""
    fig, (ax1, ax2, ax3) = _figure(3, width=4.2)
    whole = rates[rates["batch"] == 0].reset_index(drop=True)
    names = _names(whole)
    ax1.bar(
        np.arange(len(whole)), whole["mean"], yerr=yerr(whole), capsize=5, color=[f"C{i}" for i in range(len(whole))]
    )
    ax1.set_xticks(np.arange(len(whole)), names)
    labelled(ax1, ylabel="sweeps per round", title="Sweeps per round")
    ks = np.sort(dist["sweeps"].unique())
    width = 0.8 / max(1, len(whole))
    for i, (_, row) in enumerate(whole.iterrows()):
        d = dist[(dist["matchup"] == row["matchup"]) & (dist["policy"] == row["policy"])].sort_values("sweeps")
        ax2.bar(
            d["sweeps"] + (i - (len(whole) - 1) / 2) * width,
            d["share"],
            width=width,
            yerr=yerr(d, mean="share"),
            capsize=2,
            label=names[i].replace("\n", " "),
        )
        b = rates[(rates["matchup"] == row["matchup"]) & (rates["policy"] == row["policy"]) & (rates["batch"] > 0)]
        _batch_series(ax3, b, i, len(whole), names[i].replace("\n", " "), capsize=3)
    ax2.set_xticks(ks)
    labelled(ax2, "sweeps in a round", "share of rounds", "Distribution", legend=7)
    ax3.set_xticks(sorted(rates.loc[rates["batch"] > 0, "batch"].unique()))  # 6 batches with two players
    labelled(ax3, "batch (4 cards each)", "sweeps per round in the batch", "When sweeps happen", legend=7)
    fig.suptitle(f"Sweeps ({CI_NOTE})", fontsize=9)
    return fig


def seat_advantage_chart(table: pd.DataFrame) -> Figure:
    """The seat table's chart (reports/tables.py seat_advantage_table): its two players' form, or its form of every
    place and team of three or four players (a `side` column)."""
    return _seat_places_chart(table) if "side" in table.columns else _dealer_first_chart(table)


def _dealer_first_chart(table: pd.DataFrame) -> Figure:
    """Mean points as dealer and as first player per policy, and the difference."""
    fig, (ax1, ax2) = _figure(2)
    names = _names(table)
    x = np.arange(len(table))
    ax1.bar(x - 0.2, table["dealer_mean"], width=0.4, yerr=yerr(table, "dealer_"), capsize=4, label="dealer")
    ax1.bar(
        x + 0.2,
        table["first_mean"],
        width=0.4,
        yerr=yerr(table, "first_"),
        capsize=4,
        label="first player (non-dealer)",
    )
    ax2.errorbar(table["diff_mean"], x, xerr=yerr(table, "diff_"), fmt="o", capsize=5)
    titles = ("Points by seat role", "dealer minus first player (points per round)", "Dealer advantage")
    return _seat_frame(fig, x, names, titles, "Seat advantage")


def _seat_frame(fig: Figure, x: np.ndarray, names: list[str], titles: tuple[str, str, str], title: str) -> Figure:
    """The axes of a seat chart around what it drew: points per round by seat or place (bars, left), and the
    advantage (points, right), both over the ticks `x` named `names`; `titles`: the left panel's, the right
    panel's axis and title."""
    ax1, ax2 = fig.axes
    ax1.set_xticks(x, names, fontsize=8)
    labelled(ax1, ylabel="mean points per round", title=titles[0], legend=7)
    ax2.axvline(0, color="grey", lw=0.8)
    ax2.xaxis.set_major_locator(MaxNLocator(5))
    ax2.set_yticks(x, names, fontsize=8)
    ax2.invert_yaxis()
    ax2.set_xlabel(titles[1])
    ax2.set_title(titles[2])
    fig.suptitle(f"{title} ({CI_NOTE})", fontsize=9)
    return fig


def convergence_chart(conv: pd.DataFrame) -> Figure:
    """Running mean of the headline with its band against deals played (log scale)."""
    fig, (ax,) = _figure(1, width=7.0)
    lows, highs = [], []
    for i, (label, t) in enumerate(conv.groupby("matchup", observed=True, sort=True)):
        n = t["deals"].to_numpy()
        lo, hi = _finite(t["ci_lo"]), _finite(t["ci_hi"])
        ax.fill_between(n, lo, hi, color=f"C{i}", alpha=0.25, lw=0)
        ax.plot(n, t["mean"], color=f"C{i}", label=f"{label}: {t['mean'].iloc[-1]:+.3f} ± {(hi[-1] - lo[-1]) / 2:.3f}")
        settled = n >= min(30, n[-1])  # the first few deals' bands would flatten the rest
        lows.append(np.nanmin(lo[settled]))
        highs.append(np.nanmax(hi[settled]))
    if lows and np.isfinite(min(lows)) and np.isfinite(max(highs)):
        pad = 0.05 * (max(highs) - min(lows) or 1.0)
        ax.set_ylim(min(lows) - pad, max(highs) + pad)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xscale("log")
    labelled(
        ax,
        "deals (mirrored pairs, or rounds when not mirrored)",
        "mean points, policy A minus B",
        "Convergence of the headline figure (band: 95% CI)",
        legend=8,
    )
    return fig


def _interval_panel(ax, t: pd.DataFrame, prefix: str, centre: float, xlabel: str, title: str) -> None:
    """One matchup per row: a point with its 95% interval, a reference line at `centre`."""
    y = np.arange(len(t))
    ax.errorbar(t[f"{prefix}mean"], y, xerr=yerr(t, prefix), fmt="o", capsize=5)
    ax.axvline(centre, color="grey", lw=0.8)
    ax.xaxis.set_major_locator(MaxNLocator(5))
    ax.set_yticks(y, [fit_label(m) for m in t["matchup"]])
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title)


def summary_chart(summary: pd.DataFrame) -> Figure:
    """Headline per matchup: mean point difference and A's round win rate, with intervals."""
    fig, (ax1, ax2) = _figure(2, height=max(2.5, 0.6 * len(summary) + 1.5))
    per = "per round of the games" if "games" in summary.columns else "per deal (mirrored: pair average)"
    _interval_panel(ax1, summary, "diff_", 0.0, f"points, A minus B, {per}", "Mean point difference")
    _interval_panel(ax2, summary, "win_rate_a_", 0.5, "share of rounds won by A (ties half)", "Round win rate")
    fig.suptitle(f"Summary ({CI_NOTE})", fontsize=9)
    return fig


def games_chart(games: pd.DataFrame) -> Figure:
    """Whole games per matchup: A's game win rate and final points margin, with intervals."""
    fig, (ax1, ax2) = _figure(2, height=max(2.5, 0.6 * len(games) + 1.5))
    _interval_panel(ax1, games, "win_rate_a_", 0.5, "share of games won by A", "Game win rate")
    _interval_panel(ax2, games, "margin_", 0.0, "final points, A minus B, per game", "Points margin per game")
    fig.suptitle(f"Whole games ({CI_NOTE})", fontsize=9)
    return fig


def card_heatmap(table: pd.DataFrame, source: str = "swap replays, card moved to") -> Figure:
    """4x13 value of each card (suits S H D C by ranks A..K), one panel per variant; cells: mean ± CI half-width.
    `source` heads each panel's title: the swap replays' ("card moved to: opponent"), the deal's ("rather than
    dealt to: table")."""
    variants = sorted(table["variant"].unique())
    fig = Figure(figsize=(15, 3.9 * len(variants)), layout="constrained")
    axes = fig.subplots(len(variants), 1, squeeze=False)[:, 0]
    means = _finite(table["mean"])
    vmax = float(np.nanmax(np.abs(means))) if np.isfinite(means).any() else 1.0
    norm = TwoSlopeNorm(vcenter=0.0, vmin=-(vmax or 1.0), vmax=vmax or 1.0)
    for ax, variant in zip(axes, variants):
        grid = value_grid(table, variant)
        half = (value_grid(table, variant, "ci_hi") - value_grid(table, variant, "ci_lo")) / 2
        im = ax.imshow(grid, cmap="RdBu_r", norm=norm, aspect="auto")
        for s in range(4):
            for r in range(13):
                text = card_label(r * 4 + s)
                if np.isfinite(grid[s, r]):
                    text += (
                        f"\n{grid[s, r]:+.2f}\n±{half[s, r]:.2f}" if np.isfinite(half[s, r]) else f"\n{grid[s, r]:+.2f}"
                    )
                dark = np.isfinite(grid[s, r]) and abs(grid[s, r]) > 0.6 * (vmax or 1.0)
                ax.text(r, s, text, ha="center", va="center", fontsize=9, color="white" if dark else "black")
        ax.set_xticks(range(13), RANK_LABELS)
        ax.set_yticks(range(4), list(SUIT_SYMBOLS))
        ax.set_title(
            f"Value of holding each card, {source}: {variant} (cells: mean ± 95% CI half-width)",
            fontsize=9,
        )
        fig.colorbar(im, ax=ax, label="points per round")
    return fig


def ten_diamonds_chart(batch_table: pd.DataFrame, source: str = "moved to") -> Figure:
    """The value of holding the 10♦ by the batch it was dealt in, one series per variant (`source` names them)."""
    fig, (ax,) = _figure(1, width=6.5)
    t = batch_table[batch_table["card"] == TEN_DIAMONDS]
    variants = sorted(t["variant"].unique())
    for i, variant in enumerate(variants):
        v = t[t["variant"] == variant].sort_values("batch")
        _batch_series(ax, v, i, len(variants), f"{source} {variant}", capsize=4)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xticks(range(1, 7))
    ax.set_xlabel("batch in which the 10♦ is dealt")
    ax.set_ylabel("points per round (holder minus opponent)")
    ax.set_title(f"Value of holding the 10♦ by batch ({CI_NOTE})", fontsize=9)
    if variants:
        ax.legend(fontsize=8)
    return fig


def _cell_font(n: int) -> float:
    """Cell text size (points) of an n x n matrix: 11 pt for a few policies, 9 pt at 8, never below 7."""
    return float(np.clip(13 - 0.5 * n, 7, 11))


def _matrix_panel(
    ax,
    mean: pd.DataFrame,
    lo: pd.DataFrame,
    hi: pd.DataFrame,
    centre: float,
    fmt: str,
    title: str,
    label: str,
    fig: Figure,
) -> None:
    """A policies x policies heatmap around `centre`; each cell shows the mean and its 95% interval."""
    grid = mean.to_numpy(dtype=np.float64)
    span = float(np.nanmax(np.abs(grid - centre))) if np.isfinite(grid).any() else 1.0
    norm = TwoSlopeNorm(vcenter=centre, vmin=centre - (span or 1.0), vmax=centre + (span or 1.0))
    im = ax.imshow(grid, cmap="RdBu_r", norm=norm)
    for i in range(grid.shape[0]):
        for j in range(grid.shape[1]):
            if np.isfinite(grid[i, j]):
                text = f"{grid[i, j]:{fmt}}\n[{lo.iat[i, j]:{fmt}}, {hi.iat[i, j]:{fmt}}]"
                dark = abs(grid[i, j] - centre) > 0.6 * (span or 1.0)
                ax.text(
                    j,
                    i,
                    text,
                    ha="center",
                    va="center",
                    fontsize=_cell_font(len(grid)),
                    color="white" if dark else "black",
                )
    names = [fit_label(p) for p in mean.index]
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("opponent")
    ax.set_ylabel("policy")
    ax.set_title(title, fontsize=9)
    fig.colorbar(im, ax=ax, label=label, shrink=0.8)


def tournament_chart(
    win: tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame],
    margin: tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame],
    ratings: pd.DataFrame,
) -> Figure:
    """Win-rate and points-margin matrices (row policy against column opponent) and the Elo ratings.

    Rows and columns follow the ratings (highest Elo first), as the printed ratings table does; the panels are
    stacked and the figure sized to the policies, so that shown at its own size on a page its text stays readable.
    """
    n = len(ratings)
    order = list(ratings["policy"])
    win, margin = ([m.reindex(index=order, columns=order) for m in ms] for ms in (win, margin))
    cell = 0.125 * _cell_font(n)  # inches: room for "[99.8%, 100.0%]" at the cell font
    names = 0.075 * max((len(fit_label(p)) for p in order), default=4)  # inches: the tick labels at 10 pt
    # one panel under the other: three side by side made a figure of 2,673 px for four policies, shown shrunk
    side = cell * n + names + 1.8  # the matrix, its row labels and its colour bar
    high = cell * n + 0.6 * names + 0.9  # the matrix, its slanted column labels and its title
    fig = Figure(figsize=(max(5.0, side), 2 * high + 0.4 * n + 1.6), layout="constrained")
    ax1, ax2, ax3 = fig.subplots(3, 1, height_ratios=[high, high, 0.4 * n + 1.2])
    # one decimal: whole percents would round a bound 0.2% from the edge onto it, "100% [100%, 100%]"
    _matrix_panel(ax1, *win, 0.5, ".1%", "Game win rate (95% CI)", "share of games won", fig)
    _matrix_panel(ax2, *margin, 0.0, "+.1f", "Final points margin per game (95% CI)", "points per game", fig)
    y = np.arange(n)
    ax3.errorbar(ratings["elo"], y, xerr=yerr(ratings, "elo_", mean="elo"), fmt="o", capsize=5)
    ax3.set_yticks(y, [fit_label(p) for p in ratings["policy"]])
    ax3.invert_yaxis()
    ax3.axvline(1500, color="grey", lw=0.8)
    ax3.set_xlabel("Elo (Bradley-Terry fit, mean 1500)")
    ax3.set_title("Ratings (95% bootstrap CI)", fontsize=9)
    fig.suptitle(f"Tournament of mirrored whole games ({CI_NOTE})", fontsize=9)
    return fig


def _seat_places_chart(table: pd.DataFrame) -> Figure:
    """Three or four players: mean points and advantage of every place (or team) of the turn order, per policy."""
    fig, (ax1, ax2) = _figure(2)
    sides = list(dict.fromkeys(table["side"]))
    x = np.arange(len(sides))
    groups = list(table.groupby("policy", sort=False))
    width = 0.8 / len(groups)
    for i, (policy, t) in enumerate(groups):
        t = t.set_index("side").reindex(sides).reset_index()
        dx = (i - (len(groups) - 1) / 2) * width
        ax1.bar(x + dx, t["points_mean"], width=width, yerr=yerr(t, "points_"), capsize=4, label=policy)
        ax2.errorbar(t["advantage_mean"], x + dx, xerr=yerr(t, "advantage_"), fmt="o", capsize=5, label=policy)
    titles = (
        "Points by place in the turn order",
        "points minus the mean of the other sides (per round)",
        "Seat advantage",
    )
    return _seat_frame(fig, x, sides, titles, "Seat advantage by place")
