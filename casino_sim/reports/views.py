"""A run's round records as the reports read them: one view per record layout, both with the same face.

Two players keep seat columns (s0_, s1_) and the seating of the policies per row (reports/tables.py); three and
four players keep place columns (first_, ..., dealer_, and {place}_seat) read by side: player or team
(reports/places.py). Each view gives every report kind's table and says which kinds its records have, so the
report makers (reports/kinds.py) and report.md (reports/headlines.py LAYOUTS) are one set for every player count.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from casino_sim.reports import charts, tables
from casino_sim.reports.anatomy import anatomy_table
from casino_sim.reports.load import ANATOMY_COLUMNS, has_place_records, live_rounds, prepare, read_rounds
from casino_sim.reports.place_tables import (
    anatomy_places_table,
    convergence_places_table,
    matchup_label,
    score_places_table,
    seat_order,
    seat_places_table,
    summary_places_table,
    sweep_places_tables,
)
from casino_sim.reports.places import has_teams, side_rows

# The round reports, in the order they are made and written
ROUND_KINDS = ("summary", "score", "sweeps", "seat", "anatomy", "convergence")


class Seats:
    """Two-player records by seat, prepared (reports/load.py prepare): any number of matchups."""

    layout = "seats"
    seat_chart = staticmethod(charts.seat_advantage_chart)

    def __init__(self, df: pd.DataFrame):
        self.df = prepare(df)

    def kinds(self) -> list[str]:
        """ROUND_KINDS, the anatomy only when the records have its columns (older runs lack them); none when nobody
        captured in any round (e.g. trail against trail)."""
        if not live_rounds(self.df).any():
            return []
        anatomy = all(c in self.df.columns for c in ANATOMY_COLUMNS)
        return [k for k in ROUND_KINDS if k != "anatomy" or anatomy]

    def summary(self) -> pd.DataFrame:
        return tables.summary_table(self.df)

    def score(self) -> pd.DataFrame:
        return tables.score_breakdown_table(self.df)

    def sweeps(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        return tables.sweep_frequency_tables(self.df)

    def seat(self) -> pd.DataFrame:
        return tables.seat_advantage_table(self.df)

    def anatomy(self) -> pd.DataFrame:
        return anatomy_table(self.df)

    def convergence(self) -> pd.DataFrame:
        return tables.convergence_table(self.df)


class Places:
    """Three- or four-player records by side (each place, or each team), read once for every report."""

    layout = "places"
    seat_chart = staticmethod(charts.seat_places_chart)

    def __init__(self, df: pd.DataFrame):
        self.df = df
        self.sides = side_rows(df)
        self.players = side_rows(df, by_team=False)  # the sides themselves without teams
        self.label = matchup_label(self.sides, seat_order(df))[2]
        self.rules = str(df["rules"].iloc[0])

    def kinds(self) -> list[str]:
        return list(ROUND_KINDS)

    def summary(self) -> pd.DataFrame:
        return summary_places_table(self.df, self.sides)

    def score(self) -> pd.DataFrame:
        return score_places_table(self.sides, self.label)

    def sweeps(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        return sweep_places_tables(self.players, self.label, self.rules)

    def seat(self) -> pd.DataFrame:
        return seat_places_table(*((self.sides, self.players) if has_teams(self.df) else (self.sides,)))

    def anatomy(self) -> pd.DataFrame:
        return anatomy_places_table(self.players, self.label, self.rules)

    def convergence(self) -> pd.DataFrame:
        return convergence_places_table(self.df, self.sides)


View = Seats | Places


def view_of(data: View | pd.DataFrame | str | Path) -> View:
    """The view of records: a view as it is, a DataFrame of records, or a run folder (its rounds read: every
    column of three or four players', the reports' columns of two players')."""
    if isinstance(data, Seats | Places):
        return data
    if has_place_records(data):
        return Places(data if isinstance(data, pd.DataFrame) else read_rounds(data, None))
    return Seats(data if isinstance(data, pd.DataFrame) else read_rounds(data))
