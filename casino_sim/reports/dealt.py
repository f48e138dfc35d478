"""Every card's value from a run's own deals: no replay, the deal itself is the randomised experiment.

The deal sends each card to a hand (which place's is chance), or to the table. So for card c the rounds in which c
went to one place's hand and those in which it went to another's differ only by chance, and the difference of that
place's margin (its side's points less the mean of the other sides') between them is the causal value of holding
c. Pooled over the places (each equally likely to be dealt it), the mean over the rounds where c was dealt to a hand
of the holder's margin less the mean of its opponents' margins is `to_me_minus_to_opponent` (a partner, with teams,
is neither); the holder's margin alone is `to_me_minus_to_table`, since the places' margins of a round sum to 0
(the mean margin with c on the table is 0 exactly). Rounds of one deal (its seatings; a whole game's rounds) are one
cluster; void rounds are left out. docs/reports.md says what it means.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from casino_sim.core.cards import format_card
from casino_sim.core.deal import batches, deck_slots
from casino_sim.core.record import place_names
from casino_sim.core.rules import RuleSet
from casino_sim.reports.stats import t975
from casino_sim.runner.redeal import dealt_decks
from casino_sim.runner.sides import player_margins

BLOCK = 20_000  # deals re-dealt and summed at a time: (BLOCK, 52) arrays, never the whole run's
LEVELS = ("opponent", "table")  # the levels each card's value is read against, as the charts name them


def place_margins(df: pd.DataFrame, rules: RuleSet) -> np.ndarray:
    """(rounds, places): the margin of each place's side (runner/sides.py player_margins), read at the player who
    sat in that place."""
    seats = np.stack([df[f"{q}_seat"].to_numpy(np.int64) for q in place_names(rules.players)], axis=1)
    return np.take_along_axis(player_margins(df, rules), seats, axis=1)


def opponent_weights(players: int, teams: bool) -> np.ndarray:
    """(places, places): column i averages the margins of place i's opponents (a partner is not one)."""
    idx = np.arange(players)
    opp = (idx[:, None] % 2 != idx[None, :] % 2) if teams else (idx[:, None] != idx[None, :])
    return opp / opp.sum(axis=0, keepdims=True)


@dataclass
class Moments:
    """Per-cluster sums of K estimates' variables, summed over clusters: their totals and cross products."""

    total: np.ndarray  # (K, m)
    cross: np.ndarray  # (K, m, m)
    clusters: np.ndarray  # (K,): clusters in which the first count variable is not 0

    @classmethod
    def empty(cls, k: int, m: int) -> Moments:
        return cls(np.zeros((k, m)), np.zeros((k, m, m)), np.zeros(k, np.int64))

    def add(self, key: np.ndarray, x: np.ndarray, count: int) -> None:
        """x (n, m): per-cluster sums of the estimate `key` (n) each belongs to; variable `count` is the count that
        marks a cluster. Sums by key (bincount): no (clusters, K, m) array, most of whose cells are 0."""
        k, m = self.total.shape
        cols = np.ascontiguousarray(x.T)  # one variable a row: bincount reads it without strides
        for i in range(m):
            self.total[:, i] += np.bincount(key, cols[i], k)
            for j in range(i, m):
                self.cross[:, i, j] += np.bincount(key, cols[i] * cols[j], k)
                self.cross[:, j, i] = self.cross[:, i, j]
        self.clusters += np.bincount(key[cols[count] > 0], minlength=k)

    def add_dense(self, x: np.ndarray, count: int) -> None:
        """x (clusters, K, m): per-cluster sums of every estimate (a round's deal: each card is somewhere); the
        cross products as one batched matrix product."""
        self.total += x.sum(axis=0)
        self.cross += np.matmul(x.transpose(1, 2, 0), x.transpose(1, 0, 2))
        self.clusters += (x[:, :, count] > 0).sum(axis=0)

    def ratio_ci(self, w: np.ndarray, est: np.ndarray, clusters: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(lo, hi) around `est` from its linearisation `w` (K, m): the cluster-robust variance w'Mw (with the small
        sample factor G/(G-1), as stats.cluster_mean_ci) and Student's t with G - 1 degrees of freedom."""
        g = clusters.astype(np.float64)
        var = np.einsum("km,kmn,kn->k", w, self.cross, w)
        with np.errstate(divide="ignore", invalid="ignore"):
            half = np.where(g >= 2, t975(g - 1) * np.sqrt(np.maximum(var, 0) * g / (g - 1)), np.inf)
        return est - half, est + half


