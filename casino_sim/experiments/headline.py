"""The headline of a run: per deal, policy A's points minus policy B's; and its running interval (--until-ci)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from casino_sim.reports.load import has_place_records
from casino_sim.reports.place_tables import deal_margins
from casino_sim.reports.places import side_rows
from casino_sim.reports.stats import t975  # Student's t: a few deals give a wide interval


def headline(frame: pd.DataFrame) -> np.ndarray:
    """Per deal: policy A's points minus policy B's, averaged over the mirrored seatings.

    A void round counts as a difference of 0 (it scores nothing). Three or four players: A's side's points
    minus the mean of the other sides', averaged over the deal's non-void seatings (reports/place_tables.py).
    """
    if has_place_records(frame):
        return deal_margins(side_rows(frame))
    a_is_0 = frame["mirror"].to_numpy() == 0
    s0, s1 = frame["s0_total"].to_numpy(), frame["s1_total"].to_numpy()
    diff = np.where(a_is_0, s0 - s1, s1 - s0).astype(np.float64)
    return pd.Series(diff).groupby(frame["deal_id"].to_numpy()).mean().to_numpy()


class Headline:
    """Running sums of the headline difference, for the interval and for --until-ci."""

    def __init__(self) -> None:
        self.n, self.s, self.ss = 0, 0.0, 0.0

    def add(self, frame: pd.DataFrame) -> None:
        d = headline(frame)
        self.n += len(d)
        self.s += float(d.sum())
        self.ss += float((d * d).sum())

    def interval(self) -> tuple[float, float]:
        """Mean and the full width of its 95% interval."""
        if self.n < 2:
            return (self.s / max(self.n, 1), math.inf)
        mean = self.s / self.n
        var = max(self.ss / self.n - mean * mean, 0.0) * self.n / (self.n - 1)
        return mean, 2 * t975(self.n - 1) * math.sqrt(var / self.n)
