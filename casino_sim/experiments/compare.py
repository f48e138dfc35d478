"""Head-to-head comparisons in memory: policy A against B over deals played in every seating, with a 95% interval."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from casino_sim.core.rows import DealRows
from casino_sim.core.rules import RuleSet, get_rules
from casino_sim.engines import get_engine
from casino_sim.experiments.simulate import SimConfig
from casino_sim.policies.policy import Policy
from casino_sim.reports.stats import Estimate, mean_ci
from casino_sim.runner.deals import chunked_rows
from casino_sim.runner.play import engine_for
from casino_sim.runner.seating import seatings
from casino_sim.runner.sides import a_margins
from casino_sim.runner.threads import use_threads


def compare(config: SimConfig) -> Estimate:
    """Mean margin of A per deal (A's points minus B's with two sides; averaged over the deal's seatings), with its
    interval.

    Deals are seeded (by the config's seeding version) and seated exactly as `simulate` seeds and seats them (A
    against B); with two players the same config gives the same numbers as a simulate run's headline (its games and
    reporting options are not used here).
    Three or four players' deal d is dealt by player d % players, as these comparisons always dealt it, so that
    knockout and tune runs of earlier versions keep their numbers and resume as they were played.
    """
    config.check()
    ruleset = get_rules(config.rules)
    pa, pb = config.lineup().policies[:2]
    engine = engine_for(config.engine, (pa, pb))
    diffs = []
    with use_threads(config.threads):
        for _, rows in chunked_rows(config.seed, config.deals, config.chunk_deals, seatings(ruleset), config.seeding):
            if ruleset.players > 2:  # history, not a rule: the comparisons' own dealer (see above)
                rows = replace(rows, dealer=(rows.deal_id % ruleset.players).astype(np.int8))
            diffs.append(deal_headline(engine, rows, ruleset, pa, pb))
    return mean_ci(np.concatenate(diffs))


def deal_headline(engine: str, rows: DealRows, rules: RuleSet, a: Policy, b: Policy) -> np.ndarray:
    """A's margin per deal of `rows` (each deal in the seatings of A against B: runner/seating.py `seatings`), a
    void round counting 0 (runner/sides.py a_margins)."""
    cols = get_engine(engine).play(rows, rules, (a, b))
    return a_margins({**cols, "deal_id": rows.deal_id, "mirror": rows.mirror}, rules)
