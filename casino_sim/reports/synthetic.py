"""Synthetic round records of the right shape and ranges (not real play): for benchmarks and chart checks.

`python -m casino_sim.reports.synthetic N DIR` writes an N-round run folder and times `write_all` on it.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from casino_sim.core.record import CATEGORIES, PLAY_KINDS
from casino_sim.runner.records import FORMAT2_TWO

MAX_POINTS = {"cards": 3, "spades": 1, "aces": 4, "ten_diamonds": 2, "two_spades": 1}


def synthetic_rounds(
    n: int,
    seed: int = 0,
    mirrored: bool = True,
    policies=("greedy", "random"),
    rules: str = "strict",
    void_rate: float = 1e-4,
) -> pd.DataFrame:
    """n two-player rounds (n even when mirrored) of random but internally consistent records, in format 2."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(0, index=np.arange(n), columns=FORMAT2_TWO, dtype=np.int64)
    deals = n // 2 if mirrored else n
    deal_id = np.repeat(np.arange(deals), 2) if mirrored else np.arange(n)
    mirror = np.tile([0, 1], deals) if mirrored else np.zeros(n, np.int64)
    df["dealer"] = rng.integers(0, 2, deals)[deal_id]
    df["void"] = (rng.random(n) < void_rate).astype(np.int64)
    df["plies"] = 48
    df["last_capturer"] = rng.integers(0, 2, n)
    df["remainder"] = rng.integers(0, 8, n)
    batches = [c.removeprefix("first_") for c in FORMAT2_TWO if c.startswith("first_sweeps_b")]
    for place, seat in zip(("first", "dealer"), (1 - df["dealer"], df["dealer"])):
        df[f"{place}_seat"] = seat
        for b in batches:
            df[f"{place}_{b}"] = rng.poisson(0.08, n)
        df[f"{place}_n_sweeps"] = df[[f"{place}_{b}" for b in batches]].sum(axis=1)
        for cat, top in MAX_POINTS.items():
            df[f"{place}_{cat}"] = rng.integers(0, top + 1, n)
        df[f"{place}_sweeps"] = df[f"{place}_n_sweeps"]
        df[f"{place}_total"] = df[[f"{place}_{c}" for c in CATEGORIES]].sum(axis=1)
        df[f"{place}_n_cards"] = rng.integers(10, 40, n)
        df[f"{place}_n_spades"] = rng.integers(0, 13, n)
        plays = rng.multinomial(24, [0.45, 0.45, 0.07, 0.01, 0.02], n)  # 24 plays a round, by kind
        for k, kind in enumerate(PLAY_KINDS):
            df[f"{place}_plays_{kind}"] = plays[:, k]
        made = plays[:, 2] + plays[:, 3] + plays[:, 4]
        own = rng.binomial(made, 0.8)
        df[f"{place}_builds_made"], df[f"{place}_builds_captured_own"] = made, own
        df[f"{place}_builds_lost"] = rng.binomial(made - own, 0.7)
    for name in ("ten_diamonds", "two_spades"):
        df[f"{name}_dealt_to"] = rng.integers(0, 3, n)
        df[f"{name}_dealt_batch"] = rng.integers(1, 7, n)
        df[f"{name}_captured_by"] = rng.integers(0, 2, n)
        df[f"{name}_captured_ply"] = rng.integers(1, 50, n)
    void = df["void"].to_numpy() == 1
    df.loc[void, [c for c in df.columns if c.startswith(("first_", "dealer_")) and not c.endswith("_seat")]] = 0
    a, b = policies
    leading = {
        "chunk": deal_id // 10_000,
        "deal_id": deal_id,
        "mirror": mirror,
        "policy_0": pd.Categorical(np.where(mirror == 0, a, b)),
        "policy_1": pd.Categorical(np.where(mirror == 0, b, a)),
        "rules": pd.Categorical([rules] * n),
    }
    return pd.concat([pd.DataFrame(leading), df], axis=1)


def write_run(df: pd.DataFrame, run_dir: str | Path) -> Path:
    """A run folder holding `df` as its one chunk, rounds/chunk-000000.parquet."""
    rounds = Path(run_dir) / "rounds"
    rounds.mkdir(parents=True, exist_ok=True)
    df.to_parquet(rounds / "chunk-000000.parquet", index=False)
    return Path(run_dir)


def main(argv: list[str]) -> None:
    from casino_sim.reports.index import write_all  # deferred: only this benchmark draws reports (matplotlib)

    n, run_dir = int(argv[0]), Path(argv[1])
    write_run(synthetic_rounds(n), run_dir)
    t0 = time.perf_counter()
    write_all(run_dir)
    print(f"write_all on {n} rounds: {time.perf_counter() - t0:.2f} s -> {run_dir / 'report'}")


if __name__ == "__main__":
    main(sys.argv[1:])
