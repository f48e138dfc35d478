"""Commands that run many deals and report on them: simulate, report, experiment, tournament, card-value."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from casino_sim.cli import run_flow
from casino_sim.cli.declared import command
from casino_sim.cli.options import (
    console,
    ensure_runs_compiled,
    open_backend,
    policy_loader,
    refuse_resume_with_force,
)
from casino_sim.cli.run_flow import reported
from casino_sim.cli.ui import (
    card_values_table,
    expectations_table,
    frame_table,
    games_table,
    ratings_table,
    summary_table,
)
from casino_sim.core.errors import InputError
from casino_sim.experiments.declarations import SIMULATE, TOURNAMENT
from casino_sim.experiments.study_declarations import CARD_VALUE, EXPERIMENT


def _simulate(values: dict, given: frozenset) -> None:
    """simulate's body: the values by field name (experiments/declarations.py SIMULATE) into its door, executed."""
    # deferred, so that `casino-sim --help` never loads them: pandas and the engine
    from casino_sim.experiments.simulate_door import Simulation

    resume, out, charts = values["resume"], values["out"], values["charts"]
    backend, scheduler = values["backend"], values["scheduler"]
    refuse_resume_with_force(resume, values["force"])
    if resume is not None:
        kept = (*SIMULATE.run_fields(), "threads", "out")  # compared with the run's, or where it plays
        simulation = run_flow.resumed(resume, {k: v for k, v in values.items() if k in given and k in kept}, sys.argv)
    else:
        simulation = Simulation.new(values, given, policy_loader(), out, sys.argv, values["force"])
    tables = simulation.execute(backend.value if backend else None, scheduler, run_flow.Shown(), charts=charts)
    _print_summary(tables)
    if "summary" not in tables and "games" not in tables:  # every round void (trail against trail: nobody captures)
        console.print("every round was void (nobody captured): no summary or charts to write", highlight=False)
    path = simulation.run.path
    if charts:
        console.print(f"records, summary and charts: {path}", highlight=False)
    else:
        console.print(f"records and summary: {path} (charts: casino-sim report all {path})", highlight=False)
    if (path / "report" / "index.html").is_file():
        console.print(
            f"open {path / 'report' / 'index.html'} in a browser: the report as one page",
            highlight=False,
            soft_wrap=True,
        )


simulate = command(
    SIMULATE, _simulate, "Simulate policy A against policy B over many deals; write records, summary and charts."
)


def _print_summary(tables: dict) -> None:
    """The headline table of a run, one row per matchup: its whole games table with --games (any number of
    players: the rounds' table of two players is in report.md), else its summary."""

    if "games" in tables:
        console.print(games_table(tables["games"]))
    elif "summary" in tables:
        console.print(summary_table(tables["summary"]))


class ReportKind(str, Enum):
    all = "all"
    summary = "summary"
    score = "score"
    sweeps = "sweeps"
    seat = "seat"
    anatomy = "anatomy"
    convergence = "convergence"
    games = "games"
    card_value = "card-value"
    card_swap = "card-swap"
    html = "html"


def report(
    kind: Annotated[
        ReportKind,
        typer.Argument(
            help="Which report; all writes every one, report.md and index.html; html rewrites index.html (the "
            "page to open in a browser) from the reports written."
        ),
    ],
    run_dir: Annotated[Path, typer.Argument(help="A run folder written by simulate or tournament.")],
    out: Annotated[Path | None, typer.Option("--out", help="Where to write (default RUN_DIR/report).")] = None,
) -> None:
    """Write a report (tables as CSV and JSON, charts as PNG and SVG) from a run or tournament folder.

    `html` makes the folder's index.html again from the reports already written (all of them first when none are)."""
    # deferred, so that `casino-sim --help` never loads them: matplotlib, pandas
    from casino_sim.reports.index import make_all, report_of, write_all
    from casino_sim.reports.webpage import has_reports
    from casino_sim.runner.rundir import RunDir, writable_folder

    manifest = RunDir(run_dir).read_manifest()
    tournament = manifest.get("kind") == "tournament"
    if tournament and kind not in (ReportKind.all, ReportKind.html):
        raise InputError(f"{run_dir} is a tournament folder: its report is  casino-sim report all {run_dir}")
    target = writable_folder(out or run_dir / "report")
    if kind == ReportKind.html and has_reports(target):
        # deferred, so that `casino-sim --help` never loads them: pandas, matplotlib
        from casino_sim.reports.load import read_manifest
        from casino_sim.reports.webpage import write_page

        console.print(f"written {write_page(target, read_manifest(run_dir))}", highlight=False)
        return
    if tournament:
        # deferred, so that `casino-sim --help` never loads them: pandas
        from casino_sim.experiments.tournament import write_report

        tables = write_report(run_dir, target, policy_loader().label)  # a folder without policy_names: loaded
        console.print(ratings_table(tables["ratings"], tables["matches"]))
    elif kind in (ReportKind.all, ReportKind.html):  # html before any report was written: write them all
        _print_summary(write_all(run_dir, target))
    else:  # two players, or by place and team as `report all` writes it
        table = report_of(make_all(run_dir), kind.value).write(target)
        console.print(frame_table(kind.value, kind.value.replace("-", "_"), table))
    reported(run_dir, target, whole=kind in (ReportKind.all, ReportKind.html))
    console.print(f"written to {target}", highlight=False)


