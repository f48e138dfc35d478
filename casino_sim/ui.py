"""Terminal helpers: a progress bar with rounds/s and time left."""

from __future__ import annotations

from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn


@contextmanager
def progress_bar(console: Console, label: str):
    """Yield update(done, total); shows rounds done, rounds/s and the time left."""
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]} rounds/s"), TimeElapsedColumn(), TextColumn("ETA"),
               TimeRemainingColumn())
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task(label, total=None, rate="-")
        start = {}

        def update(done: int, total: int) -> None:
            import time

            now = time.perf_counter()
            if not start:
                start.update(t=now, done=done)
            elapsed = now - start["t"]
            rate = (done - start["done"]) / elapsed if elapsed > 0 else 0
            progress.update(task, completed=done, total=total, rate=f"{rate:,.0f}" if rate else "-")

        yield update


def summary_table(summary):
    """The headline per matchup as a rich table: A minus B per deal, win rate, mean totals."""
    from rich.table import Table

    table = Table(title="Summary (95% intervals)")
    for col, justify in (("matchup", "left"), ("deals", "right"), ("A − B per deal", "right"),
                         ("A wins", "right"), ("A points", "right"), ("B points", "right")):
        table.add_column(col, justify=justify)
    for r in summary.to_dict("records"):
        table.add_row(
            r["matchup"], f"{r['deals']:,}",
            f"{r['diff_mean']:+.3f} [{r['diff_ci_lo']:+.3f}, {r['diff_ci_hi']:+.3f}]",
            f"{r['win_rate_a_mean']:.1%} [{r['win_rate_a_ci_lo']:.1%}, {r['win_rate_a_ci_hi']:.1%}]",
            f"{r['total_a_mean']:.2f}", f"{r['total_b_mean']:.2f}",
        )
    return table
