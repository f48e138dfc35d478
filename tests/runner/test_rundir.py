"""Run folders: chunk seeds by index, atomic chunk files, manifests from other versions."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from casino_sim.core.errors import InputError
from casino_sim.runner.chunk_seeding import chunk_seed
from casino_sim.runner.rundir import RunDir


def test_chunk_seeds_match_spawned_children_and_are_distinct():
    children = np.random.SeedSequence(42).spawn(5)
    for i, child in enumerate(children):
        lo, hi = child.generate_state(2, np.uint32)
        assert chunk_seed(42, i) == int(lo) | (int(hi) << 32)
    seeds = [chunk_seed(42, c) for c in range(1000)]
    assert len(set(seeds)) == 1000
    assert chunk_seed(43, 0) != seeds[0]


def test_chunks_are_written_whole_and_temporary_files_ignored(tmp_path):
    run = RunDir(tmp_path / "run")
    run.create({"seed": 1})
    frame = pd.DataFrame({"a": np.arange(5), "b": np.arange(5) * 2})
    run.write_chunk(3, frame)
    run.write_chunk(0, frame + 10)
    (run.rounds / ".chunk-000001.parquet.tmp-999").write_bytes(b"half a file")
    assert run.finished_chunks() == {0, 3}
    back = run.read_rounds()
    assert back["a"].tolist() == [10, 11, 12, 13, 14, 0, 1, 2, 3, 4]
    assert run.read_manifest()["seed"] == 1


def test_a_folder_holding_a_run_is_not_overwritten(tmp_path):
    run = RunDir(tmp_path)
    run.create({"seed": 1})
    with pytest.raises(InputError, match="already holds a run"):
        RunDir(tmp_path).create({"seed": 2})
    assert run.read_manifest()["seed"] == 1


def test_force_replaces_the_run_and_keeps_other_files(tmp_path):
    run = RunDir(tmp_path)
    run.create({"seed": 1})
    run.write_chunk(0, {"rounds": pd.DataFrame({"a": [1]}), "cards": pd.DataFrame({"b": [2]})})
    (tmp_path / "notes.txt").write_text("mine")
    RunDir(tmp_path).create({"seed": 2}, force=True)
    assert run.finished_chunks() == set() and not (tmp_path / "cards").exists()
    assert run.read_manifest()["seed"] == 2 and (tmp_path / "notes.txt").read_text() == "mine"


def test_manifest_from_another_version_or_missing_is_refused(tmp_path):
    with pytest.raises(InputError, match="not a run folder"):
        RunDir(tmp_path).read_manifest()
    (tmp_path / "manifest.json").write_text(json.dumps({"format": 999}))
    with pytest.raises(InputError, match="another version"):
        RunDir(tmp_path).read_manifest()
    (tmp_path / "manifest.json").write_text("{broken")
    with pytest.raises(InputError, match="cannot be read"):
        RunDir(tmp_path).read_manifest()


def test_unwritable_folder_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(InputError, match="cannot write"):
        RunDir(blocker / "run").create({})
