"""`tune`: a heuristic's weights searched as `casino-sim tune` searches them (its front door: experiments/tune.py
TuneRun), the policy file written and its validation returned as a DataFrame."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from casino_sim.api.arguments import Bar, api_errors, check_types, names
from casino_sim.api.policies import loader
from casino_sim.experiments.tune import TuneConfig, TuneRun


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


def tune(
    start: str = "expert",
    against: str | list[str] | tuple[str, ...] = "expert,greedy",
    *,
    rules: str = "strict",
    deals: int = 1_000,
    generations: int = 30,
    population: int = 12,
    seed: int = 0,
    sigma: float = 0.3,
    validate_deals: int = 20_000,
    name: str = "",
    threads: int = 0,
    out: str | Path | None = None,
    force: bool = False,
    backend: str | None = None,
    scheduler: str | None = None,
    progress: bool = False,
) -> Tuned:
    """Search the weights of the heuristic `start` for the best score against the field `against` (a list, or the
    command's comma-separated text), as `casino-sim tune` does, into the run folder `out` (default
    results/tune/<start>-<rules>-seedN; force=True replaces a run there); the policy is written as `name`
    (default <start>-tuned). An interrupted run is finished with `casino-sim tune --resume FOLDER`."""
    given = dict(locals())
    check_types(
        start=(start, str),
        against=(against, str, list, tuple),
        rules=(rules, str),
        deals=(deals, int),
        generations=(generations, int),
        population=(population, int),
        seed=(seed, int),
        sigma=(sigma, float),
        validate_deals=(validate_deals, int),
        name=(name, str),
        threads=(threads, int),
        out=(out, "path", None),
        force=(force, bool),
        backend=(backend, str, None),
        scheduler=(scheduler, str, None),
        progress=(progress, bool),
    )
    with api_errors(given):
        config = TuneConfig(
            start=start,
            against=names("against", against),
            rules=rules,
            deals=deals,
            generations=generations,
            population=population,
            seed=seed,
            sigma=sigma,
            validate_deals=validate_deals,
            name=name,
            threads=threads,
            loader=loader(),
        )
        door = TuneRun.new(config, out, force)
        result = door.execute(backend, scheduler, Bar(progress))
        return Tuned(result.path, door.path, pd.DataFrame(result.validation))
