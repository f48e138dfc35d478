"""Round records played with the reference engine, in the run schema (format 2: players by place), for the report
tests.

Built once per test session (cached) and copied out, so tests may edit their copy.
Mirrored deals follow the runner: mirror 1 replays the deck with the same dealer
seat and the policies' seats swapped.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd

from casino_sim.core.rules import get_rules
from casino_sim.reference.record import round_record
from casino_sim.reference.round import play_round
from casino_sim.runner.records import frame_as_format2
from tests.support.policies import get_policy


@cache
def _played(n_deals: int, policy_a: str, policy_b: str, mirrored: bool, seed: int, rules: str) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    pols = (get_policy(policy_a), get_policy(policy_b))
    ruleset = get_rules(rules)
    rows = []
    for deal in range(n_deals):
        deck = rng.permutation(52)
        dealer = int(rng.integers(2))
        for mirror in (0, 1) if mirrored else (0,):
            seats = pols if mirror == 0 else pols[::-1]
            play_rng = np.random.default_rng([seed, deal])
            result = play_round(
                ruleset,
                deck,
                dealer,
                lambda pos, moves, seats=seats, rng=play_rng: seats[pos.to_move].choose(pos, moves, rng),
            )
            leading = {
                "chunk": deal // 10,
                "deal_id": deal,
                "mirror": mirror,
                "policy_0": seats[0].name,
                "policy_1": seats[1].name,
                "rules": rules,
            }
            rows.append(leading | round_record(result))
    return frame_as_format2(pd.DataFrame(rows))  # the records of a version that wrote format 1, mapped


def played_rounds(
    n_deals: int = 50,
    policy_a: str = "greedy",
    policy_b: str = "random",
    mirrored: bool = True,
    seed: int = 7,
    rules: str = "strict",
) -> pd.DataFrame:
    """Records of n_deals deals (twice as many rounds when mirrored); a fresh copy each call."""
    return _played(n_deals, policy_a, policy_b, mirrored, seed, rules).copy()


def mirrored_rounds() -> pd.DataFrame:
    """greedy vs random, 50 mirrored deals (100 rounds)."""
    return played_rounds(50, "greedy", "random", True)


def same_policy_rounds() -> pd.DataFrame:
    """random vs random, 40 rounds, not mirrored."""
    return played_rounds(40, "random", "random", False, seed=11)


def write_run(df: pd.DataFrame, run_dir: Path, files: int = 2) -> Path:
    """A run folder with `df` split over `files` Parquet files and a small manifest."""
    rounds = run_dir / "rounds"
    rounds.mkdir(parents=True, exist_ok=True)
    for i, part in enumerate(np.array_split(np.arange(len(df)), files)):
        df.iloc[part].to_parquet(rounds / f"chunk-{i:06d}.parquet", index=False)
    (run_dir / "manifest.json").write_text('{"command": ["casino-sim", "simulate", "--deals", "50"]}')
    return run_dir


def void_copy(rows: pd.DataFrame, deal_offset: int = 10_000) -> pd.DataFrame:
    """The same rounds as void rounds of new deals: nothing scored, nothing captured."""
    v = rows.copy()
    v.loc[:, [c for c in v.columns if c.startswith(("first_", "dealer_")) and not c.endswith("_seat")]] = 0
    v["void"] = 1
    v["deal_id"] += deal_offset
    return v


def in_seats(df: pd.DataFrame) -> pd.DataFrame:
    """Two-player records (format 2) in format 1, as versions before it wrote them: each player's columns by seat,
    `s{player}_{field}` for `{place}_{field}`, without the places' seats."""
    places = ("first", "dealer")
    out = {c: df[c] for c in df.columns if not c.startswith(tuple(f"{p}_" for p in places))}
    fields = [c.removeprefix("first_") for c in df.columns if c.startswith("first_") and c != "first_seat"]
    for s in (0, 1):
        first = df["first_seat"].to_numpy() == s
        out |= {f"s{s}_{f}": np.where(first, df[f"first_{f}"], df[f"dealer_{f}"]) for f in fields}
    return pd.DataFrame(out)
