"""One seeded round between random players (two to four): the story behind `casino-sim deal`."""

from __future__ import annotations

import numpy as np

from casino_sim.core.fields import FieldError
from casino_sim.core.rules import RuleSet
from casino_sim.reference.round import RoundResult, play_round


def random_round(rules: RuleSet, seed: int) -> RoundResult:
    """Dealer, shuffle and every choice drawn from one generator seeded with `seed`."""
    if seed < 0:
        raise FieldError("seed", f"must be >= 0, got {seed}")
    rng = np.random.default_rng(seed)
    dealer = int(rng.integers(rules.players))
    deck = rng.permutation(52)
    return play_round(rules, deck, dealer, lambda pos, moves: moves[int(rng.integers(len(moves)))])
