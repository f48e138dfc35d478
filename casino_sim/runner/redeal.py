"""The decks a run's rounds were dealt, made again from its seed: the deal of every round is fixed by it.

A chunk's decks are the first draw of its stream (runner/deals.py draw_decks), so a deal's deck follows from the
run's seed, its chunk size and the deal's index; a whole game's round k is dealt from wave k's stream of its chunk
(runner/games.py). Nothing is played again: the card-value estimate from the deal (reports/dealt.py) reads them.
"""

from __future__ import annotations

import numpy as np

from casino_sim.core.errors import InputError
from casino_sim.runner.deals import draw_decks
from casino_sim.runner.games import wave_seed
from casino_sim.runner.run_state import chunk_deals_of
from casino_sim.runner.seeding import chunk_seed


def dealt_decks(config: dict, deal_id: np.ndarray, round_no: np.ndarray | None = None) -> np.ndarray:
    """(len(deal_id), 52) int8: the deck of each deal (of a whole game's round `round_no`) of a simulate run of
    `config` (its manifest's config: seed, chunk_deals, deals)."""
    try:
        seed, size = int(config["seed"]), int(config["chunk_deals"])
    except (KeyError, TypeError, ValueError):
        raise InputError("the run's manifest lacks its seed or chunk size: its deals cannot be made again") from None
    deal_id = np.asarray(deal_id, np.int64)
    wave = np.zeros(len(deal_id), np.int64) if round_no is None else np.asarray(round_no, np.int64)
    out = np.empty((len(deal_id), 52), np.int8)
    chunk = deal_id // size
    key = chunk * (int(wave.max(initial=0)) + 1) + wave
    for k in np.unique(key):
        rows = np.flatnonzero(key == k)
        c, w = int(chunk[rows[0]]), int(wave[rows[0]])
        stream = chunk_seed(seed, c) if round_no is None else wave_seed(chunk_seed(seed, c), w)
        decks = draw_decks(np.random.default_rng(stream), chunk_deals_of(config, c))
        out[rows] = decks[deal_id[rows] - c * size]
    return out
