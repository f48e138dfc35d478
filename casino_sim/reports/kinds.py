"""One function per report kind: records (a DataFrame, a run folder or a view of either) in, tables + charts out.

The makers serve every player count: each kind's table is made from the records' one view (reports/views.py), by
policy and place for two players, by place and team for three or four.

Each `make_<kind>` returns a Report (its tables, and its charts drawn only when asked: the Python API shows them);
each `<kind>` writes that Report's `<name>.csv/.json` and `<name>.png/.svg` into `out` and returns its main table.
Charts carry a footer naming the run: from `manifest`, or the manifest of the run folder `data`.
`REPORTS` maps the kind names of `casino-sim report KIND RUN_DIR` to the writing functions, `MAKERS` to the makers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from casino_sim.core.errors import InputError
from casino_sim.core.rules import get_rules
from casino_sim.reports import captions, charts, tables
from casino_sim.reports.anatomy import anatomy_table
from casino_sim.reports.anatomy_chart import anatomy_chart
from casino_sim.reports.cardvalue import card_batch_table, card_value_table
from casino_sim.reports.dealt import as_long, deal_card_values
from casino_sim.reports.load import read_cards, read_games, read_manifest
from casino_sim.reports.output import save_figure, write_table
from casino_sim.reports.views import view_of

DEALT = "from the deal, rather than dealt to"  # the deal estimate's panels and series, as the charts name them


@dataclass(frozen=True)
class Report:
    """One report kind made but not yet written: its tables by file name (the first is its main table) and its
    charts by file name, each drawn with the run's footer only when asked for (drawing is most of a report's time)."""

    tables: dict[str, pd.DataFrame]
    charts: dict[str, Callable[[], Figure]]

    @property
    def table(self) -> pd.DataFrame:
        return next(iter(self.tables.values()))

    def write(self, out: str | Path, charts: bool = True) -> pd.DataFrame:
        """Every table (CSV, JSON) and, unless `charts` is off, chart (PNG, SVG) into `out`; returns the main
        table."""
        for name, t in self.tables.items():
            write_table(t, out, name)
        for name, draw in self.charts.items() if charts else ():
            save_figure(draw(), out, name)
        return self.table


def _caption(data, manifest: dict | None, deals: str | None = None) -> str:
    """The footer of a report's charts: the run of `manifest`, else of the run folder `data` ('' for a bare table)."""
    if manifest is None:
        manifest = read_manifest(data) if isinstance(data, str | Path) else {}
    return captions.run_caption(manifest, deals)


def drawn(chart: Callable[..., Figure], caption: str, *tables_in: pd.DataFrame) -> Callable[[], Figure]:
    """A chart of `tables_in` with the footer `caption`, drawn when called."""
    return lambda: captions.add_caption(chart(*tables_in), caption)


def single_report(t: pd.DataFrame, name: str, chart, caption: str) -> Report:
    """A report of one table and its one chart, both called `name`."""
    return Report({name: t}, {name: drawn(chart, caption, t)})


def _table_of(data, read, missing: str) -> pd.DataFrame:
    """`data` itself when it is a table, else what `read` finds in that run folder (InputError when none)."""
    if isinstance(data, pd.DataFrame):
        return data
    table = read(data)
    if table is None:
        raise InputError(f"{data} holds no {missing}")
    return table


def make_score_breakdown(data, manifest: dict | None = None) -> Report:
    """Mean points per category per policy (three or four players: per side): `score_breakdown.*`."""
    t = tables.score_breakdown_table(data)
    return single_report(t, "score_breakdown", charts.score_breakdown_chart, _caption(data, manifest))


def make_sweep_frequency(data, manifest: dict | None = None) -> Report:
    """Sweeps per round and per batch (`sweeps.*`) and their distribution (`sweeps_distribution.*`)."""
    rates, dist = tables.sweep_frequency_tables(data)
    chart = drawn(charts.sweep_chart, _caption(data, manifest), rates, dist)
    return Report({"sweeps": rates, "sweeps_distribution": dist}, {"sweeps": chart})


def make_seat_advantage(data, manifest: dict | None = None) -> Report:
    """Dealer vs first player per policy (three or four players: each place and team): `seat_advantage.*`."""
    t = tables.seat_advantage_table(data)
    return single_report(t, "seat_advantage", charts.seat_advantage_chart, _caption(data, manifest))


