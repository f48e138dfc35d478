"""A run's round records, read in format 2 whichever version wrote them: the one reader of `rounds/*.parquet`.

Format 2 names each player's columns by place in the turn order (first, [second, third,] dealer; `{place}_seat` is
the player there), for every player count. Format 1, written before it, named two players' columns by seat (`s0_*`,
`s1_*`). A format-1 chunk file is mapped to format 2 as it is read, judged by its own columns (a format-1 run
resumed holds files of both formats): everything above this module reads one layout (docs/reports.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from casino_sim.core.errors import InputError
from casino_sim.core.heap import release_free_memory
from casino_sim.core.record import record_columns

FORMAT2_TWO = record_columns(2)  # two players' record columns in format 2, in their order
TWO_PLACES = ("first", "dealer")  # two players' places; with dealer d, first is player 1 - d


def is_format1(names: Sequence[str]) -> bool:
    """Whether a chunk file's columns are format 1's (two players by seat). The rounds of whole games of three or
    four players of that version keep only each side's points (`s{side}_total`), no seat's cards: not records."""
    return "s0_cards" in names


def _place_field(name: str) -> tuple[str, str] | None:
    """(place, field) of a two-player format-2 column `{place}_{field}` (first_total: ("first", "total")), else
    None (dealer, void, deal_id, ...: the same name in both formats)."""
    place, _, field = name.partition("_")
    return (place, field) if place in TWO_PLACES and field else None


def format2_names(names: Sequence[str]) -> list[str]:
    """The format-2 columns a file of `names` gives: the names of a format-2 file as they are; a format-1 file's
    other columns (chunk, deal_id, policies) first, then its record columns renamed, in format 2's order."""
    if not is_format1(names):
        return list(names)
    present = set(names)
    kept = [c for c in names if c not in FORMAT2_TWO and not c.startswith(("s0_", "s1_"))]

    def given(c: str) -> bool:
        pf = _place_field(c)
        if pf is None:
            return c in present
        return pf[1] == "seat" or {f"s0_{pf[1]}", f"s1_{pf[1]}"} <= present

    return [*kept, *(c for c in FORMAT2_TWO if given(c))]


def _format1_sources(columns: Sequence[str]) -> list[str]:
    """The format-1 columns that make the format-2 `columns`: a place's field needs both seats' and the dealer."""
    out = []
    for c in columns:
        pf = _place_field(c)
        out += [c] if pf is None else ["dealer"] if pf[1] == "seat" else ["dealer", f"s0_{pf[1]}", f"s1_{pf[1]}"]
    return list(dict.fromkeys(out))


def as_format2(table: pa.Table, columns: Sequence[str] | None = None) -> pa.Table:
    """A format-1 table as format 2 (`columns` of it, default all): row by row, with dealer d, `first_X` is
    `s{1-d}_X`, `dealer_X` is `s{d}_X`, `first_seat` 1 - d and `dealer_seat` d; every other column as it is."""
    columns = format2_names(table.column_names) if columns is None else columns
    dealer = table["dealer"].to_numpy()
    seat = {"first": (1 - dealer).astype(np.int8), "dealer": dealer.astype(np.int8)}
    arrays = []
    for c in columns:
        pf = _place_field(c)
        if pf is None:
            arrays.append(table[c])
        elif pf[1] == "seat":
            arrays.append(pa.array(seat[pf[0]]))
        else:
            s0, s1 = (table[f"s{s}_{pf[1]}"].to_numpy() for s in (0, 1))
            arrays.append(pa.array(np.where(seat[pf[0]] == 0, s0, s1)))
    return pa.table(arrays, names=list(columns))


def frame_as_format2(frame: pd.DataFrame) -> pd.DataFrame:
    """Round records in memory (a DataFrame) in format 2: a format-1 frame mapped (as_format2), else as it is."""
    if not is_format1(frame.columns):
        return frame
    return as_format2(pa.Table.from_pandas(frame, preserve_index=False)).to_pandas()


def read_file(path: Path, columns: Sequence[str] | None = None, filters=None) -> pa.Table:
    """One chunk file's records in format 2 (`columns` of them, default all; the rows `filters` keeps, in
    pyarrow's form, of columns both formats share)."""
    names = pq.read_schema(path).names
    if not is_format1(names):
        return pq.read_table(path, columns=None if columns is None else list(columns), filters=filters)
    sources = None if columns is None else _format1_sources(columns)
    mapped = as_format2(pq.read_table(path, columns=sources, filters=filters), columns)
    pa.default_memory_pool().release_unused()  # the seats' buffers, freed: not held to the end of the read
    return mapped


def read_rounds(
    files: Sequence[Path], columns: Sequence[str] | Callable[[str], bool] | None = None, optional: Sequence[str] = ()
) -> pd.DataFrame:
    """`columns` (names, or a test of a name; None: all) of the records of `files` in order, in format 2, with those
    of `optional` the first file has; InputError naming a column the first file lacks.

    The chunks are joined as Arrow tables and converted once, one block per column, each buffer freed as it is
    converted: no second copy of the rounds at the peak (reading only the columns asked for halves time and memory
    on a million rounds).
    """
    if callable(columns):
        columns = [c for c in format2_names(pq.read_schema(files[0]).names) if columns(c)]
    if columns is not None:
        present = format2_names(pq.read_schema(files[0]).names)
        missing = [c for c in columns if c not in present]
        if missing:
            raise InputError(f"{files[0]} lacks column(s): {', '.join(missing)}")
        columns = [*columns, *(c for c in optional if c in present and c not in columns)]
    table = pa.concat_tables([read_file(f, columns) for f in files], promote_options="default")
    df = table.to_pandas(split_blocks=True, self_destruct=True)
    del table
    # Arrow's allocator keeps the buffers the conversion freed (and those of writing the chunks) for reuse that
    # never comes: hand them back, ~60-70 MB off the report's peak on a million deals; and the C heap its pages
    # of the format-1 seats mapped (their temporaries)
    pa.default_memory_pool().release_unused()
    release_free_memory()
    return df
