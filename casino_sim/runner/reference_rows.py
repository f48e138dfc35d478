"""Play chunk rows with the reference engine: slow, exact, and the path for Python-callable policies."""

from __future__ import annotations

import numpy as np

from casino_sim.core.rules import RuleSet
from casino_sim.policies.policy import Policy
from casino_sim.reference.record import record_columns, round_record
from casino_sim.reference.round import play_round
from casino_sim.runner.deals import DealRows


def play_rows_reference(
    rows: DealRows, rules: RuleSet, policy_a: Policy, policy_b: Policy, trace: np.ndarray | None = None
) -> dict[str, np.ndarray]:
    """One record per row: the integer columns of record_columns(); trace[i] gets row i's move records."""
    cols = record_columns()
    out = np.zeros((len(rows), len(cols)), dtype=np.int64)
    for i in range(len(rows)):
        seats = (policy_a, policy_b) if rows.a_seat0[i] else (policy_b, policy_a)
        rng = np.random.default_rng(int(rows.seeds[i]))
        result = play_round(
            rules,
            rows.decks[i],
            int(rows.dealer[i]),
            lambda pos, moves, seats=seats, rng=rng: seats[pos.to_move].choose(pos, moves, rng),
        )
        rec = round_record(result)
        if trace is not None and i < len(trace):
            from casino_sim.engine.api import row_of_move

            trace[i] = [row_of_move(m) for m in result.moves]
        out[i] = [rec[c] for c in cols]
    return {c: out[:, j] for j, c in enumerate(cols)}
