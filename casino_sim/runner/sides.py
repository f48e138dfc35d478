"""Each side's points and each player's margin, read from round records of any player count (core/record.py).

A side is a player, or with teams a team. Records name a player's columns by their place in the turn order, the
player there in `{place}_seat`; a team's totals are team_first's (the first and third places) and
team_dealer's (the second and the dealer).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from casino_sim.core.record import TEAMS, place_names
from casino_sim.core.rules import RuleSet


def side_columns(rules: RuleSet) -> list[str]:
    """The record columns side_points reads."""
    places = place_names(rules.players)
    if rules.teams:
        return [*(f"{q}_seat" for q in places[:2]), *(f"team_{t}_total" for t in TEAMS)]
    return [*(f"{q}_seat" for q in places), *(f"{q}_total" for q in places)]


def side_points(cols, rules: RuleSet) -> np.ndarray:
    """(rounds, sides): each side's points in round records (columns by name: a DataFrame or an engine's dict)."""
    places = place_names(rules.players)
    if rules.teams:
        owner = [np.asarray(cols[f"{q}_seat"]) % 2 for q in places[:2]]  # team first: the first place's side
        totals = [cols[f"team_{t}_total"] for t in TEAMS]
    else:
        owner, totals = [cols[f"{q}_seat"] for q in places], [cols[f"{q}_total"] for q in places]
    points = np.zeros((len(totals[0]), rules.n_sides), np.int64)
    np.put_along_axis(points, np.stack(owner, axis=1).astype(np.int64), np.stack(totals, axis=1), axis=1)
    return points


def player_margins(cols, rules: RuleSet) -> np.ndarray:
    """(rounds, players): the margin of each player's side, its points less the mean of the other sides' (two
    sides: less the other's); 0 in a void round, which scores nothing."""
    points = side_points(cols, rules).astype(np.float64)
    margins = points - (points.sum(axis=1, keepdims=True) - points) / (rules.n_sides - 1)
    side = np.arange(rules.players) % 2 if rules.teams else np.arange(rules.players)
    return margins[:, side]


def a_margins(records, rules: RuleSet) -> np.ndarray:
    """Per deal of `records` (with deal_id and mirror), in deal order: policy A's margin averaged over the deal's
    seatings, A sitting at player `mirror` (runner.deals.rotations). A void round counts 0."""
    margins = player_margins(records, rules)
    mine = margins[np.arange(len(margins)), np.asarray(records["mirror"], np.int64)]
    return pd.Series(mine).groupby(np.asarray(records["deal_id"])).mean().to_numpy()
