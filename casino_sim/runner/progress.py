"""A progress bar for the update(done, total) callbacks the runners take: units done, units/s and the time left.

The commands show it on their console; the Python API shows it when asked (`progress=True`).
"""

from __future__ import annotations

import time
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn


@contextmanager
def progress_bar(console: Console, label: str, unit: str = "rounds"):
    """Yield update(done, total); shows units done (rounds, or games), units/s and the time left."""
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} " + unit + "/s"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task(label, total=None, rate="-")
        start = {}

        def update(done: int, total: int) -> None:
            now = time.perf_counter()
            if not start:
                start.update(t=now, done=done)
            elapsed = now - start["t"]
            rate = (done - start["done"]) / elapsed if elapsed > 0 else 0
            progress.update(task, completed=done, total=total, rate=f"{rate:,.0f}" if rate else "-")

        yield update
