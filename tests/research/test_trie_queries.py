"""GroupSets.first and GroupSets.extensions (reference/groups.py), what the factored encoding asks of a family of
moves: answered from the count-vector trie, they agree with the sets GroupSets lists, on random tables of every
size."""

from __future__ import annotations

import random

import pytest

from casino_sim.core.cards import is_figure
from casino_sim.reference import groups
from casino_sim.reference.groups import GroupSets

NUMBERS = [c for c in range(52) if not is_figure(c)]


def tables(count: int, seed: int):
    """(loose number cards, v, extra card or None, nonempty) at random, up to 12 loose cards."""
    rng = random.Random(seed)
    for _ in range(count):
        cards = rng.sample(NUMBERS, rng.randint(0, 12) + 1)
        extra = cards.pop() if rng.random() < 0.5 else None
        yield cards, rng.randint(1, 10), extra, rng.random() < 0.5


def walk(sets: GroupSets, chosen: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """Every set reached by naming cards one at a time as extensions() offers them; no offer is a dead end."""
    nxt, whole = sets.extensions(chosen)
    found = [chosen] if whole else []
    for c in nxt:
        below = walk(sets, (*chosen, c))
        assert below, f"{c} offered after {chosen} leads to no set"
        found += below
    return found


@pytest.mark.parametrize("listed_first", [True, False], ids=["few-cards", "trie-always"])
def test_the_trie_answers_agree_with_the_listed_sets(monkeypatch, listed_first):
    if not listed_first:  # first() searches the trie whatever the table's size
        monkeypatch.setattr(groups, "FEW_CARDS", -1)
    sizes = set()
    for cards, v, extra, nonempty in tables(600, seed=7):
        sets = GroupSets(cards, v, extra=extra, nonempty=nonempty)
        listed = list(GroupSets(cards, v, extra=extra, nonempty=nonempty))
        found = walk(sets)
        assert sorted(found) == sorted(listed) and len(set(found)) == len(found) == len(sets)
        first = sets.first()
        assert (first is None) == (not listed) and (first is None or first in listed)
        sizes.add(min(len(listed), 3))
    assert sizes == {0, 1, 2, 3}
