"""Head-to-head comparisons in memory: policy A against B over mirrored deals, with a 95% interval."""

from __future__ import annotations

import pandas as pd

from casino_sim.core.rules import get_rules
from casino_sim.experiments.simulate import SimConfig, headline
from casino_sim.policies import get_policy
from casino_sim.reports.stats import Estimate, mean_ci
from casino_sim.runner.deals import chunked_rows
from casino_sim.runner.play import engine_for, play_rows
from casino_sim.runner.threads import use_threads


def compare(config: SimConfig) -> Estimate:
    """Mean points of A minus B per mirrored deal (average of both seatings), with its interval.

    Chunks are seeded exactly as `simulate` seeds them, so the same config gives
    the same numbers as a simulate run (its mirrored, games and reporting options are not used here).
    """
    config.check()
    pa, pb = get_policy(config.policy_a), get_policy(config.policy_b)
    engine = engine_for(config.engine, (pa, pb))
    ruleset = get_rules(config.rules)
    diffs = []
    with use_threads(config.threads):
        for _, rows in chunked_rows(config.seed, config.deals, config.chunk_deals, mirrored=True):
            diffs.append(headline(play_rows(engine, rows, ruleset, pa, pb)))
    return mean_ci(pd.Series([x for d in diffs for x in d]).to_numpy())
