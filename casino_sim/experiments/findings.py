"""`casino-sim findings`: the project's findings measured under each policy of a strength ladder (docs/findings.md).

Each (policy, table) pair is an ordinary simulate run (experiments/simulate_door.py) of the policy in every seat, under
OUT/runs/<policy>/<table>/: the same seed, chunk size and unmirrored seating for every policy, so every policy plays
the same deals, and each run stops at --until-ci (simulate's; with one policy in every seat its headline is the seat
difference, so the interval it narrows is the seat advantage's). Running the command again into the same OUT resumes
the unfinished runs and skips the finished ones. With --precision the strongest policy's runs go on past --until-ci
until its headline findings are that precise (experiments/findings_precision.py). This module only plans and plays
the runs; reports/findings.py collates their report tables.
"""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass
from dataclasses import fields as dataclass_fields
from pathlib import Path

import pandas as pd

from casino_sim.core.fields import FieldError
from casino_sim.core.lists import comma_list
from casino_sim.core.rules import get_rules
from casino_sim.experiments.declarations import SIMULATE
from casino_sim.experiments.door import QUIET, Door, Hooks
from casino_sim.experiments.findings_precision import narrower
from casino_sim.experiments.ladder import LADDER
from casino_sim.experiments.simulate import SimConfig
from casino_sim.experiments.simulate_door import Simulation
from casino_sim.experiments.study_declarations import FINDINGS
from casino_sim.policies.names import folder_safe
from casino_sim.policies.policy import Load
from casino_sim.reports.equity import RESAMPLES
from casino_sim.reports.findings import collate, run_rows, shortfall, write_findings
from casino_sim.runner.run_state import COMPLETE, PLAYED
from casino_sim.runner.rundir import RunDir, writable_folder

# the tables each policy plays: --players key -> the game options added to --rules (docs/rules.md section 11)
TABLES = {"2": "", "3": "players=3", "4": "players=4,teams=false", "teams": "players=4,teams=true"}
LIST_PLAYERS = "must name one or more tables (2, 3, 4, teams)"
MANIFEST = "manifest.json"  # kind "findings"; findings.json is the table (as findings.csv)


def default_out(request: FindingsRequest, root: Path = Path("results/runs")) -> Path:
    """Where findings go without --out: a folder of their own under results/runs, as simulate's runs go, named by
    the request (results/findings holds the repository's standard results)."""
    return root / request.folder_name()


@dataclass(frozen=True)
class FindingsRequest:
    """The findings command's options by name (experiments/study_declarations.py FINDINGS): the ladder (weakest
    first), the tables, and each run's size."""

    policies: tuple[str, ...] = LADDER
    rules: str = "brazilian"
    players: tuple[str, ...] = tuple(TABLES)
    deals: int = 20_000  # the cap on each run's deals
    until_ci: float | None = 0.25
    precision: float | None = None  # the strongest policy's runs go on until its findings are this precise
    precise_rungs: int = 1  # how many of the strongest policies --precision carries on
    seed: int = 0
    threads: int = 0
    chunk_deals: int = 1_000
    resamples: int = RESAMPLES  # the equity table's bootstrap

    @classmethod
    def of(cls, values: dict) -> FindingsRequest:
        """The request of findings' values by field name (FINDINGS), checked once: the ladder and the tables a list
        or one comma-separated string each; FieldError names the field."""
        lists = {
            name: comma_list(values[name], must, name) if isinstance(values[name], str) else tuple(values[name])
            for name, must in (("policies", "must name one or more policies"), ("players", LIST_PLAYERS))
        }
        fields = {f.name for f in dataclass_fields(cls)}
        request = cls(**{k: v for k, v in values.items() if k in fields} | lists)
        request.check()
        return request

    def folder_name(self) -> str:
        """findings-<rules>-<policies>-<tables>: the same request, the same folder (run again, it finishes)."""
        return folder_safe(f"findings-{self.rules}-{'-'.join(self.policies)}-{'-'.join(self.players)}")

    def check(self) -> None:
        """One line for an impossible option (each run's own options are checked by simulate's door)."""
        FINDINGS.check(asdict(self))
        if not 2 <= len(self.policies) <= 16:
            raise FieldError("policies", f"must name 2 to 16 policies, weakest first, got {len(self.policies)}")
        if not self.players or any(p not in TABLES for p in self.players):
            raise FieldError("players", f"takes some of {', '.join(TABLES)}, got {','.join(self.players) or '(none)'}")
        if self.precision is not None and not self.precision > 0:  # NaN too
            raise FieldError("precision", f"must be a positive half-width in points, got {self.precision}")
        if get_rules(self.rules).players != 2:
            raise FieldError(
                ("rules", "players"),
                "{rules} names the game and {players} the tables: give {rules} without players=, got " + self.rules,
            )

    def table_rules(self, key: str) -> str:
        """The rule set of table `key`: --rules with the table's game options added."""
        extra = TABLES[key]
        return self.rules if not extra else f"{self.rules}{',' if ':' in self.rules else ':'}{extra}"

    def sim_options(self, policy: str, key: str) -> dict:
        """simulate's options (by field name: experiments/declarations.py SIMULATE, each run option given) for
        `policy` in every seat at table `key`: unmirrored (mirroring one policy replays the same game), the card
        swaps off (the findings read each run's card values from its own deals)."""
        return dict(
            {f.name: f.default for f in SIMULATE.fields if f.run},
            deals=self.deals,
            policy=policy,
            vs=policy,
            rules=self.table_rules(key),
            seed=self.seed,
            threads=self.threads,
            mirrored=False,
            until_ci=self.until_ci,
            chunk_deals=self.chunk_deals,
        )


