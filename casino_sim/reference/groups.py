"""Subset-sum questions of Casino: can these cards split into groups of one value?"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from functools import cache, lru_cache
from itertools import chain, combinations, combinations_with_replacement, product
from math import comb, prod

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


@cache
def splitting_vectors(v: int) -> dict:
    """Every count vector (how many cards of each value 1..v-1, at most four each) that splits into groups of v,
    as a trie: nested dicts keyed by the count of value 1, then 2, ... (an empty dict ends a vector).

    Cards of equal value are interchangeable for sums, so a set splits exactly when its count vector does. The
    vectors are built up from the empty one (zero groups) by adding one group of two or more cards at a time.
    """
    # a vector as an integer, one 4-bit digit per value 1..v-1: adding a group adds the integers, and a count
    # stays at most four exactly when adding 3 to it leaves the digit's top bit clear
    digits = range(v - 1)
    groups = {
        sum(Counter(g)[x + 1] << 4 * x for x in digits)
        for k in range(2, v + 1)
        for g in combinations_with_replacement(range(1, v), k)
        if sum(g) == v and max(Counter(g).values()) <= 4
    }
    threes, tops = sum(3 << 4 * x for x in digits), sum(8 << 4 * x for x in digits)
    found, todo = {0}, [0]
    while todo:
        base = todo.pop()
        for g in groups:
            vec = base + g
            if (vec + threes) & tops == 0 and vec not in found:
                found.add(vec)
                todo.append(vec)
    trie: dict = {}
    for vec in found:
        node = trie
        for count in ((vec >> 4 * x) & 15 for x in digits):
            node = node.setdefault(count, {})
    return trie


@lru_cache(maxsize=65536)
def _splitting_vectors_within(v: int, most: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The splitting vectors of v whose counts are at most `most`; remembered, since the tables of a round ask
    for the same few again and again."""
    return tuple(_vectors_within(splitting_vectors(v), most))


