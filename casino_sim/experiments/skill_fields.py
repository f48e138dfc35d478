"""knockout's and regret's options, declared once (core/fields.py), in the order `--help` lists them: the command
line (cli/skills.py), the API (api/skills.py) and their front doors (experiments/skill_runs.py) are made from these;
nothing here loads pandas or the engine."""

from __future__ import annotations

from dataclasses import replace

from casino_sim.core.fields import Declaration, Field, FieldError
from casino_sim.experiments.declarations import BOT_TIMEOUT, FORCE, PROGRESS, RULES, SEED, THREADS

MAX_DEALS = 10**7
MAX_CHUNK_DEALS = 10**6
MAX_DECISIONS = 10**7  # analysis/regret.py's (which loads pandas and the engine)
MAX_PRECISION = 100  # points per deal: a half-width this wide stops nothing

TABLE_OUT = Field("out", ("path", None), None, "Folder for the table and the chart.", run=False)
TABLE_FORCE = replace(FORCE, help="Replace the tables and charts already in --out.")


def _precision_in_points(values: dict, given: frozenset) -> None:
    """--precision: a half-width in points, 0 (every deal played) up to MAX_PRECISION (a NaN is none)."""
    precision = values.get("precision", 0)
    if not 0 <= precision < MAX_PRECISION:
        raise FieldError("precision", f"must be a half-width in points, >= 0, got {precision}")


KNOCKOUT = Declaration(
    "knockout",
    (
        Field(
            "policy",
            (str,),
            None,
            "A heuristic: a built-in name such as expert, or a .toml file.",
            flag="",
        ),
        Field(
            "deals",
            (int,),
            20_000,
            "The most mirrored deals any one feature plays.",
            bounds=(1, MAX_DEALS, "must be between 1 and 10,000,000, got {value:,}"),
        ),
        Field(
            "precision",
            (float,),
            0.05,
            "Stop a feature once its 95% interval's half-width is at most this (points per deal).",
        ),
        Field(
            "pairs",
            (list, None),
            None,
            "A,B: what B is worth with A already out (and each alone); several as A,B;C,D or --pairs again.",
            api_kinds=(str, list, tuple, None),
            typer={"show_default": False},
        ),
        RULES,
        replace(SEED, help="Seed: every feature (or policy) plays the same shuffles."),
        THREADS,
        Field(
            "chunk_deals",
            (int,),
            1_000,
            "Deals between two looks at the intervals (each deal is seeded alone).",
            bounds=(1, MAX_CHUNK_DEALS, "must be between 1 and 1,000,000, got {value:,}"),
        ),
        TABLE_OUT,
        TABLE_FORCE,
        PROGRESS,
    ),
    rules=(_precision_in_points,),
)


REGRET = Declaration(
    "regret",
    (
        Field(
            "policies",
            (list, None),
            None,
            "Policies: names, .toml files, module:function or exec:COMMAND.",
            flag="",
            api_kinds=(str, list, tuple),
            typer={"show_default": False},
        ),
        Field(
            "vs",
            (str, None),
            None,
            "The opponent in mirrored deals (default: each policy plays itself).",
        ),
        Field(
            "decisions",
            (int, None),
            None,
            "Last-batch decisions to judge per policy (default: 10,000; 1,000 for a Python policy and 300 with a "
            "rollout at the table).",
            bounds=(1, MAX_DECISIONS, "must be between 1 and 10,000,000, got {value:,}"),
            typer={"show_default": False},
        ),
        RULES,
        replace(SEED, help="Seed: every policy is judged on the same shuffles."),
        THREADS,
        TABLE_OUT,
        TABLE_FORCE,
        replace(BOT_TIMEOUT, api=True),
        PROGRESS,
    ),
)