@dataclass(frozen=True)
class PlannedRun:
    """One run of the plan: the policy as given and its display name, the table, simulate's options, the folder."""

    policy: str
    name: str
    table: str
    options: dict
    path: Path


def plan(request: FindingsRequest, root: Path, loader: Load) -> list[PlannedRun]:
    """Every (policy, table) run, each checked as simulate checks it, its policies resolved by `loader` (an unknown
    policy, an impossible option: refused before anything plays)."""
    request.check()
    runs = []
    for spec in request.policies:
        for key in request.players:
            sim = request.sim_options(spec, key)
            name = SimConfig.of(sim).resolve(loader).lineup().label(spec)
            runs.append(PlannedRun(spec, name, key, sim, root / "runs" / folder_safe(name) / table_folder(key)))
    names = [r.name for r in runs[:: len(request.players)]]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise FieldError("policies", f"names {', '.join(twice)} twice")
    return runs


def table_folder(key: str) -> str:
    return "teams" if key == "teams" else f"{key}-players"


class _Labelled(Hooks):
    """A run's hooks inside the findings: its progress bar named after the policy and table; the rest said once."""

    def __init__(self, hooks: Hooks, label: str):
        self.hooks, self.label = hooks, label

    def progress(self, label: str, unit: str) -> AbstractContextManager:
        return self.hooks.progress(self.label, unit)


