"""Commands that measure skills: knockout (what each feature of a heuristic is worth), regret (against exact play)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from casino_sim.cli.options import BotTimeoutOpt, RulesOpt, console, policy_loader
from casino_sim.cli.run_flow import Said
from casino_sim.cli.ui import knockout_table, regret_table

SeedOpt = Annotated[int, typer.Option(help="Seed: every feature (or policy) plays the same shuffles.")]
RegretSeedOpt = Annotated[int, typer.Option(help="Seed: every policy is judged on the same shuffles.")]
ThreadsOpt = Annotated[int, typer.Option(help="Threads (0: all cores). Results do not depend on it.")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Replace the tables and charts already in --out.")]


def _shown(show) -> Said:
    """The hooks of knockout and regret on the terminal: `show(table)` once it is written (a run cut short too),
    then Ctrl-C's line."""
    return Said("interrupted: the table in {path} holds what was finished", folder=None, reported=show)


def knockout(
    policy: Annotated[str, typer.Argument(help="A heuristic: a built-in name such as expert, or a .toml file.")],
    deals: Annotated[int, typer.Option(help="The most mirrored deals any one feature plays.")] = 20_000,
    precision: Annotated[
        float,
        typer.Option(
            "--precision", help="Stop a feature once its 95% interval's half-width is at most this (points per deal)."
        ),
    ] = 0.05,
    pairs: Annotated[
        list[str] | None,
        typer.Option(
            "--pairs",
            help="A,B: what B is worth with A already out (and each alone); several as A,B;C,D or --pairs again.",
            show_default=False,
        ),
    ] = None,
    rules: RulesOpt = "strict",
    seed: SeedOpt = 0,
    threads: ThreadsOpt = 0,
    chunk_deals: Annotated[
        int, typer.Option("--chunk-deals", help="Deals between two looks at the intervals (each deal is seeded alone).")
    ] = 1_000,
    out: Annotated[Path | None, typer.Option("--out", help="Folder for the table and the chart.")] = None,
    force: ForceOpt = False,
) -> None:
    """What each skill of a heuristic is worth: the policy against itself with one feature's weight set to zero."""
    # deferred, so that `casino-sim --help` never loads them: numba, pandas, matplotlib
    from casino_sim.analysis.analyse import print_table
    from casino_sim.experiments.knockout import KnockoutConfig, parse_pairs
    from casino_sim.experiments.skill_runs import KnockoutRun

    config = KnockoutConfig(
        policy, deals, rules, seed, threads, chunk_deals, precision, parse_pairs(pairs), loader=policy_loader()
    )
    door = KnockoutRun(config, out, force)

    def show(table) -> None:
        print_table(console, knockout_table(table, door.knockout.policy.name))
        console.print(f"table and chart: {door.path}", highlight=False, soft_wrap=True)

    door.execute(hooks=_shown(show))


def regret(
    policies: Annotated[
        list[str] | None,
        typer.Argument(help="Policies: names, .toml files, module:function or exec:COMMAND.", show_default=False),
    ] = None,
    vs: Annotated[
        str | None, typer.Option("--vs", help="The opponent in mirrored deals (default: each policy plays itself).")
    ] = None,
    decisions: Annotated[
        int | None,
        typer.Option(
            "--decisions",
            help="Last-batch decisions to judge per policy (default: 10,000; 1,000 for a Python "
            "policy and 300 with a rollout at the table).",
            show_default=False,
        ),
    ] = None,
    rules: RulesOpt = "strict",
    seed: RegretSeedOpt = 0,
    threads: ThreadsOpt = 0,
    out: Annotated[Path | None, typer.Option("--out", help="Folder for the table and the chart.")] = None,
    force: ForceOpt = False,
    bot_timeout: BotTimeoutOpt = None,
) -> None:
    """How often policies play a best move in the last batch, and the points they lose, against exact play."""
    # deferred, so that `casino-sim --help` never loads them: numba, matplotlib
    from casino_sim.analysis.analyse import print_table
    from casino_sim.analysis.regret import RegretConfig
    from casino_sim.experiments.skill_runs import RegretRun

    config = RegretConfig(tuple(policies or ()), vs, decisions, rules, seed, threads, loader=policy_loader())
    door = RegretRun(config, out, force)

    def show(table) -> None:
        if len(table):
            print_table(console, regret_table(table))
            times = ", ".join(f"{name} {s:.1f} s" for name, s in door.regret.seconds.items())
            line = f"table and chart: {door.path} (played and judged in: {times})"
            console.print(line, highlight=False, soft_wrap=True)

    door.execute(hooks=_shown(show))
