"""The headline of a run: per deal, policy A's points minus policy B's; and its running interval (--until-ci)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from casino_sim.reports.places import player_margins
from casino_sim.reports.stats import t975  # Student's t: a few deals give a wide interval
from casino_sim.runner.records import frame_as_format2

HEADLINE_COLUMNS = ("deal_id", "mirror", "void")  # and every *_seat and *_total column (player_margins)


def headline(frame: pd.DataFrame) -> np.ndarray:
    """Per deal: policy A's margin (its side's points minus the mean of the other sides'; two players: A's points
    minus B's), averaged over the deal's seatings; `frame`: round records of either format (runner/records.py).

    Two players count a void round as a difference of 0 (it scores nothing); three or four players average over
    the deal's non-void seatings (reports/tables.py deal_margins).
    """
    frame = frame_as_format2(frame)
    mine = player_margins(frame)[np.arange(len(frame)), frame["mirror"].to_numpy().astype(np.int64)]
    keep = np.ones(len(frame), bool) if "second_seat" not in frame.columns else frame["void"].to_numpy() == 0
    return pd.Series(mine[keep]).groupby(frame["deal_id"].to_numpy()[keep]).mean().to_numpy()


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
