"""`casino-sim findings`: the options mapped onto the ladder's front door (experiments/findings.py FindingsRun)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from casino_sim.cli.options import BackendOpt, BotTimeoutOpt, RulesOpt, SchedulerOpt, console, policy_loader
from casino_sim.cli.run_flow import Said
from casino_sim.core.lists import comma_list
from casino_sim.experiments.ladder import LADDER

LADDER_TEXT = ",".join(LADDER)


def findings(
    policies: Annotated[
        str,
        typer.Option("--policies", help="The ladder, weakest first, comma-separated: any policy simulate takes."),
    ] = LADDER_TEXT,
    rules: RulesOpt = "brazilian",
    players: Annotated[
        str,
        typer.Option(
            "--players",
            help="The tables each policy plays, comma-separated: 2, 3, 4 (players alone) and teams (four in two "
            "teams); 3, 4 and teams need brazilian or italian.",
        ),
    ] = "2,3,4,teams",
    deals: Annotated[int, typer.Option(help="The most deals any one run plays (each policy at each table).")] = 20_000,
    until_ci: Annotated[
        float,
        typer.Option(
            "--until-ci",
            help="Stop a run once its seat advantage's 95% interval is narrower than this (points; --deals caps it).",
        ),
    ] = 0.25,
    card_deals: Annotated[
        int, typer.Option("--card-deals", help="Deals of each two-player run whose every card is paired (card values).")
    ] = 500,
    seed: Annotated[int, typer.Option(help="Seed of every run: every policy plays the same deals.")] = 0,
    threads: Annotated[int, typer.Option(help="Threads (0: all cores). Results do not depend on it.")] = 0,
    chunk_deals: Annotated[
        int, typer.Option("--chunk-deals", help="Deals per chunk (where --until-ci looks, and what a resume keeps).")
    ] = 1_000,
    resamples: Annotated[
        int, typer.Option(help="Bootstrap resamples behind the equity's interval (at least 100).")
    ] = 400,
    out: Annotated[
        Path, typer.Option("--out", help="The findings folder; the same command again finishes what it holds.")
    ] = Path("results/findings"),
    force: Annotated[bool, typer.Option("--force", help="Play every run again from the start.")] = False,
    backend: BackendOpt = None,
    scheduler: SchedulerOpt = None,
    bot_timeout: BotTimeoutOpt = None,
) -> None:
    """Every finding (seat advantage, card values, sweeps, anatomy, equity) under each policy of a ladder.

    Each policy plays every seat of each table on the same deals; writes findings.csv, findings.md (which findings
    have settled: the two strongest policies' intervals overlap) and one chart per finding (docs/findings.md)."""
    # deferred, so that `casino-sim --help` never loads them: pandas, matplotlib and the engine
    from casino_sim.experiments.findings import FindingsRequest, FindingsRun
    from casino_sim.reports.findings import sentences

    request = FindingsRequest(
        policies=comma_list(policies, "--policies must name one or more policies"),
        rules=rules,
        players=comma_list(players, "--players must name one or more tables (2, 3, 4, teams)"),
        deals=deals,
        until_ci=until_ci,
        card_deals=card_deals,
        seed=seed,
        threads=threads,
        chunk_deals=chunk_deals,
        resamples=resamples,
    )
    door = FindingsRun.new(request, policy_loader(), out, sys.argv, force)
    cut = "interrupted: finished runs and chunks are kept; the same command again finishes them ({path})"
    table = door.execute(backend.value if backend else None, scheduler, Said(cut, "findings folder"))
    for line in sentences(table, door.ladder):
        console.print(f"- {line}", highlight=False, soft_wrap=True)
    console.print(f"table, charts and findings.md: {out}", highlight=False)
