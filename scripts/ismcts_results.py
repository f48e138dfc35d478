"""results/openspiel/: OpenSpiel's IS-MCTS (the `openspiel-ismcts` policy kind) against expert, tuned and the searcher.

Imported by standard_results.py, which runs it alone with `--only ismcts`. Each cell is one `simulate` run of
mirrored strict deals on the reference engine (IS-MCTS plays in Python), the same seed in every cell, so its mean
point difference a deal and 95% interval are the summary's (Student-t over the mirrored pairs). Each side is asked
through a wrapper that times its decisions on its thread's CPU clock (every play, forced ones included); the
searcher, which plays only in the numba engine's round loop, is asked one search per decision from the position as
it sees it, as `casino-sim choose --policy searcher` asks it. The run folders stay in a temporary folder.
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

from casino_sim.api import open_run
from casino_sim.api.policies import loader
from casino_sim.core.rules import get_rules
from casino_sim.experiments.simulate import SimConfig, play_run
from casino_sim.policies import CallablePolicy, Policy
from casino_sim.reference.round import play_round
from casino_sim.runner.rundir import RunDir
from casino_sim.runner.seating import Lineup

OPPONENTS = ("expert", "tuned", "searcher")
SEED_BOUND = 2**63
COLUMNS = ["simulations", "vs", "deals", "diff_mean", "diff_ci_lo", "diff_ci_hi", "ismcts_ms", "vs_ms"]


def policy_file(folder: Path, simulations: int) -> Path:
    """An openspiel-ismcts policy file of that budget, the other parameters OpenSpiel's defaults here."""
    path = folder / f"ismcts-{simulations}.toml"
    path.write_text(
        f'name = "ismcts-{simulations}"\nkind = "openspiel-ismcts"\n'
        f'description = "IS-MCTS (OpenSpiel), {simulations} simulations a decision"\n'
        f"[params]\nsimulations = {simulations}\n"
    )
    return path


def timed(policy: Policy, clock: list[float]) -> CallablePolicy:
    """The policy as a Python policy of the same name whose every decision's CPU seconds go into `clock`; a searching
    policy searches from the mover's view of each position (its step, as `casino-sim choose` asks it)."""

    def decide(pos, moves, rng):
        start = time.thread_time()
        if policy.searches:
            move = policy.step(pos.seen_by(pos.to_move), int(rng.integers(SEED_BOUND)))
        else:
            move = policy.choose(pos, moves, rng)
        clock.append(time.thread_time() - start)
        return move

    return CallablePolicy(policy.name, policy.description, policy.source, fn=decide)


def warm_up(policy: Policy) -> None:
    """One round of the policy against itself, untimed: its kernels loaded (or compiled) before the clock runs."""
    rng, asked = np.random.default_rng(0), timed(policy, [])
    play_round(get_rules("strict"), rng.permutation(52), 1, lambda pos, moves: asked.choose(pos, moves, rng))


def play_cell(simulations: int, deals: int, vs: str, seed: int, tmp: Path) -> dict:
    """One cell: ismcts-<simulations> against `vs` over `deals` mirrored strict deals; its row of the table."""
    spec = str(tmp / f"ismcts-{simulations}.toml")
    mine, theirs = [], []
    opponent = loader()(vs)
    warm_up(opponent)
    lineup = Lineup((spec, vs), (timed(loader()(spec), mine), timed(opponent, theirs)))
    config = SimConfig(deals, spec, vs, seed=seed, card_deals=0, engine="reference", threads=1, resolved=lineup)
    run = RunDir(tmp / f"ismcts-{simulations}-vs-{vs}")
    play_run(config, run, [sys.executable, *sys.argv])
    s = open_run(run.path).summary.iloc[0]
    print(f"ismcts-{simulations} vs {vs}: {s['diff_mean']:+.2f} [{s['diff_ci_lo']:+.2f}, {s['diff_ci_hi']:+.2f}]")
    return {
        "simulations": simulations,
        "vs": vs,
        "deals": int(s["deals"]),
        **{k: float(s[k]) for k in ("diff_mean", "diff_ci_lo", "diff_ci_hi")},
        "ismcts_ms": 1000 * sum(mine) / len(mine),
        "vs_ms": 1000 * sum(theirs) / len(theirs),
    }


