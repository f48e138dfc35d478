"""Positions reached by random play of the reference engine, each shown with its legal moves and its round's deck."""

from __future__ import annotations

import collections
import functools
import random

import numpy as np

from casino_sim.core.cards import value_of
from casino_sim.core.rules import RULESETS
from casino_sim.reference import Move
from casino_sim.reference.moves import KINDS
from casino_sim.reference.round import play_round

# a chooser that favours building, so that positions with several builds, merges and adds are common
BUILD_WEIGHT = {"trail": 1.0, "capture": 1.0, "build": 8.0, "increase": 8.0, "add": 8.0}


def play_random_rounds(rules, n_rounds: int, seed: int, seen, biased: bool = False) -> None:
    """Play n_rounds with random legal choices (biased: building favoured); seen(pos, moves, deck) before each play."""
    rng = np.random.default_rng(seed)

    def choose(pos, moves):
        seen(pos, moves, deck)
        if biased:
            w = np.array([BUILD_WEIGHT[m.kind] for m in moves])
            return moves[rng.choice(len(moves), p=w / w.sum())]
        return moves[rng.integers(len(moves))]

    for _ in range(n_rounds):
        deck = rng.permutation(52)
        play_round(rules, deck, int(rng.integers(2)), choose)


def positions_by_random_play(rules, n_rounds: int, seed: int) -> list:
    """Positions reached by random reference play, several per round."""
    out = []
    play_random_rounds(rules, n_rounds, seed, lambda pos, moves, deck: out.append(pos))
    return out


@functools.cache
def reached_positions(rules_name: str, n_rounds: int = 37) -> tuple[list, collections.Counter]:
    """(pos, legal moves, deck) of every play of n_rounds random and n_rounds build-biased rounds; what they hold."""
    out, stats = [], collections.Counter()

    def seen(pos, moves, deck):
        out.append((pos, moves, deck))
        stats["positions"] += 1
        stats["several_builds"] += len(pos.builds) >= 2
        for m in moves:
            stats[m.kind] += 1
            stats["merge"] += m.kind == "increase" and len(m.builds) == 2
            stats["capture_build_and_loose"] += m.kind == "capture" and bool(m.builds) and bool(m.loose)

    for biased in (False, True):
        play_random_rounds(RULESETS[rules_name], n_rounds, 1000 + biased, seen, biased)
    return out, stats


def plausible_moves(pos, rng: random.Random, n: int = 4) -> list[Move]:
    """n random moves of the mover's cards and the table, of any kind: mostly illegal ones."""
    hand, loose = sorted(pos.hands[pos.to_move]), sorted(pos.loose)
    values = [b.value for b in pos.builds]
    out = []
    for _ in range(n):
        kind = rng.choice(KINDS)
        c = rng.choice(hand)
        taken = tuple(sorted(rng.sample(loose, rng.randint(0, min(3, len(loose))))))
        bvals = tuple(sorted(rng.sample(values, rng.randint(0, min(2, len(values))))))
        value = None if kind == "trail" or (kind == "capture" and value_of(c) == 0) else rng.randint(1, 10)
        out.append(Move(kind, c, taken, bvals, value))
    return out
