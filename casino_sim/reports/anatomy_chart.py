"""The chart of the anatomy table: four panels of bars per policy, each with its 95% interval."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from casino_sim.core.record import PLAY_KINDS
from casino_sim.reports.anatomy import LABELS
from casino_sim.reports.charts import CI_NOTE, _names, yerr

PANELS = (  # (title, y label, quantities)
    ("Kinds of play", "share of the policy's plays", tuple(f"share_{k}" for k in PLAY_KINDS)),
    ("Its builds", "builds per round", ("builds_made", "builds_captured_own", "builds_lost")),
    ("What it captures", "cards per round", ("cards", "spades", "remainder_cards")),
    (
        "Prizes and the last capture",
        "share of rounds",
        ("most_cards_won", "most_cards_tied", "most_spades_won", "last_capture"),
    ),
)


def _grouped_bars(ax, table: pd.DataFrame, quantities: tuple[str, ...]) -> None:
    """One group of bars per quantity, one bar per policy (with its interval), in the table's order."""
    policies = table[table["quantity"] == quantities[0]].reset_index(drop=True)
    names = _names(policies)
    width = 0.8 / max(1, len(policies))
    x = np.arange(len(quantities))
    for i, row in policies.iterrows():
        mine = table[(table["matchup"] == row["matchup"]) & (table["policy"] == row["policy"])]
        t = mine.set_index("quantity").loc[list(quantities)]
        offset = (i - (len(policies) - 1) / 2) * width
        ax.bar(x + offset, t["mean"], width=width, yerr=yerr(t), capsize=3, label=names[i].replace("\n", " "))
    ax.set_xticks(x, [LABELS[q] for q in quantities], rotation=20, ha="right", fontsize=8)
    ax.legend(fontsize=7)


def anatomy_chart(table: pd.DataFrame) -> Figure:
    """Shares of each kind of play, the fates of builds, cards captured and prizes won, per policy."""
    fig = Figure(figsize=(10.0, 7.5), layout="constrained")
    for ax, (title, ylabel, quantities) in zip(fig.subplots(2, 2).flat, PANELS):
        _grouped_bars(ax, table, quantities)
        ax.set_title(title)
        ax.set_ylabel(ylabel)
    fig.suptitle(f"Anatomy of a round ({CI_NOTE})", fontsize=9)
    return fig
