"""Round records in: read a run folder, name each round's matchup and deal, and the per-seat view.

Policy A of a matchup is the policy in seat 0 of mirror-0 rounds (the runner's
convention); `cluster` numbers the deals (shuffles) of a matchup in deal order:
rounds of one cluster share their cards, so statistics treat them as one sample.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from casino_sim.core.errors import InputError
from casino_sim.core.heap import release_free_memory
from casino_sim.core.record import ANATOMY, BATCHES, CATEGORIES
from casino_sim.runner.run_state import as_reported
from casino_sim.runner.rundir import RunDir

STRING_COLUMNS = ("policy_0", "policy_1", "rules")
SEAT_COLUMNS = (*CATEGORIES, "total", "n_sweeps", *(f"sweeps_b{b}" for b in range(1, BATCHES + 1)))
# The columns the reports read (the full record has more: card tracking, pile sizes).
REQUIRED = (
    "dealer",
    "void",
    *(f"s{s}_{c}" for s in (0, 1) for c in SEAT_COLUMNS),
    "deal_id",
    "mirror",
    *STRING_COLUMNS,
)
DERIVED = ("policy_a", "policy_b", "matchup", "mu", "a_seat", "cluster")
# The anatomy report's columns: runs of older versions lack the plays and builds, so they are optional.
ANATOMY_COLUMNS = (
    "last_capturer",
    "remainder",
    *(f"s{s}_{c}" for s in (0, 1) for c in ("n_cards", "n_spades", *ANATOMY)),
)
OPTIONAL = ("game_id", *ANATOMY_COLUMNS)  # game_id: rounds of whole games (the summary counts their games)


def read_rounds(run_dir: str | Path, columns=REQUIRED) -> pd.DataFrame:
    """`columns` (None: all) of every `RUN_DIR/rounds/*.parquet`, plus the OPTIONAL ones the run has, as one
    frame; strings become categoricals.

    Reading only the columns the reports use halves time and memory on a million rounds.
    """
    files = sorted((Path(run_dir) / "rounds").glob("*.parquet"))
    if not files:
        raise InputError(f"{run_dir} holds no round records (rounds/*.parquet)")
    if columns is not None:
        present = set(pq.read_schema(files[0]).names)
        missing = [c for c in columns if c not in present]
        if missing:
            raise InputError(f"{files[0]} lacks column(s): {', '.join(missing)}")
    cols = None if columns is None else [*columns, *(c for c in OPTIONAL if c in present and c not in columns)]
    table = pa.concat_tables([pq.read_table(f, columns=cols) for f in files], promote_options="default")
    # one block per column, each Arrow buffer freed as it is converted: no second copy of the rounds at the peak
    df = table.to_pandas(split_blocks=True, self_destruct=True)
    del table
    # Arrow's allocator keeps the buffers the conversion freed (and those of writing the chunks) for reuse that
    # never comes: hand them back, ~60-70 MB off the report's peak on a million deals
    pa.default_memory_pool().release_unused()
    for c in STRING_COLUMNS:
        if c in df.columns:
            df[c] = df[c].astype("category")
    return df


def read_manifest(run_dir: str | Path) -> dict:
    """The run's manifest.json as its reports show it (runner/run_state.py as_reported: a run not fully played is
    "partial"), or {} when there is none (a bare folder of rounds)."""
    path = Path(run_dir) / "manifest.json"
    try:
        return as_reported(json.loads(path.read_text()), run_dir)
    except FileNotFoundError:
        return {}
    except (OSError, json.JSONDecodeError) as e:
        raise InputError(f"{path} cannot be read: {e}") from None


def has_place_records(data) -> bool:
    """Whether records (a DataFrame or a run folder) are of three or four players (seats named by place)."""
    if isinstance(data, pd.DataFrame):
        return "first_seat" in data.columns
    files = sorted((Path(data) / "rounds").glob("*.parquet"))
    return bool(files) and "first_seat" in pq.read_schema(files[0]).names


def prepare(df: pd.DataFrame) -> pd.DataFrame:
    """Add policy_a, policy_b, matchup (label), mu (matchup id), a_seat and cluster; idempotent."""
    if all(c in df.columns for c in DERIVED):
        return df
    missing = [c for c in REQUIRED if c not in df.columns]
    if missing:
        raise InputError(f"round records lack column(s): {', '.join(missing)}")
    if len(df) == 0:
        raise InputError("no round records")
    out = label_matchups(df, "deal_id")
    release_free_memory()  # the labelling's row-length temporaries: ~40 MB off the 1M-deal reports' peak
    return out


def label_matchups(df: pd.DataFrame, sample: str) -> pd.DataFrame:
    """A copy of df (rounds or games) with policy_a, policy_b, matchup, mu, a_seat, and cluster numbering
    the values of column `sample` (deal or game) within each matchup in order."""
    seats = seat_policy_columns(df)
    keys = ["rules", *seats, "mirror"]
    combo = df.groupby(keys, observed=True, sort=False).ngroup().to_numpy()
    combos = df[keys].assign(_c=combo).drop_duplicates("_c").set_index("_c").sort_index()
    # mirror is A's side (seat 0 or 1; in games of three or four players A's seat or team); B sits next to it
    side = combos["mirror"].to_numpy().astype(np.int64)
    at = np.stack([combos[c].astype(str).to_numpy() for c in seats], axis=1)
    rows = np.arange(len(combos))
    info = pd.DataFrame(
        {
            "rules": combos["rules"].astype(str).to_numpy(),
            "policy_a": at[rows, side],
            "policy_b": at[rows, (side + 1) % len(seats)],
        }
    )
    several_rules = info["rules"].nunique() > 1
    info["matchup"] = info["policy_a"] + " vs " + info["policy_b"]
    if several_rules:
        info["matchup"] += " (" + info["rules"] + ")"
    labels = sorted(set(info["matchup"]))
    info["mu"] = info["matchup"].map({m: i for i, m in enumerate(labels)})

    out = df.copy(deep=False)  # copy-on-write: the caller's frame is left as it was
    mu = info["mu"].to_numpy()[combo]
    out["mu"] = mu.astype(np.int64)
    out["matchup"] = pd.Categorical.from_codes(mu, labels)
    for c in ("policy_a", "policy_b"):
        out[c] = pd.Categorical(info[c].to_numpy()[combo])
    out["a_seat"] = out["mirror"].to_numpy().astype(np.int8)
    key = out[sample].to_numpy().astype(np.int64) * len(labels) + mu
    out["cluster"] = pd.factorize(key, sort=True)[0].astype(np.int64)  # sample order within a matchup
    return out


def seat_policy_columns(df: pd.DataFrame) -> list[str]:
    """policy_0, policy_1 and, in games of three or four players, policy_2 and policy_3."""
    return [c for c in ("policy_0", "policy_1", "policy_2", "policy_3") if c in df.columns]


def read_games(run_dir: str | Path) -> pd.DataFrame | None:
    """The games table of a `simulate --games` run (None for a run of single rounds), matchups labelled."""
    df = _optional_table(run_dir, "games")
    if df is None:
        return None
    for c in (*STRING_COLUMNS, *seat_policy_columns(df)):
        df[c] = df[c].astype("category")
    return label_matchups(df, "game_id")


def read_cards(run_dir: str | Path) -> pd.DataFrame | None:
    """The paired-deal card values of a run (simulate --card-deals), or None when it has none."""
    return _optional_table(run_dir, "cards")


def _optional_table(run_dir: str | Path, name: str) -> pd.DataFrame | None:
    """Table `name` of a run folder, or None when the run did not write one."""
    return RunDir(run_dir).read_table(name) if (Path(run_dir) / name).is_dir() else None


def matchup_info(df: pd.DataFrame) -> pd.DataFrame:
    """One row per matchup id: rules, policy_a, policy_b, matchup, mirrored."""
    first = df.drop_duplicates("mu").set_index("mu").sort_index()
    info = first[["rules", "policy_a", "policy_b", "matchup"]].astype(str)
    info["mirrored"] = df.groupby("mu")["mirror"].max().astype(bool)
    return info


def live_rounds(df: pd.DataFrame) -> np.ndarray:
    """The mask of the rounds the reports count: all but the void ones (replayed by the same dealer)."""
    return df["void"].to_numpy() == 0


def seat_rows(df: pd.DataFrame, columns) -> pd.DataFrame:
    """One row per seat of each non-void round: mu, side, dealer flag, cluster, and the named s{seat}_ columns.

    side is 0 for policy A, 1 for policy B; when A and B are the same policy both
    seats get side 0, so that policy's figures pool both seats.
    """
    live = live_rounds(df)
    mu = df["mu"].to_numpy()[live]
    info = matchup_info(df)
    same_mu = np.zeros(int(df["mu"].max()) + 1, bool)
    same_mu[info.index] = (info["policy_a"] == info["policy_b"]).to_numpy()
    same = same_mu[mu]
    a_seat = df["a_seat"].to_numpy()[live]
    dealer = df["dealer"].to_numpy()[live]
    cluster = df["cluster"].to_numpy()[live]
    parts = {
        "mu": np.tile(mu.astype(np.int32), 2),  # a handful of matchups: int64 would be 16 MB more per million rounds
        "side": np.concatenate([(a_seat != s) & ~same for s in (0, 1)]).astype(np.int8),
        "seat": np.repeat(np.array([0, 1], np.int8), len(mu)),
        "is_dealer": np.concatenate([dealer == s for s in (0, 1)]),
        "cluster": np.tile(cluster, 2),
    }
    for c in columns:
        parts[c] = seat_column(df, live, c)
    return pd.DataFrame(parts, copy=False)  # the arrays are new: no need to copy them into blocks


def seat_column(df: pd.DataFrame, live: np.ndarray, name: str) -> np.ndarray:
    """Column s0_{name}, then s1_{name}, of the rounds `live` (live_rounds): one value per seat, in seat_rows'
    row order."""
    return np.concatenate([df[f"s{s}_{name}"].to_numpy()[live] for s in (0, 1)])


def side_groups(seats: pd.DataFrame):
    """(mu, side, row mask) for each policy of each matchup, in order."""
    mu, side = seats["mu"].to_numpy(), seats["side"].to_numpy()
    for m in np.flatnonzero(np.bincount(mu)):
        in_mu = mu == m
        for s in np.flatnonzero(np.bincount(side[in_mu])):
            yield int(m), int(s), in_mu & (side == s)


def policy_name(info: pd.DataFrame, mu: int, side: int) -> str:
    return info.at[mu, "policy_a" if side == 0 else "policy_b"]


def headline_rows(df: pd.DataFrame) -> pd.DataFrame:
    """Per non-void round: mu, cluster, total_a, total_b, diff (A minus B points)."""
    live = live_rounds(df)
    a0 = df["a_seat"].to_numpy()[live] == 0
    t0, t1 = df["s0_total"].to_numpy()[live], df["s1_total"].to_numpy()[live]
    ta, tb = np.where(a0, t0, t1), np.where(a0, t1, t0)
    return pd.DataFrame(
        {
            "mu": df["mu"].to_numpy()[live],
            "cluster": df["cluster"].to_numpy()[live],
            "total_a": ta,
            "total_b": tb,
            "diff": ta - tb,
        }
    )


def pair_values(df: pd.DataFrame) -> dict[int, np.ndarray]:
    """Per matchup, the headline per deal in deal order: A-minus-B points averaged over its non-void seatings."""
    rows = headline_rows(df)
    cl = rows["cluster"].to_numpy()
    sums = np.bincount(cl, weights=rows["diff"].to_numpy().astype(np.float64))
    counts = np.bincount(cl)
    mu_of = np.zeros(len(counts), np.int64)
    mu_of[cl] = rows["mu"].to_numpy()
    have = counts > 0
    return {
        int(m): sums[have & (mu_of == m)] / counts[have & (mu_of == m)]
        for m in np.flatnonzero(np.bincount(rows["mu"].to_numpy()))
    }