def _per_cluster(key: np.ndarray, x: np.ndarray, cluster: np.ndarray, once: bool) -> tuple[np.ndarray, np.ndarray]:
    """(key, x) of each (unit, card) summed per (cluster, key): as they are when every cluster is one unit
    (`once`: a round's deal), else (a whole game's rounds) by their distinct pairs."""
    if once:
        return key.ravel(), x.reshape(-1, x.shape[-1])
    k = int(key.max()) + 1
    pair = (cluster[:, None] * k + key).ravel()
    uniq, inv = np.unique(pair, return_inverse=True)
    flat = x.reshape(-1, x.shape[-1])
    sums = np.stack([np.bincount(inv, flat[:, i], len(uniq)) for i in range(flat.shape[1])], axis=1)
    return uniq % k, sums


def card_moments(df: pd.DataFrame, rules: RuleSet, decks_of) -> tuple[Moments, Moments, int]:
    """(per card: S1 N1 S3 S2 N2, per card x batch: S1 N1, rounds) of the live rounds `df`; `decks_of(deal_id,
    round_no or None)` gives each unit's deck. S1: holder's margin less its opponents' mean; S3: holder's margin;
    N1: rounds with the card in a hand; S2, N2: the mean margin and rounds with it on the table."""
    players, live = rules.players, df["void"].to_numpy() == 0
    m = place_margins(df, rules)[live]
    vs = m - m @ opponent_weights(players, rules.teams)
    deal = df["deal_id"].to_numpy(np.int64)[live]
    wave = df["round_no"].to_numpy(np.int64)[live] if "round_no" in df.columns else np.zeros(len(deal), np.int64)
    unit_key = deal * (int(wave.max(initial=0)) + 1) + wave
    keys, unit = np.unique(unit_key, return_inverse=True)
    n_units, b = len(keys), batches(players)
    q = np.stack([np.bincount(unit, vs[:, i], n_units) for i in range(players)], axis=1)
    qm = np.stack([np.bincount(unit, m[:, i], n_units) for i in range(players)], axis=1)
    rounds = np.bincount(unit, minlength=n_units).astype(np.float64)
    table = np.bincount(unit, m.mean(axis=1), n_units)
    u_deal, u_wave = keys // (int(wave.max(initial=0)) + 1), keys % (int(wave.max(initial=0)) + 1)
    slot_place, slot_batch = deck_slots(players)
    cards, by_batch = Moments.empty(52, 5), Moments.empty(52 * b, 2)
    starts = np.searchsorted(u_deal, np.unique(u_deal[:: max(1, BLOCK)]))
    for lo, hi in zip(starts, [*starts[1:], n_units]):  # blocks of whole clusters (deals)
        decks = decks_of(u_deal[lo:hi], u_wave[lo:hi] if "round_no" in df.columns else None)
        pos = np.empty_like(decks, dtype=np.int64)
        np.put_along_axis(pos, decks.astype(np.int64), np.arange(52)[None, :], axis=1)  # card -> deck position
        place, batch = slot_place[pos], slot_batch[pos]
        hand = place < players
        at = np.minimum(place, players - 1)
        n1 = rounds[lo:hi, None] * hand
        x = np.stack(
            [
                np.take_along_axis(q[lo:hi], at, axis=1) * hand,
                n1,
                np.take_along_axis(qm[lo:hi], at, axis=1) * hand,
                table[lo:hi, None] * ~hand,
                rounds[lo:hi, None] * ~hand,
            ],
            axis=2,
        )
        cluster, once = u_deal[lo:hi], "round_no" not in df.columns
        card = np.broadcast_to(np.arange(52), pos.shape)
        if once:
            cards.add_dense(x, 1)
        else:
            cards.add(*_per_cluster(card, x, cluster, once), 1)
        by_batch.add(*_per_cluster(card * b + batch - 1, x[:, :, :2], cluster, once), 1)
    return cards, by_batch, int(live.sum())


