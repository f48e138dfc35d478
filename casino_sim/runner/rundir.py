"""A run folder: manifest, per-chunk Parquet files written atomically, and resume.

Each finished chunk is written to a temporary name and renamed into place, so a
run killed at any moment leaves only whole chunk files; `--resume` plays the
chunks that are missing.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from casino_sim.core.errors import InputError
from casino_sim.core.version import VERSION

if TYPE_CHECKING:  # pandas loads where a table is read: commands that only name a run folder start without it
    import pandas as pd

CHUNK_FILE = re.compile(r"^chunk-(\d{6})\.parquet$")
FORMAT = 2  # bump when the layout of run folders changes (2: several tables per chunk, int8 records)
RUN_FOLDERS = ("rounds", "games", "cards", "moves", "decks", "report")  # what a run writes besides its manifest
RECORD_FORMATS = (1, 2)  # the round-record layouts this version reads (runner/records.py; docs/reports.md)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write to a temporary name in the same folder, flush to disk, then rename over `path`."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def atomic_write_json(path: Path, obj) -> None:
    atomic_write_bytes(path, (json.dumps(obj, indent=2, default=str) + "\n").encode())


def writable_folder(path: Path) -> Path:
    """Make the folder (and its parents) and check a file can be written there; InputError if not.

    Checked before any work starts, so a long run never fails at its end for want of a place to write.
    """
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".write-probe"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        raise InputError(f"cannot write to {path}: {e.strerror or e}") from None
    return path


def unused_folder(root: Path, name: str) -> Path:
    """root/name, or root/name-2, -3, ... when that exists: a default run folder never lands on another run."""
    path, k = Path(root) / name, 1
    while path.exists():
        k += 1
        path = Path(root) / f"{name}-{k}"
    return path


def refuse_used_folder(
    path: Path, force: bool, resumable: bool = False, nested: bool = False, resume_with: str = "--resume"
) -> None:
    """InputError for an existing non-empty output folder unless `force`: a run never silently overwrites another.

    `resumable`: the run can be finished, by `resume_with` (the command's --resume; the API, which has no resume,
    names the command), so the error says so; `nested`: runs live in subfolders (experiment).
    """
    path = Path(path)
    if force or not path.is_dir() or not any(path.iterdir()):
        return
    if nested and any((p / "manifest.json").exists() for p in path.iterdir() if p.is_dir()):
        held, force_does = "already holds runs", "--force replaces them"
    elif not nested and (path / "manifest.json").exists():
        held, force_does = "already holds a run", "--force replaces it"
    else:
        held, force_does, resumable = "is not empty", "--force writes there anyway", False
    resume = f"{resume_with} finishes what was cut short, " if resumable else ""
    raise InputError(f"{path} {held} ({resume}{force_does}; or choose another --out)")


def read_manifest_file(path: Path, folder_kind: str) -> dict:
    """A folder's manifest.json; InputError if there is none (not a `folder_kind`) or it cannot be read."""
    try:
        return json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise InputError(f"{Path(path).parent} is not a {folder_kind} (no manifest.json)") from None
    except (OSError, json.JSONDecodeError) as e:
        raise InputError(f"{path} cannot be read: {e}") from None


def record_format(manifest: dict) -> int:
    """The layout of a run's round records its manifest declares (`format_version`): 2, or 1 when it has none (the
    runs of versions before it, two players' records by seat). Each chunk file is read by its own columns
    (runner/records.py), so a format-1 run resumed by this version, which holds both, reads as one."""
    return int(manifest.get("format_version", 1))


