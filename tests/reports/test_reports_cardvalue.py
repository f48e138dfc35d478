"""Card-value report: tables against groupby means, the 4x13 grid's layout, files, bad input."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from casino_sim.core.cards import BIG_CASINO, parse_card
from casino_sim.core.errors import InputError
from casino_sim.reports.cardvalue import card_batch_table, card_label, card_value_table, value_grid
from casino_sim.reports.kinds import card_swap


@pytest.fixture(scope="module")
def values() -> pd.DataFrame:
    """Two variants; card c's true value is c / 10, the 10♦ is worth more when dealt early."""
    rng = np.random.default_rng(0)
    n = 20_000
    card = rng.integers(0, 52, n)
    batch = rng.integers(1, 7, n)
    variant = rng.choice(["opponent", "stock"], n)
    diff = card / 10 + np.where(card == BIG_CASINO, 7 - batch, 0) + rng.normal(0, 1, n)
    return pd.DataFrame({"card": card, "batch": batch, "variant": variant, "diff": diff})


def test_card_labels():
    assert card_label(BIG_CASINO) == "10♦"
    assert card_label(parse_card("AS")) == "A♠"
    assert card_label(parse_card("KC")) == "K♣"
    assert card_label(parse_card("2S")) == "2♠"


def test_value_tables_match_groupby(values):
    t = card_value_table(values)
    assert len(t) == 104
    direct = values.groupby(["variant", "card"])["diff"].mean()
    for _, r in t.sample(10, random_state=1).iterrows():
        assert r["mean"] == pytest.approx(direct[(r["variant"], r["card"])])
        assert r["ci_lo"] < r["mean"] < r["ci_hi"]
        assert r["label"] == card_label(int(r["card"]))
    tb = card_batch_table(values)
    ten = tb[(tb["card"] == BIG_CASINO) & (tb["variant"] == "stock")].sort_values("batch")
    assert list(ten["batch"]) == [1, 2, 3, 4, 5, 6]
    assert np.all(np.diff(ten["mean"]) < 0)  # the planted early-deal value shows


def test_grid_puts_suits_in_rows_and_ranks_in_columns(values):
    t = card_value_table(values)
    grid = value_grid(t, "opponent")
    assert grid.shape == (4, 13)
    ten = t[(t["variant"] == "opponent") & (t["card"] == BIG_CASINO)]["mean"].iloc[0]
    assert grid[2, 9] == ten  # row D, column 10
    ks = t[(t["variant"] == "opponent") & (t["card"] == parse_card("KS"))]["mean"].iloc[0]
    assert grid[0, 12] == ks
    partial = value_grid(t[t["card"] != 0], "opponent")
    assert np.isnan(partial[0, 0]) and np.isfinite(partial[1, 0])


def test_card_swap_writes_tables_and_charts(values, tmp_path):
    t = card_swap(values, tmp_path)
    assert len(t) == 104
    for name in ("card_swaps", "card_swaps_by_batch"):
        for ext in ("csv", "json"):
            assert (tmp_path / f"{name}.{ext}").stat().st_size > 0
    for name in ("card_swap_heatmap", "ten_diamonds_swaps_by_batch"):
        for ext in ("png", "svg"):
            assert (tmp_path / f"{name}.{ext}").stat().st_size > 0
    assert "10♦" in (tmp_path / "card_swaps.csv").read_text(encoding="utf-8")


def test_card_values_reject_bad_input(values):
    with pytest.raises(InputError, match="diff"):
        card_value_table(values.drop(columns="diff"))
    with pytest.raises(InputError, match="0..51"):
        card_value_table(values.assign(card=values["card"] + 1))
    with pytest.raises(InputError, match="1..6"):
        card_value_table(values.assign(batch=0))


def test_seatings_of_one_deal_count_as_one_sample(values):
    plain = card_value_table(values)
    twice = pd.concat([values, values], ignore_index=True)
    twice["deal_id"] = np.tile(np.arange(len(values)), 2)  # each deal seen from both seatings, identically
    clustered = card_value_table(twice)
    assert (clustered["n"] == 2 * plain["n"]).all()
    for col in ("mean", "ci_lo", "ci_hi"):
        assert clustered[col].to_numpy() == pytest.approx(plain[col].to_numpy())
    naive = card_value_table(twice.drop(columns="deal_id"))  # as if the copies were independent deals
    assert ((naive["ci_hi"] - naive["ci_lo"]) < (clustered["ci_hi"] - clustered["ci_lo"])).all()