def _ratio(moments: Moments, s: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(S/N, its linearisation weights) of variables s over n."""
    tot = moments.total
    with np.errstate(divide="ignore", invalid="ignore"):
        est = tot[:, s] / tot[:, n]
        w = np.zeros_like(tot)
        w[:, s], w[:, n] = 1 / tot[:, n], -est / tot[:, n]
    return est, w


def card_value_tables(cards: Moments, by_batch: Moments, players: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(card_values: one row per card, card_values_by_batch: per card and batch dealt) from card_moments."""
    opp, w1 = _ratio(cards, 0, 1)
    lo1, hi1 = cards.ratio_ci(w1, opp, cards.clusters)
    own, w3 = _ratio(cards, 2, 1)
    tab, w2 = _ratio(cards, 3, 4)
    tab = np.where(cards.total[:, 4] > 0, tab, np.nan)
    vs_table = own - tab
    lo2, hi2 = cards.ratio_ci(w3 - np.nan_to_num(w2), vs_table, cards.clusters)
    values = pd.DataFrame(
        {
            "card": [format_card(c) for c in range(52)],
            "to_me_minus_to_opponent": opp,
            "ci_lo": lo1,
            "ci_hi": hi1,
            "to_me_minus_to_table": vs_table,
            "table_ci_lo": lo2,
            "table_ci_hi": hi2,
            "rounds": cards.total[:, 1].astype(np.int64),
        }
    )
    b = batches(players)
    est, w = _ratio(by_batch, 0, 1)
    lo, hi = by_batch.ratio_ci(w, est, by_batch.clusters)
    batch = pd.DataFrame(
        {
            "card": [format_card(c) for c in np.repeat(np.arange(52), b)],
            "batch": np.tile(np.arange(1, b + 1), 52),
            "to_me_minus_to_opponent": est,
            "ci_lo": lo,
            "ci_hi": hi,
            "rounds": by_batch.total[:, 1].astype(np.int64),
        }
    )
    return values, batch[batch["rounds"] > 0].reset_index(drop=True)


def as_long(values: pd.DataFrame, by_batch: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The deal estimate in the shape the card charts draw (reports/charts.py card_heatmap, ten_diamonds_chart):
    one row per level and card (variant: opponent, table; card 0..51; mean, ci_lo, ci_hi)."""
    code = {format_card(c): c for c in range(52)}
    levels = []
    for variant, cols in zip(
        LEVELS, (("to_me_minus_to_opponent", "ci_lo", "ci_hi"), ("to_me_minus_to_table", "table_ci_lo", "table_ci_hi"))
    ):
        t = values[["card", *cols]].set_axis(["card", "mean", "ci_lo", "ci_hi"], axis=1)
        levels.append(t.assign(variant=variant, card=t["card"].map(code)))
    batch = by_batch.rename(columns={"to_me_minus_to_opponent": "mean"})
    return pd.concat(levels, ignore_index=True), batch.assign(variant="opponent", card=batch["card"].map(code))


def deal_card_values(df: pd.DataFrame, config: dict, rules: RuleSet) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(card_values, card_values_by_batch) of a simulate run's round records `df`, its manifest's `config` saying
    how to deal them again (runner/redeal.py)."""
    cards, by_batch, _ = card_moments(df, rules, lambda deal, wave: dealt_decks(config, deal, wave))
    return card_value_tables(cards, by_batch, rules.players)
