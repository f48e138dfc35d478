"""Simulate runs played in-process into a folder: whole, or cut as if killed before some chunks were written."""

from __future__ import annotations

import pandas as pd

from casino_sim.experiments.simulate import SimConfig, play_chunks, play_run, start_run
from casino_sim.runner.rundir import RunDir
from tests.support.policies import LOADER


def simulate_dir(path, **options) -> pd.DataFrame:
    """Play a whole run of SimConfig(**options) into `path`; its round records."""
    config = SimConfig(**options, loader=LOADER)
    rundir = RunDir(path)
    play_run(config, rundir, ["test"])
    return rundir.read_rounds()


def cut_run(path, lost, **options) -> tuple[RunDir, SimConfig]:
    """A played run folder without the chunks `lost`, as if it had died before writing them."""
    cut, config = RunDir(path), SimConfig(**options, loader=LOADER)
    start_run(config, cut, ["test"])
    play_chunks(config, cut)
    for c in lost:
        cut.chunk_path(c).unlink()
    return cut, config


def chunk_killing_its_worker(marker, chunk_to_kill: int, config: SimConfig, chunk: int) -> dict[str, pd.DataFrame]:
    """play_chunk, except that the first process to play `chunk_to_kill` kills itself (SIGKILL) once it has played
    it, before returning it: a Dask worker lost mid-task. `marker` (a file, created then) makes it happen once."""
    import os
    import signal

    from casino_sim.experiments.simulate import play_chunk

    tables = play_chunk(config, chunk)
    if chunk == chunk_to_kill:
        try:
            open(marker, "x").close()  # noqa: SIM115 - only the first player of the chunk creates it
        except FileExistsError:
            return tables
        os.kill(os.getpid(), signal.SIGKILL)
    return tables
