"""The rollout's worlds with 3 and 4 players: the hidden cards dealt over every other hand, sizes and owners kept."""

from __future__ import annotations

import numpy as np
import pytest

from casino_sim.core.rules import get_rules
from casino_sim.kernels import layout as L
from casino_sim.kernels.bits import VALUE_MASK
from casino_sim.kernels.rollout import _margin, _sample_world, _sorted_unseen
from tests.support.nplayer import cards, raw_state


@pytest.mark.parametrize("spec", ["italian:players=3", "brazilian:players=4"])
def test_worlds_keep_hand_sizes_and_owners_capturing_cards(spec):
    rules = get_rules(spec).as_array()
    n = rules[L.R_PLAYERS]
    # dealer 0, ply 4n + 1: batch 1 under way, player 1 has played once, the mover (2) is next; player 1 owns a
    # build of 9 (4♠ 5♠); player 0's pile holds what else left the deck in batches 0 and 1
    hands = [cards(36, 37, 38, 39), cards(44, 45, 46), cards(20, 24, 28, 0), cards(48, 49, 1, 2)][:n]
    table = cards(50, 12, 16)
    rest = [c for c in range(52) if not ((sum(hands) | table) >> c) & 1]
    stock = 52 - (4 * n + 4) - 4 * n
    pile = cards(*rest[: len(rest) - stock])
    st = raw_state(
        hands=hands, loose=cards(50), piles=(pile,), to_move=2, ply=4 * n + 1, builds={9: (cards(12, 16), 1)}
    )
    known = hands[2] | table | pile
    sorted_unseen = np.zeros(52, np.int64)
    n_unseen = _sorted_unseen(st, rules, False, sorted_unseen)
    assert n_unseen == 52 - bin(known).count("1")
    unseen_cards, deck = np.zeros(52, np.int64), np.full(52, -1, np.int64)
    rng = np.array([12345], dtype=np.uint64)
    start = 4 * n * 2 + 4  # batch 2's first card
    for _ in range(50):
        sim = st.copy()
        _sample_world(st, rules, sim, sorted_unseen, unseen_cards, n_unseen, rng, deck, False)
        others = [q for q in range(n) if q != 2]
        for q in others:
            assert bin(sim[L.HAND + q]).count("1") == bin(st[L.HAND + q]).count("1")
        assert sim[L.HAND + 1] & VALUE_MASK[9]  # the owner of the 9 holds a 9
        assert sim[L.HAND + 2] == st[L.HAND + 2]
        dealt = [int(sim[L.HAND + q]) for q in others] + [1 << int(c) for c in deck[start : start + 52 - start]]
        assert sum(dealt) == (1 << 52) - 1 - known  # disjoint, and every unseen card placed once
    assert deck[:start].tolist() == [-1] * start  # dealt batches are left alone


def test_margins_compare_sides():
    score = np.zeros((L.SCORE_ROWS, L.SCORE_FIELDS), np.int64)
    score[:, L.S_TOTAL] = [5, 2, 7, 1, 12, 3]
    assert _margin(get_rules("brazilian:players=4").as_array(), score, 1) == 3 - 12  # side 1 against side 0
    assert _margin(get_rules("italian:players=4").as_array(), score, 0) == 5 - 7  # against the best other player
    assert _margin(get_rules("italian").as_array(), score, 1) == 2 - 5


@pytest.mark.parametrize("batch", [1, 2], ids=["stock left", "last batch"])
def test_worlds_deal_the_partners_hand_too_and_keep_every_owner_able_to_capture(batch):
    """Teams: the mover (1) sees neither the opponents' hands nor the partner's (3), so all three are dealt.

    Dealer 0, the mover first in the turn order on the second lap of `batch`. The partner owns a build of 7,
    opponent 0 one of 9, the mover one of 10 (the mover's hand is known, so it binds no draw). In the last batch
    nobody refills: the hidden cards are the other hands alone and the deck is left alone.
    """
    rules = get_rules("brazilian:players=4").as_array()
    held = 3 if batch == 1 else 2
    own = cards(36, 40, 44) if held == 3 else cards(36, 40)  # the 10 for the mover's build, a J, a Q
    builds = {7: (cards(8, 12), 3), 9: (cards(16, 13), 0), 10: (cards(20, 14), 1)}
    table = cards(48) | cards(8, 12) | cards(16, 13) | cards(20, 14)
    stock = 52 - 4 - 16 * (batch + 1)
    rest = [c for c in range(52) if not ((own | table) >> c) & 1 and c not in (27, 35)]
    hidden_cards = [27, 35, *rest[len(rest) - (3 * held + stock - 2) :]]  # a 7 and a 9 among them
    pile = cards(*rest[: len(rest) - (3 * held + stock - 2)])
    pool = hidden_cards[2:]
    hands = [
        cards(35, *pool[: held - 1]),
        own,
        cards(*pool[held - 1 : 2 * held - 1]),
        cards(27, *pool[2 * held - 1 : 3 * held - 2]),
    ]
    st = raw_state(hands=hands, loose=cards(48), piles=(pile,), to_move=1, ply=16 * batch + 4, builds=builds)
    assert [bin(h).count("1") for h in hands] == [held] * 4
    known = own | table | pile
    sorted_unseen = np.zeros(52, np.int64)
    n_unseen = _sorted_unseen(st, rules, False, sorted_unseen)
    assert n_unseen == 3 * held + stock
    unseen_cards, deck = np.zeros(52, np.int64), np.full(52, -1, np.int64)
    rng = np.array([2026], dtype=np.uint64)
    partner_hands = set()
    for _ in range(50):
        sim = st.copy()
        _sample_world(st, rules, sim, sorted_unseen, unseen_cards, n_unseen, rng, deck, False)
        assert [bin(sim[L.HAND + q]).count("1") for q in range(4)] == [held] * 4
        assert sim[L.HAND + 1] == own
        assert sim[L.HAND + 3] & VALUE_MASK[7] and sim[L.HAND + 0] & VALUE_MASK[9]
        partner_hands.add(int(sim[L.HAND + 3]))
        start = 16 * (batch + 1) + 4
        dealt = [int(sim[L.HAND + q]) for q in (0, 2, 3)] + [1 << int(c) for c in deck[start:]]
        assert sum(dealt) == (1 << 52) - 1 - known  # disjoint, no seen card, every unseen card placed once
    assert len(partner_hands) >= 4  # drawn, not kept (last batch: the 7 and any of the 4 cards no owner needs)
    assert deck[: 16 * (batch + 1) + 4].tolist() == [-1] * (16 * (batch + 1) + 4)