def _experiment(values: dict, given: frozenset) -> None:
    """Run a plan's simulations and check its expectations; exit 1 if any fails (for CI)."""
    # deferred, so that `casino-sim --help` never loads them: pandas, rich's bar
    from casino_sim.experiments.plan import load_plan
    from casino_sim.experiments.run_plan import run_planned
    from casino_sim.runner.progress import progress_bar
    from casino_sim.runner.rundir import refuse_used_folder

    plan, force, resume, charts, scheduler = (values[k] for k in ("plan", "force", "resume", "charts", "scheduler"))
    name, runs = load_plan(plan, policy_loader())
    EXPERIMENT.check(values, given)
    root = values["out"] or Path("results/runs") / name
    if resume and not root.is_dir():
        raise InputError(f"{root} holds nothing to resume")
    refuse_used_folder(root, force or resume, resumable=True, nested=True)
    numba = [r.config for r in runs if r.config.engine_used() == "numba"]
    ensure_runs_compiled(numba, scheduler)
    outcomes = []
    with open_backend(values["backend"], scheduler) as chunk_backend:
        for run in runs:
            cards = run.config.card_deals_used()
            console.print(
                f"run {run.name}: {run.config.policy_a} vs {run.config.policy_b}, "
                f"{run.config.deals:,} deals, rules {run.config.rules}, card values "
                + (f"from the first {cards:,} deals" if cards else "off"),
                highlight=False,
            )
            try:
                with progress_bar(console, run.name) as update:
                    outcomes += run_planned(
                        run, root / run.name, sys.argv, update, chunk_backend, resume, force, charts, scheduler
                    )
            except KeyboardInterrupt:
                console.print(
                    f"interrupted: finished chunks are kept; finish with  casino-sim experiment {plan} "
                    f"--out {root} --resume",
                    highlight=False,
                )
                raise typer.Exit(130) from None
    console.print(expectations_table(name, outcomes))
    failed = [o for o in outcomes if not o.passed]
    if failed:
        console.print(f"[bold red]{len(failed)} of {len(outcomes)} expectations failed[/bold red]")
        raise typer.Exit(1)
    console.print(f"all {len(outcomes)} expectations met; runs in {root}", highlight=False)


experiment = command(EXPERIMENT, _experiment, _experiment.__doc__)


def _tournament(values: dict, given: frozenset) -> None:
    """Round-robin of policies over mirrored whole games: win-rate and margin matrices, Elo ratings, heatmap.

    With 3 or 4 players a table holds two policies: A's team against B's (teams swapped), or A alone against B
    in every other seat, A in each seat, then B alone against A. Tables of three or more policies are not played.
    """
    # deferred, so that `casino-sim --help` never loads them: pandas
    from casino_sim.experiments import tournament as tour

    resume, backend = values["resume"], values["backend"]
    refuse_resume_with_force(resume, values["force"])
    if resume is not None:
        asked = {k: v for k, v in values.items() if k in given}
        door = tour.TournamentRun.resume(resume, asked, sys.argv, policy_loader())
        if door.complete:
            run_flow.already_complete(door.root, f"{door.config.games:,} games a pairing")
    else:
        door = tour.TournamentRun.new(values, policy_loader(), sys.argv)
    cut = "interrupted: finished chunks are kept; finish with  casino-sim tournament --resume {path}"
    tables = door.execute(
        backend.value if backend else None, values["scheduler"], run_flow.Said(cut, "tournament folder")
    )
    console.print(ratings_table(tables["ratings"], tables["matches"]))
    console.print(f"matrices, ratings and the heatmap: {door.root / 'report'}", highlight=False)


tournament = command(TOURNAMENT, _tournament, _tournament.__doc__)


def _card_value(values: dict, given: frozenset) -> None:
    """The value of holding each card (the 10♦ above all), from paired deals: a 52-card heatmap."""
    # deferred, so that `casino-sim --help` never loads them: pandas, matplotlib and the engine
    from casino_sim.experiments.card_value_door import CardValueRun

    door = CardValueRun.new(values, policy_loader())
    cut = "interrupted: nothing is kept; run the command again ({path})"
    table = door.execute(hooks=run_flow.Said(cut, folder=None))
    console.print(card_values_table(table))
    console.print(f"tables and charts: {door.target} (the page: {door.target / 'index.html'})", highlight=False)


card_value = command(CARD_VALUE, _card_value, _card_value.__doc__)
