"""The `casino-sim` command line: parse, validate, call, print. No game logic here."""

from __future__ import annotations

import signal
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from casino_sim.errors import USER_ERRORS, InputError

app = typer.Typer(
    help="Monte Carlo strategy analyser for the two-player card game Casino.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()


class Format(str, Enum):
    text = "text"
    json = "json"


class EngineName(str, Enum):
    reference = "reference"
    numba = "numba"


RulesOpt = Annotated[str, typer.Option("--rules", help="Rule set: strict, brazilian or italian.")]
EngineOpt = Annotated[EngineName, typer.Option("--engine", help="Rules engine to answer with: numba (fast), "
                                                                  "or reference (the executable spec).")]


def _compile_notice() -> None:
    """Say so when the numba engine must be compiled first, so nobody takes it for a hang."""
    from casino_sim.numba_cache import is_warm

    if not is_warm():
        print("compiling the numba engine (first run after install or upgrade only; up to a minute)...",
              file=sys.stderr, flush=True)


@app.command()
def deal(
    seed: Annotated[int, typer.Option(help="Seed for the shuffle, the dealer and every choice.")] = 0,
    rules: RulesOpt = "strict",
) -> None:
    """Play one round between two random players and tell it move by move."""
    from casino_sim.deal import random_round
    from casino_sim.rules import get_rules
    from casino_sim.transcript import round_story, score_table

    ruleset = get_rules(rules)
    result = random_round(ruleset, seed)
    console.print(f"Casino round, rules {ruleset.name}, seed {seed}.", highlight=False)
    for line in round_story(result):
        console.print(line, highlight=False, markup=False)
    if not result.void:
        console.print(score_table(result.score))


@app.command()
def moves(
    position: Annotated[str, typer.Argument(help="Position JSON file, a .jsonl file of positions, or - for stdin.")],
    format: Annotated[Format, typer.Option("--format", help="text: one move per line; json: one array.")] = Format.text,
    jsonl: Annotated[bool, typer.Option("--jsonl", help="Read one position per line (for -).")] = False,
    engine: EngineOpt = EngineName.numba,
) -> None:
    """List every legal move of the player to move (NOTATION.md)."""
    import json

    from casino_sim.engines import get_engine
    from casino_sim.position_tools import is_jsonl, load_position, moves_json, moves_jsonl_lines

    eng = get_engine(engine.value)
    if is_jsonl(position, jsonl):
        if engine == EngineName.numba:
            _compile_notice()
        for line in moves_jsonl_lines(eng, position):
            print(line)
        return
    pos = load_position(position)
    if engine == EngineName.numba:
        _compile_notice()
    legal = eng.legal_moves(pos)
    if format == Format.json:
        print(json.dumps(moves_json(eng, pos)))
    else:
        for m in legal:
            print(m.describe(pos.to_move))


@app.command()
def apply(
    position: Annotated[str, typer.Argument(help="Position JSON file, or - for stdin.")],
    move: Annotated[str, typer.Argument(help='The move as JSON, e.g. \'{"kind": "trail", "card": "KC"}\'.')],
    engine: EngineOpt = EngineName.numba,
) -> None:
    """Print the position after one legal move as JSON (no deal, no end of round)."""
    from casino_sim.engines import get_engine
    from casino_sim.position_tools import apply_text

    print(apply_text(get_engine(engine.value), position, move, on_ready=_compile_notice
                     if engine == EngineName.numba else None))


@app.command()
def simulate(
    deals: Annotated[int, typer.Option(help="Deals (shuffles) to play; mirrored runs play each twice.")] = 100_000,
    policy: Annotated[str, typer.Option("--policy", help="Policy A: a name, a .toml file or module:function.")] = "greedy",
    vs: Annotated[str, typer.Option("--vs", help="Policy B.")] = "random",
    rules: RulesOpt = "strict",
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    threads: Annotated[int, typer.Option(help="Threads (0: all cores). Results do not depend on it.")] = 0,
    mirrored: Annotated[bool, typer.Option("--mirrored/--no-mirrored",
                                           help="Play each shuffle twice with the seats swapped.")] = True,
    until_ci: Annotated[Optional[float], typer.Option("--until-ci", help="Stop once the headline 95% interval is "
                                                      "narrower than this (--deals is the cap).")] = None,
    out: Annotated[Optional[Path], typer.Option("--out", help="Run folder (default results/runs/<time>-<A>-vs-<B>).")] = None,
    resume: Annotated[Optional[Path], typer.Option("--resume", help="Finish an interrupted run in this folder.")] = None,
    engine: Annotated[str, typer.Option("--engine", help="numba, or reference (slow; cross-checks).")] = "numba",
    chunk_deals: Annotated[int, typer.Option("--chunk-deals", help="Deals per chunk (the unit of seeding, "
                                             "checkpointing and resume).")] = 5_000,
) -> None:
    """Simulate policy A against policy B over many deals; write records, summary and charts."""
    from casino_sim.experiments import simulate as sim
    from casino_sim.runner.rundir import RunDir
    from casino_sim.ui import progress_bar

    if resume is not None:
        run = RunDir(resume)
        config = sim.config_of(run)
    else:
        config = sim.SimConfig(deals=deals, policy_a=policy, policy_b=vs, rules=rules, seed=seed, mirrored=mirrored,
                               until_ci=until_ci, threads=threads, engine=engine, chunk_deals=chunk_deals)
        config.check()
        run = RunDir(out or sim.default_out(config))
        sim.start_run(config, run, sys.argv)
    console.print(f"run folder: {run.path}", highlight=False)
    if config.engine == "numba":
        _compile_notice()
    try:
        with progress_bar(console, "simulating") as update:
            timings = sim.play_chunks(config, run, update)
    except KeyboardInterrupt:
        console.print(f"interrupted: finished chunks are kept; finish with  casino-sim simulate --resume {run.path}",
                      highlight=False)
        raise typer.Exit(130) from None
    manifest = sim.finish_run(run, timings)
    console.print(f"{manifest['rounds_played']:,} rounds played in {manifest['play_seconds']:.1f} s "
                  f"({(manifest['rounds_per_s'] or 0):,.0f} rounds/s); writing reports", highlight=False)
    _print_summary(sim.write_reports(run))
    console.print(f"records, summary and charts: {run.path}", highlight=False)


def _print_summary(summary) -> None:
    """The summary table of a run, one row per matchup."""
    from casino_sim.ui import summary_table

    console.print(summary_table(summary))


class ReportKind(str, Enum):
    all = "all"
    summary = "summary"
    score = "score"
    sweeps = "sweeps"
    seat = "seat"
    convergence = "convergence"


@app.command()
def report(
    kind: Annotated[ReportKind, typer.Argument(help="Which report; all writes every one and report.md.")],
    run_dir: Annotated[Path, typer.Argument(help="A run folder written by simulate.")],
    out: Annotated[Optional[Path], typer.Option("--out", help="Where to write (default RUN_DIR/report).")] = None,
) -> None:
    """Write a report (tables as CSV and JSON, charts as PNG and SVG) from a run folder."""
    from casino_sim.reports.index import write_all
    from casino_sim.reports.kinds import REPORTS
    from casino_sim.runner.rundir import RunDir

    RunDir(run_dir).read_manifest()
    target = out or run_dir / "report"
    if kind == ReportKind.all:
        _print_summary(write_all(run_dir, target)["summary"])
    else:
        table = REPORTS[kind.value](run_dir, target)
        console.print(table.to_string(index=False), highlight=False, markup=False)
    console.print(f"written to {target}", highlight=False)


@app.command()
def experiment(
    plan: Annotated[Path, typer.Argument(help="An experiment plan (TOML): runs and their expectations.")],
    out: Annotated[Optional[Path], typer.Option("--out", help="Folder for the runs (default results/runs/<plan>).")] = None,
) -> None:
    """Run a plan's simulations and check its expectations; exit 1 if any fails (for CI)."""
    from rich.table import Table

    from casino_sim.experiments.plan import load_plan
    from casino_sim.experiments.run_plan import run_planned
    from casino_sim.ui import progress_bar

    name, runs = load_plan(plan)
    _compile_notice()
    root = out or Path("results/runs") / name
    outcomes = []
    for run in runs:
        console.print(f"run {run.name}: {run.config.policy_a} vs {run.config.policy_b}, "
                      f"{run.config.deals:,} deals, rules {run.config.rules}", highlight=False)
        with progress_bar(console, run.name) as update:
            outcomes += run_planned(run, root / run.name, sys.argv, update)
    table = Table(title=f"Experiment {name}: expectations")
    for col in ("run", "expectation", "value", "result"):
        table.add_column(col)
    for o in outcomes:
        table.add_row(o.run, str(o.expectation), f"{o.value:+.4f}",
                      "[green]pass[/green]" if o.passed else "[bold red]FAIL[/bold red]")
    console.print(table)
    failed = [o for o in outcomes if not o.passed]
    if failed:
        console.print(f"[bold red]{len(failed)} of {len(outcomes)} expectations failed[/bold red]")
        raise typer.Exit(1)
    console.print(f"all {len(outcomes)} expectations met; runs in {root}", highlight=False)


@app.command()
def bench(
    engine: EngineOpt = EngineName.numba,
    policy: Annotated[str, typer.Option("--policy", help="The policy playing both seats.")] = "random",
    deals: Annotated[int, typer.Option(help="Rounds to time.")] = 200_000,
    threads: Annotated[int, typer.Option(help="Threads for the numba engine.")] = 1,
    rules: RulesOpt = "strict",
    format: Annotated[Format, typer.Option("--format", help="text: a table; json: one object.")] = Format.text,
    compile_times: Annotated[bool, typer.Option("--compile/--no-compile",
                                                help="Also time a cold and a cached compile (~10 s).")] = True,
) -> None:
    """How fast an engine plays rounds of a policy against itself, and what compiling costs."""
    import json

    from casino_sim.bench import run_bench
    from casino_sim.policies import get_policy

    get_policy(policy)
    if engine == EngineName.numba:
        _compile_notice()
    if format == Format.text:
        console.print(f"timing {deals:,} rounds of {policy} on the {engine.value} engine...", highlight=False)
    result = run_bench(engine.value, policy, deals, threads, rules, measure_compile=compile_times)
    if format == Format.json:
        print(json.dumps(result))
        return
    from rich.table import Table

    table = Table(title="casino-sim bench")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key, value in result.items():
        table.add_row(key, f"{value:,}" if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value))
    console.print(table)


