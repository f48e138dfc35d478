"""knockout's and regret's front doors: the request checked once (its policies resolved into objects), the output
folder refused when in use, then compiled for, played and written as a table and its chart.

Both keep what was finished: Ctrl-C while playing still writes the table of the finished chunks before the
hooks are told (experiments/door.py Door.KEEPS_CUT). The command (cli/skills.py) is an adapter onto them.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from casino_sim.analysis.regret import Regret, RegretConfig
from casino_sim.engines.compiling import ensure_compiled, search_variants
from casino_sim.experiments.door import Door, Hooks
from casino_sim.experiments.knockout import Knockout, KnockoutConfig
from casino_sim.experiments.skill_fields import REGRET
from casino_sim.policies.names import folder_safe
from casino_sim.policies.policy import Load
from casino_sim.runner.rundir import RunDir, refuse_used_folder, writable_folder
from casino_sim.runner.seating import declared_options, manifest_options

RUNS = Path("results/runs")  # where a table goes without --out


class TableRun(Door):
    """A run of `config` whose output is a table and its chart in one folder (`out`, or RUNS/`default`), refused
    when it holds other files unless `force`."""

    KEEPS_CUT = True

    def __init__(self, config, out: Path | None, default: str, force: bool):
        self.config = config
        self.path = Path(out) if out is not None else RUNS / default
        refuse_used_folder(self.path, force)

    @property
    def folder(self) -> RunDir:
        return RunDir(self.path)

    def start(self) -> None:
        writable_folder(self.path)


class KnockoutRun(TableRun):
    """knockout's one front door: a Knockout (its config checked, the policy resolved) played into its folder."""

    @classmethod
    def new(cls, values: dict, given: frozenset, load: Load) -> KnockoutRun:
        """The knockout of knockout's options `values` (by field name: experiments/skill_fields.py KNOCKOUT; `given`:
        those the user set), checked once (FieldError) and resolved by `load` into its specification; InputError
        for an output folder in use unless values["force"]."""
        return cls(KnockoutConfig.of(values).resolve(load, given), values["out"], values["force"])

    def __init__(self, config: KnockoutConfig, out: Path | None = None, force: bool = False):
        self.knockout = Knockout(config)
        default = f"knockout-{folder_safe(self.knockout.policy.name)}-{config.rules}-seed{config.seed}"
        super().__init__(config, out, default, force)

    def compile(self, scheduler: str | None) -> None:
        ensure_compiled("rounds", search=search_variants([(self.knockout.policy,)]))

    def play(self, backend, hooks: Hooks) -> None:
        with hooks.progress(f"knockout {self.knockout.policy.name}", "rounds") as update:
            self.knockout.run(update)

    def report(self, played, hooks: Hooks) -> pd.DataFrame:
        """The table of what was played, written with its chart (reports/skills.py)."""
        from casino_sim.reports.skills import write_knockout  # deferred: matplotlib, for the report only

        config, table = self.config, self.knockout.table()
        manifest = {"kind": "knockout", "config": manifest_options(config), "policy_names": config.lineup().labels()}
        write_knockout(table, self.path, manifest)
        return table


class RegretRun(TableRun):
    """regret's one front door: a Regret (its config checked, the policies resolved) played into its folder."""

    @classmethod
    def new(cls, values: dict, given: frozenset, load: Load) -> RegretRun:
        """The regret table of regret's options `values` (by field name: experiments/skill_fields.py REGRET;
        `given`: those the user set), checked once (FieldError) and resolved by `load` into its specification;
        InputError for an output folder in use unless values["force"]."""
        REGRET.check(values, given)
        policies = values["policies"]  # the command line's list (None: none given), or the API's name or names
        policies = (policies,) if isinstance(policies, str) else tuple(policies or ())
        config = RegretConfig(**declared_options(REGRET, values) | {"policies": policies})
        return cls(config.resolve(load), values["out"], values["force"])

    def __init__(self, config: RegretConfig, out: Path | None = None, force: bool = False):
        self.regret = Regret(config)
        names = "-".join(folder_safe(config.lineup().label(p)) for p in config.policies[:4])
        super().__init__(config, out, f"regret-{names}-{config.rules}-seed{config.seed}", force)

    def compile(self, scheduler: str | None) -> None:
        config = self.config
        ensure_compiled("regret", search=search_variants([config.seats(p)[:2] for p in config.policies]))

    def play(self, backend, hooks: Hooks) -> None:
        self.regret.run(lambda name: hooks.progress(f"regret {name}", "decisions"))

    def report(self, played, hooks: Hooks) -> pd.DataFrame:
        """The table of the policies judged so far, written with its chart when it has a row (reports/skills.py)."""
        from casino_sim.reports.skills import write_regret  # deferred: matplotlib, for the report only

        config, table = self.config, self.regret.table()
        if len(table):
            manifest = {"kind": "regret", "config": manifest_options(config), "policy_names": config.lineup().labels()}
            write_regret(table, self.path, manifest)
        return table
