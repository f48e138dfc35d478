"""The decks a run's rounds were dealt, made again from its seed: the deal of every round is fixed by it.

A deal's deck follows from the run's seed and the deal's index (runner/seeding.py), a whole game's round k from
the game's and k; a run of an earlier version (no `seeding` in its manifest) is dealt again by its chunks
(runner/chunk_seeding.py). Nothing is played again: the card-value estimate from the deal (reports/dealt.py)
reads them.
"""

from __future__ import annotations

import numpy as np

from casino_sim.core.errors import InputError
from casino_sim.runner.deals import seeding_of
from casino_sim.runner.seeding import seeding_in


def run_seeding(config: dict):
    """The draws of a run of `config` (its manifest's config: seed, and its `seeding` version, 1 when absent, with
    version 1's chunk size and deals)."""
    try:
        return seeding_of(int(config["seed"]), seeding_in(config), int(config["chunk_deals"]), int(config["deals"]))
    except (KeyError, TypeError, ValueError):
        raise InputError(
            "the run's manifest lacks its seed, chunk size or a known seeding: its deals cannot be made again"
        ) from None


def dealt_decks(config: dict, deal_id: np.ndarray, round_no: np.ndarray | None = None) -> np.ndarray:
    """(len(deal_id), 52) int8: the deck of each deal (of a whole game's round `round_no`) of a simulate run of
    `config` (its manifest's config)."""
    return run_seeding(config).decks(np.asarray(deal_id, np.int64), round_no)
