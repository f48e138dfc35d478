"""Writing report files atomically: tables as CSV + JSON, figures as PNG + SVG."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import matplotlib
import pandas as pd
from matplotlib.figure import Figure

from casino_sim.core.errors import InputError
from casino_sim.runner.rundir import atomic_write_bytes

PNG_DPI = 110
METADATA = {"png": {"Software": None}, "svg": {"Date": None}}  # no timestamps: same data, same bytes


def atomic_write(path: Path, data: bytes) -> Path:
    """Write to a temporary name in the same folder, then rename: readers never see half a file."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, data)
    except OSError as e:
        raise InputError(f"cannot write {path}: {e.strerror or e}") from None
    return path


def _plain(v):
    """JSON-safe scalar: numpy types to Python, NaN and infinities to null."""
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


def csv_bytes(df: pd.DataFrame, **to_csv) -> bytes:
    """A table as CSV, a missing number (NaN, or an infinite bound of an interval from one sample) an empty
    cell: what the JSON writes as null (docs/reports.md)."""
    return df.replace([math.inf, -math.inf], math.nan).to_csv(**{"index": False, **to_csv}).encode()


def write_table(df: pd.DataFrame, out: str | Path, name: str) -> list[Path]:
    """`name.csv` and `name.json` (a list of records) in `out`."""
    out = Path(out)
    csv = atomic_write(out / f"{name}.csv", csv_bytes(df))
    records = [{k: _plain(v) for k, v in row.items()} for row in df.to_dict(orient="records")]
    js = atomic_write(out / f"{name}.json", (json.dumps(records, indent=1, ensure_ascii=False) + "\n").encode())
    return [csv, js]


def save_figure(fig: Figure, out: str | Path, name: str) -> list[Path]:
    """`name.png` and `name.svg` in `out`."""
    out = Path(out)
    paths = []
    for fmt in ("png", "svg"):
        buf = io.BytesIO()
        # SVG clip-path ids come from a hash salted with a random uuid unless a salt is set: fix it
        with matplotlib.rc_context({"svg.hashsalt": "casino-sim"}):
            fig.savefig(buf, format=fmt, dpi=PNG_DPI, metadata=METADATA[fmt])
        paths.append(atomic_write(out / f"{name}.{fmt}", buf.getvalue()))
    return paths
