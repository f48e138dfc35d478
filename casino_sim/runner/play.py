"""Play chunk rows on a chosen engine and return the per-round records as a DataFrame."""

from __future__ import annotations

import numpy as np
import pandas as pd

from casino_sim.core.errors import InputError
from casino_sim.core.rules import RuleSet
from casino_sim.engines import engine_names, get_engine
from casino_sim.policies.policy import Policy
from casino_sim.runner.deals import DealRows


def engine_for(engine: str, policies: tuple[Policy, ...]) -> str:
    """The engine that will play: Python-callable policies play only on the reference engine."""
    python = any(p.plays_in_python for p in policies)
    eng = get_engine("reference" if python else engine)  # a prototype is played where it can be, not refused
    for p in policies:
        if not eng.plays(p):
            able = " or ".join(n for n in engine_names() if get_engine(n).plays(p))
            also = ", and a Python policy only on the reference engine" if python else ""
            raise InputError(f"the {p.kind} policy plays only on the {able} engine{also}")
    return eng.name


def play(engine: str, rows: DealRows, rules: RuleSet, lineup: tuple[Policy, ...], **options) -> pd.DataFrame:
    """Per-round records of the rows, with deal_id, mirror, each player's policy name and the rules first.

    Player p of row i plays lineup[rows.seating[i, p]], named in column policy_p. `options` are Engine.play's
    keywords: `check` verifies the numba engine's every play; `trace` (k, 48, 5) receives the move records of the
    first k rows.
    """
    return record_frame(rows, rules, lineup, get_engine(engine).play(rows, rules, lineup, **options))


def record_frame(rows: DealRows, rules: RuleSet, lineup: tuple[Policy, ...], cols: dict) -> pd.DataFrame:
    """The records of the rows as an engine's play gave them (`cols`), with deal_id, mirror, each player's policy
    name (policy_p: lineup[rows.seating[:, p]]) and the rules first."""
    names = [p.name for p in lineup]
    seats = {f"policy_{p}": named(rows.seating[:, p], names) for p in range(rules.players)}
    # Every record field is a small count (at most 52), so int8 holds it: an eighth of the memory and disk.
    small = {c: np.asarray(v, dtype=np.int8) for c, v in cols.items()}  # no copy of the numba engine's int8
    return pd.DataFrame(
        {
            "deal_id": rows.deal_id,
            "mirror": rows.mirror,
            **seats,
            "rules": named(np.zeros(len(rows), np.int8), [rules.name]),
            **small,
        }
    )


def named(which: np.ndarray, names: list[str]) -> pd.Categorical:
    """pd.Categorical of names[which] (its categories the names present, sorted) without making a string a row."""
    labels = sorted({names[i] for i in np.unique(which)})
    codes = np.array([labels.index(name) if name in labels else -1 for name in names], np.int8)
    return pd.Categorical.from_codes(codes[which], labels)
