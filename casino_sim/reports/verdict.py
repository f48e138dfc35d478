"""The verdict on a finding between the two strongest rungs of the ladder: an equivalence test, not an overlap.

Overlapping wide intervals are not agreement. So a finding is **settled** only when the 95% interval of the
*difference* between the two strongest rungs lies inside a stated margin (MARGINS: 0.1 points a round, 0.01 for a
per-round count or share, half a percentage point of equity); it **moves with strength** when that interval
excludes 0; otherwise it is **undetermined**, and the half-width shrinking as 1/sqrt(n) says about how many times
the deals would decide it one way or the other (docs/findings.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from casino_sim.core.numbers import number

SETTLED, MOVES, UNDETERMINED = "settled", "moves with strength", "undetermined"
POINTS, RATE, EQUITY = 0.1, 0.01, 0.005  # the margins: points a round; a per-round count or share; a chance


def about(n: float) -> str:
    """A sample count rounded up to two significant figures, with thousands separators: 4,812.3 -> '4,900'."""
    n = max(1, math.ceil(n - 1e-6))  # 16.0000001 deals of a float ratio are 16
    step = 10 ** max(0, len(str(n)) - 2)
    return f"{-(-n // step) * step:,}"


@dataclass(frozen=True)
class Verdict:
    """The difference (stronger minus weaker) with its 95% interval, the margin, and what they say."""

    diff: float
    lo: float
    hi: float
    margin: float

    @property
    def verdict(self) -> str:
        if not (math.isfinite(self.lo) and math.isfinite(self.hi)):
            return UNDETERMINED
        if -self.margin <= self.lo and self.hi <= self.margin:
            return SETTLED
        return MOVES if self.lo > 0 or self.hi < 0 else UNDETERMINED

    def times_more(self) -> float | None:
        """For an undetermined verdict: about how many times the deals would decide it (the interval then inside
        the margin, or clear of 0, whichever its half-width reaches first at the observed difference); None
        without a finite interval, inf when the difference sits on the margin."""
        half = (self.hi - self.lo) / 2
        if not math.isfinite(half) or half <= 0:
            return None
        room = max(self.margin - abs(self.diff), abs(self.diff))
        return math.inf if room <= 0 else (half / room) ** 2


def difference(a: tuple[float, float, float], b: tuple[float, float, float], margin: float) -> Verdict:
    """b minus a, each (mean, lo, hi) with its 95% interval, as independent estimates (the half-widths add in
    quadrature; the ladder's rungs play the same deals, whose shared luck this leaves in: wider, so it settles and
    separates less readily, never more)."""
    half = math.hypot((a[2] - a[1]) / 2, (b[2] - b[1]) / 2)
    diff = b[0] - a[0]
    return Verdict(diff, diff - half, diff + half, margin)


def needed_text(v: Verdict, deals: int | None) -> str:
    """', about N more deals a run would decide' (or 'x times the deals' when the deals are unknown) for an
    undetermined verdict; '' otherwise."""
    if v.verdict != UNDETERMINED:
        return ""
    k = v.times_more()
    if k is None:
        return "; no spread measured to say how many deals would decide"
    if math.isinf(k):
        return "; the difference sits on the margin: more deals would not decide it at this spread"
    if deals:
        return f"; about {about(max(k - 1, 0.01) * deals)} more deals a run would decide it"
    return f"; about {number(k, '.1f')} times the deals would decide it"
