"""`casino-sim tune`: the options mapped onto tune's front door (experiments/tune.py TuneRun); the validation."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from casino_sim.cli import options as opts
from casino_sim.cli.options import BackendOpt, RulesOpt, SchedulerOpt, console
from casino_sim.cli.run_flow import Said, given_options
from casino_sim.cli.ui import validation_table
from casino_sim.core.lists import comma_list


def tune(
    start: Annotated[
        str, typer.Option("--start", help="The heuristic policy (name or .toml) to start from.")
    ] = "expert",
    against: Annotated[
        str, typer.Option("--against", help="The field, comma-separated: each candidate plays every one.")
    ] = "expert,greedy",
    rules: RulesOpt = "strict",
    deals: Annotated[
        int, typer.Option(help="Mirrored deals per candidate against each opponent (the same for a generation).")
    ] = 1_000,
    generations: Annotated[int, typer.Option(help="Generations of CMA-ES.")] = 30,
    population: Annotated[int, typer.Option(help="Candidates per generation (at least 2).")] = 12,
    seed: Annotated[int, typer.Option(help="Seed of the whole search: the same seed, the same run.")] = 0,
    sigma: Annotated[float, typer.Option(help="First step size, in units of each weight's size.")] = 0.3,
    validate_deals: Annotated[
        int, typer.Option("--validate-deals", help="Fresh mirrored deals to validate the result on.")
    ] = 20_000,
    name: Annotated[
        str,
        typer.Option(
            "--name",
            help="Name of the policy written (and of its file); not a built-in's or the field's.",
            show_default="<start>-tuned",
        ),
    ] = "",
    threads: Annotated[int, typer.Option(help="Threads (0: all cores). Results do not depend on it.")] = 0,
    out: Annotated[
        Path | None, typer.Option("--out", help="Run folder (default results/tune/<start>-<rules>-seedN).")
    ] = None,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="Finish an interrupted tune run in this folder.")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace the tune run in --out.")] = False,
    backend: BackendOpt = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """Search a heuristic policy's weights for the best score against a field; write it as a policy file."""
    # deferred, so that `casino-sim --help` never loads them: pandas
    from casino_sim.experiments.tune import TuneConfig, TuneRun

    opts.refuse_resume_with_force(resume, force)
    fields = comma_list(against, "--against must name one or more policies")
    if resume is not None:
        door = TuneRun.resume(resume, given_options(dict(locals(), against=fields)), threads, opts.policy_loader())
    else:
        config = TuneConfig(
            start=start,
            against=fields,
            rules=rules,
            deals=deals,
            generations=generations,
            population=population,
            seed=seed,
            sigma=sigma,
            validate_deals=validate_deals,
            name=name,
            threads=threads,
            loader=opts.policy_loader(),
        )
        door = TuneRun.new(config, out, force)
    cut = "interrupted: finished generations are kept; finish with  casino-sim tune --resume {path}"
    result = door.execute(backend.value if backend else None, scheduler, Said(cut))
    console.print(validation_table(door.config.name, result.validation))
    console.print(f"policy: {result.path}\ntables and charts: {door.path / 'report'}", highlight=False)
