"""results/frontier/: strength for cost, each built-in policy rated against its cost a decision.

Imported by standard_results.py, which runs it with the rest (or alone: `--only frontier`). A round robin of the
built-in policies over mirrored whole games (`casino-sim tournament`) gives each a Bradley-Terry rating with a
bootstrap interval; `casino-sim bench` (one thread, the policy against itself) its time a decision. The
tournament's tables and charts go to results/frontier/tournament/, the frontier's to results/frontier/.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd

from casino_sim.api.policies import loader
from casino_sim.core.lists import listed
from casino_sim.experiments.tournament import TournamentConfig, run_tournament, start_tournament
from casino_sim.reports.frontier import COST_NOISE, frontier_table, write_frontier
from casino_sim.reports.tournament import write_tournament

# their bench plays few rounds: each decision plays out many
SEARCHING = ("rollout", "searcher", "searcher-deep")
# every built-in policy (policies/builtin/, random and trail), cheapest kinds first
HEURISTICS = ("greedy", "builder", "defensive", "hold-casinos", "expert", "tuned")
POLICIES = ("random", "trail", *HEURISTICS, "endgame", *SEARCHING)


def _us_per_decision(policy: str, deals: int) -> float:
    """`casino-sim bench` of the policy against itself on one thread: its time a decision (a play), in µs."""
    command = ["bench", "--policy", policy, "--deals", str(deals), "--threads", "1", "--no-compile"]
    done = subprocess.run(
        [sys.executable, "-m", "casino_sim", *command, "--format", "json"], check=True, capture_output=True, text=True
    )
    return json.loads(done.stdout)["us_per_ply"]


def play_tournament(policies: tuple[str, ...], games: int, seed: int, root: Path, target: Path) -> dict:
    """A round robin of mirrored whole strict games played in `root` (out of git) as `casino-sim tournament` plays
    it; its tables and charts written to `target` (emptied first). Returns the tables."""
    config = TournamentConfig(policies=policies, games=games, seed=seed).resolve(loader())
    start_tournament(config, root, [sys.executable, *sys.argv])
    folders = run_tournament(config, root, [sys.executable, *sys.argv])
    shutil.rmtree(target, ignore_errors=True)
    return write_tournament(folders, list(policies), target, seed)


def frontier_section(args, tmp: Path) -> list[str]:
    """Play the round robin, time each policy, write results/frontier/; the README lines."""
    target = args.out / "frontier"  # not emptied: compute/ beside it is scripts/compute_sweep.py's
    played = target / "tournament"
    tables = play_tournament(POLICIES, args.frontier_games, args.seed, tmp / "frontier-tournament", played)
    (played / "index.html").unlink()  # the page repeats its charts and tables: half a MB in git
    return frontier_lines(args, tables["ratings"], tables["matches"], _costs(args))


def frontier_costs_section(args, tmp: Path) -> list[str]:
    """Time each policy again and rewrite results/frontier/ around the round robin already there (its ratings do
    not move when a change makes play faster with the same moves); the README lines."""
    ratings, matches = (pd.read_csv(args.out / "frontier" / "tournament" / f"{t}.csv") for t in ("ratings", "matches"))
    if sorted(ratings["policy"]) != sorted(POLICIES):
        raise SystemExit(f"{args.out / 'frontier'}: its round robin is of other policies; play it (--only frontier)")
    return frontier_lines(args, ratings, matches, _costs(args))


def _costs(args) -> dict[str, float]:
    return {p: _us_per_decision(p, args.bench_deals // (1000 if p in SEARCHING else 1)) for p in POLICIES}


def frontier_lines(args, ratings, matches, costs: dict[str, float]) -> list[str]:
    """Write results/frontier/'s table, chart and frontier.md from the round robin's ratings and matches and the
    costs; the README lines."""
    table = frontier_table(ratings, costs, matches)
    how = (
        f"Ratings: a round robin of {', '.join(POLICIES)} over {args.frontier_games:,} mirrored pairs of whole "
        f"strict games per pairing (seed {args.seed}; tournament/), a Bradley-Terry fit of the game wins on the "
        "Elo scale with 95% bootstrap intervals. Cost: `casino-sim bench --threads 1` of each policy against "
        f"itself ({args.bench_deals:,} rounds; {listed(SEARCHING)} {args.bench_deals // 1000:,}), its time "
        "over every play of a round on one thread, forced plays included. A policy is off the frontier when "
        f"one that costs no more (within {COST_NOISE:.0%}, the timings' noise) beats it in their own pairing (its "
        "win rate's 95% interval above 50%, a test of their difference; the ratings' intervals are not one)."
    )
    caption = f"strict, {args.frontier_games:,} mirrored pairs of games per pairing, seed {args.seed}"
    write_frontier(table, args.out / "frontier", how, caption)
    on = " < ".join(table.loc[table["on_frontier"], "policy"])
    print(f"frontier: {on}", flush=True)
    return [
        f"## Strength for cost ({len(POLICIES)} policies, {args.frontier_games:,} mirrored pairs of whole games "
        "per pairing, strict rules)",
        "",
        "**Each policy's rating against its time a decision** ([frontier.png](frontier/frontier.png), "
        "[svg](frontier/frontier.svg); [frontier.md](frontier/frontier.md), the round robin in "
        "[frontier/tournament](frontier/tournament/tournament.md)). Read it left to right: each step along the "
        "frontier buys strength with time; a policy off the frontier is beaten by a cheaper one in their pairing. "
        f"On the frontier, cheapest first: {on}.",
        "",
    ]
