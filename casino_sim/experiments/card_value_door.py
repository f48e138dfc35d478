"""card-value's front door (experiments/door.py): its options (experiments/study_declarations.py CARD_VALUE)
checked once into an immutable CardValueSpec, its policy resolved once; execute() makes the folder, compiles,
plays the paired deals (experiments/card_value.py) and writes the card-swap tables, charts and page."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from casino_sim.core.rules import RuleSet, get_rules
from casino_sim.engines.compiling import ensure_compiled, search_variants
from casino_sim.experiments.card_value import card_values
from casino_sim.experiments.door import QUIET, Door, Hooks
from casino_sim.experiments.study_declarations import CARD_VALUE
from casino_sim.policies.names import folder_safe
from casino_sim.policies.policy import Load, Policy
from casino_sim.runner.rundir import RunDir, refuse_used_folder, writable_folder


@dataclass(frozen=True)
class CardValueSpec:
    """What decides the card values: the options as given (`policy` the spec), the policy and rule set resolved."""

    policy: str
    deals: int
    rules: str
    seed: int
    threads: int
    chosen: Policy
    ruleset: RuleSet

    @classmethod
    def of(cls, values: dict, loader: Load) -> CardValueSpec:
        """The spec of card-value's values by field name, checked (FieldError) and resolved by `loader` once."""
        CARD_VALUE.check(values)
        chosen, ruleset = loader(values["policy"]), get_rules(values["rules"])
        return cls(
            values["policy"], values["deals"], values["rules"], values["seed"], values["threads"], chosen, ruleset
        )

    def manifest(self) -> dict:
        """What the tables' page records: the options and the policy's name."""
        config = {"policy": self.policy, "deals": self.deals, "rules": self.rules, "seed": self.seed}
        return {"kind": "card-value", "config": config, "policy_names": {self.policy: self.chosen.name}}


@dataclass
class CardValueRun(Door):
    """The card values of one policy over paired deals, into one folder of tables and charts."""

    config: CardValueSpec
    target: Path

    @classmethod
    def new(cls, values: dict, loader: Load) -> CardValueRun:
        """The run of `values` (CARD_VALUE's fields) into `out` (default
        results/runs/card-value-<policy>-<rules>-seed<seed>); a folder in use refused unless `force`."""
        spec = CardValueSpec.of(values, loader)
        default = Path("results/runs") / f"card-value-{folder_safe(spec.chosen.name)}-{spec.rules}-seed{spec.seed}"
        target = Path(values["out"]) if values["out"] is not None else default
        refuse_used_folder(target, values["force"])
        return cls(spec, target)

    @property
    def folder(self) -> RunDir:
        return RunDir(self.target)

    def start(self) -> None:
        writable_folder(self.target)

    def compile(self, scheduler: str | None = None) -> None:
        ensure_compiled("rounds", search=search_variants([(self.config.chosen,)]))

    def play(self, backend, hooks: Hooks = QUIET) -> pd.DataFrame:
        """Every paired deal, played in this process on the spec's threads (`backend` unused: no chunks to send)."""
        c = self.config
        with hooks.progress("card values", "rounds") as update:
            return card_values(c.chosen, c.deals, c.rules, c.seed, c.threads, progress=update)

    def report(self, played: pd.DataFrame, hooks: Hooks) -> pd.DataFrame:
        """The card-swap tables, charts, report.md and index.html in the folder; returns the values table."""
        # deferred: matplotlib only once there is something to draw
        from casino_sim.reports.index import write_page_of
        from casino_sim.reports.kinds import card_swap

        manifest = self.config.manifest()
        values = card_swap(played, self.target, manifest)
        write_page_of(self.target, {"card-swap": values}, manifest)
        return values