@app.command("card-value")
def card_value(
    policy: Annotated[str, typer.Option("--policy", help="The policy playing both seats.")] = "expert",
    deals: Annotated[int, typer.Option(help="Deals; every card dealt to a hand is paired in each.")] = 2_000,
    rules: RulesOpt = "strict",
    seed: Annotated[int, typer.Option(help="Seed of the experiment.")] = 0,
    threads: Annotated[int, typer.Option(help="Threads (0: all cores).")] = 0,
    out: Annotated[Optional[Path], typer.Option("--out", help="Folder for tables and charts.")] = None,
) -> None:
    """The value of holding each card (the 10♦ above all), from paired deals: a 52-card heatmap."""
    from casino_sim.experiments.card_value import card_values
    from casino_sim.reports.kinds import card_value as card_value_report

    if not 1 <= deals <= 10**7:
        raise InputError(f"--deals must be between 1 and 10,000,000, got {deals:,}")
    if seed < 0 or not 0 <= threads <= 256:
        raise InputError("--seed must be >= 0 and --threads between 0 and 256")
    target = out or Path("results/runs") / f"card-value-{Path(policy).stem}-{rules}-seed{seed}"
    _compile_notice()
    values = card_value_report(card_values(policy, deals, rules, seed, threads), target)
    console.print(values.head(8).to_string(index=False), highlight=False, markup=False)
    console.print(f"tables and charts: {target}", highlight=False)


