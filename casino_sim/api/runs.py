"""`simulate` and `open_run`: a run folder as the commands write it, read back as pandas objects (a Run)."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

import pandas as pd

from casino_sim.api.arguments import Bar, api_errors, call_text, check_types
from casino_sim.api.declared import api_function
from casino_sim.api.policies import loader
from casino_sim.api.tournaments import Tournament
from casino_sim.core.errors import InputError
from casino_sim.experiments.declarations import SIMULATE
from casino_sim.experiments.simulate_door import Simulation
from casino_sim.policies.names import matchup, recorded_labels
from casino_sim.runner.run_state import is_played
from casino_sim.runner.rundir import RunDir


class Run:
    """A finished `simulate` run folder: its records and report tables as DataFrames, its charts as Figures.

    The tables are made by the same functions that wrote the folder's `report/*.csv`, so they hold the same
    numbers. Open one with `open_run(path)`; `simulate(...)` returns one.
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.manifest = RunDir(self.path).read_manifest()
        kind = self.manifest.get("kind")
        if kind != "simulate":
            raise InputError(f"{self.path} is not a simulate run folder (it holds a {kind or 'folder of no kind'})")
        if not is_played(self.manifest):  # played: every chunk is, its report files may still be to write
            raise InputError(f"{self.path} is not finished; finish it with  casino-sim simulate --resume {self.path}")

    def __repr__(self) -> str:
        c = self.config
        label = recorded_labels(self.manifest, loader().label)
        who = matchup(c["policy_a"], c["policy_b"], c.get("seats"), c["rules"], label)
        unit = "games" if c.get("games") else "deals"
        return f"<Run {who}, {c['deals']:,} {unit}, rules {c['rules']}, seed {c['seed']}: {self.path}>"

    @property
    def config(self) -> dict:
        """The options the run was played with (the manifest's config)."""
        return dict(self.manifest["config"])

    @cached_property
    def rounds(self) -> pd.DataFrame:
        """One row per round played: the run's Parquet records, in deal order."""
        return RunDir(self.path).read_rounds()

    @cached_property
    def games(self) -> pd.DataFrame | None:
        """One row per whole game (a run with games=True), else None."""
        return RunDir(self.path).read_table("games") if (self.path / "games").is_dir() else None

    @property
    def summary(self) -> pd.DataFrame:
        """The summary table: per matchup, A minus B with its 95% interval, A's win rate, mean totals."""
        return self.report("summary")

    @cached_property
    def _reports(self) -> dict:
        from casino_sim.reports.index import make_all  # matplotlib: only when a report is asked for

        return make_all(self.path)

    @property
    def kinds(self) -> list[str]:
        """The report kinds of this run: summary, score, sweeps, seat, anatomy, convergence (games, card-value)."""
        return list(self._reports)

    def _report(self, kind: str):
        from casino_sim.reports.index import report_of  # matplotlib: only when a report is asked for

        check_types(kind=(kind, str))
        return report_of(self._reports, kind)

    def report(self, kind: str) -> pd.DataFrame:
        """The main table of a report kind (`casino-sim report KIND` writes it as CSV), e.g. run.report("sweeps")."""
        return self._report(kind).table.copy()

    def chart(self, kind: str, name: str | None = None):
        """The matplotlib Figure of a report kind, as its PNG shows it; `name` picks one of a kind with several
        (card-value: card_value_heatmap, ten_diamonds_by_batch)."""
        charts = self._report(kind).charts
        if name is None:
            return next(iter(charts.values()))()
        if name not in charts:
            raise InputError(f"report {kind!r} has no chart {name!r}; its charts: {', '.join(charts)}")
        return charts[name]()


def _simulate(values: dict, given: frozenset) -> Run:
    """Play `policy` against `vs` over `deals` deals as `casino-sim simulate` does, and return the Run.

    The options are the command's (`casino-sim simulate --help`); the run folder `out` (default
    results/runs/<time>-<A>-vs-<B>/, as the command's) gets the same records and reports. `seats` may be a list.
    `reports=False` skips writing the report files (most of a small run's time): the Run still makes every table
    and chart when asked, and `casino-sim report all PATH` writes them later. `charts=False` writes every report but
    its charts (the command's --no-charts).

    >>> run = cs.simulate(deals=40, policy="expert", vs="greedy", seed=1, card_deals=0)
    >>> len(run.rounds)  # 40 deals, each played twice with the seats swapped
    80
    >>> run.summary[["policy_a", "policy_b", "deals"]]
      policy_a policy_b  deals
    0   expert   greedy     40
    >>> print(run.report("sweeps").query("batch == 0")[["policy", "n"]].to_string(index=False))
    policy  n
    expert 80
    greedy 80
    >>> run.chart("sweeps").savefig("sweeps.png")  # a matplotlib Figure
    >>> run.path.parent.as_posix()
    'results/runs'
    """
    seats = values["seats"]
    for name in seats if isinstance(seats, list | tuple) else ():
        SIMULATE["seats"].check_type(name)  # a list of names, each a string
    with api_errors():
        joined = ",".join(seats) if isinstance(seats, list | tuple) else seats
        options = {**values, "seats": joined, "card_deals": str(values["card_deals"])}
        command = [call_text("simulate", values, SIMULATE.defaults())]
        resume_with = "casino-sim simulate --resume {path}"
        simulation = Simulation.new(options, given, loader(), values["out"], command, values["force"], resume_with)
        hooks = Bar(values["progress"])
        simulation.execute(values["backend"], values["scheduler"], hooks, values["reports"], values["charts"])
        return Run(simulation.run.path)


simulate = api_function(SIMULATE, _simulate, positional=3)


def open_run(path: str | Path):
    """The run folder `path` as the API returns it: a Run (simulate) or a Tournament (tournament).

    >>> cs.open_run(cs.simulate(deals=10, seed=2, card_deals=0).path).summary["deals"].tolist()
    [10]
    """
    check_types(path=(path, "path"))
    with api_errors():
        if RunDir(path).read_manifest().get("kind") == "tournament":
            return Tournament(path)
        return Run(path)
