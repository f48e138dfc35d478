"""Strength for cost (reports/frontier.py): a policy leaves the frontier only when a policy as cheap or cheaper beats
it in their own pairing (a test of their difference), ratings whose intervals fail to overlap never decide it, and
the files say the same as the table."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from casino_sim.reports.frontier import frontier_table, write_frontier


def _ratings(rows):
    """A tournament's ratings (reports/tournament.py columns) from (policy, elo, half-width)."""
    return pd.DataFrame(
        [
            {"policy": p, "strength": 1.0, "elo": e, "elo_ci_lo": e - w, "elo_ci_hi": e + w, "games": 100}
            | {"win_rate": 0.5, "win_rate_ci_lo": 0.4, "win_rate_ci_hi": 0.6}
            for p, e, w in rows
        ]
    )


def _matches(won: dict[tuple[str, str], tuple[float, float, float]], games: int = 400):
    """A tournament's matches table (both sides of each pairing) from {(policy, opponent): (win rate, lo, hi)}."""
    rows = []
    for (a, b), (mean, lo, hi) in won.items():
        rows.append({"policy": a, "opponent": b, "games": games, "win_rate_mean": mean} | {"win_rate_ci_lo": lo})
        rows[-1]["win_rate_ci_hi"] = hi
        rows.append(
            {"policy": b, "opponent": a, "games": games, "win_rate_mean": 1 - mean} | {"win_rate_ci_lo": 1 - hi}
        )
        rows[-1]["win_rate_ci_hi"] = 1 - lo
    return pd.DataFrame(rows)


def test_a_policy_is_off_the_frontier_only_when_a_cheaper_one_beats_it_in_their_pairing():
    ratings = _ratings(
        [("slow-weak", 1400, 20), ("fast-strong", 1600, 20), ("slow-close", 1590, 30), ("quick", 1000, 50)]
    )
    cost = {"slow-weak": 2.0, "fast-strong": 0.01, "slow-close": 1.0, "quick": 0.001}
    matches = _matches(
        {
            ("fast-strong", "slow-weak"): (0.70, 0.65, 0.75),  # beaten by a cheaper one
            ("fast-strong", "slow-close"): (0.53, 0.48, 0.58),  # its rating is lower, but the pairing cannot tell
            ("fast-strong", "quick"): (0.95, 0.92, 0.97),  # quick is cheaper: beaten by a dearer one only
            ("slow-close", "slow-weak"): (0.60, 0.55, 0.65),
            ("slow-close", "quick"): (0.90, 0.85, 0.94),
            ("slow-weak", "quick"): (0.80, 0.75, 0.85),
        }
    )
    t = frontier_table(ratings, cost, matches).set_index("policy")
    assert list(t.index) == ["quick", "fast-strong", "slow-close", "slow-weak"]  # cheapest first
    assert t["on_frontier"].to_dict() == {"quick": True, "fast-strong": True, "slow-close": True, "slow-weak": False}
    assert t.loc["slow-close", "us_per_decision"] == 1.0


def test_ratings_clear_of_each_other_are_not_the_test():
    """Elo intervals apart, but their own pairing's win rate reaches 50%: the cheaper one does not push it off."""
    ratings = _ratings([("a", 1500, 10), ("b", 1700, 10)])
    t = frontier_table(ratings, {"a": 0.5, "b": 0.5}, _matches({("b", "a"): (0.55, 0.49, 0.61)}))
    assert t.set_index("policy")["on_frontier"].to_dict() == {"b": True, "a": True}


def test_equal_cost_and_a_won_pairing_is_enough():
    ratings = _ratings([("a", 1500, 10), ("b", 1700, 10)])
    t = frontier_table(ratings, {"a": 0.5, "b": 0.5}, _matches({("b", "a"): (0.7, 0.65, 0.75)})).set_index("policy")
    assert t["on_frontier"].to_dict() == {"b": True, "a": False}


def test_costs_within_the_timings_noise_are_one_cost():
    """greedy measured 1% cheaper than builder is still builder's price, and builder beats it; a policy 10% cheaper
    is cheaper."""
    ratings = _ratings([("greedy", 1495, 15), ("builder", 1700, 15), ("trail", 0, 40)])
    matches = _matches({("builder", "greedy"): (0.7, 0.65, 0.75), ("builder", "trail"): (1.0, 0.99, 1.0)})
    t = frontier_table(ratings, {"greedy": 0.238, "builder": 0.2405, "trail": 0.216}, matches).set_index("policy")
    assert t["on_frontier"].to_dict() == {"trail": True, "greedy": False, "builder": True}


def test_a_policy_without_a_cost_is_named():
    with pytest.raises(ValueError, match="no cost a decision for b"):
        frontier_table(_ratings([("a", 1500, 10), ("b", 1700, 10)]), {"a": 0.5}, _matches({}))


def test_the_files_hold_the_table(tmp_path):
    ratings = _ratings([("greedy", 1300, 30), ("searcher", 1800, 40)])
    t = frontier_table(
        ratings, {"greedy": 0.27, "searcher": 1615.4}, _matches({("searcher", "greedy"): (0.55, 0.4, 0.7)})
    )
    write_frontier(t, tmp_path, "How it was made.", "a caption")
    assert {p.name for p in tmp_path.iterdir()} == {f"frontier.{x}" for x in ("csv", "json", "md", "png", "svg")}
    assert pd.read_csv(tmp_path / "frontier.csv")["policy"].tolist() == ["greedy", "searcher"]
    assert [r["on_frontier"] for r in json.loads((tmp_path / "frontier.json").read_text())] == [True, True]
    md = (tmp_path / "frontier.md").read_text()
    assert "How it was made." in md and "| greedy | 0.27 | 1300 [1270, 1330] | 50.0% | yes |" in md
    assert "| searcher | 1,615 | 1800 [1760, 1840] |" in md  # whole µs from 100 up
