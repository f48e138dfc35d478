"""The value of holding a card, measured with paired deals (issue 5).

For every card dealt to a hand, the same shuffle is replayed with that card
swapped into the opponent's hand of the same batch ("opponent") or with a card
dealt in a later batch ("stock"), with the same per-round seeds. The card's
value in that deal is how much the holder's point difference (holder minus
opponent) drops when the card is taken away: the luck of the rest of the deal
cancels in the pair. The value is relative to the card it was swapped with, so
a low card a policy tends to trail can be worth less than an average card.

With three or four players the card goes to an opponent (never a partner) dealt in the same batch, and the
value is the holder's side's (its team's, with teams) margin: its points minus the mean of the other sides'.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from casino_sim.core.deal import batches, deck_slots
from casino_sim.core.invariants import dealt
from casino_sim.core.rows import DealRows
from casino_sim.core.rules import STRICT, RuleSet, get_rules
from casino_sim.policies import Policy
from casino_sim.reference.seats import opponents, turn_order
from casino_sim.runner.deals import Seeding
from casino_sim.runner.play import engine_for, play
from casino_sim.runner.sides import player_margins
from casino_sim.runner.threads import use_threads

VARIANTS = ("opponent", "stock")


def deal_slot(index: int, dealer: int, players: int = 2) -> tuple[int, int]:
    """(player, or `players` for the table; batch 1..) of deck position `index` (core/deal.py deck_slots)."""
    places, batches_of = deck_slots(players)
    place, batch = int(places[index]), int(batches_of[index])
    return (turn_order(dealer, players)[place] if place < players else players), batch


def batch_start(batch: int, players: int = 2) -> int:
    """The deck position of batch `batch`'s first card (1-based; one past the last batch: 52)."""
    return (0, *dealt(players))[batch - 1]


def pairs_per_deal(players: int = 2) -> int:
    """Paired replays of one deal: every card dealt to a hand goes to an opponent, and into the stock unless
    it came in the last batch (the dealer does not change the count)."""
    last = batches(players)
    slots = (deal_slot(i, 0, players) for i in range(52))
    return sum(1 + (batch < last) for seat, batch in slots if seat != players)


PAIRS_PER_DEAL = pairs_per_deal()


def paired_decks(deck: np.ndarray, dealer: int, rng: np.random.Generator, rules: RuleSet = STRICT):
    """Yield (card, holder, batch, variant, paired deck) for every card dealt to a hand: swapped with a card an
    opponent of the holder is dealt in the same batch, or with one of a later batch."""
    n = rules.players
    for index in range(52):
        seat, batch = deal_slot(index, dealer, n)
        if seat == n:
            continue
        start, end = batch_start(batch, n), batch_start(batch + 1, n)
        holders = ((i, deal_slot(i, dealer, n)[0]) for i in range(start, end))
        opponent = [i for i, h in holders if h != n and opponents(rules, seat, h)]
        later = list(range(end, 52))
        for variant, choices in (("opponent", opponent), ("stock", later)):
            if not choices:
                continue
            other = choices[int(rng.integers(len(choices)))]
            paired = deck.copy()
            paired[index], paired[other] = deck[other], deck[index]
            yield int(deck[index]), seat, batch, variant, paired


def card_pairs(
    base: DealRows, base_records: pd.DataFrame, engine: str, rules, lineup: tuple, rngs: list[np.random.Generator]
) -> pd.DataFrame:
    """Pair every card dealt to a hand in each base row with the same deal without it; one row per pair.

    `base_records` are the base rows' records (as runner.play.play returns them), `lineup` the policies
    rows.seating names, `rngs` the stream of each base row's swaps (runner/deals.py Seeding.pair_rngs). Columns:
    card, batch, variant, holder (the holder's policy name), diff (the holder's side's margin, its points less the
    mean of the other sides', with the card minus without).
    """
    meta, decks, owner = [], [], []
    for i in range(len(base)):
        for card, seat, batch, variant, paired in paired_decks(base.decks[i], int(base.dealer[i]), rngs[i], rules):
            meta.append((card, batch, variant, seat))
            decks.append(paired)
            owner.append(i)
    owner = np.array(owner, dtype=np.int64)
    rows = replace(base.take(owner), decks=np.array(decks, dtype=base.decks.dtype).reshape(-1, 52))
    rec = play(engine, rows, rules, lineup)
    seat = np.array([m[3] for m in meta], dtype=np.int64)
    with_card = player_margins(base_records, rules)[owner, seat]
    without = player_margins(rec, rules)[np.arange(len(seat)), seat]
    holder = np.array([p.name for p in lineup])[base.seating[owner, seat]]
    return pd.DataFrame(
        {
            "deal_id": base.deal_id[owner],
            "card": np.array([m[0] for m in meta], np.int8),
            "batch": np.array([m[1] for m in meta], np.int8),
            "variant": pd.Categorical([m[2] for m in meta], categories=list(VARIANTS)),
            "holder": pd.Categorical(holder),
            "diff": with_card - without,
        }
    )


def card_values(
    policy: Policy,
    deals: int,
    rules: str = "strict",
    seed: int = 0,
    threads: int = 0,
    chunk_deals: int = 200,
    engine: str = "numba",
    progress=None,
) -> pd.DataFrame:
    """One row per (deal, card, variant) with the policy in both seats: card, batch, variant, diff.

    `progress(rounds done, rounds planned)` is told after each chunk; it counts base and paired rounds. `policy` is
    resolved already (by `casino-sim card-value`'s loader).
    """
    engine = engine_for(engine, (policy, policy))
    ruleset = get_rules(rules)
    n = ruleset.players
    seated = np.zeros((1, n), np.int8)  # the policy in every seat
    frames, done, total = [], 0, deals * (1 + pairs_per_deal(n))
    if progress:
        progress(done, total)
    with use_threads(threads):
        dealing = Seeding(seed)
        for first in range(0, deals, chunk_deals):
            base = dealing.rows(first, min(chunk_deals, deals - first), seated)
            records = play(engine, base, ruleset, (policy,))
            rngs = dealing.pair_rngs(base.deal_id, base.mirror)
            frames.append(card_pairs(base, records, engine, ruleset, (policy,), rngs))
            done += len(base) + len(frames[-1])
            if progress:
                progress(done, total)
    return pd.concat(frames, ignore_index=True)[["card", "batch", "variant", "diff"]]
