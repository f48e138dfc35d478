"""Play chunk rows on a chosen engine and return the per-round records as a DataFrame."""

from __future__ import annotations

import numpy as np
import pandas as pd

from casino_sim.core.errors import InputError
from casino_sim.core.rules import RuleSet
from casino_sim.policies.policy import Policy
from casino_sim.runner.deals import DealRows

ENGINES = ("numba", "reference")


def engine_for(engine: str, policies: tuple[Policy, Policy]) -> str:
    """The engine that will play: Python-callable policies play only on the reference engine."""
    if engine not in ENGINES:
        raise InputError(f"unknown engine {engine!r} (choose from: {', '.join(ENGINES)})")
    if any(p.kind == "python" for p in policies):
        return "reference"
    if engine == "reference" and any(p.kind == "rollout" for p in policies):
        raise InputError("the rollout policy plays only on the numba engine")
    return engine


def play_rows(
    engine: str,
    rows: DealRows,
    rules: RuleSet,
    policy_a: Policy,
    policy_b: Policy,
    check: bool = False,
    trace: np.ndarray | None = None,
) -> pd.DataFrame:
    """Per-round records of the rows, with deal_id and mirror columns first.

    `check` verifies the numba engine's every play; `trace` (k, 48, 5) receives the move records of the first k rows.
    """
    if engine == "reference":
        from casino_sim.runner.reference_rows import play_rows_reference

        cols = play_rows_reference(rows, rules, policy_a, policy_b, trace)
    else:
        from casino_sim.engine.rows import play_rows_numba
        from casino_sim.policies.arrays import policy_arrays

        cols = play_rows_numba(rows, rules, *policy_arrays((policy_a, policy_b)), check=check, trace=trace)
    seat0 = np.where(rows.a_seat0, policy_a.name, policy_b.name)
    seat1 = np.where(rows.a_seat0, policy_b.name, policy_a.name)
    # Every record field is a small count (at most 52), so int8 holds it: an eighth of the memory and disk.
    small = {c: v.astype(np.int8) for c, v in cols.items()}
    return pd.DataFrame(
        {
            "deal_id": rows.deal_id,
            "mirror": rows.mirror,
            "policy_0": pd.Categorical(seat0),
            "policy_1": pd.Categorical(seat1),
            "rules": pd.Categorical([rules.name] * len(rows)),
            **small,
        }
    )
