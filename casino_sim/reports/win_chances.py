"""The game's equity table (docs/equity.md): the chance of winning the whole game from every score and dealer.

A game (docs/rules.md section 8) is a series of complete rounds; a round's points depend on who deals, not on the
score (the policies do not look at it). So from the joint distribution of both sides' points in a round, given which
side deals, the chance that side 0 wins from totals (x0, x1) with side d to deal follows by dynamic programming: a
round moves the totals up and passes the deal to the other side (two players alternate; with four in two teams the
next player is on the other team), until `game_winner` (the rules' own test, reference/game.py) names a side.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from casino_sim.core.errors import InputError
from casino_sim.core.rules import RuleSet
from casino_sim.reference.game import game_winner

MAX_TARGET = 100  # the table has target² cells and each looks at every round outcome: larger targets are refused


class Outcomes(NamedTuple):
    """The distinct points of a complete round, (side 0, side 1), and how often each came with each side dealing."""

    points: np.ndarray  # (K, 2)
    counts: np.ndarray  # (2, K): row d counts the rounds dealt by side d
    of_round: np.ndarray  # (N,) each round's outcome (an index into points)
    dealer_side: np.ndarray  # (N,) the side that dealt each round


def round_outcomes(points: np.ndarray, dealer_side: np.ndarray) -> Outcomes:
    """Outcomes of complete rounds: `points` (N, 2) each side's points, `dealer_side` (N,) 0 or 1."""
    points, dealer_side = np.asarray(points, np.int64), np.asarray(dealer_side, np.int64)
    distinct, which = np.unique(points, axis=0, return_inverse=True)
    counts = np.zeros((2, len(distinct)), np.int64)
    which = which.reshape(-1)
    np.add.at(counts, (dealer_side, which), 1)
    return Outcomes(distinct, counts, which, dealer_side)


class _Step(NamedTuple):
    """What each outcome does from one state: side 0 wins, or the game goes on to state `nxt` (-1: it ends)."""

    wins: np.ndarray  # (K,) bool
    nxt: np.ndarray  # (K,) the next state's index, -1 when the round ends the game


def _check_rules(rules: RuleSet) -> int:
    if rules.n_sides != 2:
        raise InputError(f"the equity table is for two sides (two players, or four in teams), not {rules.n_sides}")
    if rules.single_round:
        raise InputError("with single_round=true one round decides the game: there is no score to tabulate")
    if rules.target > MAX_TARGET:
        raise InputError(f"the equity table is made for targets up to {MAX_TARGET}, got target={rules.target}")
    return rules.target


def game_steps(rules: RuleSet, points: np.ndarray) -> list[_Step]:
    """For every state (x0 * T + x1 for totals below the target T, then T * T: tied at or above it), each
    outcome's result. Totals tied at or above the target are one state: from there only the round decides."""
    target = _check_rules(rules)
    steps = []
    for state in range(target * target + 1):
        x0, x1 = divmod(state, target) if state < target * target else (target, target)
        wins, nxt = np.zeros(len(points), bool), np.full(len(points), -1)
        for k, (a, b) in enumerate(points):
            totals = (x0 + a, x1 + b)
            winner = game_winner(rules, totals, (a, b))
            if winner is not None:
                wins[k] = winner == 0
            elif totals[0] >= target:  # equal totals at or above the target
                nxt[k] = target * target
            else:
                nxt[k] = totals[0] * target + totals[1]
        steps.append(_Step(wins, nxt))
    return steps


def win_chances(
    rules: RuleSet, outcomes: Outcomes, weights: np.ndarray | None = None, steps: list[_Step] | None = None
) -> np.ndarray:
    """V[..., x0, x1, d]: the chance that side 0 wins from totals (x0, x1) below the target with side d to deal.

    `weights` (B, 2, K), if given, replaces the outcome counts by B sets of weights (bootstrap replicates); the
    result then has a leading axis of B. Each side must have dealt at least one complete round. `steps`
    (game_steps of the outcomes' points) saves building them again when the same outcomes are weighed twice.
    """
    counts = outcomes.counts[None] if weights is None else np.asarray(weights, float)
    totals = counts.sum(axis=2, keepdims=True)
    if (totals == 0).any():
        raise InputError("the equity table needs complete rounds dealt by each side")
    p = counts / totals  # (B, 2, K)
    target = rules.target
    steps = game_steps(rules, outcomes.points) if steps is None else steps
    value = np.zeros((len(p), target * target + 1, 2))
    order = [target * target, *sorted(range(target * target), key=lambda s: -sum(divmod(s, target)))]
    for state in order:  # every round adds points, so a state needs only states of higher totals ...
        wins, nxt = steps[state]
        goes_on = (nxt >= 0) & (nxt != state)
        c = np.stack(
            [(p[:, d] * wins).sum(1) + (p[:, d, goes_on] * value[:, nxt[goes_on], 1 - d]).sum(1) for d in (0, 1)]
        )
        # ... and itself with the other side to deal: after a 0-0 round, or a tie at the target, V_d = c_d +
        # z_d V_(1-d), two equations solved here
        same = np.flatnonzero(nxt == state)
        z = np.stack([p[:, d, same].sum(1) for d in (0, 1)])
        v0 = (c[0] + z[0] * c[1]) / (1 - z[0] * z[1])
        value[:, state] = np.stack([v0, c[1] + z[1] * v0], axis=1)
    table = value[:, : target * target].reshape(len(p), target, target, 2)
    return table[0] if weights is None else table


def resampled_counts(outcomes: Outcomes, cluster: np.ndarray, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """(B, 2, K) outcome counts of B bootstrap resamples of the clusters (deals): the rounds of one deal share its
    cards, so they are drawn together."""
    _, cluster = np.unique(cluster, return_inverse=True)
    n_clusters, n_outcomes = cluster.max() + 1, len(outcomes.points)
    cell = outcomes.dealer_side * n_outcomes + outcomes.of_round
    out = np.empty((resamples, 2 * n_outcomes))
    for b in range(resamples):
        drawn = rng.multinomial(n_clusters, np.full(n_clusters, 1.0 / n_clusters))
        out[b] = np.bincount(cell, weights=drawn[cluster], minlength=2 * n_outcomes)
    return out.reshape(resamples, 2, n_outcomes)
