"""Head-to-head comparisons in memory: policy A against B over mirrored deals, with a 95% interval."""

from __future__ import annotations

import numpy as np
import pandas as pd

from casino_sim.core.rules import RuleSet, get_rules
from casino_sim.experiments.headline import headline
from casino_sim.experiments.simulate import SimConfig
from casino_sim.policies.names import check_distinct
from casino_sim.policies.policy import Policy
from casino_sim.reports.stats import Estimate, mean_ci
from casino_sim.runner.deals import DealRows, chunked_rows
from casino_sim.runner.play import engine_for, play_rows
from casino_sim.runner.seated import seated_headline
from casino_sim.runner.threads import use_threads


def compare(config: SimConfig) -> Estimate:
    """Mean points of A minus B per mirrored deal (average of both seatings), with its interval.

    Chunks are seeded exactly as `simulate` seeds them, so the same config gives
    the same numbers as a simulate run (its mirrored, games and reporting options are not used here).
    """
    ruleset = get_rules(config.rules)
    if ruleset.players == 2:  # its options as simulate's (which records only two-player rounds)
        config.check()
    lineup = config.lineup()  # resolved once (by check() with two players)
    check_distinct(zip(lineup.specs, lineup.policies))  # with three or four players too
    pa, pb = lineup.policies[:2]
    engine = engine_for(config.engine, (pa, pb))
    diffs = []
    with use_threads(config.threads):
        for _, rows in chunked_rows(config.seed, config.deals, config.chunk_deals, mirrored=True):
            diffs.append(deal_headline(engine, rows, ruleset, pa, pb))
    return mean_ci(pd.Series([x for d in diffs for x in d]).to_numpy())


def deal_headline(engine: str, rows: DealRows, rules: RuleSet, a: Policy, b: Policy) -> np.ndarray:
    """A's points minus B's per mirrored deal of `rows`; with three or four players A's margin over every
    seating (A alone in each seat, or A's team on either side: runner/seated.py)."""
    if rules.players == 2:
        return headline(play_rows(engine, rows, rules, a, b))
    return seated_headline(engine, rows, rules, a, b)
