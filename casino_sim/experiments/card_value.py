"""The value of holding a card, measured with paired deals (issue 5).

For every card dealt to a hand, the same shuffle is replayed with that card
swapped into the opponent's hand of the same batch ("opponent") or with a card
dealt in a later batch ("stock"), with the same per-round seeds. The card's
value in that deal is how much the holder's point difference (holder minus
opponent) drops when the card is taken away: the luck of the rest of the deal
cancels in the pair. The value is relative to the card it was swapped with, so
a low card a policy tends to trail can be worth less than an average card.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from casino_sim.core.rules import two_player_rules
from casino_sim.policies import get_policy
from casino_sim.runner.deals import DealRows, chunked_rows
from casino_sim.runner.play import engine_for, play_rows
from casino_sim.runner.seeding import chunk_seed
from casino_sim.runner.threads import use_threads

VARIANTS = ("opponent", "stock")


def deal_slot(index: int, dealer: int) -> tuple[int, int]:
    """(seat or 2 for the table, batch 1..6) of deck position `index` (runner.deals' dealing order)."""
    if index < 12:
        return (1 - dealer if index < 4 else dealer if index < 8 else 2), 1
    k = index - 12
    return (1 - dealer if k % 8 < 4 else dealer), 2 + k // 8


def pairs_per_deal() -> int:
    """Paired replays of one deal: every card dealt to a hand goes to the opponent, and into the stock unless
    it came in the last batch (the dealer does not change the count)."""
    return sum(1 + (batch < 6) for seat, batch in (deal_slot(i, 0) for i in range(52)) if seat != 2)


PAIRS_PER_DEAL = pairs_per_deal()


def paired_decks(deck: np.ndarray, dealer: int, rng: np.random.Generator):
    """Yield (card, holder seat, batch, variant, paired deck) for every card dealt to a hand."""
    for index in range(52):
        seat, batch = deal_slot(index, dealer)
        if seat == 2:
            continue
        start = 0 if batch == 1 else 12 + (batch - 2) * 8
        opponent = [i for i in range(start, start + 8) if deal_slot(i, dealer)[0] == 1 - seat]
        later = list(range(12 + (batch - 1) * 8, 52))
        for variant, choices in (("opponent", opponent), ("stock", later)):
            if not choices:
                continue
            other = choices[int(rng.integers(len(choices)))]
            paired = deck.copy()
            paired[index], paired[other] = deck[other], deck[index]
            yield int(deck[index]), seat, batch, variant, paired


def card_pairs(
    base: DealRows, base_records: pd.DataFrame, engine: str, rules, policy_a, policy_b, rng: np.random.Generator
) -> pd.DataFrame:
    """Pair every card dealt to a hand in each base row with the same deal without it; one row per pair.

    `base_records` are the base rows' records (as runner.play.play_rows returns them). Columns: card,
    batch, variant, holder (the holder's policy name), diff (holder minus opponent, with minus without).
    """
    meta, decks, owner = [], [], []
    for i in range(len(base)):
        for card, seat, batch, variant, paired in paired_decks(base.decks[i], int(base.dealer[i]), rng):
            meta.append((card, batch, variant, seat))
            decks.append(paired)
            owner.append(i)
    owner = np.array(owner, dtype=np.int64)
    rows = DealRows(
        base.deal_id[owner],
        base.mirror[owner],
        np.array(decks).reshape(-1, 52),
        base.dealer[owner],
        base.a_seat0[owner],
        base.seeds[owner],
    )
    rec = play_rows(engine, rows, rules, policy_a, policy_b)
    seat = np.array([m[3] for m in meta], dtype=np.int64)
    sign = np.where(seat == 0, 1, -1)
    with_card = sign * (base_records["s0_total"] - base_records["s1_total"]).to_numpy()[owner]
    without = sign * (rec["s0_total"] - rec["s1_total"]).to_numpy()
    holder_is_a = base.a_seat0[owner] == (seat == 0)
    return pd.DataFrame(
        {
            "deal_id": base.deal_id[owner],
            "card": np.array([m[0] for m in meta], np.int8),
            "batch": np.array([m[1] for m in meta], np.int8),
            "variant": pd.Categorical([m[2] for m in meta], categories=list(VARIANTS)),
            "holder": pd.Categorical(np.where(holder_is_a, policy_a.name, policy_b.name)),
            "diff": with_card - without,
        }
    )


def pairing_rng(chunk_seed_value: int) -> np.random.Generator:
    """Which card each pair swaps with: its own stream, so pairing never shifts the chunk's deals."""
    return np.random.default_rng(chunk_seed_value ^ 0x5EED)


def card_values(
    policy: str,
    deals: int,
    rules: str = "strict",
    seed: int = 0,
    threads: int = 0,
    chunk_deals: int = 200,
    engine: str = "numba",
    progress=None,
) -> pd.DataFrame:
    """One row per (deal, card, variant) with the policy in both seats: card, batch, variant, diff.

    `progress(rounds done, rounds planned)` is told after each chunk; it counts base and paired rounds.
    """
    pol = get_policy(policy)
    engine = engine_for(engine, (pol, pol))
    ruleset = two_player_rules(rules)
    frames, done, total = [], 0, deals * (1 + PAIRS_PER_DEAL)
    if progress:
        progress(done, total)
    with use_threads(threads):
        for chunk, base in chunked_rows(seed, deals, chunk_deals, mirrored=False):
            records = play_rows(engine, base, ruleset, pol, pol)
            frames.append(card_pairs(base, records, engine, ruleset, pol, pol, pairing_rng(chunk_seed(seed, chunk))))
            done += len(base) + len(frames[-1])
            if progress:
                progress(done, total)
    return pd.concat(frames, ignore_index=True)[["card", "batch", "variant", "diff"]]
