"""Whole games to the target (RULES.md section 5), played as waves of rounds.

Wave k plays round k of every game still running, all in one call of the row
player, so games run at the speed of rounds. Round k of a game takes its deck
and policy seed from wave k's rows, which are a pure function of the chunk seed
and k: a mirrored pair of games sees the same shuffles round by round, and any
backend or thread count gives the same games.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from casino_sim.core.rules import RuleSet
from casino_sim.policies.policy import Policy
from casino_sim.reference.game import MAX_ROUNDS, game_winner
from casino_sim.runner.deals import chunk_rows
from casino_sim.runner.play import play_rows

GAME_COLUMNS = (
    "game_id",
    "mirror",
    "policy_0",
    "policy_1",
    "rules",
    "first_dealer",
    "winner",
    "s0_final",
    "s1_final",
    "rounds",
    "void_rounds",
)


def wave_seed(chunk_seed: int, wave: int) -> int:
    """The seed of wave `wave`'s rows (wave 0 also draws the first dealers)."""
    child = np.random.SeedSequence(chunk_seed, spawn_key=(wave,))
    lo, hi = child.generate_state(2, np.uint32)
    return int(lo) | (int(hi) << 32)


def play_games(
    engine: str,
    chunk_seed: int,
    first_game: int,
    n_games: int,
    mirrored: bool,
    rules: RuleSet,
    policy_a: Policy,
    policy_b: Policy,
    check: bool = False,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(round records with game_id and round_no, one row per game) for n_games games (twice if mirrored).

    The first dealer is drawn per game (the same for both games of a mirrored
    pair), then alternates; a void round is replayed by the same dealer.
    """
    first = chunk_rows(wave_seed(chunk_seed, 0), first_game, n_games, mirrored)
    n = len(first)
    dealer = first.dealer.astype(np.int64)
    first_dealer = dealer.copy()
    totals = np.zeros((n, 2), np.int64)
    rounds = np.zeros(n, np.int64)
    voids = np.zeros(n, np.int64)
    winner = np.full(n, -1, np.int64)
    running = np.arange(n)
    parts = []
    for wave in range(MAX_ROUNDS):
        if len(running) == 0:
            break
        rows = first if wave == 0 else chunk_rows(wave_seed(chunk_seed, wave), first_game, n_games, mirrored)
        frame = play_rows(engine, rows.take(running, dealer[running]), rules, policy_a, policy_b, check=check)
        frame.insert(1, "round_no", np.int16(wave))
        parts.append(frame)
        void = frame["void"].to_numpy() != 0
        pts = frame[["s0_total", "s1_total"]].to_numpy()
        still = []
        for j, g in enumerate(running):
            if void[j]:
                voids[g] += 1
                still.append(g)
                continue
            rounds[g] += 1
            totals[g] += pts[j]
            won = game_winner(rules, totals[g].tolist(), (int(pts[j, 0]), int(pts[j, 1])))
            if won is None:
                dealer[g] = 1 - dealer[g]
                still.append(g)
            else:
                winner[g] = won
        running = np.array(still, dtype=np.int64)
    else:
        if len(running):
            raise RuntimeError(f"{len(running)} game(s) had no winner after {MAX_ROUNDS} rounds")
    records = pd.concat(parts, ignore_index=True)
    for c in ("policy_0", "policy_1", "rules"):  # waves with other seatings make concat fall back to strings
        records[c] = records[c].astype(str).astype("category")
    records.insert(1, "game_id", records["deal_id"])  # deal_id too: a mirrored pair of games is one sample
    records = records.sort_values(["game_id", "mirror", "round_no"], kind="stable", ignore_index=True)
    seat0 = np.where(first.a_seat0, policy_a.name, policy_b.name)
    seat1 = np.where(first.a_seat0, policy_b.name, policy_a.name)
    games = pd.DataFrame(
        {
            "game_id": first.deal_id,
            "mirror": first.mirror,
            "policy_0": pd.Categorical(seat0),
            "policy_1": pd.Categorical(seat1),
            "rules": pd.Categorical([rules.name] * n),
            "first_dealer": first_dealer.astype(np.int8),
            "winner": winner.astype(np.int8),
            "s0_final": totals[:, 0],
            "s1_final": totals[:, 1],
            "rounds": rounds.astype(np.int16),
            "void_rounds": voids.astype(np.int16),
        }
    )
    return records, games
