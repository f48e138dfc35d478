"""A chunk's rows (runner/deals.py): the same decks, dealers, seeds, deal ids and seatings for the same seed, whatever
the player count, as the chunk seed's stream draws them; the rows of two players as they were before the seating
was always carried (format 2)."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim.runner.deals import chunk_rows, rotations

TWO_PLAYERS = {"mirrored": rotations([0, 1], True), "unmirrored": rotations([0, 1], False)}
CASES = [
    (2024, 10, 3, TWO_PLAYERS["mirrored"]),
    (2024, 10, 3, TWO_PLAYERS["unmirrored"]),
    (7, 0, 40, TWO_PLAYERS["mirrored"]),
    (7, 0, 40, rotations([0, 1, 1], True)),
    (99, 5, 17, rotations([0, 1, 0, 1], True)),  # teams: two seatings
    (99, 5, 17, rotations([0, 1, 2, 3], False)),
]


@pytest.mark.parametrize("seed, first, n, seatings", CASES)
def test_rows_are_the_seed_streams_draws_each_deal_in_every_seating(seed, first, n, seatings):
    """The chunk seed's stream draws the decks (each a shuffle of the 52 cards), then a dealer among the players,
    then a policy seed per deal; each deal is then played once per seating, deal by deal, seating m as `mirror` m."""
    rng = np.random.default_rng(seed)
    decks = rng.permuted(np.tile(np.arange(52, dtype=np.int8), (n, 1)), axis=1)
    dealers = rng.integers(0, seatings.shape[1], size=n, dtype=np.int8)
    seeds = rng.integers(0, 2**63, size=n, dtype=np.int64).astype(np.uint64)
    rows = chunk_rows(seed, first, n, seatings)
    k = len(seatings)
    assert len(rows) == n * k
    for j in range(n * k):
        deal, m = divmod(j, k)
        assert rows.deal_id[j] == first + deal and rows.mirror[j] == m
        assert np.array_equal(rows.decks[j], decks[deal]) and rows.dealer[j] == dealers[deal]
        assert rows.seeds[j] == seeds[deal] and np.array_equal(rows.seating[j], seatings[m])
    assert rows.decks.dtype == np.int8 and rows.dealer.dtype == np.int8 and rows.mirror.dtype == np.int8
    assert rows.seeds.dtype == np.uint64 and rows.deal_id.dtype == np.int64 and rows.seating.dtype == np.int8


def test_two_players_rows_are_those_of_the_version_before():
    """Values the rows of chunk seed 2024 had before the seating was always carried: A sat at player 0 exactly
    where a_seat0 was True, as seating [0, 1] puts it."""
    mirrored = chunk_rows(2024, 10, 3, TWO_PLAYERS["mirrored"])
    assert mirrored.deal_id.tolist() == [10, 10, 11, 11, 12, 12] and mirrored.mirror.tolist() == [0, 1] * 3
    assert mirrored.dealer.tolist() == [0, 0, 0, 0, 1, 1]
    seeds = [2276560490421919599, 4480576174811831289, 1182986411877666961]
    assert mirrored.seeds.tolist() == [s for s in seeds for _ in range(2)]
    assert mirrored.decks[::2, :6].tolist() == [
        [32, 13, 14, 7, 3, 18],
        [22, 45, 11, 38, 32, 25],
        [16, 41, 13, 25, 11, 31],
    ]
    assert (mirrored.seating[:, 0] == 0).tolist() == [True, False] * 3  # the old a_seat0
    once = chunk_rows(2024, 10, 3, TWO_PLAYERS["unmirrored"])
    assert once.seeds.tolist() == seeds and once.dealer.tolist() == [0, 0, 1] and (once.seating == [0, 1]).all()
    three = chunk_rows(2024, 10, 2, rotations([0, 1, 1], True))
    assert three.seeds.tolist() == [500426441464722967] * 3 + [71303669655586923] * 3
    assert three.dealer.tolist() == [0, 0, 0, 1, 1, 1] and three.mirror.tolist() == [0, 1, 2] * 2


def test_a_taken_row_keeps_its_seating_and_may_be_dealt_by_another_dealer():
    rows = chunk_rows(3, 0, 4, rotations([0, 1, 1], True))
    picked = rows.take(np.array([5, 1]), dealer=np.array([2, 0]))
    assert picked.seating.tolist() == [rows.seating[5].tolist(), rows.seating[1].tolist()]
    assert picked.dealer.tolist() == [2, 0] and picked.deal_id.tolist() == [1, 0]
