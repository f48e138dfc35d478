"""Seeding (runner/seeding.py, docs/reports.md "Seeding"): the same seed gives the same tables, byte for byte, whatever
--chunk-deals or --threads, on either engine (both deal alike, but their policies draw their own choices: runs of
the two engines are alike in distribution, not row for row); a run of an earlier version (seeding 1, no `seeding`
in its manifest) resumes and is dealt again as it was seeded."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from casino_sim.experiments.simulate import SimConfig, config_of, play_run
from casino_sim.runner.chunk_seeding import chunk_rows, chunk_seed
from casino_sim.runner.redeal import dealt_decks
from casino_sim.runner.rundir import RunDir
from tests.support.cli import run
from tests.support.policies import LOADER

# per engine, (chunk size, threads): the first is the one the others are held to
WAYS = {"numba": [("1", "1"), ("7", "2"), ("5000", "1")], "reference": [("1", "1"), ("7", "1")]}


def outputs(folder: Path) -> dict[str, bytes]:
    """Every report table (CSV) of a run or tournament folder, by path."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("report/*.csv"))}


def played(tmp_path: Path, name: str, *args: str) -> Path:
    out = tmp_path / name
    proc = run(*args, "--seed", "3", "--out", str(out), *(["--no-charts"] if args[0] == "simulate" else []))
    assert proc.returncode == 0, proc.stderr
    return out


def rounds_of(folder: Path) -> pd.DataFrame:
    """A run's round records without the chunk each came in (the one column that names the cut)."""
    return RunDir(folder).read_rounds().drop(columns="chunk")


@pytest.mark.parametrize(
    "what",
    [
        ["simulate", "--deals", "12", "--policy", "greedy", "--vs", "random", "--card-deals", "3"],
        ["simulate", "--deals", "5", "--policy", "expert", "--vs", "random", "--games"],
        ["simulate", "--deals", "6", "--policy", "greedy", "--vs", "random", "--rules", "italian:players=3"],
    ],
    ids=["rounds", "games", "three-players"],
)
@pytest.mark.parametrize("engine", sorted(WAYS))
def test_any_chunk_size_or_thread_count_gives_the_same_run(tmp_path, what, engine):
    runs = [
        played(tmp_path, f"{c}-{t}", *what, "--chunk-deals", c, "--threads", t, "--engine", engine)
        for c, t in WAYS[engine]
    ]
    first = outputs(runs[0])
    assert len(first) >= 5
    for folder in runs[1:]:
        assert outputs(folder) == first, folder.name
        pd.testing.assert_frame_equal(rounds_of(folder), rounds_of(runs[0]), check_categorical=False)
    assert json.loads((runs[0] / "manifest.json").read_text())["config"]["seeding"] == 2


def test_a_tournament_is_the_same_whatever_its_chunks(tmp_path):
    what = ("tournament", "random", "greedy", "--games", "5")
    one, many = (played(tmp_path, f"t{c}", *what, "--chunk-deals", c) for c in ("1", "5000"))
    assert outputs(one) == outputs(many) and len(outputs(one)) >= 4


def version_1_run(folder: Path, deals: int) -> RunDir:
    """A run as earlier versions played it: seeding 1, its manifest without `seeding`."""
    config = SimConfig(deals=deals, policy_a="greedy", policy_b="random", seed=7, chunk_deals=4, card_deals=2)
    rundir = RunDir(folder)
    play_run(SimConfig(**{**config.manifest_config(), "seeding": 1}).resolve(LOADER), rundir, ["test"])
    manifest = rundir.read_manifest()
    manifest["config"].pop("seeding")
    rundir.write_manifest(manifest)
    return rundir


def test_a_version_1_run_resumes_and_is_dealt_again_as_it_was_seeded(tmp_path):
    """Cut after two of its three chunks, a version-1 run resumed plays its third from its chunk seed: its records
    are those of the run played whole, and its decks (reports/dealt.py) are its chunks' draws."""
    whole = version_1_run(tmp_path / "whole", 10)
    cut = version_1_run(tmp_path / "cut", 10)
    cut.drop_chunk(2)
    manifest = cut.read_manifest()
    cut.write_manifest(dict(manifest, status="stopped"))
    assert config_of(cut).seeding == 1
    proc = run("simulate", "--resume", str(cut.path), "--no-charts")
    assert proc.returncode == 0, proc.stderr
    pd.testing.assert_frame_equal(cut.read_rounds(), whole.read_rounds())
    pd.testing.assert_frame_equal(cut.read_table("cards"), whole.read_table("cards"))
    config = whole.read_manifest()["config"]
    decks = dealt_decks(config, np.arange(10))
    old = [chunk_rows(chunk_seed(7, c), 4 * c, min(4, 10 - 4 * c), [[0, 1]]) for c in range(3)]
    assert np.array_equal(decks, np.concatenate([rows.decks for rows in old]))
    assert not np.array_equal(dealt_decks({**config, "seeding": 2}, np.arange(10)), decks)
    dealers = cut.read_rounds().groupby("deal_id")["dealer"].first().to_numpy()
    assert np.array_equal(dealers, np.concatenate([rows.dealer for rows in old]))
