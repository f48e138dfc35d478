"""Head-to-head comparisons in memory: policy A against B over mirrored deals, with a 95% interval."""

from __future__ import annotations

import pandas as pd

from casino_sim.core.rules import get_rules
from casino_sim.experiments.simulate import headline
from casino_sim.policies import get_policy
from casino_sim.reports.stats import Estimate, mean_ci
from casino_sim.runner.deals import chunked_rows
from casino_sim.runner.play import engine_for, play_rows
from casino_sim.runner.threads import use_threads


def compare(
    policy_a: str,
    policy_b: str,
    deals: int,
    rules: str = "strict",
    seed: int = 0,
    threads: int = 0,
    chunk_deals: int = 2_000,
    engine: str = "numba",
) -> Estimate:
    """Mean points of A minus B per mirrored deal (average of both seatings), with its interval.

    Chunks are seeded exactly as `simulate` seeds them, so the same options give
    the same numbers as a simulate run.
    """
    pa, pb = get_policy(policy_a), get_policy(policy_b)
    engine = engine_for(engine, (pa, pb))
    ruleset = get_rules(rules)
    diffs = []
    with use_threads(threads):
        for _, rows in chunked_rows(seed, deals, chunk_deals, mirrored=True):
            diffs.append(headline(play_rows(engine, rows, ruleset, pa, pb)))
    return mean_ci(pd.Series([x for d in diffs for x in d]).to_numpy())