def _vectors_within(trie: dict, most: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """The vectors of the trie whose counts are at most `most`, value by value."""
    if not most:
        yield ()
        return
    for count, rest in trie.items():
        if count <= most[0]:
            for tail in _vectors_within(rest, most[1:]):
                yield (count, *tail)


@lru_cache(maxsize=4096)
def _by_value(loose_numbers: frozenset[int]) -> tuple[tuple[int, ...], ...]:
    """The loose number cards by value (index 1 to 10), each value's in canonical order; remembered, since every
    family of a position asks again."""
    ordered = sorted(loose_numbers)
    return tuple(tuple(c for c in ordered if value_of(c) == x) for x in range(11))


@lru_cache(maxsize=65536)
def _vectors_less(v: int, most: tuple[int, ...], e: int) -> tuple[tuple[int, ...], ...]:
    """The vectors of T: T plus the extra card of value e (0: none) splits into groups of v, so the splitting
    vectors within `most` that hold the extra card, less it."""
    return tuple(
        tuple(k - (x == e) for x, k in enumerate(vec, 1))
        for vec in _splitting_vectors_within(v, most)
        if e == 0 or vec[e - 1] > 0
    )


FEW_CARDS = 16  # loose number cards below v up to which GroupSets lists its vectors at once (else on first use)


@lru_cache(maxsize=1 << 18)
def _completes(v: int, prefix: tuple[int, ...], lo: tuple[int, ...], hi: tuple[int, ...]) -> bool:
    """Whether some splitting vector of v begins with `prefix` and goes on with counts between lo and hi, value by
    value; remembered by prefix (one per node of the trie), so each node is judged once for its bounds."""
    node = splitting_vectors(v)
    for count in prefix:
        node = node.get(count)
        if node is None:
            return False
    if not lo:
        return True
    return any(lo[0] <= k <= hi[0] and _completes(v, (*prefix, k), lo[1:], hi[1:]) for k in node)


class GroupSets:
    """The subsets T of the loose number cards such that T (plus the extra card) splits into groups of v.

    They are found by count vector (splitting_vectors), never by trying every subset, so a table piled with
    loose cards costs the splitting vectors within its counts, not 2**cards; len() counts them without writing
    them out. Cards of value v are groups on their own: any subset of them joins any splitting set. The empty T
    is one of them when the extra card alone is a group of v, or when there is no extra card (zero groups),
    unless `nonempty`. `first()` and `extensions()` answer from the trie alone, without listing the vectors (a
    piled table has tens of thousands), so that a family is judged and chosen from in a step.
    """

    def __init__(self, loose_numbers: Iterable[int], v: int, extra: int | None = None, nonempty: bool = False):
        self.v, self.nonempty = v, nonempty
        by_value = _by_value(frozenset(loose_numbers))
        self.by_value = {x: by_value[x] for x in range(1, v + 1)}
        e = 0 if extra is None or value_of(extra) == v else value_of(extra)
        most = tuple(len(self.by_value[x]) + (x == e) for x in range(1, v))
        self.e, self.most, self.possible = e, most, extra is None or 0 < value_of(extra) <= v
        # the count vectors of the sets (values 1 to v-1): listed now when few (and remembered), else on first use
        # (first() and extensions() never need them); a property instead cost the reference engine's moves 4%
        self.vectors = () if not self.possible else _vectors_less(v, most, e) if sum(most) <= FEW_CARDS else None

    def listed(self) -> tuple[tuple[int, ...], ...]:
        """The count vectors, listed now if they were left for later."""
        if self.vectors is None:
            self.vectors = _vectors_less(self.v, self.most, self.e)
        return self.vectors

    def _floor(self) -> tuple[int, ...]:
        """The least count of each value 1..v-1 in a splitting vector: the extra card's value once."""
        return tuple(int(x == self.e) for x in range(1, self.v))

    def first(self) -> tuple[int, ...] | None:
        """One of the sets (None when there is none): the first listed when the vectors are (few loose cards);
        else, from the trie, the vector with the most cards of the lowest values, each value's first cards, and a
        card of value v where the rule wants a card and the vector has none."""
        if self.vectors is not None:
            return next(iter(self), None)
        lo, hi, path = self._floor(), self.most, ()
        if not self.possible or not _completes(self.v, (), lo, hi):
            return None
        for i in range(self.v - 1):
            path += (
                max(k for k in range(lo[i], hi[i] + 1) if _completes(self.v, (*path, k), lo[i + 1 :], hi[i + 1 :])),
            )
        t = [c for x, k in enumerate(path, 1) for c in self.by_value[x][: k - (x == self.e)]]
        if not t and self.nonempty:
            t = list(self.by_value[self.v][:1])
        return tuple(t) if t or not self.nonempty else None

    def extensions(self, chosen: tuple[int, ...]) -> tuple[list[int], bool]:
        """For cards chosen in ascending order from the loose ones, part of some set: (each loose card above the last
        chosen that some set holds together with them, whether `chosen` is a set itself). Cards of one value are
        interchangeable, so this asks the trie for a vector with `chosen`'s counts below the next card's value,
        more of its value, and any counts within the table's above it."""
        v, lo, most = self.v, self._floor(), self.most
        path = tuple(lo[x - 1] + sum(value_of(c) == x for c in chosen) for x in range(1, v))
        whole = self.possible and _completes(v, path, (), ())
        last = max(chosen, default=-1)
        nxt = []
        for x in range(1, v + 1):
            cards = [c for c in self.by_value[x] if c > last]
            for i, c in enumerate(cards):
                if x == v:
                    ok = whole
                else:
                    fixed, base = path[: x - 1], path[x - 1] + 1
                    ok = self.possible and any(
                        _completes(v, (*fixed, k), lo[x:], most[x:]) for k in range(base, base + len(cards) - i)
                    )
                if ok:
                    nxt.append(c)
        return nxt, whole and (bool(chosen) or not self.nonempty)

    def _sets_of(self, vec: tuple[int, ...]) -> int:
        return prod(comb(len(self.by_value[x]), k) for x, k in enumerate(vec, 1)) << len(self.by_value[self.v])

    def __len__(self) -> int:
        vectors = self.listed()
        empty = self.nonempty and any(not any(vec) for vec in vectors)
        return sum(self._sets_of(vec) for vec in vectors) - empty

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        for vec in self.vectors if self.vectors is not None else self.listed():
            choices = [combinations(self.by_value[x], k) for x, k in enumerate(vec, 1)]
            for parts in product(*choices, subsets(self.by_value[self.v])):
                t = tuple(sorted(chain.from_iterable(parts)))
                if t or not self.nonempty:
                    yield t


def group_subsets(loose_numbers: Iterable[int], v: int, extra: int | None = None) -> GroupSets:
    """Subsets T of the loose number cards such that T (plus the extra card) splits into groups of v.

    The empty T is among them when the extra card alone is a group of v, or when there is no extra card (an
    empty set of groups). Counted by len() without enumerating them.
    """
    return GroupSets(loose_numbers, v, extra)
