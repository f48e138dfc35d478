"""When a report may name a winner, or call entries equal: only where a test of their difference says so.

A "most valuable", "best" or "beats" sentence read off intervals that merely fail to overlap, or an "equal" read
off intervals that do, rests on no test that could have said otherwise. So every such claim here is the verdict
rule of the findings (reports/verdict.py) on the 95% interval of a difference: the top entry leads only when its
difference from every other entry's excludes 0; entries are equal only when that interval lies inside a stated
margin (verdict.py MARGINS: 0.1 points, 0.01 for a count per round or a share); otherwise the data cannot tell,
and the half-width shrinking as 1/sqrt(n) says about how many samples would decide it.

Naming a leader among k entries makes k-1 comparisons but one claim, "ahead of every other", which holds only if
every comparison does (an intersection-union test), so no comparison's level is divided among them (Bonferroni or
Holm would only shrink the power). Picking the leader from the data does not inflate it either: at most one entry
can clear every other, so a wrong leader needs the named entry to clear the truly best one, one 2.5% tail, and the
chance of naming a wrong leader stays at most 2.5% however many entries there are (5% when the top two are exactly
level, either way round); docs/findings.md gives the argument, tests/reports/test_separation.py measures it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from casino_sim.core.numbers import number
from casino_sim.reports.verdict import MOVES, SETTLED, about, difference
from casino_sim.reports.verdict import Verdict as Difference

AHEAD = "each difference's 95% interval above 0"  # the words of a leader's claim: the test it passed


@dataclass(frozen=True)
class Verdict:
    """A leader (or a side that beats the other) when a test says so, else None and either the margin within which
    the entries are equal (`equal`, a test said so too) or the samples that would decide (`needed`)."""

    leader: str | None
    needed: float | None = None  # samples that would decide at the observed spread; None: no spread known
    equal: float | None = None  # the margin the undecided entries are equal within, when a test says they are
    behind: bool = False  # the top by its own measure is behind another by a test (a tournament's circle)
    runner_up: bool = True  # with `equal`: the runner-up is equal to the top (False: only a lower entry is)

    def no_leader(self, what: str, unit: str = "deals", pair: str = "the top two") -> str:
        """Why no leader is named: 'too few deals to rank the cards: about 4,800 deals would decide between the top
        two (observed spread)', or that they are equal within the margin."""
        if self.behind:
            return f"nothing to {what}: the first by the table's order is behind another by its own test"
        if self.equal is not None and not self.runner_up:
            return (
                f"nothing to {what}: the first is ahead of the runner-up but equal to a lower entry to within "
                f"±{number(self.equal, 'g')} (the 95% interval of their difference lies inside that margin)"
            )
        if self.equal is not None:
            return (
                f"nothing to {what}: {'they' if pair == 'them' else pair} are equal to within "
                f"±{number(self.equal, 'g')} (the 95% interval of "
                "their difference lies inside that margin)"
            )
        head = f"too few {unit} to {what}"
        if self.needed is None:
            return f"{head}: no spread measured to say how many {unit} would decide"
        if math.isinf(self.needed):
            return f"{head}: {pair} have one mean (more {unit} would not decide at this spread)"
        return f"{head}: about {about(self.needed)} {unit} would decide between {pair} (observed spread)"


def _decided(n: int, tests: list[Difference]) -> Verdict | None:
    """None when every test is decided; else no leader and the most samples any undecided one needs."""
    undecided = [t for t in tests if t.verdict not in (SETTLED, MOVES)]
    if not undecided:
        return None
    times = [t.times_more() for t in undecided]
    if n <= 0 or None in times:
        return Verdict(None)
    return Verdict(None, max(math.inf if math.isinf(k) else max(n * k, n + 1) for k in times))


def leader(rows, n: int, margin: float) -> Verdict:
    """The row of highest mean, named only when the 95% interval of its lead over every other row excludes 0.

    `rows`: (label, mean, lo, hi) each, independent estimates (reports/verdict.py difference); `n`: the samples
    behind each interval (deals, games); `margin`: within it a difference counts as none (0: never). When some
    lead is undetermined, `needed` is the most samples one would take; when the rest are equal to the top within
    the margin, `equal` says so."""
    rows = [r for r in rows if not math.isnan(float(r[1]))]
    if not rows:
        return Verdict(None)
    top = max(rows, key=lambda r: r[1])
    return ahead(top[0], [difference(r[1:4], top[1:4], margin) for r in rows if r is not top], n)


def ahead(label: str, tests: list[Difference], n: int) -> Verdict:
    """`label` leads when every test of its lead (label minus another) is clear of 0 above; no leader when one is
    undetermined (the samples that would decide) or settled (equal within its margin) or below 0 (behind)."""
    open_ = _decided(n, tests)
    if open_ is not None:
        return open_
    if all(t.verdict == MOVES and t.lo > 0 for t in tests):
        return Verdict(label)
    settled = [t.margin for t in tests if t.verdict == SETTLED]
    if not settled:
        return Verdict(None, behind=True)
    runner_up = min(tests, key=lambda t: abs(t.diff))  # the entry nearest the top: "the top two" names it
    return Verdict(None, equal=settled[0], runner_up=runner_up.verdict == SETTLED)


def beats(a: str, b: str, mean: float, lo: float, hi: float, n: int, margin: float, centre: float = 0.0) -> Verdict:
    """Which of a and b is ahead by an estimate of a-over-b (a difference around 0, a win share around 0.5):
    a when its interval is above `centre`, b when below; equal when it lies within `margin` of it; else None and
    the samples needed."""
    test = Difference(mean - centre, lo - centre, hi - centre, margin)
    open_ = _decided(n, [test])
    if open_ is not None:
        return open_
    if test.verdict == SETTLED:
        return Verdict(None, equal=margin)
    return Verdict(a if lo > centre else b)
