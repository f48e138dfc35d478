"""Whole games to the target (docs/rules.md sections 8 and 11) for two, three or four players, A against B in
every seating (runner/seating.py), played as waves of rounds.

Wave k plays round k of every game still running, all seatings in one call of the row kernel, so games run at
the speed of rounds. Round k of game g takes its deck and policy seed from the run's draws for (g, k)
(runner/deals.py Seeding.round_draws): every seating of a game sees the same shuffles round by round (common random
numbers, as a mirrored pair of two-player games), and any chunk size, backend or thread count gives the same games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import pandas as pd

from casino_sim.core.fields import FieldError
from casino_sim.core.rows import DealRows
from casino_sim.core.rules import RuleSet
from casino_sim.engines import get_engine
from casino_sim.policies.policy import Policy
from casino_sim.reference.game import MAX_ROUNDS, game_winner
from casino_sim.runner.play import record_frame
from casino_sim.runner.seating import seatings
from casino_sim.runner.sides import side_points


class Tally(NamedTuple):
    """Per game of a chunk: each side's total, its complete and void rounds, the winner (-1 while it runs) and
    the dealer of its next round."""

    totals: np.ndarray
    rounds: np.ndarray
    voids: np.ndarray
    winner: np.ndarray
    dealer: np.ndarray


def new_tally(dealer: np.ndarray, sides: int, totals: np.ndarray | None = None) -> Tally:
    """The tally of games about to start, `dealer` dealing each one's first round, each side's `totals` to start
    from (default 0)."""
    n = len(dealer)
    zeros = np.zeros(n, np.int64)
    start = np.zeros((n, sides), np.int64) if totals is None else np.asarray(totals, np.int64).copy()
    return Tally(start, zeros, zeros.copy(), np.full(n, -1, np.int64), dealer.astype(np.int64))


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
    seeding,
    first_game: int,
    n_games: int,
    mirrored: bool,
    rules: RuleSet,
    policy_a: Policy,
    policy_b: Policy,
    check: bool = False,
    start: tuple[int, int] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(rounds: one row per round, games: one row per game) for n_games shuffle sequences, each played once per
    seating (runner/seating.py; unmirrored, the first only). Every round keeps its whole record, with its game_id
    (also its deal_id: the games of one shuffle sequence are one sample) and round_no (docs/games.md). `check`
    verifies the numba engine's every play. `start` (two sides only): the totals A's side and B's side start
    from, 0-0 by default. `seeding`: the run's draws (runner/deals.py seeding_of).

    Game g is sequence g // seatings in seating g % seatings. Every seating of a sequence has the same first
    dealer (seeding.first_dealers) and the same shuffles round by round (common random numbers); the deal passes to
    the next player after a complete round, and a void round is replayed by the same dealer.
    """
    seat = seatings(rules, mirrored)  # each seating's policy of each player: 0 A, 1 B
    n_seat = len(seat)
    seq, seating = np.divmod(np.arange(n_games * n_seat), n_seat)
    ids = first_game + seq
    first = seeding.first_dealers(first_game, n_games, rules.players)[seq]
    tally = new_tally(first, rules.n_sides, None if start is None else start_totals(start, seating))
    lineup = (policy_a, policy_b)

    def play_wave(wave: int, running: np.ndarray):
        decks, seeds = seeding.round_draws(first_game, n_games, wave)
        s, d = seating[running], seq[running]
        dealt = DealRows(
            ids[running],
            s.astype(np.int8),
            decks[d],
            tally.dealer[running].astype(np.int8),
            seeds[d],
            seat[s],
        )
        cols = get_engine(engine).play(dealt, rules, lineup, check=check)
        frame = record_frame(dealt, rules, lineup, cols)
        frame.insert(1, "round_no", np.int16(wave))
        return frame, cols["void"] != 0, side_points(cols, rules)

    records = pd.concat(play_waves(rules, tally, play_wave), ignore_index=True)
    for p in range(rules.players):  # waves with other seatings make concat fall back to strings
        records[f"policy_{p}"] = records[f"policy_{p}"].astype(str).astype("category")
    records["rules"] = records["rules"].astype(str).astype("category")
    records.insert(1, "game_id", records["deal_id"])  # deal_id too: a mirrored pair of games is one sample
    records = records.sort_values(["game_id", "mirror", "round_no"], kind="stable", ignore_index=True)
    names = np.array([policy_a.name, policy_b.name])
    return records, game_table(
        ids, seating.astype(np.int8), [names[seat[seating, p]] for p in range(rules.players)], rules, tally, first
    )


def parse_start_score(text: str, rules: RuleSet) -> tuple[int, int]:
    """--start-score X-Y: A's side starts whole games from X points and B's from Y, each below the target."""
    if rules.n_sides != 2:
        raise FieldError("start_score", f"gives two sides' scores: two players, or four in teams, not {rules.n_sides}")
    try:
        a, b = (int(x) for x in text.split("-"))
    except ValueError:
        raise FieldError("start_score", f"must be A's score and B's, as 10-15, got {text!r}") from None
    if not (0 <= a < rules.target and 0 <= b < rules.target):
        raise FieldError(
            "start_score", f"scores must be from 0 to {rules.target - 1} (the target is {rules.target}), got {text}"
        )
    return a, b


def start_totals(start: tuple[int, int], seating: np.ndarray) -> np.ndarray:
    """(games, 2) starting totals by side: seating s puts A on side s (runner/seating.py), so A's score goes there."""
    a_side = seating.astype(np.int64)
    totals = np.empty((len(seating), 2), np.int64)
    totals[np.arange(len(seating)), a_side] = start[0]
    totals[np.arange(len(seating)), 1 - a_side] = start[1]
    return totals
