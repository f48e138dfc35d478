"""One function per report kind: records (a DataFrame or a run folder) in, tables + charts out.

Each writes `<name>.csv/.json` and `<name>.png/.svg` into `out` and returns its main table.
Charts carry a footer naming the run: from `manifest`, or the manifest of the run folder `data`.
`REPORTS` maps the kind names of `casino-sim report KIND RUN_DIR` to these functions.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from casino_sim.reports import captions, charts, tables
from casino_sim.reports.anatomy import anatomy_table
from casino_sim.reports.anatomy_chart import anatomy_chart
from casino_sim.reports.cardvalue import card_batch_table, card_value_table
from casino_sim.reports.load import read_manifest, rounds_of
from casino_sim.reports.output import save_figure, write_table


def _caption(data, manifest: dict | None, deals: str | None = None) -> str:
    """The footer of a report's charts: the run of `manifest`, else of the run folder `data` ('' for a bare table)."""
    if manifest is None:
        manifest = {} if isinstance(data, pd.DataFrame) else read_manifest(data)
    return captions.run_caption(manifest, deals)


def _save(figure, out: str | Path, name: str, caption: str) -> None:
    save_figure(captions.add_caption(figure, caption), out, name)


def _written(t: pd.DataFrame, out: str | Path, name: str, figure, caption: str) -> pd.DataFrame:
    """Write table `name` (CSV, JSON) and its chart (PNG, SVG, with the run's footer) into `out`; returns the table."""
    write_table(t, out, name)
    _save(figure, out, name, caption)
    return t


def _table_of(data, read, missing: str) -> pd.DataFrame:
    """`data` itself when it is a table, else what `read` finds in that run folder (InputError when none)."""
    if isinstance(data, pd.DataFrame):
        return data
    table = read(data)
    if table is None:
        from casino_sim.core.errors import InputError

        raise InputError(f"{data} holds no {missing}")
    return table


def score_breakdown(data, out: str | Path, manifest: dict | None = None) -> pd.DataFrame:
    """Mean points per category per policy: `score_breakdown.*`."""
    t = tables.score_breakdown_table(rounds_of(data))
    return _written(t, out, "score_breakdown", charts.score_breakdown_chart(t), _caption(data, manifest))


def sweep_frequency(data, out: str | Path, manifest: dict | None = None) -> pd.DataFrame:
    """Sweeps per round and per batch (`sweeps.*`) and their distribution (`sweeps_distribution.*`)."""
    df = rounds_of(data)
    rates, dist = tables.sweep_rate_table(df), tables.sweep_distribution_table(df)
    write_table(rates, out, "sweeps")
    write_table(dist, out, "sweeps_distribution")
    _save(charts.sweep_chart(rates, dist), out, "sweeps", _caption(data, manifest))
    return rates


def seat_advantage(data, out: str | Path, manifest: dict | None = None) -> pd.DataFrame:
    """Dealer vs first player per policy: `seat_advantage.*`."""
    t = tables.seat_advantage_table(rounds_of(data))
    return _written(t, out, "seat_advantage", charts.seat_advantage_chart(t), _caption(data, manifest))


def anatomy(data, out: str | Path, manifest: dict | None = None) -> pd.DataFrame:
    """Kinds of play, fates of builds, cards captured and prizes won per policy: `anatomy.*`."""
    t = anatomy_table(rounds_of(data))
    return _written(t, out, "anatomy", anatomy_chart(t), _caption(data, manifest))


def convergence(data, out: str | Path, manifest: dict | None = None) -> pd.DataFrame:
    """Running mean of the headline with its band: `convergence.*`."""
    t = tables.convergence_table(rounds_of(data))
    return _written(t, out, "convergence", charts.convergence_chart(t), _caption(data, manifest))


def summary(data, out: str | Path, manifest: dict | None = None) -> pd.DataFrame:
    """The headline per matchup: `summary.csv`, `summary.json` and the chart `summary.png/.svg`."""
    t = tables.summary_table(rounds_of(data))
    return _written(t, out, "summary", charts.summary_chart(t), _caption(data, manifest))


def games(data, out: str | Path, manifest: dict | None = None) -> pd.DataFrame:
    """Whole games (`simulate --games`): `games.*`, A's game win rate and margin per matchup.

    `data` is a labelled games table (reports.load.read_games) or a run folder."""
    from casino_sim.reports.load import read_games

    t = tables.games_table(_table_of(data, read_games, "games (run simulate with --games)"))
    return _written(t, out, "games", charts.games_chart(t), _caption(data, manifest))


def card_value(data, out: str | Path, manifest: dict | None = None) -> pd.DataFrame:
    """Card values from paired-deal differences: `card_values.*` (per card), `card_values_by_batch.*`,
    the heatmap `card_value_heatmap.*` and the 10♦ by batch `ten_diamonds_by_batch.*`.

    `data`: a table of paired deals (card, batch, variant, diff) or a run folder that has one."""
    from casino_sim.reports.load import read_cards

    table = _table_of(data, read_cards, "paired deals (run simulate with --card-deals N)")
    values, by_batch = card_value_table(table), card_batch_table(table)
    write_table(values, out, "card_values")
    write_table(by_batch, out, "card_values_by_batch")
    used = f"card values from {table['deal_id'].nunique():,} deals" if "deal_id" in table.columns else None
    caption = _caption(data, manifest, used)
    _save(charts.card_heatmap(values), out, "card_value_heatmap", caption)
    _save(charts.ten_diamonds_chart(by_batch), out, "ten_diamonds_by_batch", caption)
    return values


REPORTS = {
    "summary": summary,
    "score": score_breakdown,
    "sweeps": sweep_frequency,
    "seat": seat_advantage,
    "anatomy": anatomy,
    "convergence": convergence,
    "games": games,
    "card-value": card_value,
}
