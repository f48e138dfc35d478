"""A tournament of three players reads each pairing's games (A alone, then B alone) as games of two sides."""

from __future__ import annotations

import pandas as pd
import pytest

from casino_sim.reports.load import label_matchups
from casino_sim.reports.tournament import field_view, matches_table, ratings_table


def three_player_games(lone: str, field: str, winners: list[list[int]], first_id: int = 0) -> list[dict]:
    """Games of `lone` alone in seat s (mirror s) against `field` in the others; winners[g][s]: the winning seat."""
    rows = []
    for g, by_seating in enumerate(winners):
        for s, w in enumerate(by_seating):
            seats = [lone if p == s else field for p in range(3)]
            finals = [21 if p == w else 10 + p for p in range(3)]
            rows.append(
                {"game_id": first_id + g, "mirror": s, **{f"policy_{p}": seats[p] for p in range(3)},
                 "rules": "italian:players=3", "first_dealer": 0, "winner": w,
                 **{f"s{p}_final": finals[p] for p in range(3)}, "rounds": 4, "void_rounds": 0}
            )  # fmt: skip
    return rows


def tables(rows: list[dict], policies: list[str]):
    games = label_matchups(field_view(pd.DataFrame(rows), policies), "game_id")
    return games, matches_table(games, policies).set_index(["policy", "opponent"])


def test_a_lone_seat_winning_its_share_is_an_even_pairing():
    # seat 0 always wins: the lone policy wins 1 of its 3 seatings, the field 2; each wins 3 of the 6 of a sequence
    even = [[0, 0, 0]] * 10
    games, m = tables(three_player_games("x", "y", even) + three_player_games("y", "x", even), ["x", "y"])
    assert (games.groupby("cluster").size() == 6).all()  # every seating, both ways: one sample
    assert m.loc[("x", "y"), "win_rate_mean"] == pytest.approx(0.5)
    assert m.loc[("x", "y"), "games"] == 60


def test_a_policy_that_always_wins_wins_alone_and_as_the_field():
    x_alone = three_player_games("x", "y", [[0, 1, 2]] * 8)  # x alone always wins
    y_alone = three_player_games("y", "x", [[1, 2, 0]] * 8)  # y alone never wins: one of the x seats does
    games, m = tables(y_alone + x_alone, ["x", "y"])  # either order of the folders
    assert m.loc[("x", "y"), "win_rate_mean"] == 1 and m.loc[("y", "x"), "win_rate_mean"] == 0
    # x alone: 21 against the field's mean; as the field: the mean of two seats, one of them the winner's 21
    assert m.loc[("x", "y"), "margin_mean"] > 0
    ratings = ratings_table(games, ["x", "y"]).set_index("policy")
    assert ratings.loc["x", "elo"] > ratings.loc["y", "elo"] and ratings.loc["x", "games"] == 8 * 6
