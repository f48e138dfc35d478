"""results/objective/: does a rollout that plays for the game win more games than one that plays for the round?

Imported by standard_results.py, which runs it with the rest (or alone: `--only objective`). The equity table
of `--equity-policy` against itself (docs/equity.md) gives the chance of winning the game from every score; two
rollouts with the same base and worlds (casino_sim/experiments/objective.py) then play mirrored pairs of whole
strict games, one choosing by that chance at the score each play-out ends the round on, the other by the
round's point difference. The games are written as they finish, so an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import nullcontext
from pathlib import Path

import pandas as pd
from equity_results import self_play_rounds
from rich.console import Console

from casino_sim.api.policies import loader
from casino_sim.core.rules import get_rules
from casino_sim.experiments.objective import OBJECTIVES, Match, chance_grid, play_pair, summarise
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
    workers = min(len(os.sched_getaffinity(0)), len(todo))
    with progress_bar(Console(stderr=True), "games for the round or for the game", "pairs") as update:
        update(pairs - len(todo), pairs)
        with ProcessPoolExecutor(workers) if todo else nullcontext() as pool:  # all played: no processes
            futures = [pool.submit(play_pair, match, pair) for pair in todo]
            for k, future in enumerate(as_completed(futures), start=1):
                rows = pd.DataFrame(future.result())
                rows.to_csv(games_csv, mode="a", header=not games_csv.exists(), index=False)
                update(pairs - len(todo) + k, pairs)
    games = pd.read_csv(games_csv)
    games = games[games["pair"] < pairs].sort_values(["pair", "game_side"])
    games.to_csv(games_csv, index=False)
    return games


def _same_settings(folder: Path, settings: dict) -> None:
    """Games played under other settings (a seed, a base, a table) are not resumed: they are played again."""
    path = folder / "settings.json"
    if (folder / "games.csv").exists() and (not path.exists() or json.loads(path.read_text()) != settings):
        print(f"{folder}: the games were played under other settings; playing them again", flush=True)
        (folder / "games.csv").unlink()
    path.write_text(json.dumps(settings, indent=1) + "\n")


def objective_section(args, tmp: Path) -> list[str]:
    """Play the pairs of each objective against points (resuming), write results/objective/ and return the
    README's section."""
    out = args.out / "objective"
    grid = _grid(args, tmp)
    rows, results = [], {}
    for objective in OBJECTIVES[1:]:
        folder = out / objective
        folder.mkdir(parents=True, exist_ok=True)
        table = {"equity_policy": args.equity_policy, "table_deals": args.objective_table_deals}
        _same_settings(folder, {"rules": RULES, "base": BASE, "worlds": WORLDS, "seed": args.seed, **table})
        match = Match(get_rules(RULES), loader()(BASE), WORLDS, grid, args.seed, objective)
        games = play_games(match, args.objective_pairs, folder / "games.csv")
        results[objective] = result = summarise(games)
        rows.append(
            {
                "objective": objective,
                "games": result.games,
                "won": result.won.mean,
                "won_ci_lo": result.won.lo,
                "won_ci_hi": result.won.hi,
                "pair_edge": result.pair_edge.mean,
                "edge_ci_lo": result.pair_edge.lo,
                "edge_ci_hi": result.pair_edge.hi,
                "mean_rounds": games["rounds"].mean(),
            }
        )
    pd.DataFrame(rows).to_csv(out / "summary.csv", index=False)
    lines = _lines(args, results)
    (out / "objective.md").write_text("\n".join(lines) + "\n")
    return lines


OBJECTIVE_WORDS = {
    "game": "the best mean chance of winning the game",
    "game-then-points": "the best mean chance of winning the game, equal chances told apart by the points",
}


def _verdict(result) -> str:
    """More, fewer, or neither, by the mirrored pairs' interval (it cancels the shuffles' luck the games' share
    keeps)."""
    edge = result.pair_edge
    return "more" if edge.lo > 0 else "fewer" if edge.hi < 0 else "neither more nor fewer (the interval holds 0)"


def _lines(args, results: dict) -> list[str]:
    games = next(iter(results.values())).games
    out = [
        f"## Playing for the game or for the round ({RULES}, {games:,} whole games an objective)",
        "",
        f"Rollouts ({WORLDS} worlds played out by {BASE}, as the built-in rollout) that differ only in what they "
        "maximise, each against the one that maximises the round's point difference (`points`, as the built-in "
        f"rollout). The chance of winning the game is read from the equity table ({args.equity_policy} against "
        f"itself, {args.objective_table_deals:,} deals) at the score each play-out ends the round on. "
        f"{games // 2:,} mirrored pairs of whole games an objective (the same shuffles, the sides swapped); "
        "[summary.csv](objective/summary.csv), the games in objective/OBJECTIVE/games.csv (docs/equity.md).",
        "",
        "| against points, the move of | games it won | 95% interval (Wilson) | won a pair, less one | 95% interval |",
        "| --- | ---: | --- | ---: | --- |",
    ]
    for objective, r in results.items():
        won, edge = r.won, r.pair_edge
        out.append(
            f"| {OBJECTIVE_WORDS[objective]} (`{objective}`) | {won.mean:.1%} | [{won.lo:.1%}, {won.hi:.1%}] | "
            f"{edge.mean:+.3f} | [{edge.lo:+.3f}, {edge.hi:+.3f}] |"
        )
    out.append("")
    out += [
        f"`{o}` won {_verdict(r)} games than playing for the round's points, by the mirrored pairs' interval "
        f"({r.pair_edge.mean:+.3f} [{r.pair_edge.lo:+.3f}, {r.pair_edge.hi:+.3f}] games a pair)."
        for o, r in results.items()
    ]
    out.append("")
    return out
