"""The `casino-sim` command line: parse, validate, call, print. No game logic here."""

from __future__ import annotations

import signal
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from casino_sim.core.errors import USER_ERRORS, InputError

HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}
app = typer.Typer(
    help="Monte Carlo strategy analyser for the two-player card game Casino.",
    no_args_is_help=True,
    context_settings=HELP_OPTIONS,
    pretty_exceptions_enable=False,
)
console = Console()


def _show_version(value: bool) -> None:
    if value:
        from casino_sim import __version__

        print(f"casino-sim {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", "-V", callback=_show_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Monte Carlo strategy analyser for the two-player card game Casino."""


class Format(str, Enum):
    text = "text"
    json = "json"


class EngineName(str, Enum):
    reference = "reference"
    numba = "numba"


RulesOpt = Annotated[
    str,
    typer.Option(
        "--rules",
        help="Rule set: strict, brazilian or italian; game options "
        "after a colon, e.g. brazilian:target=31,round_win_points=6 "
        "(docs/rules.md).",
    ),
]
EngineOpt = Annotated[
    EngineName,
    typer.Option("--engine", help="Rules engine to answer with: numba (fast), or reference (the executable spec)."),
]


class BackendName(str, Enum):
    local = "local"
    dask = "dask"


BackendOpt = Annotated[
    BackendName | None,
    typer.Option(
        "--backend",
        help="Where chunks are played: local (this process) or dask (a LocalCluster on this machine, "
        "or the cluster at --scheduler). Results do not depend on it (default: local).",
        show_default=False,
    ),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option("--scheduler", help="Address of a running Dask scheduler, tcp://HOST:PORT (implies --backend dask)."),
]


def _open_backend(backend: BackendName | None, scheduler: str | None, threads: int | None = None):
    """The chunk backend that --backend/--scheduler ask for, as a context manager around a whole command."""
    from casino_sim.runner.backends import open_backend

    return open_backend(backend.value if backend else None, scheduler, threads)


def _compile_notice(*work: str) -> None:
    """Say so when numba must compile the kernels of this work first, so nobody takes it for a hang."""
    from casino_sim.engine.compiled import will_compile

    if will_compile(*work):
        print(
            "compiling the numba engine (first run after install or upgrade only; up to a minute)...",
            file=sys.stderr,
            flush=True,
        )


@app.command()
def deal(
    seed: Annotated[int, typer.Option(help="Seed for the shuffle, the dealer and every choice.")] = 0,
    rules: RulesOpt = "strict",
) -> None:
    """Play one round between two random players and tell it move by move."""
    from casino_sim.core.rules import get_rules
    from casino_sim.runner.random_round import random_round

    ruleset = get_rules(rules)
    _print_round(f"Casino round, rules {ruleset.name}, seed {seed}.", random_round(ruleset, seed))


def _print_round(header: str, result) -> None:
    """A played round as `deal` and `replay` tell it: a header, the story, the score table."""
    from casino_sim.cli.transcript import round_story, score_table

    console.print(header, highlight=False, soft_wrap=True)
    for line in round_story(result):
        console.print(line, highlight=False, markup=False)
    if not result.void:
        console.print(score_table(result.score))


@app.command()
def replay(
    source: Annotated[Path, typer.Argument(help="A run folder of  simulate --record N, or a saved game file.")],
    round_: Annotated[
        int,
        typer.Option(
            "--round",
            help="Which round, from 1: the K-th recorded round of a run "
            "(deal order: deal id, then mirror), or round K of a game file.",
        ),
    ] = 1,
) -> None:
    """Tell a recorded round move by move, in the words of  casino-sim deal  (the reference engine checks each play)."""
    from casino_sim.runner.recording import load_round, replay_round

    ruleset, rnd = load_round(source, round_)
    _print_round(f"Casino round, rules {ruleset.name}, {rnd.label}.", replay_round(ruleset, rnd))


@app.command()
def moves(
    position: Annotated[str, typer.Argument(help="Position JSON file, a .jsonl file of positions, or - for stdin.")],
    format: Annotated[Format, typer.Option("--format", help="text: one move per line; json: one array.")] = Format.text,
    jsonl: Annotated[bool, typer.Option("--jsonl", help="Read one position per line (for -).")] = False,
    engine: EngineOpt = EngineName.numba,
) -> None:
    """List every legal move of the player to move (positions and moves: docs/notation.md)."""
    import json

    from casino_sim.cli.position_tools import is_jsonl, load_position, moves_jsonl_lines, no_move_reason
    from casino_sim.engines import get_engine

    eng = get_engine(engine.value)
    if is_jsonl(position, jsonl):
        if engine == EngineName.numba:
            _compile_notice("moves")
        for line in moves_jsonl_lines(eng, position):
            print(line)
        return
    pos = load_position(position)
    if engine == EngineName.numba:
        _compile_notice("moves")
    legal = eng.legal_moves(pos)
    if format == Format.json:
        print(json.dumps([m.to_json() for m in legal]))
    else:
        for m in legal:
            print(m.describe(pos.to_move))
    if not legal:  # on stderr: standard output stays the (empty) answer scripts read
        print(no_move_reason(pos), file=sys.stderr)


@app.command()
def apply(
    position: Annotated[str, typer.Argument(help="Position JSON file, or - for stdin.")],
    move: Annotated[str, typer.Argument(help='The move as JSON, e.g. \'{"kind": "trail", "card": "KC"}\'.')],
    engine: EngineOpt = EngineName.numba,
) -> None:
    """Print the position after one legal move as JSON (no deal, no end of round; docs/notation.md)."""
    from casino_sim.cli.position_tools import apply_text
    from casino_sim.engines import get_engine

    print(
        apply_text(
            get_engine(engine.value),
            position,
            move,
            on_ready=lambda: _compile_notice("apply") if engine == EngineName.numba else None,
        )
    )


@app.command()
def simulate(
    deals: Annotated[int, typer.Option(help="Deals (shuffles) to play; mirrored runs play each twice.")] = 100_000,
    policy: Annotated[
        str, typer.Option("--policy", help="Policy A: a name, a .toml file or module:function.")
    ] = "greedy",
    vs: Annotated[str, typer.Option("--vs", help="Policy B.")] = "random",
    rules: RulesOpt = "strict",
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    threads: Annotated[int, typer.Option(help="Threads (0: all cores). Results do not depend on it.")] = 0,
    mirrored: Annotated[
        bool, typer.Option("--mirrored/--no-mirrored", help="Play each shuffle twice with the seats swapped.")
    ] = True,
    until_ci: Annotated[
        float | None,
        typer.Option(
            "--until-ci", help="Stop once the headline 95% interval is narrower than this (--deals is the cap)."
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Run folder (default results/runs/<time>-<A>-vs-<B>).")
    ] = None,
    resume: Annotated[Path | None, typer.Option("--resume", help="Finish an interrupted run in this folder.")] = None,
    engine: Annotated[str, typer.Option("--engine", help="numba, or reference (slow; cross-checks).")] = "numba",
    chunk_deals: Annotated[
        int, typer.Option("--chunk-deals", help="Deals per chunk (the unit of seeding, checkpointing and resume).")
    ] = 5_000,
    games: Annotated[
        bool,
        typer.Option(
            "--games/--rounds", help="Play whole games to the target (--deals counts games) instead of single rounds."
        ),
    ] = False,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Verify the engine's invariants after every play (52 "
            "cards accounted, owners hold their capture card, points add up).",
        ),
    ] = False,
    record: Annotated[
        int,
        typer.Option(
            "--record",
            help="Keep the full move lists of the first N rounds "
            "(deal order), for  casino-sim replay RUN_DIR --round K.",
        ),
    ] = 0,
    card_deals: Annotated[
        str,
        typer.Option(
            "--card-deals",
            help="Replay each of the first N deals with each "
            "dealt card swapped away (to the opponent, or into the stock): the "
            "card-value report and the value of the 10♦. 0: off; auto: as many "
            "as take at most half the run's rounds (a twentieth on the reference "
            "engine), 500 at most.",
        ),
    ] = "auto",
    force: Annotated[
        bool, typer.Option("--force", help="Replace the run in --out (or write into a non-empty --out).")
    ] = False,
    backend: BackendOpt = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """Simulate policy A against policy B over many deals; write records, summary and charts."""
    from casino_sim.cli.ui import progress_bar
    from casino_sim.experiments import simulate as sim
    from casino_sim.runner.rundir import RunDir, refuse_used_folder

    if resume is not None:
        if force:
            raise InputError("--force starts a new run and --resume finishes one: give one of them")
        run = RunDir(resume)
        config = sim.config_of(run)
    else:
        config = sim.SimConfig(
            deals=deals,
            policy_a=policy,
            policy_b=vs,
            rules=rules,
            seed=seed,
            mirrored=mirrored,
            until_ci=until_ci,
            threads=threads,
            engine=engine,
            chunk_deals=chunk_deals,
            games=games,
            checked=check,
            record=record,
            card_deals=sim.parse_card_deals(card_deals),
        )
        config.check()
        run = RunDir(out or sim.default_out(config))
        refuse_used_folder(run.path, force, resumable=True)
    with _open_backend(backend, scheduler, config.threads) as chunk_backend:  # before the folder: bad address, no run
        if resume is None:
            sim.start_run(config, run, sys.argv, force)
        console.print(f"run folder: {run.path}", highlight=False)
        if config.engine == "numba":
            _compile_notice("simulate")
        try:
            with progress_bar(console, "simulating", config.unit) as update:
                timings = sim.play_chunks(config, run, update, chunk_backend)
        except KeyboardInterrupt:
            console.print(
                f"interrupted: finished chunks are kept; finish with  casino-sim simulate --resume {run.path}",
                highlight=False,
            )
            raise typer.Exit(130) from None
    manifest = sim.finish_run(run, timings)
    replays = f" and {manifest['card_rounds_played']:,} card-value replays" if manifest["card_rounds_played"] else ""
    console.print(
        f"{manifest['rounds_played']:,} rounds{replays} played in {manifest['play_seconds']:.1f} s "
        f"({(manifest['rounds_per_s'] or 0):,.0f} rounds/s); writing reports",
        highlight=False,
    )
    for note in (sim.until_ci_note(manifest), sim.card_deals_note(manifest)):
        if note:
            console.print(note, highlight=False, markup=False, soft_wrap=True)
    tables = sim.write_reports(run)
    _print_summary(tables["summary"])
    if "games" in tables:
        from casino_sim.cli.ui import games_table

        console.print(games_table(tables["games"]))
    console.print(f"records, summary and charts: {run.path}", highlight=False)


def _print_summary(summary) -> None:
    """The summary table of a run, one row per matchup."""
    from casino_sim.cli.ui import summary_table

    console.print(summary_table(summary))


class ReportKind(str, Enum):
    all = "all"
    summary = "summary"
    score = "score"
    sweeps = "sweeps"
    seat = "seat"
    convergence = "convergence"
    games = "games"
    card_value = "card-value"


@app.command()
def report(
    kind: Annotated[ReportKind, typer.Argument(help="Which report; all writes every one and report.md.")],
    run_dir: Annotated[Path, typer.Argument(help="A run folder written by simulate or tournament.")],
    out: Annotated[Path | None, typer.Option("--out", help="Where to write (default RUN_DIR/report).")] = None,
) -> None:
    """Write a report (tables as CSV and JSON, charts as PNG and SVG) from a run or tournament folder."""
    from casino_sim.reports.index import write_all
    from casino_sim.reports.kinds import REPORTS
    from casino_sim.runner.rundir import RunDir, writable_folder

    tournament = RunDir(run_dir).read_manifest().get("kind") == "tournament"
    if tournament and kind != ReportKind.all:
        raise InputError(f"{run_dir} is a tournament folder: its report is  casino-sim report all {run_dir}")
    target = writable_folder(out or run_dir / "report")
    if tournament:
        from casino_sim.cli.ui import ratings_table
        from casino_sim.experiments.tournament import write_report

        tables = write_report(run_dir, target)
        console.print(ratings_table(tables["ratings"], tables["matches"]))
    elif kind == ReportKind.all:
        _print_summary(write_all(run_dir, target)["summary"])
    else:
        table = REPORTS[kind.value](run_dir, target)
        console.print(table.to_string(index=False), highlight=False, markup=False)
    console.print(f"written to {target}", highlight=False)


@app.command()
def experiment(
    plan: Annotated[Path, typer.Argument(help="An experiment plan (TOML): runs and their expectations.")],
    out: Annotated[
        Path | None, typer.Option("--out", help="Folder for the runs (default results/runs/<plan>).")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace the runs already in --out.")] = False,
    resume: Annotated[
        bool, typer.Option("--resume", help="Finish the interrupted runs in --out (their finished chunks are kept).")
    ] = False,
    backend: BackendOpt = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """Run a plan's simulations and check its expectations; exit 1 if any fails (for CI)."""
    from rich.table import Table

    from casino_sim.cli.ui import progress_bar
    from casino_sim.experiments.plan import load_plan
    from casino_sim.experiments.run_plan import run_planned
    from casino_sim.runner.rundir import refuse_used_folder

    name, runs = load_plan(plan)
    root = out or Path("results/runs") / name
    if force and resume:
        raise InputError("--force replaces the runs in --out and --resume finishes them: give one of them")
    if resume and not root.is_dir():
        raise InputError(f"{root} holds nothing to resume")
    refuse_used_folder(root, force or resume, resumable=True, nested=True)
    _compile_notice("simulate")
    outcomes = []
    with _open_backend(backend, scheduler) as chunk_backend:
        for run in runs:
            cards = run.config.card_deals_used()
            console.print(
                f"run {run.name}: {run.config.policy_a} vs {run.config.policy_b}, "
                f"{run.config.deals:,} deals, rules {run.config.rules}, card values "
                + (f"from the first {cards:,} deals" if cards else "off"),
                highlight=False,
            )
            try:
                with progress_bar(console, run.name) as update:
                    outcomes += run_planned(run, root / run.name, sys.argv, update, chunk_backend, resume, force)
            except KeyboardInterrupt:
                console.print(
                    f"interrupted: finished chunks are kept; finish with  casino-sim experiment {plan} "
                    f"--out {root} --resume",
                    highlight=False,
                )
                raise typer.Exit(130) from None
    table = Table(title=f"Experiment {name}: expectations")
    for col in ("run", "expectation", "value", "result"):
        table.add_column(col)
    for o in outcomes:
        table.add_row(
            o.run,
            str(o.expectation),
            f"{o.value:+.4f}",
            "[green]pass[/green]" if o.passed else "[bold red]FAIL[/bold red]",
        )
    console.print(table)
    failed = [o for o in outcomes if not o.passed]
    if failed:
        console.print(f"[bold red]{len(failed)} of {len(outcomes)} expectations failed[/bold red]")
        raise typer.Exit(1)
    console.print(f"all {len(outcomes)} expectations met; runs in {root}", highlight=False)


@app.command()
def tournament(
    policies: Annotated[
        list[str] | None,
        typer.Argument(help="Two or more policies: names, .toml files or module:function.", show_default=False),
    ] = None,
    games: Annotated[int, typer.Option("--games", help="Mirrored pairs of whole games per pairing.")] = 1000,
    rules: RulesOpt = "strict",
    seed: Annotated[int, typer.Option(help="Seed: every pairing plays the same shuffles.")] = 0,
    threads: Annotated[int, typer.Option(help="Threads (0: all cores). Results do not depend on it.")] = 0,
    chunk_deals: Annotated[int, typer.Option("--chunk-deals", help="Pairs of games per chunk.")] = 500,
    out: Annotated[Path | None, typer.Option("--out", help="Folder (default results/runs/<time>-tournament).")] = None,
    resume: Annotated[Path | None, typer.Option("--resume", help="Finish an interrupted tournament.")] = None,
    backend: BackendOpt = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """Round-robin of policies over mirrored whole games: win-rate and margin matrices, Elo ratings, heatmap."""
    import time

    from casino_sim.cli.ui import progress_bar, ratings_table
    from casino_sim.experiments import tournament as tour

    if resume is not None:
        config, root = tour.config_of(resume), resume
    else:
        config = tour.TournamentConfig(
            policies=tuple(policies or ()),
            games=games,
            rules=rules,
            seed=seed,
            threads=threads,
            chunk_deals=chunk_deals,
        )
        config.check()
        root = out or Path("results/runs") / f"{time.strftime('%Y%m%d-%H%M%S')}-tournament"
    with _open_backend(backend, scheduler, config.threads) as chunk_backend:
        if resume is None:
            tour.start_tournament(config, root, sys.argv)
        console.print(f"tournament folder: {root}", highlight=False)
        _compile_notice("simulate")
        try:
            tour.run_tournament(
                config, root, sys.argv, lambda label: progress_bar(console, label, "games"), chunk_backend
            )
        except KeyboardInterrupt:
            console.print(
                f"interrupted: finished chunks are kept; finish with  casino-sim tournament --resume {root}",
                highlight=False,
            )
            raise typer.Exit(130) from None
    tables = tour.write_report(root)
    console.print(ratings_table(tables["ratings"], tables["matches"]))
    console.print(f"matrices, ratings and the heatmap: {root / 'report'}", highlight=False)


@app.command()
def bench(
    engine: EngineOpt = EngineName.numba,
    policy: Annotated[str, typer.Option("--policy", help="The policy playing both seats.")] = "random",
    deals: Annotated[int, typer.Option(help="Rounds to time.")] = 200_000,
    threads: Annotated[int, typer.Option(help="Threads for the numba engine (0: all cores).")] = 1,
    rules: RulesOpt = "strict",
    format: Annotated[Format, typer.Option("--format", help="text: a table; json: one object.")] = Format.text,
    compile_times: Annotated[
        bool, typer.Option("--compile/--no-compile", help="Also time a cold and a cached compile (~10 s).")
    ] = True,
    check: Annotated[bool, typer.Option("--check", help="Time the checked mode of  simulate --check.")] = False,
) -> None:
    """How fast an engine plays rounds of a policy against itself, and what compiling costs."""
    import json

    from casino_sim.experiments.bench import run_bench

    def announce(threads: int) -> None:
        if engine == EngineName.numba:
            _compile_notice("bench")
        if format == Format.text:
            console.print(
                f"timing {deals:,} rounds of {policy} on the {engine.value} engine, "
                f"{threads} thread{'s' if threads > 1 else ''}...",
                highlight=False,
            )

    result = run_bench(
        engine.value, policy, deals, threads, rules, measure_compile=compile_times, check=check, announce=announce
    )
    if format == Format.json:
        print(json.dumps(result))
        return
    from rich.table import Table

    table = Table(title="casino-sim bench")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key, value in result.items():
        table.add_row(
            key, f"{value:,}" if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
        )
    console.print(table)


@app.command("card-value")
def card_value(
    policy: Annotated[str, typer.Option("--policy", help="The policy playing both seats.")] = "expert",
    deals: Annotated[int, typer.Option(help="Deals; every card dealt to a hand is paired in each.")] = 2_000,
    rules: RulesOpt = "strict",
    seed: Annotated[int, typer.Option(help="Seed of the experiment.")] = 0,
    threads: Annotated[int, typer.Option(help="Threads (0: all cores).")] = 0,
    out: Annotated[Path | None, typer.Option("--out", help="Folder for tables and charts.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace the tables and charts already in --out.")] = False,
) -> None:
    """The value of holding each card (the 10♦ above all), from paired deals: a 52-card heatmap."""
    from casino_sim.cli.ui import card_values_table, progress_bar
    from casino_sim.experiments.card_value import card_values
    from casino_sim.reports.kinds import card_value as card_value_report

    if not 1 <= deals <= 10**7:
        raise InputError(f"--deals must be between 1 and 10,000,000, got {deals:,}")
    if seed < 0 or not 0 <= threads <= 256:
        raise InputError("--seed must be >= 0 and --threads between 0 and 256")
    from casino_sim.core.rules import get_rules
    from casino_sim.policies import get_policy
    from casino_sim.runner.rundir import refuse_used_folder, writable_folder

    get_policy(policy), get_rules(rules)  # before making the folder
    target = out or Path("results/runs") / f"card-value-{Path(policy).stem}-{rules}-seed{seed}"
    refuse_used_folder(target, force)
    writable_folder(target)
    _compile_notice("simulate")
    with progress_bar(console, "card values") as update:
        paired = card_values(policy, deals, rules, seed, threads, progress=update)
    values = card_value_report(
        paired,
        target,
        {"kind": "card-value", "config": {"policy": policy, "deals": deals, "rules": rules, "seed": seed}},
    )
    console.print(card_values_table(values))
    console.print(f"tables and charts: {target}", highlight=False)


policies_app = typer.Typer(
    help="The playing policies: list them, or show one.", no_args_is_help=True, context_settings=HELP_OPTIONS
)
app.add_typer(policies_app, name="policies")


@policies_app.command("list")
def policies_list() -> None:
    """Every policy known by name, with its kind and what it does."""
    from rich.table import Table

    from casino_sim.policies import builtin_policies

    table = Table(title="Policies")
    for col in ("name", "kind", "what it does"):
        table.add_column(col)
    for policy in builtin_policies().values():
        table.add_row(policy.name, policy.kind, policy.description)
    console.print(table)


@policies_app.command("features")
def policies_features() -> None:
    """The move features a heuristic policy file can weigh, with what each measures."""
    from casino_sim.policies import FEATURES

    for name, doc in FEATURES:
        console.print(f"{name:20s} {doc}", highlight=False, markup=False)


@policies_app.command("show")
def policies_show(
    name: Annotated[str, typer.Argument(help="A policy name, a .toml policy file, or module:function.")],
) -> None:
    """What a policy does and its parameters (weights for a heuristic)."""
    from casino_sim.policies import get_policy

    console.print(get_policy(name).describe(), highlight=False, markup=False)


def _interrupt_on_sigterm(signum, frame):
    raise KeyboardInterrupt


@app.command()
def choose(
    position: Annotated[str, typer.Argument(help="Position JSON file, or - for stdin.")],
    policy: Annotated[
        str, typer.Option("--policy", help="A policy name, a .toml file or module:function.")
    ] = "rollout",
    seed: Annotated[int, typer.Option(help="Seed for the policy's random choices.")] = 0,
    format: Annotated[
        Format, typer.Option("--format", help="text: the move in words; json: the move record.")
    ] = Format.text,
) -> None:
    """The move a policy plays in a position (rollout samples the hidden cards; docs/notation.md)."""
    import json

    from casino_sim.cli.position_tools import load_position
    from casino_sim.policies import get_policy
    from casino_sim.policies.decide import choose_move
    from casino_sim.reference.round import round_context

    pos = load_position(position)
    if seed < 0:
        raise InputError(f"--seed must be >= 0, got {seed}")
    chosen = get_policy(policy)
    if chosen.kind == "rollout":
        round_context(pos)  # a position no deal reaches is refused before any compiling is announced
        _compile_notice("rollout")
    move = choose_move(pos, chosen, seed)
    print(json.dumps(move.to_json()) if format == Format.json else move.describe(pos.to_move))


@app.command()
def analyse(
    position: Annotated[
        str, typer.Argument(help="Position JSON file, or - for stdin (the opponent's hand may be unknown).")
    ],
    worlds: Annotated[
        int, typer.Option(help="Worlds of hidden cards sampled; every move is played out in each.")
    ] = 1000,
    policy: Annotated[str, typer.Option("--policy", help="The play-out policy (random or a heuristic).")] = "expert",
    seed: Annotated[int, typer.Option(help="Seed for the worlds and the play-outs.")] = 0,
    format: Annotated[Format, typer.Option("--format", help="text: a table; json: one object.")] = Format.text,
) -> None:
    """Rank every legal move by expected point difference to the end of the round (95% intervals)."""
    import json

    from casino_sim.analysis import analyse as run_analysis
    from casino_sim.analysis import analysis_json, analysis_table, print_table
    from casino_sim.analysis.analyse import check_analysis_args
    from casino_sim.cli.position_tools import load_position
    from casino_sim.policies import get_policy
    from casino_sim.reference.round import round_context

    pos = load_position(position)
    chosen = get_policy(policy)
    check_analysis_args(chosen, worlds, seed)
    round_context(pos)  # a position no deal reaches is refused before any compiling is announced
    _compile_notice("analyse")
    result = run_analysis(pos, chosen, worlds, seed)
    if format == Format.json:
        print(json.dumps(analysis_json(result)))
    else:
        print_table(console, analysis_table(result))


@app.command()
def play(
    vs: Annotated[
        str, typer.Option("--vs", help="The opponent's policy: a name, a .toml file or module:function.")
    ] = "rollout",
    rules: RulesOpt = "strict",
    seed: Annotated[int | None, typer.Option(help="Seed for the shuffles and the opponent (default: random).")] = None,
    hint_worlds: Annotated[int, typer.Option("--hint-worlds", help="Worlds the hint's analysis samples.")] = 1000,
    hint_policy: Annotated[str, typer.Option("--hint-policy", help="The hint's play-out policy.")] = "expert",
    save: Annotated[
        Path | None,
        typer.Option(
            "--save", help="Write the finished rounds to this game file (JSON), for  casino-sim replay FILE --round K."
        ),
    ] = None,
) -> None:
    """Play a game at the terminal against a policy; moves are chosen by number, 'hint' analyses."""
    from casino_sim.cli.terminal_game import TerminalGame, random_seed
    from casino_sim.core.rules import get_rules
    from casino_sim.policies import get_policy
    from casino_sim.runner.recording import write_game
    from casino_sim.runner.rundir import writable_folder

    if save is not None:
        writable_folder(save.parent if str(save.parent) else Path("."))
        if save.is_dir():
            raise InputError(f"--save {save}: is a folder; name a file")
    game = TerminalGame(
        get_rules(rules),
        get_policy(vs),
        random_seed() if seed is None else seed,
        get_policy(hint_policy),
        hint_worlds,
        console=console,
        read_line=sys.stdin.readline,
        echo=not sys.stdin.isatty(),
    )
    _compile_notice("rollout", "analyse")  # the opponent's rollouts and the hint
    try:
        game.run()
    finally:
        if save is not None and game.played:
            write_game(save, game.rules.name, game.played)
            console.print(
                f"{len(game.played)} round(s) saved to {save}; replay with  casino-sim replay {save} --round K",
                highlight=False,
            )


def _usage_error(e) -> str:
    """A click usage error (bad option value, unknown option, missing argument) as one line."""
    where = e.ctx.command_path if getattr(e, "ctx", None) is not None else "casino-sim"
    return f"error: {' '.join(e.format_message().split())} (see {where} --help)"


def main() -> None:
    """Entry point: user errors, bad options included, become one line on stderr and exit code 2."""
    try:  # typer >= 0.2x carries its own copy of click
        from typer._click.exceptions import ClickException
    except ImportError:
        from click.exceptions import ClickException
    from typer import Abort

    signal.signal(signal.SIGTERM, _interrupt_on_sigterm)  # a terminated run ends like Ctrl-C, cleanly
    try:
        code = app(standalone_mode=False)
    except USER_ERRORS as e:
        prefix = "illegal move: " if e.__class__.__name__ == "IllegalMove" else ""
        print(f"error: {prefix}{e}", file=sys.stderr)
        sys.exit(2)
    except ClickException as e:
        if type(e).__name__ == "NoArgsIsHelpError":  # `casino-sim` or a group alone: typer has shown its help
            sys.exit(0)
        print(_usage_error(e), file=sys.stderr)
        sys.exit(2)
    except (KeyboardInterrupt, Abort):
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
