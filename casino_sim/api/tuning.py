"""`tune`: a heuristic's weights searched as `casino-sim tune` searches them (its front door: experiments/tune.py
TuneRun, made from its declaration: experiments/tune_fields.py TUNE), the policy file written and its validation
returned as a DataFrame."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from casino_sim.api.arguments import Bar, api_errors, each_a_string
from casino_sim.api.declared import api_function
from casino_sim.api.policies import loader
from casino_sim.experiments.tune import TuneRun
from casino_sim.experiments.tune_fields import TUNE


@dataclass(frozen=True)
class Tuned:
    """A finished tune run: the policy file written (`path`, a .toml that every command and call takes as a
    policy), the run folder (`folder`, its tables and charts under report/) and the validation table (the tuned
    policy against each opponent on fresh deals, report/validation.csv)."""

    path: Path
    folder: Path
    validation: pd.DataFrame

    def __repr__(self) -> str:
        return f"<Tuned {self.path.stem}: {self.path}>"


def _tune(values: dict, given: frozenset) -> Tuned:
    """Search the weights of the heuristic `start` for the best score against the field `against` (a list, or the
    command's comma-separated text), as `casino-sim tune` does, into the run folder `out` (default
    results/tune/<start>-<rules>-seedN; force=True replaces a run there); the policy is written as `name`
    (default <start>-tuned). An interrupted run is finished with `casino-sim tune --resume FOLDER`."""
    each_a_string("against", values["against"])
    with api_errors():
        door = TuneRun.new(values, given, loader(), values["out"], values["force"])
        result = door.execute(values["backend"], values["scheduler"], Bar(values["progress"]))
        return Tuned(result.path, door.path, pd.DataFrame(result.validation))


tune = api_function(TUNE, _tune, positional=2)
