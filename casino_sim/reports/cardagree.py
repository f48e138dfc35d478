"""Whether the two card-value estimates agree: the deal's (reports/dealt.py) and the swap replays' (cardvalue.py).

Both estimate, for every card, what the holder's margin gains from holding it rather than an opponent. One joint
test over all 52 cards, of each card's gap over the standard error of the gap (the two intervals' half-widths read
as 1.96 standard errors, the two experiments independent): they differ when the sum of the squares passes its
chi-square quantile (many cards a little apart) or the largest passes its Sidak bound over the cards (one card far
apart), each at half of 1 in 1,000: agreeing estimates are called different at most 1 time in 1,000.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
import pandas as pd

from casino_sim.core.cards import format_card
from casino_sim.core.numbers import number
from casino_sim.reports.stats import Z95

LEVEL = 0.999  # the joint test's quantile: agreeing estimates are called different 1 time in 1,000


@dataclass(frozen=True)
class Agreement:
    """The joint test: the sum of the cards' squared z-scores and its threshold, the largest |z| and its threshold,
    the cards compared, and the card of the largest gap."""

    statistic: float
    threshold: float
    largest: float
    largest_threshold: float
    cards: int
    worst: str

    @property
    def agree(self) -> bool:
        return self.statistic <= self.threshold and self.largest <= self.largest_threshold

    def sentence(self) -> str:
        how = "agree" if self.agree else "differ"
        return (
            f"the deal's and the swap replays' values {how} over all {self.cards} cards (joint test at 1 in 1,000: "
            f"chi-square {number(self.statistic, '.1f')} against {number(self.threshold, '.1f')}, largest gap "
            f"{self.worst}, {number(self.largest, '.1f')} standard errors against "
            f"{number(self.largest_threshold, '.1f')})"
        )


def chi2_quantile(p: float, k: int) -> float:
    """The p quantile of chi-square with k degrees of freedom (Wilson-Hilferty: within 0.1% from k = 10)."""
    z = NormalDist().inv_cdf(p)
    return k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3


def agreement(deal: pd.DataFrame, swaps: pd.DataFrame) -> Agreement:
    """The joint test of card_values (the deal's: card as TD, to_me_minus_to_opponent, ci_lo, ci_hi) against
    card_swaps (variant opponent: card 0..51, mean, ci_lo, ci_hi), over the cards both estimate with an interval."""
    d = deal.set_index("card")
    s = swaps[swaps["variant"] == "opponent"].assign(code=lambda t: t["card"].map(format_card)).set_index("code")
    both = d.index.intersection(s.index)
    gap = d.loc[both, "to_me_minus_to_opponent"] - s.loc[both, "mean"]
    se = np.hypot(d.loc[both, "ci_hi"] - d.loc[both, "ci_lo"], s.loc[both, "ci_hi"] - s.loc[both, "ci_lo"]) / (2 * Z95)
    z = (gap / se)[np.isfinite(gap / se)]
    if z.empty:
        return Agreement(float("nan"), float("nan"), float("nan"), float("nan"), 0, "none")
    k, worst = len(z), z.abs().idxmax()
    each = 1 - (1 - (1 - LEVEL) / 2) ** (1 / k)  # Sidak: the largest of k |z| passes this two-sided level rarely
    return Agreement(
        float((z**2).sum()),
        chi2_quantile(1 - (1 - LEVEL) / 2, k),
        float(z.abs().max()),
        NormalDist().inv_cdf(1 - each / 2),
        k,
        f"{worst} {number(gap[worst], '+.2f')}",
    )
