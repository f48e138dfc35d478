"""Each playing command's options, declared once (core/fields.py): the fields several commands share, then each
command's own, in the order `--help` lists them. The command line (cli/declared.py), the API (api/declared.py) and
the plan loader (experiments/plan.py) are made from these; nothing here loads pandas or the engine."""

from __future__ import annotations

from dataclasses import replace

from casino_sim.core.fields import Declaration, Field, FieldError

MAX_DEALS = 10**10
MAX_RECORD = 100_000
MAX_CHUNK_DEALS = 10**7
MAX_THREADS = 256


def count_field(name: str, default: int, text: str, top: int) -> Field:
    """A count of 1 to `top` (deals, chunk_deals) that a plan may set."""
    return Field(
        name, (int,), default, text, plan=True, bounds=(1, top, f"must be between 1 and {top:,}, got {{value:,}}")
    )


# fields several commands share (a command re-declares one whose help says something of its own)
RULES = Field(
    "rules",
    (str,),
    "strict",
    "Rule set: strict, brazilian or italian; game options after a colon, e.g. brazilian:target=31,round_win_points=6 "
    "(docs/rules.md).",
    plan=True,
)
THREADS = Field(
    "threads",
    (int,),
    0,
    "Threads (0: all cores). Results do not depend on it.",
    run=False,
    plan=True,
    bounds=(0, MAX_THREADS, "must be between 0 (all cores) and 256, got {value}"),
)
FORCE = Field("force", (bool,), False, "Replace the run in --out (or write into a non-empty --out).", run=False)
CHARTS = Field(
    "charts",
    (bool,),
    True,
    "Draw the reports' charts (PNG and SVG: most of a small run's time). --no-charts writes every table, report.md "
    "and the page without them; `casino-sim report all RUN_DIR` draws them later.",
    flag="--charts/--no-charts",
    run=False,
)
BACKEND = Field(
    "backend",
    (str, None),
    None,
    "Where chunks are played: local (this process) or dask (a LocalCluster on this machine, or the cluster at "
    "--scheduler). Results do not depend on it (default: local).",
    run=False,
    typer={"show_default": False},
)
SCHEDULER = Field(
    "scheduler",
    (str, None),
    None,
    "Address of a running Dask scheduler, tcp://HOST:PORT (implies --backend dask).",
    run=False,
)
BOT_TIMEOUT = Field(
    "bot_timeout",
    (float, None),
    None,
    "Seconds an exec:COMMAND bot may take to answer one move before the run stops (default 10).",
    run=False,
    api=False,
    typer={"show_default": False},
)
PROGRESS = Field("progress", (bool,), False, "Show a progress bar on stderr.", run=False, cli=False)
SEED = Field("seed", (int,), 0, "Seed of the whole run.", plan=True, bounds=(0, None, "must be >= 0, got {value}"))


def parse_card_deals(text: str) -> int | None:
    """--card-deals: a number of deals, or "auto" (None)."""
    if text.strip().lower() == "auto":
        return None
    try:
        return int(text)
    except ValueError:
        raise FieldError("card_deals", f"must be a number of deals or auto, got {text!r}") from None


def _seats_or_policies(values: dict, given: frozenset) -> None:
    """--seats names every player's policy: --policy or --vs given beside it would be dropped unseen."""
    given = [name for name in ("policy", "vs") if name in given]
    if values.get("seats") is not None and given:
        names = " and ".join("{" + name + "}" for name in given)
        raise FieldError(
            ("seats", *given), f"{{seats}} names every seat's policy and replaces {names}: give one of them"
        )


def _flags_that_go_together(values: dict, given: frozenset) -> None:
    """The refusals of simulate's options that are about two of them, before any policy is loaded."""
    games = values.get("games", False)
    if values.get("card_deals") and games:
        raise FieldError(("card_deals", "games"), "{card_deals} replays single rounds; it does not go with {games:on}")
    if values.get("start_score") is not None and not games:
        raise FieldError(
            ("start_score", "games"), "{start_score} is the score whole games start from: give it with {games:on}"
        )


