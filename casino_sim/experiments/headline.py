"""The headline of a run: per deal, policy A's points minus policy B's; and its running interval (--until-ci)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from casino_sim.core.rules import RuleSet
from casino_sim.reports.stats import t975  # Student's t: a few deals give a wide interval
from casino_sim.runner.sides import a_margins


def headline(frame: pd.DataFrame, rules: RuleSet) -> np.ndarray:
    """Per deal: policy A's margin, its side's points less the mean of the other sides' (two sides: A's points
    minus B's), averaged over the deal's seatings (runner/sides.py). A void round counts as a margin of 0 (it
    scores nothing)."""
    return a_margins(frame, rules)


class Headline:
    """Running sums of the headline difference, for the interval and for --until-ci."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.n, self.s, self.ss = 0, 0.0, 0.0

    def add(self, frame: pd.DataFrame) -> None:
        d = headline(frame, self.rules)
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
