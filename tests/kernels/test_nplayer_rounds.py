"""Whole 3- and 4-player rounds of the numba kernels: the deal, 48 plays, and invariants over many rounds."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim.core.featurespec import N_FEATURES
from casino_sim.core.invariants import FIXED_POINTS
from casino_sim.core.rules import get_rules
from casino_sim.kernels import layout as L
from casino_sim.kernels.api import play_round_n_policies, play_round_n_scripted, play_rounds_n
from casino_sim.kernels.state import _batch_of, _batch_start, _deal_batch, new_state
from casino_sim.policies.arrays import policy_arrays
from tests.support.nplayer import SPADES, replay_piles
from tests.support.policies import get_policy, policy_from_dict

SPECS = (
    "brazilian:players=3",
    "brazilian:players=4",  # partnerships
    "brazilian:players=4,teams=false",
    "italian:players=3",
    "italian:players=4",  # individual
    "italian:players=4,teams=true",
)


def _batch_hand(deck, n, dealer, batch, p):
    """The four cards player p is dealt in `batch` (docs/rules.md section 11: from the player after the dealer)."""
    start = 0 if batch == 0 else 4 * n * batch + 4
    k = (p - dealer - 1) % n
    return {int(c) for c in deck[start + 4 * k : start + 4 * k + 4]}


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_deal_order(n, dealer):
    rules = get_rules(f"italian:players={n}").as_array()
    deck = np.random.default_rng(n * 10 + dealer).permutation(52).astype(np.int64)
    st = new_state()
    st[L.DEALER] = dealer
    for batch in range(48 // (4 * n)):
        _deal_batch(st, deck, batch, rules[L.R_PLAYERS])
        for p in range(n):
            assert {c for c in range(52) if (st[L.HAND + p] >> c) & 1} == _batch_hand(deck, n, dealer, batch, p)
        assert st[L.HAND + 3] == 0 or n == 4
    assert st[L.LOOSE] == sum(1 << int(c) for c in deck[4 * n : 4 * n + 4])  # batch 0's table, left alone since
    first = {c for c in range(52) if (st[L.HAND + (dealer + 1) % n] >> c) & 1}
    assert first == {int(c) for c in deck[52 - 4 * n : 52 - 4 * n + 4]}  # the last batch ends the deck


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_deck_position_is_in_the_batch_that_deals_it(n):
    """_batch_of inverts _batch_start: batch 0 is the hands and the table's four cards, the others the hands."""
    batches = [_batch_of(n, i) for i in range(52)]
    assert batches == sorted(batches) and batches[-1] == 48 // (4 * n) - 1
    assert all(_batch_start(n, b) <= i < _batch_start(n, b + 1) for i, b in enumerate(batches))
    assert batches.count(0) == 4 * n + 4


