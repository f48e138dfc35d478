"""The equity table (reports/win_chances.py): the dynamic programme against closed forms and against games played
round by round from the same distribution of points (docs/equity.md)."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim.core.errors import InputError
from casino_sim.core.rules import get_rules
from casino_sim.reference.game import game_winner
from casino_sim.reports.win_chances import resampled_counts, round_outcomes, win_chances


def _outcomes(pairs_by_dealer: dict[int, list[tuple[tuple[int, int], int]]]):
    """Outcomes from {dealer side: [((side 0 points, side 1 points), how many rounds), ...]}."""
    points = [pair for d in (0, 1) for pair, n in pairs_by_dealer[d] for _ in range(n)]
    dealer = [d for d in (0, 1) for _, n in pairs_by_dealer[d] for _ in range(n)]
    return round_outcomes(np.array(points), np.array(dealer))


def test_a_target_of_one_is_won_by_whoever_first_scores_alone():
    """Target 1: a round of (1, 0) wins, (1, 1) is a tie at the target (another round), so side 0 wins with
    chance p / (p + q) from anywhere, whoever deals."""
    rounds = [((1, 0), 3), ((0, 1), 1), ((1, 1), 4)]
    table = win_chances(get_rules("strict:target=1"), _outcomes({0: rounds, 1: rounds}))
    assert table.shape == (1, 1, 2)
    np.testing.assert_allclose(table[0, 0], [3 / 4, 3 / 4])


def test_rounds_of_no_points_pass_the_deal_and_change_nothing_else():
    """Side 0 scores 1 only when it deals, half its deals; otherwise a round scores nothing: to 1 point side 0
    wins surely, but the chance is the same whoever deals next (the deal comes back)."""
    table = win_chances(get_rules("strict:target=1"), _outcomes({0: [((1, 0), 1), ((0, 0), 1)], 1: [((0, 0), 1)]}))
    np.testing.assert_allclose(table[0, 0], [1.0, 1.0])


def _played(rules, points, dealer, start, first_dealer, games, rng) -> float:
    """Side 0's share of games played round by round from `start`, each round's points drawn from the rounds
    dealt by that side."""
    dealt = [np.flatnonzero(dealer == d) for d in (0, 1)]
    wins = 0
    for _ in range(games):
        totals, d = list(start), first_dealer
        while True:
            a, b = points[dealt[d][rng.integers(len(dealt[d]))]]
            totals = [totals[0] + a, totals[1] + b]
            winner = game_winner(rules, totals, (a, b))
            if winner is not None:
                wins += winner == 0
                break
            d = 1 - d
    return wins / games


@pytest.mark.parametrize("spec", ["strict", "brazilian:round_win_points=6", "italian:target=11"])
def test_the_table_is_the_share_of_games_played_round_by_round(spec):
    rng = np.random.default_rng(7)
    n = 4000
    dealer = rng.integers(0, 2, n)
    points = rng.multinomial(11, [0.5, 0.5], size=n) + rng.integers(0, 3, size=(n, 2)) * (rng.random((n, 1)) < 0.3)
    points[np.arange(n), dealer] += rng.integers(0, 2, n)  # the dealer's side scores a little more
    rules = get_rules(spec)
    table = win_chances(rules, round_outcomes(points, dealer))
    games = 3000
    for start, first_dealer in [((0, 0), 1), ((5, 9), 0), ((8, 3), 1)]:
        if max(start) >= rules.target:
            continue
        share = _played(rules, points, dealer, start, first_dealer, games, rng)
        half = 2.6 * np.sqrt(share * (1 - share) / games)  # a 99% interval: three checks per rule set
        assert abs(table[start[0], start[1], first_dealer] - share) < half, (start, first_dealer, share)


def test_resampled_tables_scatter_around_the_table():
    rng = np.random.default_rng(3)
    points = rng.multinomial(11, [0.45, 0.55], size=2000)
    outcomes = round_outcomes(points, np.tile([0, 1], 1000))
    rules = get_rules("strict")
    table = win_chances(rules, outcomes)
    replicates = win_chances(rules, outcomes, resampled_counts(outcomes, np.arange(2000) // 2, 200, rng))
    lo, hi = np.percentile(replicates, [2.5, 97.5], axis=0)
    assert replicates.shape == (200, 21, 21, 2)
    assert (lo <= table + 1e-12).all() and (table <= hi + 1e-12).all()
    assert 0.005 < (hi - lo)[0, 0, 1] < 0.2  # a real spread, not a point


@pytest.mark.parametrize(
    "spec, said",
    [
        ("italian:single_round=true", "single_round"),
        ("brazilian:players=3", "two sides"),
        ("strict:target=500", "targets up to 100"),
    ],
)
def test_games_without_a_two_sided_score_are_refused(spec, said):
    outcomes = _outcomes({0: [((1, 0), 1)], 1: [((0, 1), 1)]})
    with pytest.raises(InputError, match=said):
        win_chances(get_rules(spec), outcomes)


def test_each_side_must_have_dealt():
    with pytest.raises(InputError, match="dealt by each side"):
        win_chances(get_rules("strict"), _outcomes({0: [((1, 0), 2)], 1: []}))