@dataclass
class FindingsRun(Door):
    """The ladder's runs, played in order (weakest policy first) and collated (experiments/door.py Door)."""

    request: FindingsRequest
    root: Path
    command: list[str]
    runs: list[PlannedRun]
    loader: Load  # the policy loader each run resolves its policies with
    force: bool = False  # start every run afresh
    scheduler: str | None = None  # a Dask scheduler's workers compile their own

    @classmethod
    def new(
        cls, request: FindingsRequest, loader: Load, root: Path, command: list[str], force: bool = False
    ) -> FindingsRun:
        """The findings into `root`, the policies resolved by `loader`; a folder of another kind refused unless
        `force` (which starts afresh)."""
        runs = plan(request, root, loader)
        root = Path(root)
        made = root / MANIFEST
        if root.is_dir() and any(root.iterdir()) and not made.exists() and not force:
            raise FieldError(
                ("out", "force"), f"{root} is not empty and holds no findings: give another {{out}}, or {{force:on}}"
            )
        return cls(request, root, command, runs, loader, force)

    @classmethod
    def of(cls, values: dict, loader: Load, command: list[str]) -> FindingsRun:
        """The findings of the options `values` by field name (FINDINGS: the command's or the API's), checked once
        into a request; into `out`, or the request's own folder under results/runs."""
        request = FindingsRequest.of(values)
        out = values["out"] if values["out"] is not None else default_out(request)
        return cls.new(request, loader, out, command, values["force"])

    @property
    def config(self) -> FindingsRequest:
        return self.request

    @property
    def ladder(self) -> list[str]:
        """The policies' names, weakest first."""
        return [r.name for r in self.runs[:: len(self.request.players)]]

    @property
    def folder(self) -> RunDir:
        return RunDir(self.root)

    def compile(self, scheduler: str | None) -> None:
        """Each run compiles ahead for its own policies when it starts (simulate's compile step)."""
        self.scheduler = scheduler

    def start(self) -> None:
        """Make the folder (after the backend opened: a bad address makes nothing) and record the command that
        started it (a command run again finishes it: each run checks its own options)."""
        writable_folder(self.root)
        if (self.root / MANIFEST).exists() and not self.force:
            return
        text = json.dumps({"kind": "findings", "command": self.command, "request": asdict(self.request)}, indent=2)
        (self.root / MANIFEST).write_text(text + "\n")

    def precise(self, run: PlannedRun) -> bool:
        """Whether --precision carries `run` on: a run of one of the --precise-rungs strongest policies, with
        --precision given."""
        return self.request.precision is not None and run.name in self.ladder[-self.request.precise_rungs :]

    def simulation(self, run: PlannedRun) -> Simulation | None:
        """The door of one run: new, resumed (its options checked against the run's), or None when played."""
        if self.force or not (run.path / "manifest.json").exists():
            return Simulation.new(run.options, frozenset(), self.loader, run.path, self.command, force=True)
        # as if typed (None is unsaid), but not card_deals: findings played card swaps (500 deals) before they read
        # the card values from each run's own deals; such a run finishes with its own, off ones with none. A run
        # --precision carries (or carried) on has a narrower --until-ci of its own: it keeps it
        carried = self.precise(run) or bool(RunDir(run.path).read_manifest().get("extended"))
        kept = {"card_deals", "until_ci"} if carried else {"card_deals"}
        given = {k: v for k, v in run.options.items() if v is not None and k not in kept}
        sim = Simulation.resume(run.path, given, self.command, self.loader)
        return None if sim.run.read_manifest().get("status") in (PLAYED, COMPLETE) else sim

    def play(self, backend, hooks: Hooks = QUIET) -> list[PlannedRun]:
        """Every run not yet played, in ladder order; the runs' report tables are not written (collate reads the
        records), so a finished run stays "played" and is skipped when the command runs again."""
        for run in self.runs:
            sim = self.simulation(run)
            label = _Labelled(hooks, f"{run.name} · {table_folder(run.table)}")
            if sim is not None:
                sim.start()
                sim.compile(self.scheduler)
                sim.play(backend, label)
            if self.precise(run):
                self.refine(run, backend, label)
        return self.runs

    def refine(self, run: PlannedRun, backend, hooks: Hooks) -> None:
        """Carry `run` on, a narrower --until-ci at a time, until its targeted findings reach --precision or it
        reaches --deals (experiments/findings_precision.py)."""
        while True:
            factor = shortfall(run_rows(run.path, run.table, None), self.request.precision)
            width = narrower(RunDir(run.path).read_manifest(), factor)
            if width is None:
                return
            sim = Simulation.resume(run.path, {"until_ci": width}, self.command, self.loader)
            sim.compile(self.scheduler)
            sim.play(backend, hooks)

    def report(self, played, hooks: Hooks) -> pd.DataFrame:
        """findings.csv, verdicts.csv, findings.md and a chart per finding in the root; returns the table."""
        rows = collate([(r.name, r.table, r.path) for r in self.runs], self.request.resamples)
        r = self.request
        about = f"{r.rules} rules, at most {r.deals:,} deals a run, seed {r.seed}"
        return write_findings(rows, self.ladder, self.root, about, r.precision, r.precise_rungs)
