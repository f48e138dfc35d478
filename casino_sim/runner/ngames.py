"""Whole games of three or four players (docs/rules.md section 11), A against B with every seating, as waves of rounds.

Seatings: with teams, A's team (players 0 and 2) against B's team, then the teams swapped; without, A in one
seat and B in every other, A taking each seat in turn. Every seating of a game plays the same shuffles round by
round and the same first dealer (common random numbers), as the two games of a mirrored pair do; unmirrored,
only the first seating is played. Wave k plays round k of every game still running, one engine call per
seating, and takes its decks and seeds from wave k's rows (runner/games.py's wave_seed), so any backend or
thread count gives the same games.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from casino_sim.core.rules import RuleSet
from casino_sim.engines import get_engine
from casino_sim.policies.policy import Policy
from casino_sim.reference.game import MAX_ROUNDS
from casino_sim.runner.deals import chunk_rows
from casino_sim.runner.games import game_table, new_tally, play_waves, wave_seed
from casino_sim.runner.seated import seatings


def play_games_n(
    engine: str,
    chunk_seed: int,
    first_game: int,
    n_games: int,
    mirrored: bool,
    rules: RuleSet,
    policy_a: Policy,
    policy_b: Policy,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(rounds: one row per round with each side's points, games: one row per game) for n_games shuffle
    sequences, each played once per seating. The first dealer is drawn per sequence, the deal passes to the
    next player after a complete round, and a void round is replayed by the same dealer."""
    eng = get_engine(engine)
    seat_a = seatings(rules, mirrored)
    n_seat, k = len(seat_a), rules.n_sides
    games = n_games * n_seat  # game g: shuffle sequence g // n_seat, seating g % n_seat
    seq, seating = np.arange(games) // n_seat, np.arange(games) % n_seat
    first = np.random.default_rng(wave_seed(chunk_seed, MAX_ROUNDS)).integers(0, rules.players, n_games)
    tally = new_tally(first[seq], k)
    dealer = tally.dealer

    def play_wave(wave: int, running: np.ndarray):
        rows = chunk_rows(wave_seed(chunk_seed, wave), first_game, n_games, False)
        points = np.zeros((len(running), k), np.int64)
        void = np.zeros(len(running), bool)
        for s in range(n_seat):
            at = np.flatnonzero(seating[running] == s)
            if len(at) == 0:
                continue
            g = running[at]
            seats = [policy_a if a else policy_b for a in seat_a[s]]
            points[at], void[at] = eng.play_sides(rules, rows.decks[seq[g]], dealer[g], seats, rows.seeds[seq[g]])
        return _round_frame(running, seating[running], wave, dealer[running], void, points), void, points

    ids = first_game + seq
    round_table = pd.concat(play_waves(rules, tally, play_wave), ignore_index=True)
    round_table.insert(0, "game_id", ids[round_table.pop("g")])
    round_table = round_table.sort_values(["game_id", "mirror", "round_no"], kind="stable", ignore_index=True)
    names = [np.where(seat_a[seating, p], policy_a.name, policy_b.name) for p in range(rules.players)]
    return round_table, game_table(ids, seating.astype(np.int8), names, rules, tally, first[seq])


def _round_frame(running, seating, wave, dealer, void, points) -> pd.DataFrame:
    """One wave's rounds: the game (its index in the chunk, replaced by game_id later), seating, dealer, points."""
    return pd.DataFrame(
        {
            "g": running,
            "mirror": seating.astype(np.int8),
            "round_no": np.int16(wave),
            "dealer": dealer.astype(np.int8),
            "void": void.astype(np.int8),
            **{f"s{s}_total": points[:, s].astype(np.int8) for s in range(points.shape[1])},
        }
    )