policies_app = typer.Typer(help="The playing policies: list them, or show one.", no_args_is_help=True)
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
    policy: Annotated[str, typer.Option("--policy", help="A policy name, a .toml file or module:function.")] = "rollout",
    seed: Annotated[int, typer.Option(help="Seed for the policy's random choices.")] = 0,
    format: Annotated[Format, typer.Option("--format", help="text: the move in words; json: the move record.")] = Format.text,
) -> None:
    """The move a policy plays in a position (rollout samples the hidden cards)."""
    import json

    from casino_sim.policies import get_policy
    from casino_sim.policies.decide import choose_move
    from casino_sim.position_tools import load_position

    pos = load_position(position)
    if seed < 0:
        raise InputError(f"--seed must be >= 0, got {seed}")
    chosen = get_policy(policy)
    if chosen.kind == "rollout":
        _compile_notice()
    move = choose_move(pos, chosen, seed)
    print(json.dumps(move.to_json()) if format == Format.json else move.describe(pos.to_move))


def main() -> None:
    """Entry point: user errors become one line on stderr and exit code 2."""
    signal.signal(signal.SIGTERM, _interrupt_on_sigterm)  # a terminated run ends like Ctrl-C, cleanly
    try:
        app()
    except USER_ERRORS as e:
        prefix = "illegal move: " if e.__class__.__name__ == "IllegalMove" else ""
        print(f"error: {prefix}{e}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    main()