def make_anatomy(data, manifest: dict | None = None) -> Report:
    """Kinds of play, fates of builds, cards captured and prizes won per policy: `anatomy.*`."""
    return single_report(anatomy_table(data), "anatomy", anatomy_chart, _caption(data, manifest))


def make_convergence(data, manifest: dict | None = None) -> Report:
    """Running mean of the headline with its band: `convergence.*`."""
    t = tables.convergence_table(data)
    return single_report(t, "convergence", charts.convergence_chart, _caption(data, manifest))


def make_summary(data, manifest: dict | None = None) -> Report:
    """The headline per matchup: `summary.csv`, `summary.json` and the chart `summary.png/.svg`."""
    t = tables.summary_table(data)
    return single_report(t, "summary", charts.summary_chart, _caption(data, manifest))


def make_games(data, manifest: dict | None = None) -> Report:
    """Whole games (`simulate --games`): `games.*`, A's game win rate and margin per matchup.

    `data` is a labelled games table (reports.load.read_games) or a run folder."""
    t = tables.games_table(_table_of(data, read_games, "games (run simulate with --games)"))
    return single_report(t, "games", charts.games_chart, _caption(data, manifest))


def make_card_value(data, manifest: dict | None = None) -> Report:
    """Every card's value from the run's own deals (reports/dealt.py): `card_values.*` (per card),
    `card_values_by_batch.*`, the heatmap `card_value_heatmap.*` and the 10♦ by batch `ten_diamonds_by_batch.*`.

    `data`: a run folder or a view of its records; the run's manifest (`manifest`, else the folder's) says how its
    rounds were dealt."""
    view = view_of(data)
    manifest = read_manifest(data) if manifest is None else manifest
    rules = get_rules(str(view.info["rules"].iloc[0]))
    values, by_batch = deal_card_values(view.df, manifest.get("config") or {}, rules)
    long, long_batch = as_long(values, by_batch)
    caption = _caption(data, manifest, f"card values from {int(values['rounds'].max()):,} rounds' deals")
    return Report(
        {"card_values": values, "card_values_by_batch": by_batch},
        {
            "card_value_heatmap": drawn(partial(charts.card_heatmap, source=DEALT), caption, long),
            "ten_diamonds_by_batch": drawn(partial(charts.ten_diamonds_chart, source=DEALT), caption, long_batch),
        },
    )


def make_card_swap(data, manifest: dict | None = None) -> Report:
    """Card values from the swap replays (paired deals, the controlled experiment): `card_swaps.*` (per card),
    `card_swaps_by_batch.*`, the heatmap `card_swap_heatmap.*` and the 10♦ by batch `ten_diamonds_swaps_by_batch.*`.

    `data`: a table of paired deals (card, batch, variant, diff) or a run folder that has one."""
    table = _table_of(data, read_cards, "paired deals (run simulate with --card-deals N)")
    values, by_batch = card_value_table(table), card_batch_table(table)
    used = f"card values from {table['deal_id'].nunique():,} deals" if "deal_id" in table.columns else None
    caption = _caption(data, manifest, used)
    return Report(
        {"card_swaps": values, "card_swaps_by_batch": by_batch},
        {
            "card_swap_heatmap": drawn(charts.card_heatmap, caption, values),
            "ten_diamonds_swaps_by_batch": drawn(charts.ten_diamonds_chart, caption, by_batch),
        },
    )


MAKERS = {
    "summary": make_summary,
    "score": make_score_breakdown,
    "sweeps": make_sweep_frequency,
    "seat": make_seat_advantage,
    "anatomy": make_anatomy,
    "convergence": make_convergence,
    "games": make_games,
    "card-value": make_card_value,
    "card-swap": make_card_swap,
}


def _writer(make: Callable[..., Report]) -> Callable[..., pd.DataFrame]:
    def write(data, out: str | Path, manifest: dict | None = None) -> pd.DataFrame:
        return make(data, manifest).write(out)

    write.__doc__ = f"{make.__name__}, written into `out`; returns its main table."
    return write


REPORTS = {kind: _writer(make) for kind, make in MAKERS.items()}
summary, card_swap = REPORTS["summary"], REPORTS["card-swap"]  # the writers other modules call by name
