"""simulate as a user runs it: tables, resume after a kill, thread counts, --until-ci, bad options."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from casino_sim.experiments.simulate import SimConfig, finish_run, play_chunks, start_run
from casino_sim.runner.rundir import RunDir
from test_cli import assert_one_line_error, run


def simulate_dir(path, **options) -> pd.DataFrame:
    config = SimConfig(**options)
    rundir = RunDir(path)
    start_run(config, rundir, ["test"])
    finish_run(rundir, play_chunks(config, rundir))
    return rundir.read_rounds()


def test_same_seed_same_table_on_one_and_two_threads(tmp_path):
    common = dict(deals=3000, policy_a="expert", policy_b="greedy", seed=5, chunk_deals=500)
    one = simulate_dir(tmp_path / "one", threads=1, **common)
    two = simulate_dir(tmp_path / "two", threads=2, **common)
    pd.testing.assert_frame_equal(one, two)
    assert len(one) == 6000 and set(one["mirror"]) == {0, 1}
    other = simulate_dir(tmp_path / "other", threads=2, **dict(common, seed=6))
    assert not other["s0_total"].equals(one["s0_total"])


def cut_run(path, lost, **options) -> tuple[RunDir, SimConfig]:
    """A played run folder without the chunks `lost`, as if it had died before writing them."""
    cut, config = RunDir(path), SimConfig(**options)
    start_run(config, cut, ["test"])
    play_chunks(config, cut)
    for c in lost:
        cut.chunk_path(c).unlink()
    return cut, config


def test_resume_after_losing_chunks_equals_an_uninterrupted_run(tmp_path):
    common = dict(deals=2000, policy_a="greedy", policy_b="random", seed=9, chunk_deals=250)
    whole = simulate_dir(tmp_path / "whole", **common)
    cut, config = cut_run(tmp_path / "cut", (1, 4, 7), **common)
    (cut.rounds / ".chunk-000004.parquet.tmp-1").write_bytes(b"torn")
    finish_run(cut, play_chunks(config, cut))
    pd.testing.assert_frame_equal(cut.read_rounds(), whole)


def test_until_ci_stops_at_a_chunk_boundary_when_narrow_enough(tmp_path):
    frame = simulate_dir(tmp_path / "r", deals=20_000, policy_a="greedy", policy_b="random", seed=1,
                         chunk_deals=500, until_ci=0.5)
    deals = frame["deal_id"].nunique()
    assert 0 < deals < 20_000 and deals % 500 == 0
    d = frame.assign(diff=frame.s0_total - frame.s1_total)
    per_deal = d.assign(diff=d["diff"].where(d.mirror == 0, -d["diff"])).groupby("deal_id")["diff"].mean()
    assert 2 * 1.96 * per_deal.std(ddof=1) / len(per_deal) ** 0.5 < 0.5


def test_killed_run_resumes_from_the_command_line(tmp_path):
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "casino_sim", "simulate", "--deals", "400000", "--policy", "expert", "--vs",
           "expert", "--seed", "3", "--chunk-deals", "2000", "--out", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rundir = RunDir(out)
    deadline = time.time() + 120
    while len(rundir.finished_chunks()) < 3 and time.time() < deadline:
        time.sleep(0.2)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done = rundir.finished_chunks()
    assert 3 <= len(done) < 200, done
    before = {c: pd.read_parquet(rundir.chunk_path(c)) for c in sorted(done)[:3]}
    manifest = json.loads(rundir.manifest_path.read_text())
    # finish a shorter copy of the same run: same seed and chunking, so the same chunks
    manifest["config"]["deals"] = 2000 * (max(done) + 2)
    rundir.write_manifest(manifest)
    resumed = run("simulate", "--resume", str(out))
    assert resumed.returncode == 0, resumed.stderr
    assert rundir.finished_chunks() == set(range(max(done) + 2))
    for c, frame in before.items():
        pd.testing.assert_frame_equal(pd.read_parquet(rundir.chunk_path(c)), frame)
    fresh = simulate_dir(tmp_path / "fresh", deals=2000 * (max(done) + 2), policy_a="expert", policy_b="expert",
                         seed=3, chunk_deals=2000)
    pd.testing.assert_frame_equal(rundir.read_rounds(), fresh)
    assert (out / "report" / "summary.csv").exists()


@pytest.mark.parametrize("args, fragment", [
    (["--deals", "0"], "--deals"),
    (["--deals", "99999999999999"], "--deals"),
    (["--policy", "nobody"], "unknown policy"),
    (["--vs", "nobody.toml"], "no such policy file"),
    (["--rules", "poker"], "unknown rule set"),
    (["--threads", "-1"], "--threads"),
    (["--seed", "-4"], "--seed"),
    (["--until-ci", "0"], "--until-ci"),
    (["--chunk-deals", "0"], "--chunk-deals"),
    (["--engine", "abacus"], "unknown engine"),
])
def test_bad_options_get_one_line_errors(args, fragment, tmp_path):
    assert_one_line_error(run("simulate", "--out", str(tmp_path / "x"), *args), fragment)
    assert not (tmp_path / "x").exists()


def test_resume_of_a_folder_that_is_not_a_run(tmp_path):
    assert_one_line_error(run("simulate", "--resume", str(tmp_path)), "not a run folder")
    (tmp_path / "manifest.json").write_text(json.dumps({"format": 0}))
    assert_one_line_error(run("simulate", "--resume", str(tmp_path)), "another version")


def test_unwritable_output_folder(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert_one_line_error(run("simulate", "--deals", "10", "--out", str(blocker / "run")), "cannot write")


def test_compare_gives_the_numbers_of_a_simulate_run(tmp_path):
    from casino_sim.experiments.compare import compare
    from casino_sim.experiments.simulate import headline

    frame = simulate_dir(tmp_path / "r", deals=900, policy_a="expert", policy_b="greedy", seed=8, chunk_deals=200)
    est = compare("expert", "greedy", 900, seed=8, chunk_deals=200)
    assert est.n == 900 and est.mean == pytest.approx(headline(frame).mean(), abs=1e-12)
