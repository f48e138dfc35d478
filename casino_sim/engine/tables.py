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
"""

from __future__ import annotations

import numpy as np
from numba import njit

# TABLE_OFFSET[v]: where target v's block starts; block v has 5**(v-1) entries
TABLE_OFFSET = np.zeros(12, dtype=np.int64)
for _v in range(1, 12):
    TABLE_OFFSET[_v] = TABLE_OFFSET[_v - 1] + (5 ** (_v - 2) if _v >= 2 else 0)
TABLE_SIZE = int(TABLE_OFFSET[11])


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


def build_split_table() -> np.ndarray:
    """The uint8 table of all targets 1..10, indexed TABLE_OFFSET[v] + code."""
    tbl = np.zeros(TABLE_SIZE, dtype=np.uint8)
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
    return tbl


_TABLE = None


def split_table() -> np.ndarray:
    """The process-wide split table (built on first use, ~0.1 s)."""
    global _TABLE
    if _TABLE is None:
        _TABLE = build_split_table()
    return _TABLE
