"""Subset-sum questions of Casino: can these cards split into groups of one value?"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import combinations

from casino_sim.core.cards import value_of


@lru_cache(maxsize=65536)
def _splits(values: tuple[int, ...], v: int) -> bool:
    """values (sorted descending) partition into groups each summing to v."""
    if not values:
        return True
    first, rest = values[0], values[1:]
    need = v - first
    if need == 0:
        return _splits(rest, v)
    # the largest card must share a group with some of the rest; try each completion
    for k in range(1, len(rest) + 1):
        seen = set()
        for idx in combinations(range(len(rest)), k):
            part = tuple(rest[i] for i in idx)
            if sum(part) != need or part in seen:
                continue
            seen.add(part)
            left = tuple(x for i, x in enumerate(rest) if i not in idx)
            if _splits(left, v):
                return True
    return False


def splits_into_groups(cards: Iterable[int], v: int) -> bool:
    """Whether the number cards split into one or more groups each summing to v."""
    values = sorted((value_of(c) for c in cards), reverse=True)
    if any(x == 0 or x > v for x in values) or sum(values) % v:
        return False
    return _splits(tuple(values), v)


def subsets(cards: Iterable[int]) -> Iterator[tuple[int, ...]]:
    """Every subset of the cards (the empty one first), each in canonical order."""
    pool = sorted(cards)
    for k in range(len(pool) + 1):
        yield from combinations(pool, k)


def group_subsets(loose_numbers: Iterable[int], v: int, extra: int | None = None) -> Iterator[tuple[int, ...]]:
    """Subsets T of the loose number cards such that T (plus the extra card) splits into groups of v.

    The empty T is yielded when the extra card alone is a group of v, or when
    there is no extra card (an empty set of groups).
    """
    pool = [c for c in loose_numbers if 0 < value_of(c) <= v]
    for t in subsets(pool):
        together = t + (extra,) if extra is not None else t
        if splits_into_groups(together, v):
            yield t
