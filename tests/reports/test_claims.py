"""Every "most valuable" / "best" / "beats" / "equal" sentence a report writes is made only where a test of the
difference says so (reports/separation.py); otherwise it says the run is too small to tell and how many samples
would decide between the top two."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from casino_sim.core.cards import BIG_CASINO
from casino_sim.reports.cardvalue import card_value_table
from casino_sim.reports.headlines import sweep_lines
from casino_sim.reports.index import seats_text
from casino_sim.reports.tournament import matches_table, ratings_table, render_tournament
from tests.experiments.test_tournament import synthetic_games

NEEDED = re.compile(r"about ([\d,]+) ")


def needed(text: str) -> int:
    """The sample count a 'too few ... about N ... would decide' sentence gives."""
    return int(NEEDED.search(text)[1].replace(",", ""))


def card_rows(per_card: int, ten_bonus: float, sd: float, seed: int = 0) -> pd.DataFrame:
    """Paired deals of every card, `per_card` each: every card worth 1 point but the 10♦ worth 1 + ten_bonus."""
    rng = np.random.default_rng(seed)
    card = np.repeat(np.arange(52), per_card)
    diff = 1 + np.where(card == BIG_CASINO, ten_bonus, 0) + rng.normal(0, sd, len(card))
    return pd.DataFrame({"card": card, "batch": 1, "variant": "opponent", "diff": diff})


def card_text(rows: pd.DataFrame) -> str:
    return seats_text({"card-swap": card_value_table(rows)}, {})


def test_twelve_deals_of_each_card_name_no_most_valuable_card():
    text = card_text(card_rows(12, 0.5, 3.0))
    assert "most valuable" not in text
    assert "too few deals of each card to rank the cards: about" in text
    assert needed(text) > 12  # more than the run had: it is an estimate of how many would do


def test_a_clear_leader_is_named_the_most_valuable_card():
    text = card_text(card_rows(2_000, 5.0, 1.0))
    assert "most valuable: 10♦ +" in text and "too few" not in text


def test_the_cards_needed_do_separate_the_top_two():
    """Run again with the number the small run asked for (and a generous margin): the leader is then named."""
    small = needed(card_text(card_rows(30, 1.0, 2.0, seed=1)))
    assert "most valuable: 10♦" in card_text(card_rows(3 * small, 1.0, 2.0, seed=2))


def test_the_card_value_printout_claims_no_winner_from_noise():
    from casino_sim.cli.ui import card_values_table

    small = card_values_table(card_value_table(card_rows(12, 0.5, 3.0))).caption
    assert "most valuable" not in small and "too few deals of each card" in small
    clear = card_values_table(card_value_table(card_rows(2_000, 5.0, 1.0))).caption
    assert "most valuable: 10♦" in clear


def sweep_table(half_width: float) -> pd.DataFrame:
    """Sweeps per round of one policy: the whole round (batch 0) and batches 1..6, batch 6 the highest mean."""
    means = [0.6, 0.08, 0.09, 0.1, 0.1, 0.11, 0.13]
    return pd.DataFrame(
        {
            "matchup": "a vs b",
            "policy": "a",
            "batch": range(7),
            "mean": means,
            "ci_lo": [m - half_width for m in means],
            "ci_hi": [m + half_width for m in means],
            "n": 40,
        }
    )


def test_sweeps_name_the_batch_with_most_only_when_it_separates():
    (small,) = sweep_lines(sweep_table(0.05))
    assert "most in batch" not in small and "too few rounds to name the batch with most: about" in small
    assert needed(small) > 40
    (clear,) = sweep_lines(sweep_table(0.005))
    assert "most in batch 6" in clear and "too few" not in clear


def tournament(pair_wins: list[int]):
    games = synthetic_games({("x", "y"): pair_wins})
    return matches_table(games, ["x", "y"]), ratings_table(games, ["x", "y"])


def test_a_tournament_says_beats_only_when_the_win_rate_clears_half():
    m, r = tournament([1] * 10 + [2] * 2)  # x wins 14 of 24 games
    md = render_tournament(m, r)
    assert "beats" not in md and "Strongest" not in md
    assert "x against y: wins 58.3%" in md and "too few games to tell which is stronger: about" in md
    assert "too few games per pairing to name the strongest: about" in md
    m, r = tournament([2] * 150 + [1] * 50)
    md = render_tournament(m, r)
    assert "x beats y in 87.5%" in md and "Strongest: x" in md and "too few" not in md


def test_the_printed_ratings_say_whether_the_order_is_a_ranking():
    from casino_sim.cli.ui import ratings_table as printed

    assert "too few games per pairing" in printed(*tournament([1] * 10 + [2] * 2)[::-1]).caption
    assert printed(*tournament([2] * 200)[::-1]).caption.startswith("Strongest: x")


def knockout_rows(half_width: float) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "feature": ["capture", "sweep", "build"],
            "given_out": "",
            "weight": 1.0,
            "worth_mean": [0.5, 0.4, 0.1],
            "worth_ci_lo": [0.5 - half_width, 0.4 - half_width, 0.1 - half_width],
            "worth_ci_hi": [0.5 + half_width, 0.4 + half_width, 0.1 + half_width],
            "deals": 1_000,
            "stopped": "precision",
        }
    )


def test_knockout_names_the_most_valuable_feature_only_when_it_separates(tmp_path):
    from casino_sim.cli.ui import knockout_table
    from casino_sim.reports.skills import knockout_verdict

    small = knockout_verdict(knockout_rows(0.2))
    assert "Most valuable" not in small and "too few mirrored deals per feature to rank the features" in small
    assert needed(small) > 1_000
    assert (
        knockout_verdict(knockout_rows(0.02))
        == "Most valuable: capture, ahead of every other feature (each difference's 95% interval above 0)."
    )
    assert knockout_table(knockout_rows(0.2), "expert").caption == small


def regret_rows(half_width: float) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "policy": ["expert", "greedy"],
            "vs": "itself",
            "decisions": 500,
            "best_mean": [0.9, 0.85],
            "best_ci_lo": [0.9 - half_width, 0.85 - half_width],
            "best_ci_hi": [0.9 + half_width, 0.85 + half_width],
            "lost_per_decision_mean": 0.1,
            "lost_per_decision_ci_lo": 0.05,
            "lost_per_decision_ci_hi": 0.15,
            "lost_per_round_mean": 0.4,
            "lost_per_round_ci_lo": 0.3,
            "lost_per_round_ci_hi": 0.5,
        }
    )


def test_regret_names_who_plays_best_most_often_only_when_it_separates():
    from casino_sim.cli.ui import regret_table
    from casino_sim.reports.skills import regret_verdict

    small = regret_verdict(regret_rows(0.04))
    assert small.startswith("Too few decisions to say which policy plays a best move most often: about")
    assert regret_verdict(regret_rows(0.01)).startswith("Plays a best move most often: expert (vs itself)")
    assert regret_table(regret_rows(0.04)).caption == small


@pytest.mark.parametrize(
    ("mean", "lo", "hi", "says"),
    [
        (0.3, 0.1, 0.5, "tuned beats expert on fresh deals"),
        (-0.3, -0.5, -0.1, "expert beats tuned on fresh deals"),
        (0.1, -0.1, 0.3, "tuned vs expert: too few mirrored deals to tell them apart: about"),
    ],
)
def test_tune_says_beats_only_when_the_validation_interval_excludes_zero(mean, lo, hi, says):
    from casino_sim.cli.ui import validation_table

    rows = [{"opponent": "expert", "deals": 2_000, "mean": mean, "ci_lo": lo, "ci_hi": hi}]
    assert validation_table("tuned", rows).caption.startswith(says)


def test_tune_says_whether_the_candidate_written_is_clear_of_the_others():
    from casino_sim.reports.tune import selection_verdict

    def short_list(half_width):
        return [
            {"candidate": c, "mean": m, "ci_lo": m - half_width, "ci_hi": m + half_width, "n": 100}
            for c, m in (("centre", 0.3), ("best candidate", 0.2), ("start", 0.0))
        ]

    assert "not a clear lead: too few mirrored deals per opponent" in selection_verdict(short_list(0.1))
    assert "ahead of every other candidate (each difference's 95% interval above 0)" in selection_verdict(
        short_list(0.04)
    )


def test_cards_equal_within_the_margin_are_called_equal_not_ranked():
    """Every card worth one point to within a hair, on many deals: the top two are equal within 0.1 points (the
    interval of their difference inside it), which is an answer, not a run too small."""
    text = card_text(card_rows(20_000, 0.0, 0.5))
    assert "most valuable" not in text and "too few" not in text
    assert "nothing to rank the cards: the top two are equal to within ±0.1" in text


def test_wide_overlapping_intervals_are_not_called_equal():
    """Overlap of wide intervals proves nothing: the same cards on a handful of deals are neither ranked nor equal."""
    text = card_text(card_rows(12, 0.0, 3.0))
    assert "equal" not in text and "too few deals of each card to rank the cards: about" in text
