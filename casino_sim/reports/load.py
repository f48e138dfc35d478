"""Round records in: read a run folder (format 2, runner/records.py), name each round's matchup and deal.

Policy A of a matchup is the policy at player `mirror` of its rounds (the runner's convention: seating m puts
A at player m); `cluster` numbers the deals (shuffles) of a matchup in deal order: rounds of one deal share their
cards, so statistics treat them as one sample.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from casino_sim.core.errors import InputError
from casino_sim.core.heap import release_free_memory
from casino_sim.core.record import TRACKED
from casino_sim.runner.run_state import as_reported
from casino_sim.runner.rundir import RunDir

STRING_COLUMNS = ("policy_0", "policy_1", "rules")
REQUIRED = ("dealer", "void", "first_seat", "first_total", "dealer_seat", "dealer_total", "deal_id", "mirror")
REQUIRED += STRING_COLUMNS
DERIVED = ("policy_a", "policy_b", "matchup", "mu", "cluster")
# What the reports leave on disk: where the 10♦ and 2♠ went, the plies of a round, the chunk and round numbers
UNREAD = ("plies", "chunk", "round_no", *(f"{name}_" for name in TRACKED))


def reported(name: str) -> bool:
    """Whether the reports read record column `name` (reading only those halves time and memory on a million
    rounds)."""
    return not name.startswith(UNREAD)


def read_rounds(
    run_dir: str | Path, columns: Callable[[str], bool] | list[str] | None = reported, optional: tuple[str, ...] = ()
) -> pd.DataFrame:
    """The round records of a run folder in format 2 (`columns` and those of `optional` it has; by default the
    columns the reports read), strings as categoricals."""
    df = RunDir(run_dir).read_rounds(columns, optional)
    for c in (*STRING_COLUMNS, *seat_policy_columns(df)):
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


def has_records(df: pd.DataFrame) -> bool:
    """Whether rounds are whole records by place (the rounds of whole games of three or four players written before
    format 2 keep only each side's points)."""
    return "first_seat" in df.columns


def has_teams(df: pd.DataFrame) -> bool:
    """Whether the records are of two teams (team_first, team_dealer)."""
    return "team_first_total" in df.columns


def prepare(df: pd.DataFrame) -> pd.DataFrame:
    """Add policy_a, policy_b, matchup (label), mu (matchup id) and cluster to round records; idempotent."""
    if all(c in df.columns for c in DERIVED):
        return df
    missing = [c for c in REQUIRED if c not in df.columns]
    if missing:
        raise InputError(f"round records lack column(s): {', '.join(missing)}")
    if len(df) == 0:
        raise InputError("no round records")
    out = label_matchups(df, "deal_id", side_labels(has_teams(df)))
    release_free_memory()  # the labelling's row-length temporaries: ~40 MB off the 1M-deal reports' peak
    return out


def next_seat(seats: np.ndarray, a_side: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(A, B) of each seating of whole games: A's policy and the policy of the seat after A's."""
    rows = np.arange(len(seats))
    return seats[rows, a_side], seats[rows, (a_side + 1) % seats.shape[1]]


def side_labels(teams: bool) -> Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """(A, B) of each seating of round records: A's side's policy and the other sides' (a team of two policies:
    both, "x+y" in alphabetical order), these in the order they sit after A (two players: B)."""

    def team(names) -> str:
        return "+".join(sorted(set(names)))

    def labels(seats: np.ndarray, a_side: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        a, b = [], []
        for row, m in zip(seats, a_side):
            n = len(row)
            if teams:  # a team: the players of one parity (first and third places, second and dealer)
                a.append(team(row[m % 2 :: 2]))
                b.append(team(row[1 - m % 2 :: 2]))
                continue
            order = [row[(m + k) % n] for k in range(n)]
            a.append(row[m])
            b.append(", ".join(sorted(dict.fromkeys(order[1:]), key=order.index)))
        return np.array(a, dtype=object), np.array(b, dtype=object)

    return labels


def label_matchups(df: pd.DataFrame, sample: str, labels=next_seat) -> pd.DataFrame:
    """A copy of df (rounds or games) with policy_a, policy_b, matchup, mu, and cluster numbering the values of
    column `sample` (deal or game) within each matchup in order; `labels` names A and B of each seating."""
    seats = seat_policy_columns(df)
    keys = ["rules", *seats, "mirror"]
    combo = df.groupby(keys, observed=True, sort=False).ngroup().to_numpy()
    combos = df[keys].assign(_c=combo).drop_duplicates("_c").set_index("_c").sort_index()
    # mirror is A's player (in whole games of three or four players A's seat or team)
    at = np.stack([combos[c].astype(str).to_numpy() for c in seats], axis=1)
    policy_a, policy_b = labels(at, combos["mirror"].to_numpy().astype(np.int64))
    info = pd.DataFrame({"rules": combos["rules"].astype(str).to_numpy(), "policy_a": policy_a, "policy_b": policy_b})
    several_rules = info["rules"].nunique() > 1
    info["matchup"] = info["policy_a"] + " vs " + info["policy_b"]
    if several_rules:
        info["matchup"] += " (" + info["rules"] + ")"
    names = sorted(set(info["matchup"]))
    info["mu"] = info["matchup"].map({m: i for i, m in enumerate(names)})

    mu = info["mu"].to_numpy()[combo]
    key = df[sample].to_numpy().astype(np.int64) * len(names) + mu
    derived = {
        "mu": mu.astype(np.int64),
        "matchup": pd.Categorical.from_codes(mu, names),
        **{c: pd.Categorical(info[c].to_numpy()[combo]) for c in ("policy_a", "policy_b")},
        "cluster": pd.factorize(key, sort=True)[0].astype(np.int64),  # sample order within a matchup
    }
    # joined, not inserted one by one into a frame of one block per column (reports/load.py read_rounds); the
    # caller's frame is left as it was
    return pd.concat([df, pd.DataFrame(derived, index=df.index)], axis=1)


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