def ismcts_table(budgets: list[tuple[int, int]], seed: int, tmp: Path, workers: int) -> pd.DataFrame:
    """Every cell (budget, deals) x OPPONENTS, played on `workers` processes; the table in budget order."""
    for simulations, _ in budgets:
        policy_file(tmp, simulations)
    cells = [(s, d, vs, seed, tmp) for s, d in budgets for vs in OPPONENTS]
    with ProcessPoolExecutor(workers) as pool:
        rows = list(pool.map(play_cell, *zip(*cells)))
    return pd.DataFrame(rows, columns=COLUMNS)


def ismcts_section(args, tmp: Path) -> list[str]:
    """Play the cells, write results/openspiel/ (ismcts.csv, ismcts.md); the README lines."""
    budgets = list(zip(args.ismcts_simulations, args.ismcts_deals))
    started = time.time()
    table = ismcts_table(budgets, args.seed, tmp, args.ismcts_workers)
    target = args.out / "openspiel"
    target.mkdir(parents=True, exist_ok=True)
    table.to_csv(target / "ismcts.csv", index=False, float_format="%.4f")
    how = (
        f"Each row: `ismcts-N` (a policy file of kind `openspiel-ismcts`, N simulations a decision, uct_c 2, one "
        "random play-out a leaf, a new world each simulation) against the policy named, over the mirrored strict "
        f"deals given (seed {args.seed}, the same deals in every row), on the reference engine. Point difference: "
        "IS-MCTS minus the other, a deal (the pair's mean), with its 95% Student-t interval over the pairs. Time: "
        "each side's CPU milliseconds a decision in these games (every play, forced ones included; Python on the "
        "reference engine for both; the searcher one search a decision, as `casino-sim choose` asks it)."
    )
    lines = ["# IS-MCTS (OpenSpiel) against casino-sim's policies", "", how, "", *markdown_rows(table), ""]
    (target / "ismcts.md").write_text("\n".join(lines))
    print(f"ismcts: {len(table)} cells in {time.time() - started:.0f} s", flush=True)
    return [
        f"## IS-MCTS from OpenSpiel against our policies (strict rules, {_sizes(budgets)})",
        "",
        "**OpenSpiel's IS-MCTS as a casino-sim policy** ([openspiel/ismcts.md](openspiel/ismcts.md), table "
        "[ismcts.csv](openspiel/ismcts.csv)). open_spiel's `ISMCTSBot` with random play-outs, searching the "
        "`python_casino` game from each position as the mover sees it (docs/research.md), against expert, tuned "
        f"and the searcher: {_headline(table)}",
        "",
    ]


def markdown_rows(table: pd.DataFrame) -> list[str]:
    """The table as markdown: one row a cell."""
    rows = [
        "| IS-MCTS simulations | vs | mirrored deals | IS-MCTS − vs a deal (95% interval) | IS-MCTS ms a decision | "
        "vs ms a decision |",
        "| ---: | --- | ---: | --- | ---: | ---: |",
    ]
    for r in table.itertuples():
        rows.append(
            f"| {r.simulations} | {r.vs} | {r.deals} | {_difference(r)} | {r.ismcts_ms:,.0f} | {r.vs_ms:,.2f} |"
        )
    return rows


def _difference(r) -> str:
    return f"{r.diff_mean:+.2f} [{r.diff_ci_lo:+.2f}, {r.diff_ci_hi:+.2f}]"


def _sizes(budgets: list[tuple[int, int]]) -> str:
    return ", ".join(f"{d} mirrored deals at {s} simulations" for s, d in budgets)


def _headline(table: pd.DataFrame) -> str:
    """One sentence a budget: its differences against each opponent."""
    parts = []
    for simulations, rows in table.groupby("simulations", sort=False):
        each = ", ".join(f"{r.vs} {_difference(r)}" for r in rows.itertuples())
        parts.append(f"at {simulations} simulations ({rows['ismcts_ms'].mean():,.0f} ms a decision) {each}")
    return "; ".join(parts) + " points a deal."
