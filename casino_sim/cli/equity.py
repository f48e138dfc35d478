"""The equity command: a run's equity table (reports/equity.py, docs/equity.md) written and its 0-0 cell shown."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from casino_sim.cli.options import console
from casino_sim.core.errors import InputError


def equity(
    run_dir: Annotated[
        Path,
        typer.Argument(help="A simulate run of one policy against itself: two players, or four in teams (teams=true)."),
    ],
    out: Annotated[Path | None, typer.Option("--out", help="Where to write (default RUN_DIR/report).")] = None,
    resamples: Annotated[
        int, typer.Option(min=100, help="Bootstrap resamples of the deals behind each 95% interval (at least 100).")
    ] = 400,
    seed: Annotated[int, typer.Option(min=0, help="Seed of the resampling.")] = 0,
) -> None:
    """The game's equity table: the chance of winning the whole game from every score, dealing or not.

    From the points of a run's rounds, by dynamic programming over the game's rules (its target and options come
    from the run's --rules); writes equity.csv, equity.json and the heatmap equity.png / equity.svg."""
    # deferred, so that `casino-sim --help` never loads them: pandas, matplotlib
    from casino_sim.reports.equity import write_equity
    from casino_sim.reports.headlines import ci_text
    from casino_sim.runner.rundir import writable_folder

    if not run_dir.is_dir():
        raise InputError(f"{run_dir} is not a run folder")
    target = writable_folder(out or run_dir / "report")
    table, side = write_equity(run_dir, target, resamples, seed)
    start = table[(table["player_score"] == 0) & (table["opponent_score"] == 0)].set_index("player_deals")
    for deals in (False, True):
        row = start.loc[deals]
        console.print(
            f"from 0-0 the {side} that {'deals' if deals else 'does not deal'} wins "
            f"{ci_text(row.rename({'win_chance': 'mean'}), fmt='.1%', unit='games')} of games",
            highlight=False,
        )
    console.print(f"equity table and heatmap: {target / 'equity.csv'}, {target / 'equity.png'}", highlight=False)
