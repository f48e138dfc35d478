"""Commands that measure skills: knockout (what each feature of a heuristic is worth), regret (against exact play)."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from casino_sim.cli.options import BotTimeoutOpt, RulesOpt, console, ensure_compiled
from casino_sim.cli.ui import knockout_table, regret_table
from casino_sim.engines.compiling import round_work
from casino_sim.policies.registry import folder_safe

SeedOpt = Annotated[int, typer.Option(help="Seed: every feature (or policy) plays the same shuffles.")]
RegretSeedOpt = Annotated[int, typer.Option(help="Seed: every policy is judged on the same shuffles.")]
ThreadsOpt = Annotated[int, typer.Option(help="Threads (0: all cores). Results do not depend on it.")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Replace the tables and charts already in --out.")]


def _target(out: Path | None, default: str, force: bool) -> Path:
    """The output folder: refused when it holds other files (unless --force), made and checked writable."""
    # deferred, so that `casino-sim --help` never loads them: pandas
    from casino_sim.runner.rundir import refuse_used_folder, writable_folder

    target = out or Path("results/runs") / default
    refuse_used_folder(target, force)
    return writable_folder(target)


def _interrupted(target: Path) -> None:
    console.print(f"interrupted: the table in {target} holds what was finished", highlight=False)
    raise typer.Exit(130)


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
        int, typer.Option("--chunk-deals", help="Deals between two looks at the intervals (also the seeding unit).")
    ] = 1_000,
    out: Annotated[Path | None, typer.Option("--out", help="Folder for the table and the chart.")] = None,
    force: ForceOpt = False,
) -> None:
    """What each skill of a heuristic is worth: the policy against itself with one feature's weight set to zero."""
    # deferred, so that `casino-sim --help` never loads them: numba, pandas, matplotlib, rich's bar
    from casino_sim.analysis.analyse import print_table
    from casino_sim.experiments.knockout import Knockout, KnockoutConfig, parse_pairs
    from casino_sim.reports.skills import write_knockout
    from casino_sim.runner.progress import progress_bar

    config = KnockoutConfig(policy, deals, rules, seed, threads, chunk_deals, precision, parse_pairs(pairs))
    run = Knockout(config)
    target = _target(out, f"knockout-{folder_safe(run.policy.name)}-{rules}-seed{seed}", force)
    ensure_compiled(round_work(run.rules.players, sides=True), tables=[(config.policy,)])
    interrupted = False
    try:
        with progress_bar(console, f"knockout {run.policy.name}") as update:
            run.run(update)
    except KeyboardInterrupt:
        interrupted = True
    table = run.table()
    manifest = {"kind": "knockout", "config": asdict(config), "policy_names": {config.policy: run.policy.name}}
    write_knockout(table, target, manifest)
    print_table(console, knockout_table(table, run.policy.name))
    console.print(f"table and chart: {target}", highlight=False, soft_wrap=True)
    if interrupted:
        _interrupted(target)


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
    # deferred, so that `casino-sim --help` never loads them: numba, matplotlib, rich's bar
    from casino_sim.analysis.analyse import print_table
    from casino_sim.analysis.regret import Regret, RegretConfig
    from casino_sim.experiments.seating import manifest_options
    from casino_sim.reports.skills import write_regret
    from casino_sim.runner.progress import progress_bar

    config = RegretConfig(tuple(policies or ()), vs, decisions, rules, seed, threads)
    run = Regret(config)
    names = "-".join(folder_safe(config.lineup().label(p)) for p in config.policies[:4])
    target = _target(out, f"regret-{names}-{rules}-seed{seed}", force)
    ensure_compiled("regret", tables=[(p, config.vs or p) for p in config.policies])
    interrupted = False
    try:
        run.run(lambda name: progress_bar(console, f"regret {name}", "decisions"))
    except KeyboardInterrupt:
        interrupted = True
    table = run.table()
    if len(table):
        manifest = {"kind": "regret", "config": manifest_options(config), "policy_names": config.lineup().labels()}
        write_regret(table, target, manifest)
        print_table(console, regret_table(table))
        times = ", ".join(f"{name} {s:.1f} s" for name, s in run.seconds.items())
        console.print(f"table and chart: {target} (played and judged in: {times})", highlight=False, soft_wrap=True)
    if interrupted:
        _interrupted(target)
