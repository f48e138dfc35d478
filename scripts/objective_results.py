"""results/objective/: does a rollout that plays for the game win more games than one that plays for the round?

Imported by standard_results.py, which runs it with the rest (or alone: `--only objective`). The equity table
of `--equity-policy` against itself (docs/equity.md) gives the chance of winning the game from every score; two
rollouts with the same base and worlds (casino_sim/experiments/objective.py) then play mirrored pairs of whole
strict games, one choosing by that chance at the score each play-out ends the round on, the other by the
round's point difference. The games are written as they finish, so an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import pandas as pd
from equity_results import self_play_rounds
from rich.console import Console

from casino_sim.core.rules import get_rules
from casino_sim.experiments.objective import Match, chance_grid, play_pair, summarise
from casino_sim.policies import get_policy
from casino_sim.reports.equity import run_equity
from casino_sim.runner.progress import progress_bar

RULES = "strict"
BASE = "expert"  # the built-in rollout's base policy
WORLDS = 64  # and its worlds


def _grid(args, tmp: Path):
    """The equity table's win chances from `--objective-table-deals` mirrored deals of the equity policy."""
    run = self_play_rounds(args, RULES, args.objective_table_deals, tmp / "objective-rounds")
    table, _, rules = run_equity(run.path, resamples=20, seed=args.seed)
    return chance_grid(table, rules.target)


def play_games(match: Match, pairs: int, games_csv: Path) -> pd.DataFrame:
    """Every pair below `pairs` not yet in games_csv, on every core, each pair appended as it finishes."""
    done = pd.read_csv(games_csv) if games_csv.exists() else pd.DataFrame()
    todo = sorted(set(range(pairs)) - set(done["pair"] if len(done) else ()))
    workers = min(len(os.sched_getaffinity(0)), max(len(todo), 1))
    with progress_bar(Console(stderr=True), "games for the round or for the game", "pairs") as update:
        update(pairs - len(todo), pairs)
        with ProcessPoolExecutor(workers) as pool:
            futures = [pool.submit(play_pair, match, pair) for pair in todo]
            for k, future in enumerate(as_completed(futures), start=1):
                rows = pd.DataFrame(future.result())
                rows.to_csv(games_csv, mode="a", header=not games_csv.exists(), index=False)
                update(pairs - len(todo) + k, pairs)
    games = pd.read_csv(games_csv)
    games = games[games["pair"] < pairs].sort_values(["pair", "game_side"])
    games.to_csv(games_csv, index=False)
    return games


def objective_section(args, tmp: Path) -> list[str]:
    """Play the pairs (resuming), write results/objective/ and return the README's section."""
    out = args.out / "objective"
    out.mkdir(parents=True, exist_ok=True)
    match = Match(get_rules(RULES), get_policy(BASE), WORLDS, _grid(args, tmp), args.seed)
    games = play_games(match, args.objective_pairs, out / "games.csv")
    result = summarise(games)
    summary = pd.DataFrame(
        [
            {
                "games": result.games,
                "game_rollout_won": result.won.mean,
                "won_ci_lo": result.won.lo,
                "won_ci_hi": result.won.hi,
                "pair_edge": result.pair_edge.mean,
                "edge_ci_lo": result.pair_edge.lo,
                "edge_ci_hi": result.pair_edge.hi,
                "mean_rounds": games["rounds"].mean(),
            }
        ]
    )
    summary.to_csv(out / "summary.csv", index=False)
    lines = _lines(args, result, games)
    (out / "objective.md").write_text("\n".join(lines) + "\n")
    return lines


def _lines(args, result, games: pd.DataFrame) -> list[str]:
    won, edge = result.won, result.pair_edge
    verdict = "more" if won.lo > 0.5 else "fewer" if won.hi < 0.5 else "neither more nor fewer (the interval holds 50%)"
    return [
        f"## Playing for the game or for the round ({RULES}, {result.games:,} whole games)",
        "",
        f"Two rollouts ({WORLDS} worlds played out by {BASE}, as the built-in rollout) that differ only in what "
        "they maximise: the round's point difference, or the chance of winning the whole game read from the "
        f"equity table ({args.equity_policy} against itself, {args.objective_table_deals:,} deals) at the score "
        f"each play-out ends the round on. {result.games // 2:,} mirrored pairs of whole games (the same "
        "shuffles, the sides swapped); [games.csv](objective/games.csv), [summary.csv](objective/summary.csv).",
        "",
        "| the game rollout won | 95% interval (Wilson) | games won a pair, less one | 95% interval (t) |",
        "| ---: | --- | ---: | --- |",
        f"| {won.mean:.1%} | [{won.lo:.1%}, {won.hi:.1%}] | {edge.mean:+.3f} | [{edge.lo:+.3f}, {edge.hi:+.3f}] |",
        "",
        f"Playing for the game won {verdict} games than playing for the round's points "
        f"(games last {games['rounds'].mean():.1f} rounds on average).",
        "",
    ]
