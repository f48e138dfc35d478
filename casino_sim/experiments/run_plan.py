"""Run an experiment plan's runs one after another and check each expectation."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from casino_sim.core.errors import InputError
from casino_sim.experiments.door import Progress
from casino_sim.experiments.plan import Expectation, PlannedRun
from casino_sim.experiments.simulate import config_of
from casino_sim.experiments.simulate_door import Simulation
from casino_sim.runner.backends import LocalBackend
from casino_sim.runner.rundir import RunDir


@dataclass(frozen=True)
class Outcome:
    run: str
    expectation: Expectation
    value: float
    passed: bool


def run_planned(
    run: PlannedRun,
    folder: Path,
    command: list[str],
    progress=None,
    backend=None,
    resume: bool = False,
    force: bool = False,
    charts: bool = True,
    scheduler: str | None = None,
) -> list[Outcome]:
    """Simulate one planned run into `folder` through simulate's door (on `backend`, open: every run of the plan
    plays on one) and check it.

    `resume` finishes the run already started there (with the plan's options only); `force` replaces it; `charts`
    off writes its reports without their charts.
    """
    rundir = RunDir(folder)
    resumed = resume and rundir.manifest_path.exists()
    config = run.config
    if resumed:  # a run of an earlier version resumes as it was seeded (runner/seeding.py)
        held = config_of(rundir)
        if held != replace(config, seeding=held.seeding).as_recorded():
            raise InputError(
                f"{folder} was started with other options than run {run.name!r} of the plan; --force replaces it"
            )
        config = replace(config, seeding=held.seeding)
    simulation = Simulation(config, rundir, command, force, resumed, charts=charts)
    tables = simulation.execute_on(backend or LocalBackend(), scheduler, Progress(progress))
    row = tables["summary"].iloc[0].to_dict()
    outcomes = []
    for e in run.expect:
        ok, value = e.check(row)
        outcomes.append(Outcome(run.name, e, value, ok))
    return outcomes
