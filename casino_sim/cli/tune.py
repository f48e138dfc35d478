"""`casino-sim tune`: parse the options, run the search (experiments/tune.py), print the validation."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from casino_sim.cli import options as opts
from casino_sim.cli.options import BackendOpt, RulesOpt, SchedulerOpt, console
from casino_sim.cli.run_flow import resume_as_started
from casino_sim.cli.ui import validation_table
from casino_sim.core.rules import get_rules
from casino_sim.engines.compiling import round_work
from casino_sim.policies.registry import folder_safe


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
    # deferred, so that `casino-sim --help` never loads them: pandas, rich's bar
    from casino_sim.experiments import tune as tn
    from casino_sim.experiments.tune_store import TuneDir
    from casino_sim.runner.progress import progress_bar

    opts.refuse_resume_with_force(resume, force)
    if resume is not None:
        folder = resume
        config = tn.TuneConfig.from_manifest(TuneDir(folder).read_manifest(), threads)
        given = dict(locals(), against=tuple(a.strip() for a in against.split(",") if a.strip()))
        resume_as_started(given, config)
    else:
        config = tn.TuneConfig(
            start=start,
            against=tuple(a.strip() for a in against.split(",") if a.strip()),
            rules=rules,
            deals=deals,
            generations=generations,
            population=population,
            seed=seed,
            sigma=sigma,
            validate_deals=validate_deals,
            name=name,
            threads=threads,
        )
    config.policies()  # every bad option before a backend starts; the policies resolved once
    if resume is None:
        folder = out or Path("results/tune") / f"{folder_safe(config.lineup().label(start))}-{rules}-seed{seed}"
    with opts.open_backend(backend, scheduler, config.threads) as field_backend:  # a bad address: no folder made
        run = tn.open_run(config, folder, resume=resume is not None, force=force)
        console.print(f"run folder: {folder}", highlight=False)
        work = round_work(get_rules(config.rules).players, sides=True)
        opts.ensure_compiled(work, tables=[(config.start, a) for a in config.against])
        try:
            with progress_bar(console, "tuning") as update:
                result = tn.tune(
                    config,
                    run,
                    field_backend,
                    progress=update,
                    stage=lambda s: console.print(s, highlight=False),
                )
        except KeyboardInterrupt:
            console.print(
                f"interrupted: finished generations are kept; finish with  casino-sim tune --resume {folder}",
                highlight=False,
            )
            raise typer.Exit(130) from None
    console.print(validation_table(config.name, result.validation))
    console.print(f"policy: {result.path}\ntables and charts: {folder / 'report'}", highlight=False)
