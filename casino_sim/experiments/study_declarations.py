"""The options of findings, card-value, bench, analyse and experiment, declared once (core/fields.py), beside
simulate's and tournament's (experiments/declarations.py, whose shared fields they reuse): the command line
(cli/declared.py) and the API (api/declared.py) are made from these. Nothing here loads pandas or the engine."""

from __future__ import annotations

from dataclasses import replace

from casino_sim.core.fields import Declaration, Field, FieldError
from casino_sim.experiments.declarations import (
    BACKEND,
    BOT_TIMEOUT,
    CHARTS,
    FORCE,
    MAX_CHUNK_DEALS,
    PROGRESS,
    RULES,
    SCHEDULER,
    SEED,
    THREADS,
)
from casino_sim.experiments.ladder import LADDER

FORMAT = Field("format", (str,), "text", "text: a table; json: one object.", run=False, api=False)


def _force_or_resume(values: dict, given: frozenset) -> None:
    """experiment's --force replaces the runs and --resume finishes them: never both."""
    if values.get("force") and values.get("resume"):
        raise FieldError(
            ("force", "out", "resume"),
            "{force} replaces the runs in {out} and {resume} finishes them: give one of them",
        )


FINDINGS = Declaration(
    "findings",
    (
        Field(
            "policies",
            (str,),
            ",".join(LADDER),
            "The ladder, weakest first, comma-separated: any policy simulate takes.",
            api_kinds=(str, list, tuple),
        ),
        replace(RULES, default="brazilian", plan=False),
        Field(
            "players",
            (str,),
            "2,3,4,teams",
            "The tables each policy plays, comma-separated: 2, 3, 4 (players alone) and teams (four in two teams); "
            "3, 4 and teams need brazilian or italian.",
            api_kinds=(str, list, tuple),
        ),
        Field("deals", (int,), 20_000, "The most deals any one run plays (each policy at each table)."),
        Field(
            "until_ci",
            (float,),
            0.25,
            "Stop a run once its seat advantage's 95% interval is narrower than this (points; --deals caps it).",
        ),
        Field(
            "precision",
            (float, None),
            None,
            "Carry the strongest policy's runs past --until-ci until every headline finding's 95% half-width is at "
            "most this many points (seat advantage, the 10♦, the 2♠, the aces; sweeps, plays and builds per round "
            "a fifth of it), --deals the cap; off by default.",
        ),
        Field(
            "precise_rungs",
            (int,),
            1,
            "How many of the strongest policies --precision carries on (a compute ladder asks it of every rung).",
            bounds=(1, 16, "must be between 1 and 16, got {value}"),
        ),
        replace(SEED, help="Seed of every run: every policy plays the same deals.", plan=False),
        replace(THREADS, plan=False),
        Field(
            "chunk_deals",
            (int,),
            1_000,
            "Deals per chunk (where --until-ci looks, and what a resume keeps).",
            bounds=(1, MAX_CHUNK_DEALS, "must be between 1 and 10,000,000, got {value:,}"),
        ),
        Field(
            "resamples",
            (int,),
            400,  # reports/equity.py RESAMPLES (tests/experiments/test_declarations.py holds them equal)
            "Bootstrap resamples behind the equity's interval (at least 100).",
            bounds=(100, None, "must be at least 100, got {value}"),
        ),
        Field(
            "out",
            ("path", None),
            None,
            "The findings folder (by default results/runs/findings-<rules>-<policies>-<tables>); the same command "
            "again finishes what it holds.",
            run=False,
        ),
        replace(FORCE, help="Play every run again from the start."),
        BACKEND,
        SCHEDULER,
        replace(BOT_TIMEOUT, api=True),
        PROGRESS,
    ),
)


CARD_VALUE = Declaration(
    "card_value",
    (
        Field("policy", (str,), "expert", "The policy playing every seat."),
        Field(
            "deals",
            (int,),
            2_000,
            "Deals; every card dealt to a hand is paired in each.",
            bounds=(1, MAX_CHUNK_DEALS, "must be between 1 and 10,000,000, got {value:,}"),
        ),
        replace(RULES, plan=False),
        replace(SEED, help="Seed of the experiment.", plan=False),
        replace(THREADS, help="Threads (0: all cores).", plan=False),
        Field("out", ("path", None), None, "Folder for tables and charts.", run=False),
        replace(FORCE, help="Replace the tables and charts already in --out."),
        BOT_TIMEOUT,
    ),
)


BENCH = Declaration(
    "bench",
    (
        Field(
            "engine",
            (str,),
            "numba",
            "Rules engine to answer with: numba (fast), or reference (the executable spec).",
        ),
        Field("policy", (str,), "random", "The policy playing both seats."),
        Field(
            "deals",
            (int,),
            200_000,
            "Rounds to time.",
            bounds=(1, 10**9, "must be between 1 and 1,000,000,000, got {value}"),
        ),
        replace(THREADS, default=1, help="Threads for the numba engine (0: all cores).", plan=False),
        replace(RULES, plan=False),
        FORMAT,
        Field(
            "compile_times",
            (bool,),
            False,
            "Also time a cold and a cached compile first (under a minute).",
            flag="--compile/--no-compile",
        ),
        Field("check", (bool,), False, "Time the checked mode of `simulate --check`."),
    ),
)


ANALYSE = Declaration(
    "analyse",
    (
        Field(
            "position",
            (str,),
            None,
            "Position JSON file, or - for stdin (the opponent's hand may be unknown).",
            flag="",
            api_kinds=(object,),  # a dict, its JSON text, a file or a Position: api/positions.py position_of
        ),
        Field("worlds", (int,), 1000, "Worlds of hidden cards sampled; every move is played out in each."),
        Field("policy", (str,), "expert", "The play-out policy (random or a heuristic)."),
        replace(SEED, help="Seed for the worlds and the play-outs.", plan=False),
        FORMAT,
    ),
)


EXPERIMENT = Declaration(
    "experiment",
    (
        Field("plan", ("path",), None, "An experiment plan (TOML): runs and their expectations.", flag=""),
        Field("out", ("path", None), None, "Folder for the runs (default results/runs/<plan>).", run=False),
        Field(
            "resume",
            (bool,),
            False,
            "Finish the interrupted runs in --out (their finished chunks are kept).",
            run=False,
        ),
        replace(FORCE, help="Replace the runs already in --out."),
        CHARTS,
        BACKEND,
        SCHEDULER,
        BOT_TIMEOUT,
    ),
    rules=(_force_or_resume,),
)
