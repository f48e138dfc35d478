"""When a report may name a winner: only where the 95% intervals separate; else how many samples would do it.

A "most valuable", "best" or "beats" sentence read off overlapping intervals is noise dressed as a finding. So a
report claims a leader only when its interval is clear of every other's, and a side beats another only when the
difference's interval excludes no difference. Otherwise it says the run is too small, and how large it would need
to be: half-widths shrink as 1/sqrt(n), so intervals of half-widths h1 and h2 around means a gap g apart separate
after about n * ((h1 + h2) / g)^2 samples (n * (h / g)^2 for one difference's interval of half-width h).
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Verdict:
    """A leader (or a side that beats the other) when the intervals say so, else None and the samples needed."""

    leader: str | None
    needed: float | None = None  # samples that would separate them at the observed spread; None: no spread known

    def too_few(self, what: str, unit: str = "deals", pair: str = "the top two") -> str:
        """'too few deals to rank the cards: about 4,800 deals would separate the top two (observed spread)'."""
        head = f"too few {unit} to {what}"
        if self.needed is None:
            return f"{head}: their intervals overlap (no spread measured to say how many {unit} would separate them)"
        if math.isinf(self.needed):
            return f"{head}: {pair} are level (more {unit} would not separate them at this spread)"
        return f"{head}: about {about(self.needed)} {unit} would separate {pair} (observed spread)"


def about(n: float) -> str:
    """A sample count rounded up to two significant figures, with thousands separators: 4,812.3 -> '4,900'."""
    n = max(1, math.ceil(n - 1e-6))  # 16.0000001 deals of a float ratio are 16
    step = 10 ** max(0, len(str(n)) - 2)
    return f"{-(-n // step) * step:,}"


def _needed(n: int, spread: float, gap: float) -> float | None:
    """n * (spread / gap)^2: the samples at which intervals of total half-width `spread` clear a gap `gap`."""
    if n <= 0 or not math.isfinite(spread):
        return None
    return math.inf if gap <= 0 else max(n * (spread / gap) ** 2, n + 1)


def leader(rows, n: int) -> Verdict:
    """The row of highest mean, named only when its interval is clear of every other row's.

    `rows`: (label, mean, lo, hi) each; `n`: the samples behind each interval (deals, games). When they overlap,
    `needed` is the most samples any overlapping row would need to be separated from the top one."""
    rows = [r for r in rows if not math.isnan(float(r[1]))]
    if not rows:
        return Verdict(None)
    top = max(rows, key=lambda r: r[1])
    others = [r for r in rows if r is not top]
    if not others:
        return Verdict(top[0])
    overlapping = [r for r in others if not top[2] > r[3]]
    if not overlapping:
        return Verdict(top[0])
    half = (top[3] - top[2]) / 2
    needs = [_needed(n, half + (r[3] - r[2]) / 2, top[1] - r[1]) for r in overlapping]
    return Verdict(None, None if None in needs else max(needs))


def beats(a: str, b: str, mean: float, lo: float, hi: float, n: int, centre: float = 0.0) -> Verdict:
    """Which of a and b is ahead by an estimate of a-over-b (a difference around 0, a win share around 0.5):
    a when its interval is above `centre`, b when below, else None and the samples needed."""
    if lo > centre:
        return Verdict(a)
    if hi < centre:
        return Verdict(b)
    return Verdict(None, _needed(n, (hi - lo) / 2, abs(mean - centre)))
