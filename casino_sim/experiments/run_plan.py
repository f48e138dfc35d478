"""Run an experiment plan's runs one after another and check each expectation."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from casino_sim.experiments.plan import Expectation, PlannedRun
from casino_sim.experiments.simulate import finish_run, play_chunks, start_run, write_reports
from casino_sim.runner.rundir import RunDir


@dataclass(frozen=True)
class Outcome:
    run: str
    expectation: Expectation
    value: float
    passed: bool


def run_planned(run: PlannedRun, folder: Path, command: list[str], progress=None, backend=None) -> list[Outcome]:
    """Simulate one planned run into `folder` on `backend` (resuming it if a finished part is there) and check it."""
    rundir = RunDir(folder)
    if not rundir.manifest_path.exists():
        start_run(run.config, rundir, command)
    finish_run(rundir, play_chunks(run.config, rundir, progress, backend))
    row = write_reports(rundir)["summary"].iloc[0].to_dict()
    outcomes = []
    for e in run.expect:
        ok, value = e.check(row)
        outcomes.append(Outcome(run.name, e, value, ok))
    return outcomes