SIMULATE = Declaration(
    "simulate",
    (
        count_field("deals", 100_000, "Deals (shuffles) to play; mirrored runs play each twice.", MAX_DEALS),
        Field(
            "policy",
            (str,),
            "greedy",
            "Policy A: a name, a .toml file, module:function or exec:COMMAND.",
            key="policy_a",
            plan=True,
        ),
        Field(
            "vs",
            (str,),
            "random",
            "Policy B. With 3 or 4 players A takes one seat and B the others (each deal played with A in every "
            "place); with teams A's team plays B's (each deal played twice, the teams swapped).",
            key="policy_b",
            plan=True,
        ),
        Field(
            "seats",
            (str, None),
            None,
            "A,B,C[,D]: the policy of each player, one per seat of --rules (instead of --policy/--vs). Each deal is "
            "played once in every distinct turn of this seating round the table, so every policy plays every place "
            "(--no-mirrored: as given).",
            api_kinds=(str, list, tuple, None),
        ),
        RULES,
        SEED,
        THREADS,
        Field(
            "mirrored",
            (bool,),
            True,
            "Play each shuffle twice with the seats swapped (3 or 4 players: in every seating).",
            flag="--mirrored/--no-mirrored",
            plan=True,
        ),
        Field(
            "until_ci",
            (float, None),
            None,
            "Stop once the headline 95% interval is narrower than this (--deals is the cap).",
        ),
        Field("out", ("path", None), None, "Run folder (default results/runs/<time>-<A>-vs-<B>).", run=False),
        Field(
            "resume",
            ("path", None),
            None,
            "Finish an interrupted run in this folder, as it was started (a larger --deals extends it).",
            run=False,
            api=False,
        ),
        Field("engine", (str,), "numba", "numba, or reference (slow; cross-checks).", plan=True),
        count_field(
            "chunk_deals",
            5_000,
            "Deals per chunk (the unit of checkpointing and resume; each deal is seeded alone, so no number "
            "depends on it but where --until-ci stops).",
            MAX_CHUNK_DEALS,
        ),
        Field(
            "games",
            (bool,),
            False,
            "Play whole games to the target instead of single rounds: each of --deals deals (a sequence of "
            "shuffles) is played as one game per seating, so --deals 300 plays 600 games of two players.",
            flag="--games/--rounds",
        ),
        Field(
            "check",
            (bool,),
            False,
            "Verify the engine's invariants after every play (52 cards accounted, owners hold their capture card, "
            "points add up).",
            key="checked",
        ),
        Field(
            "record",
            (int,),
            0,
            "Keep the full move lists of the first N rounds (deal order), for `casino-sim replay RUN_DIR --round K`.",
            bounds=(0, MAX_RECORD, "must be between 0 and 100,000 rounds, got {value:,}"),
        ),
        Field(
            "card_deals",
            (str,),
            "0",
            "Also replay each of the first N deals with each dealt card swapped away (to the opponent, or into the "
            "stock): the controlled experiment beside every run's card values from its own deals (the card-swap "
            "report). 0, the default, is off; auto: as many as take at most half the run's rounds (a twentieth on the "
            "reference engine), 500 at most.",
            api_kinds=(int, str),
            bounds=(0, MAX_CHUNK_DEALS, "must be between 0 (off) and 10,000,000, got {value:,}"),
        ),
        Field(
            "start_score",
            (str, None),
            None,
            "With --games: every game starts from this score, A's side first, as 10-15 (two players, or four in "
            "teams); the first dealer is drawn as in any game (default 0-0).",
            typer={"show_default": False},
        ),
        FORCE,
        CHARTS,
        BACKEND,
        SCHEDULER,
        BOT_TIMEOUT,
        PROGRESS,
        Field(
            "reports",
            (bool,),
            True,
            "Write the report files (off: the Run still makes every table and chart when asked).",
            run=False,
            cli=False,
        ),
    ),
    rules=(_seats_or_policies, _flags_that_go_together),
    api_order=(
        *("deals", "policy", "vs", "seats", "rules", "seed", "threads", "mirrored", "games", "until_ci"),
        *("card_deals", "start_score", "engine", "chunk_deals", "check", "record", "out", "force", "backend"),
        *("scheduler", "progress", "reports", "charts"),
    ),
)


TOURNAMENT = Declaration(
    "tournament",
    (
        Field(
            "policies",
            (list, None),
            None,
            "Two or more policies: names, .toml files, module:function or exec:COMMAND.",
            flag="",
            api_kinds=(list, tuple),
            typer={"show_default": False},
        ),
        Field(
            "games",
            (int,),
            1000,
            "Mirrored pairs of whole games per pairing (3 or 4 players: shuffle sequences, each played in every "
            "seating).",
        ),
        RULES,
        replace(SEED, help="Seed: every pairing plays the same shuffles."),
        THREADS,
        Field("chunk_deals", (int,), 500, "Pairs of games per chunk (no number depends on it)."),
        Field("out", ("path", None), None, "Folder (default results/runs/<time>-tournament).", run=False),
        Field("resume", ("path", None), None, "Finish an interrupted tournament.", run=False, api=False),
        replace(FORCE, help="Replace the tournament in --out (its pairings too)."),
        BACKEND,
        SCHEDULER,
        BOT_TIMEOUT,
        PROGRESS,
    ),
)
