"""The split table: can a multiset of card values split into groups summing to v?

Cards of equal value are interchangeable for sums, so the answer depends only on
how many loose cards of each value 1..v-1 a set holds (cards of value v are
always groups on their own and are left out). That count vector, with at most
four cards per value, is coded base 5: code = sum(count[x] * 5**(x-1)). The
table holds one byte per code for every target v, 2.4 MB in all, built once
per process by a closure: the empty vector splits, and adding a "group
pattern" (a multiset of values < v summing to v) to a splitting vector gives a
splitting vector. Codes only grow when a pattern is added, so one ascending
pass reaches every splitting vector.

Movegen then answers "does this subset split?" with one table load,
memoised across every call and every process thread.

Two more regions follow for the heuristics' risk features, indexed the same
way: RISK_CARDS + TABLE_OFFSET[v] + code holds the most cards of a splitting
sub-multiset of the vector, RISK_POINTS + ... the most aces in one (low
nibble) and the most aces plus one if it can hold a 2 (high nibble: the 2♠'s
point, when the 2♠ is among the loose cards). So the best capture with a card
of value v is a few loads, not an enumeration of the loose subsets.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# TABLE_OFFSET[v]: where target v's block starts; block v has 5**(v-1) entries
TABLE_OFFSET = np.zeros(12, dtype=np.int64)
for _v in range(1, 12):
    TABLE_OFFSET[_v] = TABLE_OFFSET[_v - 1] + (5 ** (_v - 2) if _v >= 2 else 0)
TABLE_SIZE = int(TABLE_OFFSET[11])
RISK_CARDS = TABLE_SIZE  # where the risk regions start (see the module docstring)
RISK_POINTS = 2 * TABLE_SIZE


def _patterns(v: int) -> list[tuple[int, ...]]:
    """Count vectors (values 1..v-1, each count <= 4) of the groups of two or more cards summing to v."""
    out = []

    def rec(x: int, rest: int, counts: list[int]) -> None:
        if rest == 0:
            out.append(tuple(counts))
            return
        if x == 0:
            return
        for k in range(0, min(4, rest // x) + 1):
            counts[x - 1] = k
            rec(x - 1, rest - k * x, counts)
        counts[x - 1] = 0

    rec(v - 1, v, [0] * max(v - 1, 1))
    return [p for p in out if any(p)]


@njit(cache=True)
def _close(tbl, off, size, nd, pat_code, pat_digit):
    tbl[off] = 1  # the empty set splits (into zero groups)
    digits = np.zeros(10, dtype=np.int64)
    for idx in range(size):
        if tbl[off + idx] == 0:
            continue
        t = idx
        for d in range(nd):
            digits[d] = t % 5
            t //= 5
        for p in range(pat_code.shape[0]):
            ok = True
            for d in range(nd):
                if digits[d] + pat_digit[p, d] > 4:
                    ok = False
                    break
            if ok:
                tbl[off + idx + pat_code[p]] = 1


@njit(cache=True)
def _close_risk(tbl, off, size, nd):
    """The risk regions of target v's block: the best over splitting sub-vectors, by ascending code.

    A vector's best is its own value if it splits, else (and in any case) the best of the vectors with
    one card less; those have smaller codes, so one ascending pass fills the block. The digits of the
    code are kept as an odometer rather than divided out of it each time.
    """
    digits = np.zeros(max(nd, 2), dtype=np.int64)  # digits past nd stay 0: no aces or twos below v <= 2
    cards = 0
    for idx in range(size):
        if idx > 0:  # the odometer: the next count vector
            d = 0
            while digits[d] == 4:
                digits[d] = 0
                cards -= 4
                d += 1
            digits[d] += 1
            cards += 1
        aces, twos = digits[0], digits[1]
        best_cards, best_aces, best_two = 0, 0, 0
        if tbl[off + idx]:
            best_cards, best_aces, best_two = cards, aces, aces + (1 if twos > 0 else 0)
        place = 1
        for d in range(nd):
            if digits[d] > 0:
                j = off + idx - place
                packed = np.int64(tbl[RISK_POINTS + j])  # uint8 arithmetic would promote to float with int64
                best_cards = max(best_cards, np.int64(tbl[RISK_CARDS + j]))
                best_aces = max(best_aces, packed & 15)
                best_two = max(best_two, packed >> 4)
            place *= 5
        tbl[RISK_CARDS + off + idx] = best_cards
        tbl[RISK_POINTS + off + idx] = best_aces | (best_two << 4)


def build_split_table() -> np.ndarray:
    """The uint8 table of all targets 1..10, indexed TABLE_OFFSET[v] + code, then its risk regions."""
    tbl = np.zeros(3 * TABLE_SIZE, dtype=np.uint8)
    for v in range(1, 11):
        size = 5 ** (v - 1)
        nd = v - 1
        pats = _patterns(v) if v >= 2 else []
        pat_digit = np.zeros((max(len(pats), 1), 10), dtype=np.int64)
        pat_code = np.zeros(max(len(pats), 1), dtype=np.int64)
        for i, p in enumerate(pats):
            for d, k in enumerate(p):
                pat_digit[i, d] = k
                pat_code[i] += k * 5**d
        _close(tbl, int(TABLE_OFFSET[v]), size, nd, pat_code[: len(pats)], pat_digit[: len(pats)])
        _close_risk(tbl, int(TABLE_OFFSET[v]), size, nd)
    return tbl


_TABLE = None


def split_table() -> np.ndarray:
    """The process-wide split table (built on first use, ~0.1 s)."""
    global _TABLE
    if _TABLE is None:
        _TABLE = build_split_table()
    return _TABLE
