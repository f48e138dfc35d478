"""simulate's one front door: a request named as the user names it, checked once into a Simulation, then run.

The command (cli/runs.py), the Python API (api/runs.py) and `experiment` (experiments/run_plan.py) all go through
here, so a run is made, resumed, compiled for, played and reported in one order; what each caller shows on the way
(the run folder, a progress bar, Ctrl-C's one-line hint) comes in through Hooks (experiments/door.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import pandas as pd

from casino_sim.engines.compiling import ensure_compiled, search_variants
from casino_sim.experiments.door import QUIET, Door, Hooks
from casino_sim.experiments.resume import resume_config
from casino_sim.experiments.simulate import (
    SimConfig,
    create_run,
    default_out,
    finish_run,
    parse_card_deals,
    play_chunks,
    write_reports,
)
from casino_sim.policies.policy import Load
from casino_sim.runner.run_state import PLAYED
from casino_sim.runner.rundir import RunDir, refuse_used_folder
from casino_sim.runner.seating import seat_names


@dataclass(frozen=True)
class SimRequest:
    """simulate's options under the names the command and the API give them (`policy`, `vs`, `check`)."""

    deals: int = 100_000
    policy: str = "greedy"
    vs: str = "random"
    seats: str | None = None
    rules: str = "strict"
    seed: int = 0
    threads: int = 0
    mirrored: bool = True
    until_ci: float | None = None
    engine: str = "numba"
    chunk_deals: int = 5_000
    games: bool = False
    check: bool = False
    record: int = 0
    card_deals: str = "auto"
    start_score: str | None = None

    @classmethod
    def of(cls, options: Mapping) -> SimRequest:
        """The request in simulate's options by name (the command's parameters, the API's arguments); the others
        (out, force, backend ...) are the door's, not the run's."""
        return cls(**{f.name: options[f.name] for f in fields(cls) if f.name in options})

    def config(self, loader: Load) -> SimConfig:
        """The run's config, checked (one line for an impossible option), its policies resolved by `loader`. With
        --seats, policies A and B are the first two it names (as the seatings number them)."""
        policy_a, policy_b = self.policy, self.vs
        if self.seats:
            names = seat_names(self.seats)
            policy_a, policy_b = names[0], names[min(1, len(names) - 1)]
        config = SimConfig(
            deals=self.deals,
            policy_a=policy_a,
            policy_b=policy_b,
            rules=self.rules,
            seed=self.seed,
            mirrored=self.mirrored,
            chunk_deals=self.chunk_deals,
            until_ci=self.until_ci,
            threads=self.threads,
            engine=self.engine,
            games=self.games,
            checked=self.check,
            record=self.record,
            card_deals=parse_card_deals(self.card_deals),
            seats=self.seats,
            start_score=self.start_score,
            loader=loader,
        )
        config.check()
        return config

    def options(self) -> dict:
        """The request as simulate's options by name (what --resume compares with the run's)."""
        return asdict(self)


@dataclass
class Simulation(Door):
    """One simulate run, its config checked: made (or resumed), compiled for, played and reported (the steps of
    experiments/door.py Door)."""

    config: SimConfig
    run: RunDir
    command: list[str]
    force: bool = False
    resumed: bool = False
    reports: bool = True  # write the reports (execute's; off: it returns None)
    charts: bool = True  # draw the reports' charts (execute's; off: tables and text only)

    @classmethod
    def new(
        cls,
        request: SimRequest,
        loader: Load,
        out: Path | None,
        command: list[str],
        force: bool = False,
        resume_with="--resume",
    ) -> Simulation:
        """A new run of `request` into `out` (default results/runs/<time>-<A>-vs-<B>/), its policies resolved by
        `loader`; InputError for a folder in use unless `force` (`resume_with`: how the error names the way to
        finish it, {path} the folder)."""
        config = request.config(loader)
        run = RunDir(out if out is not None else default_out(config))
        refuse_used_folder(run.path, force, resumable=True, resume_with=resume_with.format(path=run.path))
        return cls(config, run, command, force)

    @classmethod
    def resume(cls, path: Path, given: dict, command: list[str], loader: Load) -> Simulation:
        """The run in `path` as it was started (the options `given` again checked against it: resume_config), its
        policies resolved by `loader`."""
        run = RunDir(path)
        return cls(resume_config(run, given, command, loader), run, command, resumed=True)

    @property
    def folder(self) -> RunDir:
        return self.run

    def start(self) -> None:
        """Make the run folder and its manifest (a resumed run has them)."""
        if not self.resumed:
            create_run(self.config, self.run, self.command, self.force)

    def compile(self, scheduler: str | None = None) -> None:
        """Compile ahead what the run plays on the numba engine (a Python policy or a bot plays on the reference
        engine: nothing to compile; a scheduler's workers compile their own)."""
        if scheduler is None and self.config.engine_used() == "numba":
            ensure_compiled("rounds", search=search_variants([self.config.lineup().policies]))

    def play(self, backend, hooks: Hooks = QUIET) -> dict | None:
        """Play the chunks left on `backend` and mark the run played (its reports to write); None when every chunk
        was played before (a run cut short while its reports were written)."""
        if self.run.read_manifest().get("status") == PLAYED:
            return None
        with hooks.progress("simulating", self.config.unit) as update:
            timings = play_chunks(self.config, self.run, update, backend)
        return finish_run(self.run, timings, reports=True)

    def write_reports(self, hooks: Hooks = QUIET) -> dict[str, pd.DataFrame]:
        """Every report of the run (experiments/simulate.py write_reports); the manifest then says "complete"."""
        try:
            return write_reports(self.run, self.charts)
        except KeyboardInterrupt:
            hooks.interrupted("reports", self.run)
            raise

    def report(self, played, hooks: Hooks) -> dict[str, pd.DataFrame] | None:
        """The report tables by kind, or None when `reports` is off."""
        return self.write_reports(hooks) if self.reports else None

    def execute(
        self,
        backend: str | None = None,
        scheduler: str | None = None,
        hooks: Hooks = QUIET,
        reports: bool = True,
        charts: bool = True,
    ) -> dict[str, pd.DataFrame] | None:
        """The whole run (Door.execute); the report tables by kind (their charts drawn unless `charts` is off), or
        None when `reports` is off."""
        self.reports, self.charts = reports, charts
        return super().execute(backend, scheduler, hooks)
