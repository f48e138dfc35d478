"""Strength for cost (reports/frontier.py): a policy leaves the frontier only when a policy as cheap or cheaper rates
clearly higher, overlapping intervals never decide it, and the files say the same as the table."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from casino_sim.reports.frontier import frontier_table, write_frontier


def _ratings(rows):
    """A tournament's ratings table (reports/tournament.py columns) from (policy, elo, half-width)."""
    return pd.DataFrame(
        [
            {"policy": p, "strength": 1.0, "elo": e, "elo_ci_lo": e - w, "elo_ci_hi": e + w, "games": 100}
            | {"win_rate": 0.5, "win_rate_ci_lo": 0.4, "win_rate_ci_hi": 0.6}
            for p, e, w in rows
        ]
    )


def test_a_policy_is_off_the_frontier_only_when_a_cheaper_one_rates_clearly_higher():
    ratings = _ratings(
        [("slow-weak", 1400, 20), ("fast-strong", 1600, 20), ("slow-close", 1590, 30), ("quick", 1000, 50)]
    )
    cost = {"slow-weak": 2.0, "fast-strong": 0.01, "slow-close": 1.0, "quick": 0.001}
    t = frontier_table(ratings, cost).set_index("policy")
    assert list(t.index) == ["quick", "fast-strong", "slow-close", "slow-weak"]  # cheapest first
    assert not t.loc["slow-weak", "on_frontier"]  # fast-strong costs less and its interval is wholly above
    assert t.loc["slow-close", "on_frontier"]  # rated lower than fast-strong, but the intervals overlap
    assert t.loc["quick", "on_frontier"] and t.loc["fast-strong", "on_frontier"]
    assert t.loc["slow-close", "us_per_decision"] == 1.0


def test_equal_cost_and_a_clearly_higher_rating_is_enough():
    t = frontier_table(_ratings([("a", 1500, 10), ("b", 1700, 10)]), {"a": 0.5, "b": 0.5}).set_index("policy")
    assert t["on_frontier"].to_dict() == {"b": True, "a": False}


def test_costs_within_the_timings_noise_are_one_cost():
    """greedy measured 1% cheaper than builder is still builder's price, and builder rates clearly higher; a policy
    10% cheaper is cheaper."""
    ratings = _ratings([("greedy", 1495, 15), ("builder", 1700, 15), ("trail", 0, 40)])
    t = frontier_table(ratings, {"greedy": 0.238, "builder": 0.2405, "trail": 0.216}).set_index("policy")
    assert t["on_frontier"].to_dict() == {"trail": True, "greedy": False, "builder": True}


def test_a_policy_without_a_cost_is_named():
    with pytest.raises(ValueError, match="no cost a decision for b"):
        frontier_table(_ratings([("a", 1500, 10), ("b", 1700, 10)]), {"a": 0.5})


def test_the_files_hold_the_table(tmp_path):
    t = frontier_table(_ratings([("greedy", 1300, 30), ("searcher", 1800, 40)]), {"greedy": 0.27, "searcher": 1615.4})
    write_frontier(t, tmp_path, "How it was made.", "a caption")
    assert {p.name for p in tmp_path.iterdir()} == {f"frontier.{x}" for x in ("csv", "json", "md", "png", "svg")}
    assert pd.read_csv(tmp_path / "frontier.csv")["policy"].tolist() == ["greedy", "searcher"]
    assert [r["on_frontier"] for r in json.loads((tmp_path / "frontier.json").read_text())] == [True, True]
    md = (tmp_path / "frontier.md").read_text()
    assert "How it was made." in md and "| greedy | 0.27 | 1300 [1270, 1330] | 50.0% | yes |" in md
    assert "| searcher | 1,615 | 1800 [1760, 1840] |" in md  # whole µs from 100 up