def _check_round(rules, deck, dealer, res):
    n = rules.players
    assert res.moves.shape == (L.PLIES, L.MOVE_FIELDS)
    for i, row in enumerate(res.moves):  # play i is by the i-th player in turn, from that batch's hand
        p = (dealer + 1 + i) % n
        assert int(row[L.M_CARD]) in _batch_hand(deck, n, dealer, i // (4 * n), p)
    table = sum(1 << int(c) for c in deck[4 * n : 4 * n + 4])
    played = {int(c) for c in res.moves[:, L.M_CARD]}
    assert len(played) == 48 and not any((table >> c) & 1 for c in played)
    by_plays, sweeps, last, left = replay_piles(res.moves, table, n, dealer)
    assert res.last_capturer == last
    if last < 0:
        assert not res.scores.any()
        return
    piles = [int(x) for x in res.piles]
    assert sum(bin(m).count("1") for m in piles) == 52 and np.bitwise_or.reduce(piles) == (1 << 52) - 1
    for p in range(n):  # the remainder goes to the last capturer, nobody else's pile grows at the end
        assert piles[p] == by_plays[p] | (left if p == last else 0)
    assert res.remainder == bin(left).count("1")
    s = res.scores
    for p in range(n):
        assert s[p, L.S_N_CARDS] == bin(piles[p]).count("1")
        assert s[p, L.S_N_SPADES] == bin(piles[p] & SPADES).count("1")
        assert s[p, L.S_N_SWEEPS] == sweeps[p]
        assert s[p, L.S_SWEEPS] == sweeps[p] * rules.sweep_points
    assert (s[:, L.S_TOTAL] == s[:, : L.S_TOTAL].sum(axis=1)).all()
    sides = s[n:] if rules.teams else s
    if rules.teams:
        assert s.shape == (n + 2, L.SCORE_FIELDS)
        for t in range(2):
            members = s[[p for p in range(n) if p % 2 == t]]
            for f in (L.S_ACES, L.S_TEN_DIAMONDS, L.S_TWO_SPADES, L.S_SWEEPS, L.S_N_CARDS, L.S_N_SPADES):
                assert sides[t, f] == members[:, f].sum()
        assert not s[:n, [L.S_CARDS, L.S_SPADES]].any()  # most cards / spades are the side's, on its row
    for count, points, pts, at_least in (
        (L.S_N_CARDS, L.S_CARDS, rules.most_cards_points, rules.most_cards_at_least),
        (L.S_N_SPADES, L.S_SPADES, rules.most_spades_points, rules.most_spades_at_least),
    ):
        c = sides[:, count]
        if rules.most_by_count:
            want = np.where(c >= at_least, pts, 0)
        else:
            want = np.where((c == c.max()) & ((c == c.max()).sum() == 1), pts, 0)
        assert (sides[:, points] == want).all()
    awarded = sides[:, L.S_CARDS].sum() + sides[:, L.S_SPADES].sum()
    assert sides[:, L.S_TOTAL].sum() == awarded + FIXED_POINTS + rules.sweep_points * sum(sweeps)


@pytest.mark.parametrize("spec", SPECS)
def test_scripted_rounds_keep_the_invariants(spec):
    rules = get_rules(spec)
    rng = np.random.default_rng(len(spec))
    for _ in range(60):
        deck, dealer = rng.permutation(52), int(rng.integers(rules.players))
        res = play_round_n_scripted(rules, deck, dealer, rng.integers(0, 2**31, 48))
        _check_round(rules, deck, dealer, res)


@pytest.mark.parametrize("spec", SPECS)
def test_policy_rounds_keep_the_invariants(spec):
    rules = get_rules(spec)
    n = rules.players
    rng = np.random.default_rng(7 + len(spec))
    arrays = policy_arrays(tuple(get_policy("expert" if s % 2 else "random") for s in range(n)))
    for seed in range(40):
        deck, dealer = rng.permutation(52), seed % n
        res = play_round_n_policies(rules, deck, dealer, arrays[0], arrays[1], seed)
        _check_round(rules, deck, dealer, res)
        again = play_round_n_policies(rules, deck, dealer, arrays[0], arrays[1], seed)
        assert np.array_equal(res.moves, again.moves)  # the same seed, the same round


@pytest.mark.parametrize("spec", ["italian:players=3", "brazilian:players=4"])
def test_rollout_seats_play_n_player_rounds(spec):
    rules = get_rules(spec)
    rollout = policy_from_dict({"name": "rollout-2", "kind": "rollout", "params": {"worlds": 2}}, "test", "test")
    arrays = policy_arrays((rollout,) + (get_policy("greedy"),) * (rules.players - 1))
    assert arrays[1][rules.players].any()  # the rollout's base weights sit at row n
    rng = np.random.default_rng(3)
    for seed in range(3):
        deck = rng.permutation(52)
        res = play_round_n_policies(rules, deck, 1, arrays[0], arrays[1], seed)
        _check_round(rules, deck, 1, res)
        assert np.array_equal(res.moves, play_round_n_policies(rules, deck, 1, arrays[0], arrays[1], seed).moves)


def test_two_players_through_the_n_player_kernel_equal_the_scripted_round():
    from casino_sim import kernels as engine

    rules = get_rules("italian")
    rng = np.random.default_rng(5)
    for _ in range(20):
        deck, dealer, r = rng.permutation(52), int(rng.integers(2)), rng.integers(0, 2**31, 48)
        res = play_round_n_scripted(rules, deck, dealer, r)
        moves, score = engine.play_round_scripted(rules, deck, dealer, r)
        assert [engine.move_of_row(row) for row in res.moves] == moves
        assert res.scores[:, L.S_TOTAL].tolist() == list(score.totals)


def test_bad_arguments_are_refused():
    rules = get_rules("brazilian:players=3")
    deck = np.arange(52)
    with pytest.raises(ValueError, match="dealer"):
        play_round_n_scripted(rules, deck, 3, np.zeros(48, np.int64))
    with pytest.raises(ValueError, match="script"):
        play_round_n_scripted(rules, deck, 0, np.zeros(47, np.int64))
    rnd = policy_arrays((get_policy("random"),) * 3)
    ints = rnd[0].copy()
    ints[1, L.P_KIND] = L.SCRIPTED  # scripts only through play_round_n_scripted
    with pytest.raises(ValueError, match="random, heuristic, rollout, searcher and trail"):
        play_round_n_policies(rules, deck, 0, ints, rnd[1], 1)
    with pytest.raises(ValueError, match="policy arrays"):
        play_round_n_policies(rules, deck, 0, rnd[0], np.zeros((3, N_FEATURES)), 1)


def test_many_rounds_in_one_call_equal_the_rounds_one_by_one():
    rules = get_rules("brazilian:players=4")
    ints, weights, _ = policy_arrays((get_policy("expert"), get_policy("random")) * 2)
    rng = np.random.default_rng(11)
    decks = np.array([rng.permutation(52) for _ in range(12)])
    dealers = np.arange(12) % 4
    seeds = np.random.SeedSequence(3).generate_state(12, np.uint64)
    totals = play_rounds_n(rules, decks, dealers, ints, weights, seeds)
    assert totals.shape == (12, 6)
    for i in range(12):
        one = play_round_n_policies(rules, decks[i], int(dealers[i]), ints, weights, int(seeds[i]))
        assert totals[i].tolist() == one.scores[:, L.S_TOTAL].tolist()
    with pytest.raises(ValueError, match="dealer"):
        play_rounds_n(rules, decks, dealers + 1, ints, weights, seeds)
