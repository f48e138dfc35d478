"""Card-value tables from paired-deal differences (the experiment that makes them lives elsewhere).

Input: one row per paired deal with `card` (0..51), `batch` (1..6, when the card
was dealt), `variant` (where the card was moved in the paired deal, e.g.
"opponent" or "stock") and `diff` (holder-minus-opponent points with the card,
minus the same in the paired deal without it). Rows are independent deals,
unless a `deal_id` column groups the seatings of one mirrored deal.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from casino_sim.core.cards import BIG_CASINO, RANKS, SUIT_SYMBOLS, rank_of, suit_of
from casino_sim.core.errors import InputError
from casino_sim.reports.stats import cluster_mean_ci, mean_ci_table

COLUMNS = ("card", "batch", "variant", "diff")
TEN_DIAMONDS = BIG_CASINO


def card_label(c: int) -> str:
    """'10♦', 'A♠', 'K♣': rank (10 spelled out) and suit symbol."""
    r = RANKS[rank_of(c)]
    return ("10" if r == "T" else r) + SUIT_SYMBOLS[suit_of(c)]


def check_card_values(df: pd.DataFrame) -> pd.DataFrame:
    """The input with its columns checked; InputError names what is wrong."""
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise InputError(f"card values lack column(s): {', '.join(missing)}")
    card, batch = df["card"].to_numpy(), df["batch"].to_numpy()
    if len(df) and (card.min() < 0 or card.max() > 51):
        raise InputError("card values: `card` must be 0..51")
    if len(df) and (batch.min() < 1 or batch.max() > 6):
        raise InputError("card values: `batch` must be 1..6")
    return df


def _labelled(t: pd.DataFrame) -> pd.DataFrame:
    cards = t["card"].to_numpy()
    t.insert(t.columns.get_loc("card") + 1, "label", [card_label(int(c)) for c in cards])
    t.insert(t.columns.get_loc("label") + 1, "suit", [SUIT_SYMBOLS[suit_of(int(c))] for c in cards])
    t.insert(t.columns.get_loc("suit") + 1, "rank", [rank_of(int(c)) for c in cards])
    return t


def _value_table(df: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Mean diff per group with its interval; rows of one deal (the seatings of a mirrored deal, when a
    `deal_id` column says so) count as one sample."""
    if "deal_id" not in df.columns:
        return mean_ci_table(df, by, "diff")
    rows = [
        {**dict(zip(by, key)), **cluster_mean_ci(g["diff"].to_numpy(), pd.factorize(g["deal_id"])[0]).as_dict()}
        for key, g in df.groupby(by, observed=True, sort=True)
    ]
    return pd.DataFrame(rows)


def card_value_table(df: pd.DataFrame) -> pd.DataFrame:
    """Mean value (points) of holding each card, per variant, with 95% intervals."""
    check_card_values(df)
    return _labelled(_value_table(df, ["variant", "card"]))


def card_batch_table(df: pd.DataFrame) -> pd.DataFrame:
    """Mean value per variant x card x dealt batch, with 95% intervals."""
    check_card_values(df)
    return _labelled(_value_table(df, ["variant", "card", "batch"]))


def value_grid(table: pd.DataFrame, variant: str, column: str = "mean") -> np.ndarray:
    """A 4x13 grid (suits S H D C by ranks A..K) of one column for one variant; NaN where absent."""
    grid = np.full((4, 13), np.nan)
    t = table[table["variant"] == variant]
    cards = t["card"].to_numpy()
    grid[cards & 3, cards >> 2] = t[column].to_numpy()
    return grid
