"""Synthetic round records of the right shape and ranges (not real play): for benchmarks and chart checks.

`python -m casino_sim.reports.synthetic N DIR` writes an N-round run folder and times `write_all` on it.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from casino_sim.core.record import BATCHES, CATEGORIES, PLAY_KINDS, record_columns

MAX_POINTS = {"cards": 3, "spades": 1, "aces": 4, "ten_diamonds": 2, "two_spades": 1}


def synthetic_rounds(
    n: int,
    seed: int = 0,
    mirrored: bool = True,
    policies=("greedy", "random"),
    rules: str = "strict",
    void_rate: float = 1e-4,
) -> pd.DataFrame:
    """n rounds (n even when mirrored) of random but internally consistent records."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(0, index=np.arange(n), columns=record_columns(), dtype=np.int64)
    deals = n // 2 if mirrored else n
    deal_id = np.repeat(np.arange(deals), 2) if mirrored else np.arange(n)
    mirror = np.tile([0, 1], deals) if mirrored else np.zeros(n, np.int64)
    df["dealer"] = rng.integers(0, 2, deals)[deal_id]
    df["void"] = (rng.random(n) < void_rate).astype(np.int64)
    df["plies"] = 48
    df["last_capturer"] = rng.integers(0, 2, n)
    df["remainder"] = rng.integers(0, 8, n)
    for s in (0, 1):
        for b in range(1, BATCHES + 1):
            df[f"s{s}_sweeps_b{b}"] = rng.poisson(0.08, n)
        df[f"s{s}_n_sweeps"] = df[[f"s{s}_sweeps_b{b}" for b in range(1, BATCHES + 1)]].sum(axis=1)
        for cat, top in MAX_POINTS.items():
            df[f"s{s}_{cat}"] = rng.integers(0, top + 1, n)
        df[f"s{s}_sweeps"] = df[f"s{s}_n_sweeps"]
        df[f"s{s}_total"] = df[[f"s{s}_{c}" for c in CATEGORIES]].sum(axis=1)
        df[f"s{s}_n_cards"] = rng.integers(10, 40, n)
        df[f"s{s}_n_spades"] = rng.integers(0, 13, n)
        plays = rng.multinomial(24, [0.45, 0.45, 0.07, 0.01, 0.02], n)  # 24 plays a round, by kind
        for k, kind in enumerate(PLAY_KINDS):
            df[f"s{s}_plays_{kind}"] = plays[:, k]
        made = plays[:, 2] + plays[:, 3] + plays[:, 4]
        own = rng.binomial(made, 0.8)
        df[f"s{s}_builds_made"], df[f"s{s}_builds_captured_own"] = made, own
        df[f"s{s}_builds_lost"] = rng.binomial(made - own, 0.7)
    for name in ("ten_diamonds", "two_spades"):
        df[f"{name}_dealt_to"] = rng.integers(0, 3, n)
        df[f"{name}_dealt_batch"] = rng.integers(1, 7, n)
        df[f"{name}_captured_by"] = rng.integers(0, 2, n)
        df[f"{name}_captured_ply"] = rng.integers(1, 50, n)
    void = df["void"].to_numpy() == 1
    df.loc[void, [c for c in df.columns if c.startswith(("s0_", "s1_"))]] = 0
    df["deal_id"] = deal_id
    df["mirror"] = mirror
    a, b = policies
    df["policy_0"] = pd.Categorical(np.where(mirror == 0, a, b))
    df["policy_1"] = pd.Categorical(np.where(mirror == 0, b, a))
    df["rules"] = pd.Categorical([rules] * n)
    df["chunk"] = deal_id // 10_000
    return df


def write_run(df: pd.DataFrame, run_dir: str | Path) -> Path:
    """A run folder holding `df` as rounds/synthetic.parquet."""
    rounds = Path(run_dir) / "rounds"
    rounds.mkdir(parents=True, exist_ok=True)
    df.to_parquet(rounds / "synthetic.parquet", index=False)
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
