"""The run folder of `tune`: its manifest and one record per finished generation, with the optimiser's state.

A generation's record is written (atomically) only once it is finished, so a run
killed at any moment resumes from the last finished generation and ends exactly
as an uninterrupted one would.
"""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path

from casino_sim.core.errors import InputError
from casino_sim.core.version import VERSION
from casino_sim.runner.rundir import (
    atomic_write_bytes,
    atomic_write_json,
    read_manifest_file,
    refuse_used_folder,
    writable_folder,
)

FORMAT = 1  # bump when the layout of tune folders changes
GENERATION_FILE = re.compile(r"^gen-(\d{4})\.json$")


class TuneDir:
    """manifest.json, generations/gen-NNNN.json (candidates and scores) and gen-NNNN.pkl (optimiser state)."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self.generations = self.path / "generations"
        self.report = self.path / "report"

    @property
    def manifest_path(self) -> Path:
        return self.path / "manifest.json"

    def create(self, manifest: dict, force: bool = False) -> None:
        """Make the folder for a new run; an existing run is refused unless `force` (then its records go)."""
        refuse_used_folder(self.path, force, resumable=True)
        writable_folder(self.generations)
        for p in self.generations.iterdir():
            p.unlink()
        atomic_write_json(self.manifest_path, dict(manifest, kind="tune", format=FORMAT, version=VERSION))

    def read_manifest(self) -> dict:
        """The manifest of an existing tune run; InputError if missing, damaged or not a tune run."""
        manifest = read_manifest_file(self.manifest_path, "tune run folder")
        if not isinstance(manifest, dict) or manifest.get("kind") != "tune" or manifest.get("format") != FORMAT:
            raise InputError(f"{self.path} does not hold a tune run of this version of casino-sim")
        return manifest

    def finished(self) -> list[int]:
        """Generations whose record is complete, in order (gaps cannot happen: each follows the last)."""
        if not self.generations.is_dir():
            return []
        return sorted(int(m.group(1)) for p in self.generations.iterdir() if (m := GENERATION_FILE.match(p.name)))

    def write_generation(self, g: int, record: dict, optimiser) -> None:
        """The optimiser's state first, then the record that marks the generation finished."""
        atomic_write_bytes(self.generations / f"gen-{g:04d}.pkl", pickle.dumps(optimiser))
        atomic_write_json(self.generations / f"gen-{g:04d}.json", record)

    def read_generation(self, g: int) -> dict:
        return json.loads((self.generations / f"gen-{g:04d}.json").read_text())

    def read_optimiser(self, g: int):
        """The optimiser as it stood after generation g (our own pickle, written by write_generation)."""
        try:
            return pickle.loads((self.generations / f"gen-{g:04d}.pkl").read_bytes())
        except (OSError, pickle.UnpicklingError, EOFError) as e:
            raise InputError(f"{self.path}: the optimiser state of generation {g} cannot be read: {e}") from None

    def history(self) -> list[dict]:
        """Every finished generation's record, in order."""
        return [self.read_generation(g) for g in self.finished()]
