"""The rows of deals (runner/deals.py): each deal's draws from its own key (seeding 2), the same whatever the chunks;
the chunk seeding of earlier versions (seeding 1, runner/chunk_seeding.py) as it drew them, the rows of two
players as they were before the seating was always carried (format 2)."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim.runner.chunk_seeding import chunk_rows, chunk_seed
from casino_sim.runner.deals import Seeding, deal_rows, rotations, seeding_of
from casino_sim.runner.seeding import below, deal_keys, hashed, shuffled

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


SEATINGS = [rotations([0, 1], True), rotations([0, 1, 1], True), rotations([0, 1, 0, 1], True)]


def test_the_deal_hash_is_splitmix64():
    """A deal's draws are SplitMix64 (runner/seeding.py): state 0 gives the generator's published first output."""
    assert int(hashed(np.zeros(1, np.uint64), 0)[0]) == 0xE220A8397B1DCDAF


@pytest.mark.parametrize("seatings", SEATINGS)
def test_a_deals_rows_are_the_same_whatever_the_chunks(seatings):
    """Seeding 2: the rows of deals 0..29 cut into chunks of 1, 7 or 30 are the rows of one block, row for row."""
    whole = deal_rows(5, 0, 30, seatings)
    for size in (1, 7, 30):
        parts = [deal_rows(5, first, min(size, 30 - first), seatings) for first in range(0, 30, size)]
        for field in ("deal_id", "mirror", "decks", "dealer", "seeds", "seating"):
            assert np.array_equal(np.concatenate([getattr(p, field) for p in parts]), getattr(whole, field)), field
    assert not np.array_equal(deal_rows(6, 0, 30, seatings).decks, whole.decks)  # another seed, other deals


def test_each_deck_is_a_fair_shuffle():
    """Every deck holds the 52 cards once; over 20,000 deals each card lands in each position about equally often
    (a chi-square far below what a biased shuffle gives), and dealers and policy seeds spread."""
    rows = deal_rows(11, 0, 20_000, rotations([0, 1], False))
    assert (np.sort(rows.decks, axis=1) == np.arange(52)).all()
    counts = np.zeros((52, 52))
    np.add.at(counts, (rows.decks, np.arange(52)[None, :]), 1)
    expected = len(rows) / 52
    chi2 = ((counts - expected) ** 2 / expected).sum()  # 51 * 51 = 2601 degrees of freedom, sd about 72
    assert 2601 - 400 < chi2 < 2601 + 400
    assert abs(rows.dealer.mean() - 0.5) < 0.02 and len(set(rows.seeds.tolist())) == len(rows)
    assert (rows.seeds < 2**63).all()


def test_below_is_uniform_over_its_range():
    """The integers below n of the Fisher-Yates steps and the dealers: each value, no value outside."""
    draws = hashed(np.uint64(3), np.arange(52_000))
    counts = np.bincount(below(draws, 52), minlength=52)
    assert len(counts) == 52 and counts.min() > 850 and counts.max() < 1150


def test_the_draws_of_seeding_two_are_pinned():
    """Values of seed 2024's deals 10..12: a change to the seeding changes every run's numbers, so it is seen here."""
    rows = deal_rows(2024, 10, 3, rotations([0, 1], True))
    assert rows.decks[::2, :6].tolist() == [[40, 48, 31, 5, 51, 25], [23, 32, 9, 1, 14, 18], [19, 24, 21, 31, 25, 48]]
    assert rows.dealer[::2].tolist() == [1, 0, 0]
    assert rows.seeds[::2].tolist() == [9163979596827102727, 4419202560572041952, 4826902259336502432]


def test_whole_games_rounds_and_redeals_come_from_the_deal_key():
    """A game's round k draws from its key whatever games are drawn with it, and decks() makes any deal or round
    again; a card replay's stream is its deal's and seating's."""
    seeding = Seeding(9)
    decks, seeds = seeding.round_draws(0, 20, 3)
    part = seeding.round_draws(7, 5, 3)
    assert np.array_equal(part[0], decks[7:12]) and np.array_equal(part[1], seeds[7:12])
    assert not np.array_equal(seeding.round_draws(0, 20, 4)[0], decks)
    ids = np.array([12, 3, 3])
    assert np.array_equal(seeding.decks(ids, np.array([3, 3, 3])), decks[ids])
    assert np.array_equal(seeding.decks(ids), deal_rows(9, 0, 20, rotations([0, 1], False)).decks[ids])
    assert np.array_equal(seeding.first_dealers(5, 3, 3), seeding.first_dealers(0, 10, 3)[5:8])
    one, two = seeding.pair_rngs(np.array([4, 4]), np.array([0, 1]))
    again = seeding.pair_rngs(np.array([4]), np.array([0]))[0]
    assert one.integers(1 << 40) == again.integers(1 << 40) and one.integers(1 << 40) != two.integers(1 << 40)
    assert np.array_equal(shuffled(deal_keys(9, [3])), seeding.decks(np.array([3])))


def test_seeding_one_deals_by_its_chunks():
    """A version-1 run's deal is its chunk's draws: it depends on the chunk size, as it did."""
    old = seeding_of(5, 1, chunk_deals=10, deals=30)
    assert np.array_equal(
        old.rows(10, 10, rotations([0, 1], False)).decks, chunk_rows(chunk_seed(5, 1), 10, 10, [[0, 1]]).decks
    )
    assert np.array_equal(
        old.decks(np.array([13, 25])),
        np.concatenate(
            [chunk_rows(chunk_seed(5, c), 10 * c, 10, [[0, 1]]).decks[[3 if c == 1 else 5]] for c in (1, 2)]
        ),
    )
    with pytest.raises(ValueError):
        seeding_of(5, 3)
