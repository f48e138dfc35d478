"""The bench command: how fast an engine plays, and what compiling costs (made from its declaration,
experiments/study_declarations.py BENCH)."""

from __future__ import annotations

import json

from casino_sim.cli.declared import command
from casino_sim.cli.options import EngineName, Format, console, ensure_compiled, policy_loader
from casino_sim.experiments.study_declarations import BENCH


def _bench(values: dict, given: frozenset) -> None:
    """How fast an engine plays rounds of a policy against itself, and what compiling costs."""
    # deferred, so that the other commands never load it: pandas (most of a light command's start)
    from casino_sim.experiments.bench import run_bench

    engine, policy, deals, form = values["engine"], values["policy"], values["deals"], values["format"]

    def announce(threads: int, chosen) -> None:
        if engine == EngineName.numba:
            ensure_compiled("rounds", tables=[(chosen,)])
        if form == Format.text:
            console.print(
                f"timing {deals:,} rounds of {policy} on the {engine.value} engine, "
                f"{threads} thread{'s' if threads > 1 else ''}...",
                highlight=False,
            )

    result = run_bench(
        engine.value,
        policy,
        deals,
        values["threads"],
        values["rules"],
        measure_compile=values["compile_times"],
        check=values["check"],
        announce=announce,
        loader=policy_loader(),
    )
    if form == Format.json:
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


bench = command(BENCH, _bench, _bench.__doc__, kinds={"engine": EngineName})
