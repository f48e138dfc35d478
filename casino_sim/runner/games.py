"""Whole games to the target (docs/rules.md section 8), played as waves of rounds.

Wave k plays round k of every game still running, all in one call of the row
player, so games run at the speed of rounds. Round k of a game takes its deck
and policy seed from wave k's rows, which are a pure function of the chunk seed
and k: a mirrored pair of games sees the same shuffles round by round, and any
backend or thread count gives the same games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import pandas as pd

from casino_sim.core.rules import RuleSet
from casino_sim.policies.policy import Policy
from casino_sim.reference.game import MAX_ROUNDS, game_winner
from casino_sim.runner.deals import chunk_rows
from casino_sim.runner.play import play_rows


def wave_seed(chunk_seed: int, wave: int) -> int:
    """The seed of wave `wave`'s rows (wave 0 also draws the first dealers)."""
    child = np.random.SeedSequence(chunk_seed, spawn_key=(wave,))
    lo, hi = child.generate_state(2, np.uint32)
    return int(lo) | (int(hi) << 32)


class Tally(NamedTuple):
    """Per game of a chunk: each side's total, its complete and void rounds, the winner (-1 while it runs) and
    the dealer of its next round."""

    totals: np.ndarray
    rounds: np.ndarray
    voids: np.ndarray
    winner: np.ndarray
    dealer: np.ndarray


def new_tally(dealer: np.ndarray, sides: int) -> Tally:
    """The tally of games about to start, `dealer` dealing each one's first round."""
    n = len(dealer)
    zeros = np.zeros(n, np.int64)
    return Tally(np.zeros((n, sides), np.int64), zeros, zeros.copy(), np.full(n, -1, np.int64), dealer.astype(np.int64))


def settle_wave(rules: RuleSet, tally: Tally, running: np.ndarray, void: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Add one wave's rounds (row j: game running[j]) to their games; returns the games still running.

    A void round is replayed by the same dealer; a complete round adds its points and either ends the game
    (game_winner) or passes the deal to the next player (two players: it alternates).
    """
    still = []
    for j, g in enumerate(running):
        if void[j]:
            tally.voids[g] += 1
            still.append(g)
            continue
        tally.rounds[g] += 1
        tally.totals[g] += points[j]
        won = game_winner(rules, tally.totals[g].tolist(), points[j].tolist())
        if won is None:
            tally.dealer[g] = (tally.dealer[g] + 1) % rules.players
            still.append(g)
        else:
            tally.winner[g] = won
    return np.array(still, dtype=np.int64)


def play_waves(rules: RuleSet, tally: Tally, play_wave: Callable[[int, np.ndarray], tuple]) -> list[pd.DataFrame]:
    """Wave after wave until every game of `tally` has its winner: `play_wave(wave, running)` plays round `wave`
    of the games still running (row j: game running[j]) and gives (its rows, void per row, points per row and
    side); returns the waves' rows. RuntimeError when a game has no winner after MAX_ROUNDS rounds."""
    running = np.arange(len(tally.winner))
    parts = []
    for wave in range(MAX_ROUNDS):
        if len(running) == 0:
            return parts
        frame, void, points = play_wave(wave, running)
        parts.append(frame)
        running = settle_wave(rules, tally, running, void, points)
    if len(running):
        raise RuntimeError(f"{len(running)} game(s) had no winner after {MAX_ROUNDS} rounds")
    return parts


def game_table(game_id: np.ndarray, mirror: np.ndarray, seats: list[np.ndarray], rules: RuleSet, tally: Tally, first):
    """One row per game: its id and seating (`mirror`), the policy name in each seat (`seats`, one array per
    player), the rules, its `first` dealer, and from `tally` the winner, each side's final points and its rounds."""
    return pd.DataFrame(
        {
            "game_id": game_id,
            "mirror": mirror,
            **{f"policy_{p}": pd.Categorical(names) for p, names in enumerate(seats)},
            "rules": pd.Categorical([rules.name] * len(game_id)),
            "first_dealer": first.astype(np.int8),
            "winner": tally.winner.astype(np.int8),
            **{f"s{s}_final": tally.totals[:, s] for s in range(tally.totals.shape[1])},
            "rounds": tally.rounds.astype(np.int16),
            "void_rounds": tally.voids.astype(np.int16),
        }
    )


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
    tally = new_tally(first.dealer, 2)

    def play_wave(wave: int, running: np.ndarray):
        rows = first if wave == 0 else chunk_rows(wave_seed(chunk_seed, wave), first_game, n_games, mirrored)
        frame = play_rows(engine, rows.take(running, tally.dealer[running]), rules, policy_a, policy_b, check=check)
        frame.insert(1, "round_no", np.int16(wave))
        return frame, frame["void"].to_numpy() != 0, frame[["s0_total", "s1_total"]].to_numpy()

    records = pd.concat(play_waves(rules, tally, play_wave), ignore_index=True)
    for c in ("policy_0", "policy_1", "rules"):  # waves with other seatings make concat fall back to strings
        records[c] = records[c].astype(str).astype("category")
    records.insert(1, "game_id", records["deal_id"])  # deal_id too: a mirrored pair of games is one sample
    records = records.sort_values(["game_id", "mirror", "round_no"], kind="stable", ignore_index=True)
    seats = [
        np.where(first.a_seat0, policy_a.name, policy_b.name),
        np.where(first.a_seat0, policy_b.name, policy_a.name),
    ]
    return records, game_table(first.deal_id, first.mirror, seats, rules, tally, first.dealer)
