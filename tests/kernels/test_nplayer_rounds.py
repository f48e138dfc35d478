"""Whole 3- and 4-player rounds of the numba row kernel: the deal, 48 plays, and invariants over many rounds, read
from the moves and the record alone."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim import kernels as engine
from casino_sim.core.featurespec import N_FEATURES
from casino_sim.core.invariants import FIXED_POINTS
from casino_sim.core.record import CATEGORIES, TEAMS, column_owner
from casino_sim.core.rules import get_rules
from casino_sim.engines import get_engine
from casino_sim.kernels import layout as L
from casino_sim.kernels.state import _batch_of, _batch_start, _deal_batch, new_state
from casino_sim.policies.arrays import policy_arrays
from casino_sim.reference.round import play_round
from casino_sim.runner.deals import deal_rows, rotations
from tests.support.nplayer import SPADES, replay_piles, seated_round
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


def _score_rows(rules, rec) -> np.ndarray:
    """The score rows a record holds (kernels/layout.py: one per player, then with teams one per side): each
    player's from their place's columns; a team's prizes, cards and spades from its own, the rest its members'."""
    n = rules.players
    fields = (*CATEGORIES, "total", "n_cards", "n_spades", "n_sweeps")
    s = np.zeros((n + 2 if rules.teams else n, L.SCORE_FIELDS), dtype=np.int64)
    for p in range(n):
        s[p] = [rec[f"{column_owner(n, rec['dealer'], p)}_{f}"] for f in fields]
    for side in range(2) if rules.teams else ():
        s[n + side] = s[[side, side + 2]].sum(axis=0)
        team = TEAMS[rec["dealer"] % 2 == side]
        for f in ("total", "cards", "spades", "n_cards", "n_spades"):
            s[n + side, fields.index(f)] = rec[f"team_{team}_{f}"]
    return s


def _check_round(rules, deck, dealer, moves, rec):
    n = rules.players
    assert moves.shape == (L.PLIES, L.MOVE_FIELDS)
    for i, row in enumerate(moves):  # play i is by the i-th player in turn, from that batch's hand
        p = (dealer + 1 + i) % n
        assert int(row[L.M_CARD]) in _batch_hand(deck, n, dealer, i // (4 * n), p)
    table = sum(1 << int(c) for c in deck[4 * n : 4 * n + 4])
    played = {int(c) for c in moves[:, L.M_CARD]}
    assert len(played) == 48 and not any((table >> c) & 1 for c in played)
    by_plays, sweeps, last, left = replay_piles(moves, table, n, dealer)
    assert rec["last_capturer"] == last and rec["plies"] == 48 and rec["dealer"] == dealer
    s = _score_rows(rules, rec)
    if last < 0:
        assert rec["void"] == 1 and not s.any()
        return
    piles = [by_plays[p] | (left if p == last else 0) for p in range(n)]  # the remainder to the last capturer
    assert sum(s[:n, L.S_N_CARDS]) == 52 and np.bitwise_or.reduce(piles) == (1 << 52) - 1
    assert rec["remainder"] == bin(left).count("1")
    for p in range(n):
        assert s[p, L.S_N_CARDS] == bin(piles[p]).count("1")
        assert s[p, L.S_N_SPADES] == bin(piles[p] & SPADES).count("1")
        assert s[p, L.S_N_SWEEPS] == sweeps[p]
        assert s[p, L.S_SWEEPS] == sweeps[p] * rules.sweep_points
    assert (s[:, L.S_TOTAL] == s[:, : L.S_TOTAL].sum(axis=1)).all()
    sides = s[n:] if rules.teams else s
    if rules.teams:
        for t in range(2):
            members = s[[p for p in range(n) if p % 2 == t]]
            for f in (L.S_N_CARDS, L.S_N_SPADES):
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
        moves, rec = engine.play_round_scripted_raw(rules, deck, dealer, rng.integers(0, 2**31, 48))
        _check_round(rules, deck, dealer, moves, rec)


@pytest.mark.parametrize("spec", SPECS)
def test_policy_rounds_keep_the_invariants(spec):
    rules = get_rules(spec)
    n = rules.players
    rng = np.random.default_rng(7 + len(spec))
    policies = tuple(get_policy("expert" if s % 2 else "random") for s in range(n))
    for seed in range(40):
        deck, dealer = rng.permutation(52), seed % n
        moves, rec = seated_round(rules, deck, dealer, policies, seed)
        _check_round(rules, deck, dealer, moves, rec)
        again, _ = seated_round(rules, deck, dealer, policies, seed)
        assert np.array_equal(moves, again)  # the same seed, the same round


@pytest.mark.parametrize("spec", ["italian:players=3", "brazilian:players=4"])
def test_rollout_seats_play_n_player_rounds(spec):
    rules = get_rules(spec)
    rollout = policy_from_dict({"name": "rollout-2", "kind": "rollout", "params": {"worlds": 2}}, "test", "test")
    policies = (rollout,) + (get_policy("greedy"),) * (rules.players - 1)
    assert policy_arrays(policies)[1][rules.players].any()  # the rollout's base weights sit at row n
    rng = np.random.default_rng(3)
    for seed in range(3):
        deck = rng.permutation(52)
        moves, rec = seated_round(rules, deck, 1, policies, seed)
        _check_round(rules, deck, 1, moves, rec)
        assert np.array_equal(moves, seated_round(rules, deck, 1, policies, seed)[0])


@pytest.mark.parametrize("spec", ["italian", *SPECS])
def test_the_score_read_back_from_a_record_is_the_reference_score(spec):
    """kernels.play_round_scripted's Score (codec.score_of_record: a player's points from their place's columns,
    a team's prizes and its members' points) is the reference's for the same script, for every player count."""
    rules = get_rules(spec)
    rng = np.random.default_rng(5)
    for _ in range(10):
        deck, dealer, r = rng.permutation(52), int(rng.integers(rules.players)), rng.integers(0, 2**31, 48)
        moves, score = engine.play_round_scripted(rules, deck, dealer, r)
        plays = iter(r)
        ref = play_round(rules, deck, dealer, lambda pos, legal, plays=plays: legal[int(next(plays)) % len(legal)])
        assert moves == ref.moves and score == ref.score


