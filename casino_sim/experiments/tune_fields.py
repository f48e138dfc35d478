"""tune's options, declared once (core/fields.py), in the order `--help` lists them: the command line (cli/tune.py),
the API (api/tuning.py) and its front door (experiments/tune.py TuneRun) are made from these; nothing here loads
pandas or the engine."""

from __future__ import annotations

import re
from dataclasses import replace

from casino_sim.core.fields import Declaration, Field, FieldError
from casino_sim.core.lists import comma_list
from casino_sim.experiments.declarations import BACKEND, FORCE, PROGRESS, RULES, SCHEDULER, SEED, THREADS

MAX_DEALS = 10**7
MAX_GENERATIONS = 10_000
MAX_POPULATION = 1_000
MAX_SIGMA = 10
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")  # the policy's name, and its file's


def parse_against(value: str | list | tuple) -> tuple[str, ...]:
    """--against: the field's policies, one string comma-separated (the command line's) or a list (the API's)."""
    return comma_list(value, "must name one or more policies", "against") if isinstance(value, str) else tuple(value)


def _sizes(values: dict, given: frozenset) -> None:
    """The search's sizes that bounds alone do not say: a population of 2 to MAX_POPULATION, a first step above 0."""
    population, sigma = values.get("population", 2), values.get("sigma", 1.0)
    if population < 2:
        raise FieldError("population", f"must be at least 2, got {population}")
    if population > MAX_POPULATION:
        raise FieldError("population", f"must be at most {MAX_POPULATION:,}, got {population}")
    if not 0 < sigma <= MAX_SIGMA:
        raise FieldError("sigma", f"must be above 0 and at most {MAX_SIGMA}, got {sigma}")


def _field_and_name(values: dict, given: frozenset) -> None:
    """At least one opponent; a --name that names a file (none: the start's, made by the front door)."""
    if not values.get("against", ("",)):
        raise FieldError("against", "needs at least one policy")
    name = values.get("name", "")
    if name and not NAME.fullmatch(name):
        raise FieldError("name", f"must be letters, digits, '-', '_' or '.' (it names the file), got {name!r}")


TUNE = Declaration(
    "tune",
    (
        Field("start", (str,), "expert", "The heuristic policy (name or .toml) to start from."),
        Field(
            "against",
            (str,),
            "expert,greedy",
            "The field, comma-separated: each candidate plays every one.",
            api_kinds=(str, list, tuple),
        ),
        RULES,
        Field(
            "deals",
            (int,),
            1_000,
            "Mirrored deals per candidate against each opponent (the same for a generation).",
            bounds=(1, MAX_DEALS, "must be between 1 and 10,000,000, got {value:,}"),
        ),
        Field(
            "generations",
            (int,),
            30,
            "Generations of CMA-ES.",
            bounds=(1, MAX_GENERATIONS, "must be between 1 and 10,000, got {value}"),
        ),
        Field("population", (int,), 12, "Candidates per generation (at least 2)."),
        replace(SEED, help="Seed of the whole search: the same seed, the same run."),
        Field("sigma", (float,), 0.3, "First step size, in units of each weight's size."),
        Field(
            "validate_deals",
            (int,),
            20_000,
            "Fresh mirrored deals to validate the result on.",
            bounds=(2, MAX_DEALS, "must be between 2 and 10,000,000, got {value:,}"),
        ),
        Field(
            "name",
            (str,),
            "",
            "Name of the policy written (and of its file); not a built-in's or the field's.",
            typer={"show_default": "<start>-tuned"},
        ),
        THREADS,
        Field("out", ("path", None), None, "Run folder (default results/tune/<start>-<rules>-seedN).", run=False),
        Field("resume", ("path", None), None, "Finish an interrupted tune run in this folder.", run=False, api=False),
        replace(FORCE, help="Replace the tune run in --out."),
        BACKEND,
        SCHEDULER,
        PROGRESS,
    ),
    rules=(_sizes, _field_and_name),
)
