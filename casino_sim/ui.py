"""Terminal helpers: a progress bar with rounds/s and time left."""

from __future__ import annotations

from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn


@contextmanager
def progress_bar(console: Console, label: str, unit: str = "rounds"):
    """Yield update(done, total); shows units done (rounds, or games), units/s and the time left."""
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]} " + unit + "/s"), TimeElapsedColumn(), TextColumn("ETA"),
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


def _table(title: str, columns):
    """A rich table whose first column is left-aligned and the rest right-aligned."""
    from rich.table import Table

    table = Table(title=title)
    for i, col in enumerate(columns):
        table.add_column(col, justify="left" if i == 0 else "right")
    return table


def summary_table(summary):
    """The headline per matchup as a rich table: A minus B per deal, win rate, mean totals."""
    from casino_sim.reports.index import ci_text

    table = _table("Summary (95% intervals)", ("matchup", "deals", "A − B per deal", "A wins", "A points",
                                               "B points"))
    for r in summary.to_dict("records"):
        table.add_row(r["matchup"], f"{r['deals']:,}", ci_text(r, "diff_", "+.3f"), ci_text(r, "win_rate_a_", ".1%"),
                      f"{r['total_a_mean']:.2f}", f"{r['total_b_mean']:.2f}")
    return table


def games_table(games):
    """Whole games per matchup as a rich table: A's game win rate, points margin, game length."""
    from casino_sim.reports.index import ci_text

    table = _table("Whole games (95% intervals)", ("matchup", "games", "A wins", "A − B final points",
                                                   "rounds per game"))
    for r in games.to_dict("records"):
        table.add_row(r["matchup"], f"{r['games']:,}", ci_text(r, "win_rate_a_", ".1%"), ci_text(r, "margin_", "+.2f"),
                      f"{r['rounds_mean']:.2f}")
    return table


def ratings_table(ratings, matches):
    """A tournament as a rich table: each policy's Elo and its game win rate against each opponent."""
    from casino_sim.reports.index import ci_text

    names = list(ratings["policy"])
    table = _table("Tournament: Elo (95% CI) and game win rate against each opponent", ("policy", "Elo", *names))
    rate = {(r["policy"], r["opponent"]): r for r in matches.to_dict("records")}
    for r in ratings.to_dict("records"):
        cells = [f"{rate[(r['policy'], o)]['win_rate_mean']:.1%}" if (r["policy"], o) in rate else "—"
                 for o in names]
        table.add_row(r["policy"], ci_text(dict(r, elo_mean=r["elo"]), "elo_", ".0f"), *cells)
    return table
