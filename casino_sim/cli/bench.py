"""The bench command: how fast an engine plays, and what compiling costs."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from casino_sim.cli.options import EngineName, EngineOpt, Format, RulesOpt, console, ensure_compiled, policy_loader


def bench(
    engine: EngineOpt = EngineName.numba,
    policy: Annotated[str, typer.Option("--policy", help="The policy playing both seats.")] = "random",
    deals: Annotated[int, typer.Option(help="Rounds to time.")] = 200_000,
    threads: Annotated[int, typer.Option(help="Threads for the numba engine (0: all cores).")] = 1,
    rules: RulesOpt = "strict",
    format: Annotated[Format, typer.Option("--format", help="text: a table; json: one object.")] = Format.text,
    compile_times: Annotated[
        bool, typer.Option("--compile/--no-compile", help="Also time a cold and a cached compile (under a minute).")
    ] = True,
    check: Annotated[bool, typer.Option("--check", help="Time the checked mode of `simulate --check`.")] = False,
) -> None:
    """How fast an engine plays rounds of a policy against itself, and what compiling costs."""
    # deferred, so that the other commands never load it: pandas (most of a light command's start)
    from casino_sim.experiments.bench import run_bench

    def announce(threads: int, chosen) -> None:
        if engine == EngineName.numba:
            ensure_compiled("rounds", tables=[(chosen,)])
        if format == Format.text:
            console.print(
                f"timing {deals:,} rounds of {policy} on the {engine.value} engine, "
                f"{threads} thread{'s' if threads > 1 else ''}...",
                highlight=False,
            )

    result = run_bench(
        engine.value,
        policy,
        deals,
        threads,
        rules,
        measure_compile=compile_times,
        check=check,
        announce=announce,
        loader=policy_loader(),
    )
    if format == Format.json:
        print(json.dumps(result))
        return
    # deferred, so that `casino-sim --help` never loads them: rich's tables
    from rich.table import Table

    table = Table(title="casino-sim bench")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key, value in result.items():
        table.add_row(
            key, f"{value:,}" if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
        )
    console.print(table)
