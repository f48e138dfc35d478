"""A run's round records as the reports read them: one view for every number of players.

The records are format 2 (docs/reports.md; a run folder's older chunks are mapped as they are read, a DataFrame of
format 1 here), labelled by matchup and deal (reports/load.py prepare) and read by side (reports/places.py): each
team or player (`sides`) and each player (`players`; the same rows without teams). Every report kind's maker
(reports/tables.py, reports/anatomy.py) takes this view.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

import pandas as pd

from casino_sim.core.record import ANATOMY
from casino_sim.reports.load import has_records, live_rounds, matchup_info, prepare, read_rounds
from casino_sim.reports.places import Shape, Sides, shape_of
from casino_sim.runner.records import frame_as_format2

# The round reports, in the order they are made and written
ROUND_KINDS = ("summary", "score", "sweeps", "seat", "anatomy", "convergence")
# The anatomy's columns (of the first place: every place has them or none): runs of older versions lack some
ANATOMY_COLUMNS = ("last_capturer", "remainder", *(f"first_{c}" for c in ("n_cards", "n_spades", *ANATOMY)))


class RoundView:
    """Round records of any number of players, prepared: any number of matchups, each side's rows made once."""

    def __init__(self, df: pd.DataFrame):
        df = frame_as_format2(df)
        self.records = has_records(df)  # whole games of three or four players written before format 2: no records
        self.df = prepare(df) if self.records else df

    @property
    def shape(self) -> Shape:
        """The tables' shape: two players', of a matchup of A against B (a seat table of dealer against first
        player, a tie rate); three or four players', of every place and team."""
        return shape_of(self.df.columns)

    @cached_property
    def info(self) -> pd.DataFrame:
        return matchup_info(self.df)

    @cached_property
    def sides(self) -> Sides:
        """The sides' rows: each player, or each team."""
        return Sides(self.df)

    @cached_property
    def players(self) -> Sides:
        """Each player's rows (the sides' own without teams)."""
        return Sides(self.df, by_team=False) if self.sides.teams else self.sides

    def kinds(self) -> list[str]:
        """ROUND_KINDS, the anatomy only when the records have its columns (runs of older versions lack them); none
        when nobody captured in any round (e.g. trail against trail) or the rounds are no records."""
        if not self.records or not live_rounds(self.df).any():
            return []
        return [k for k in ROUND_KINDS if k != "anatomy" or not self.missing_anatomy()]

    def missing_anatomy(self) -> list[str]:
        """The anatomy's columns the records lack."""
        return [c for c in ANATOMY_COLUMNS if c not in self.df.columns]


def view_of(data: RoundView | pd.DataFrame | str | Path) -> RoundView:
    """The view of records: a view as it is, a DataFrame of records, or a run folder (its rounds read)."""
    if isinstance(data, RoundView):
        return data
    return RoundView(data if isinstance(data, pd.DataFrame) else read_rounds(data))