def test_bad_arguments_are_refused():
    rules = get_rules("brazilian:players=3")
    deck = np.arange(52)
    with pytest.raises(ValueError, match="dealer"):
        engine.play_round_scripted_raw(rules, deck, 3, np.zeros(48, np.int64))
    with pytest.raises(ValueError, match="48 non-negative"):
        engine.play_round_scripted_raw(rules, deck, 0, np.zeros(47, np.int64))
    rnd = policy_arrays((get_policy("random"),) * 3)
    rows = deal_rows(1, 0, 2, rotations([0, 1, 2], True))
    with pytest.raises(ValueError, match="policy arrays"):
        engine.play_rows(rows, rules, rnd[0], np.zeros((3, N_FEATURES)), rnd[2])
    with pytest.raises(ValueError, match="dealer"):
        engine.play_rows(rows.take(np.arange(6), dealer=np.full(6, 3)), rules, *rnd)


def test_many_rounds_in_one_call_equal_the_rounds_one_by_one():
    rules = get_rules("brazilian:players=4")
    policies = (get_policy("expert"), get_policy("random")) * 2
    rows = deal_rows(11, 0, 12, np.arange(4, dtype=np.int8).reshape(1, 4))
    together = get_engine("numba").play(rows, rules, policies)
    for i in range(12):
        _, one = seated_round(rules, rows.decks[i], int(rows.dealer[i]), policies, int(rows.seeds[i]))
        assert {c: int(v[i]) for c, v in together.items()} == one