class RunDir:
    """The folder of one run: manifest.json, rounds/chunk-NNNNNN.parquet, report files."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self.rounds = self.path / "rounds"

    @property
    def manifest_path(self) -> Path:
        return self.path / "manifest.json"

    def create(self, manifest: dict, force: bool = False) -> None:
        """Make the folder for a new run; refuse a folder that already holds a run, unless `force` replaces it."""
        if self.manifest_path.exists():
            if not force:
                raise InputError(f"{self.path} already holds a run (use --resume to finish it, or another --out)")
            self.clear()
        writable_folder(self.rounds)
        self.write_manifest(dict(manifest, format=FORMAT, version=VERSION))

    def clear(self) -> None:
        """Delete the run held here (manifest, tables, report), and nothing else of the folder."""
        try:  # a table left behind would pass for a finished chunk of the new run: fail rather than go on
            for name in RUN_FOLDERS:
                if (self.path / name).exists():
                    shutil.rmtree(self.path / name)
            self.manifest_path.unlink(missing_ok=True)
        except OSError as e:
            raise InputError(f"cannot replace the run in {self.path}: {e.strerror or e}") from None

    def write_manifest(self, manifest: dict) -> None:
        atomic_write_json(self.manifest_path, manifest)

    def read_manifest(self) -> dict:
        """The manifest of an existing run; InputError if missing, damaged or from another version."""
        manifest = read_manifest_file(self.manifest_path, "run folder")
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise InputError(
                f"{self.path} was written by another version of casino-sim "
                f"(run format {manifest.get('format') if isinstance(manifest, dict) else '?'}, "
                f"this version reads {FORMAT})"
            )
        if record_format(manifest) not in RECORD_FORMATS:
            raise InputError(
                f"{self.path} was written by a newer version of casino-sim (record format {record_format(manifest)}, "
                f"this version reads {' and '.join(map(str, RECORD_FORMATS))})"
            )
        return manifest

    def chunk_path(self, chunk: int) -> Path:
        return self.rounds / f"chunk-{chunk:06d}.parquet"

    def finished_chunks(self) -> set[int]:
        """Indices of the chunks whose files are complete (temporary files are ignored)."""
        if not self.rounds.is_dir():
            return set()
        return {int(m.group(1)) for p in self.rounds.iterdir() if (m := CHUNK_FILE.match(p.name))}

    def write_chunk(self, chunk: int, tables: dict[str, pd.DataFrame] | pd.DataFrame) -> None:
        """Write one finished chunk atomically: each table to `<table>/chunk-NNNNNN.parquet`.

        The rounds file is written last: it marks the chunk finished, so a chunk cut
        short between two tables is played again on resume.
        """
        if not isinstance(tables, dict):  # one DataFrame: the rounds
            tables = {"rounds": tables}
        for name in sorted(tables, key=lambda t: t == "rounds"):
            folder = self.path / name
            folder.mkdir(exist_ok=True)
            buf = io.BytesIO()
            tables[name].to_parquet(buf, index=False)
            atomic_write_bytes(folder / self.chunk_path(chunk).name, buf.getvalue())

    def drop_chunk(self, chunk: int) -> None:
        """Delete one finished chunk's files (its rounds file first: the chunk is unfinished from then on)."""
        name = self.chunk_path(chunk).name
        for folder in sorted(RUN_FOLDERS, key=lambda t: t != "rounds"):
            (self.path / folder / name).unlink(missing_ok=True)

    def table_files(self, name: str) -> list[Path]:
        """The files of one table (rounds, games, ...) of every finished chunk, in chunk order."""
        done = self.finished_chunks()
        return sorted(
            p
            for p in (self.path / name).glob("chunk-*.parquet")
            if (m := CHUNK_FILE.match(p.name)) and int(m.group(1)) in done
        )

    def read_table(self, name: str, columns: list[str] | None = None) -> pd.DataFrame:
        """Every finished chunk's rows of one table (games, cards, ...), in chunk order (the rounds: read_rounds)."""
        if name == "rounds":
            return self.read_rounds(columns)
        files = self.table_files(name)
        if not files:
            raise InputError(f"{self.path} holds no finished {name}")
        import pandas as pd  # deferred: see the import at the top

        return pd.concat([pd.read_parquet(p, columns=columns) for p in files], ignore_index=True)

    def read_rounds(self, columns=None, optional: tuple[str, ...] = ()) -> pd.DataFrame:
        """Every finished chunk's round records in format 2, in chunk order, whichever format each chunk was written
        in: `columns` of them (names, or a test of a name; default all) and those of `optional` they have
        (runner/records.py read_rounds)."""
        files = self.table_files("rounds")
        if not files:
            raise InputError(f"{self.path} holds no round records (rounds/chunk-*.parquet)")
        from casino_sim.runner.records import read_rounds  # deferred: pyarrow and pandas, see the import at the top

        return read_rounds(files, columns, optional)
