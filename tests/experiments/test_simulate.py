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

from casino_sim.core.rules import get_rules
from casino_sim.experiments.simulate import SimConfig, play_chunks, play_run, start_run
from casino_sim.runner.rundir import RunDir
from casino_sim.runner.sides import side_points
from tests.support.cli import assert_one_line_error, run
from tests.support.policies import LOADER
from tests.support.runs import cut_run, simulate_dir


def test_same_seed_same_table_on_one_and_two_threads(tmp_path):
    common = dict(deals=3000, policy_a="expert", policy_b="greedy", seed=5, chunk_deals=500)
    one = simulate_dir(tmp_path / "one", threads=1, **common)
    two = simulate_dir(tmp_path / "two", threads=2, **common)
    pd.testing.assert_frame_equal(one, two)
    assert len(one) == 6000 and set(one["mirror"]) == {0, 1}
    other = simulate_dir(tmp_path / "other", threads=2, **dict(common, seed=6))
    assert not other["first_total"].equals(one["first_total"])


def test_resume_after_losing_chunks_equals_an_uninterrupted_run(tmp_path):
    common = dict(deals=2000, policy_a="greedy", policy_b="random", seed=9, chunk_deals=250)
    whole = simulate_dir(tmp_path / "whole", **common)
    cut, config = cut_run(tmp_path / "cut", (1, 4, 7), **common)
    (cut.rounds / ".chunk-000004.parquet.tmp-1").write_bytes(b"torn")
    play_run(config, cut)
    pd.testing.assert_frame_equal(cut.read_rounds(), whole)


def test_until_ci_stops_at_a_chunk_boundary_when_narrow_enough(tmp_path):
    frame = simulate_dir(
        tmp_path / "r", deals=20_000, policy_a="greedy", policy_b="random", seed=1, chunk_deals=500, until_ci=0.5
    )
    deals = frame["deal_id"].nunique()
    assert 0 < deals < 20_000 and deals % 500 == 0
    points = side_points(frame, get_rules("strict"))
    d = frame.assign(diff=points[:, 0] - points[:, 1])
    per_deal = d.assign(diff=d["diff"].where(d.mirror == 0, -d["diff"])).groupby("deal_id")["diff"].mean()
    assert 2 * 1.96 * per_deal.std(ddof=1) / len(per_deal) ** 0.5 < 0.5


def test_killed_run_resumes_from_the_command_line(tmp_path):
    out = tmp_path / "run"
    cmd = [
        sys.executable,
        "-m",
        "casino_sim",
        *"simulate --deals 400000 --policy expert --vs expert --seed 3 --no-charts".split(),
    ]
    cmd += ["--chunk-deals", "2000", "--out", str(out)]
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
    resumed = run("simulate", "--resume", str(out), "--no-charts")
    assert resumed.returncode == 0, resumed.stderr
    assert rundir.finished_chunks() == set(range(max(done) + 2))
    for c, frame in before.items():
        pd.testing.assert_frame_equal(pd.read_parquet(rundir.chunk_path(c)), frame)
    fresh = simulate_dir(
        tmp_path / "fresh", deals=2000 * (max(done) + 2), policy_a="expert", policy_b="expert", seed=3, chunk_deals=2000
    )
    pd.testing.assert_frame_equal(rundir.read_rounds(), fresh)
    assert (out / "report" / "summary.csv").exists()


@pytest.mark.parametrize(
    "args, fragment",
    [
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
    ],
)
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
    from casino_sim.experiments.headline import headline
    from casino_sim.experiments.simulate import SimConfig

    frame = simulate_dir(tmp_path / "r", deals=900, policy_a="expert", policy_b="greedy", seed=8, chunk_deals=200)
    est = compare(SimConfig(deals=900, policy_a="expert", policy_b="greedy", seed=8, chunk_deals=200, loader=LOADER))
    assert est.n == 900 and est.mean == pytest.approx(headline(frame, get_rules("strict")).mean(), abs=1e-12)


def test_auto_card_deals_are_a_share_of_the_run_capped_and_smaller_on_the_reference_engine():
    from casino_sim.experiments.card_value import PAIRS_PER_DEAL
    from casino_sim.experiments.simulate import AUTO_CARD_DEALS_CAP, AUTO_CARD_DIVISOR

    for engine, share in AUTO_CARD_DIVISOR.items():
        for deals in (20, 1000, 20_000, 10**7):
            used = SimConfig(deals=deals, engine=engine, policy_b="greedy", loader=LOADER).card_deals_used()
            fits = deals // (share * PAIRS_PER_DEAL)  # card-value rounds at most 1/share of the run's rounds
            assert used == min(fits, AUTO_CARD_DEALS_CAP), (engine, deals)
    assert AUTO_CARD_DIVISOR["reference"] >= 10 * AUTO_CARD_DIVISOR["numba"]
    assert SimConfig(deals=20, card_deals=7, loader=LOADER).card_deals_used() == 7  # an explicit count is honoured
    assert SimConfig(deals=10**6, games=True, loader=LOADER).card_deals_used() == 0  # whole games pair no cards
    # --until-ci may stop after the first chunk: the share is of that chunk
    assert SimConfig(deals=10**6, chunk_deals=2000, until_ci=0.5, loader=LOADER).card_deals_used() == 2000 // (
        AUTO_CARD_DIVISOR["numba"] * PAIRS_PER_DEAL
    )


def test_progress_counts_the_card_value_rounds_and_resume_agrees(tmp_path):
    from casino_sim.experiments.card_value import PAIRS_PER_DEAL

    common = dict(deals=300, policy_a="greedy", policy_b="random", seed=2, chunk_deals=100, card_deals=150)
    seen = []
    run_dir = RunDir(tmp_path / "r")
    start_run(SimConfig(**common, loader=LOADER), run_dir, ["test"])
    play_chunks(SimConfig(**common, loader=LOADER), run_dir, lambda done, total: seen.append((done, total)))
    total = 300 * 2 + 150 * 2 * PAIRS_PER_DEAL
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    cut, config = cut_run(tmp_path / "cut", (1,), **common)  # chunk 1 holds paired deals 100..149
    resumed = []
    play_chunks(config, cut, lambda done, total: resumed.append((done, total)))
    assert resumed[0] == (total - 100 * 2 - 50 * 2 * PAIRS_PER_DEAL, total) and resumed[-1] == (total, total)


def test_a_python_policy_run_with_default_options_stays_small(tmp_path):
    (tmp_path / "mypol.py").write_text("def first(position, legal_moves, rng):\n    return legal_moves[0]\n")
    out = tmp_path / "run"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "casino_sim",
            "simulate",
            "--deals",
            "20",
            "--policy",
            "mypol.py:first",
            "--vs",
            "greedy",
            "--no-charts",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["card_deals"] == 0 and manifest["card_deals_auto"] is True
    assert not (out / "cards").exists()
    assert "card values: off" in proc.stdout and "--card-deals N" in proc.stdout


def test_the_summary_says_how_many_deals_the_card_values_used(tmp_path):
    auto = run(
        "simulate",
        "--deals",
        "400",
        "--policy",
        "expert",
        "--vs",
        "greedy",
        "--no-charts",
        "--out",
        str(tmp_path / "a"),
    )
    assert auto.returncode == 0, auto.stderr
    used = SimConfig(deals=400, policy_a="expert", policy_b="greedy", loader=LOADER).card_deals_used()
    assert used > 0 and json.loads((tmp_path / "a" / "manifest.json").read_text())["config"]["card_deals"] == used
    assert f"card values: the first {used} deals" in auto.stdout and "auto" in auto.stdout
    assert pd.read_parquet(tmp_path / "a" / "cards")["deal_id"].max() == used - 1
    explicit = run("simulate", "--deals", "10", "--card-deals", "3", "--no-charts", "--out", str(tmp_path / "e"))
    assert "card values: the first 3 deals" in explicit.stdout and "auto" not in explicit.stdout
    off = run("simulate", "--deals", "10", "--card-deals", "0", "--no-charts", "--out", str(tmp_path / "o"))
    assert "card values: off (--card-deals 0)" in off.stdout
    assert_one_line_error(run("simulate", "--card-deals", "lots", "--out", str(tmp_path / "x")), "--card-deals")
    assert_one_line_error(run("simulate", "--games", "--card-deals", "5", "--out", str(tmp_path / "x")), "--games")


def test_until_ci_says_whether_the_target_was_reached(tmp_path):
    common = ["--policy", "greedy", "--vs", "random", "--chunk-deals", "500", "--card-deals", "0", "--no-charts"]
    early = run("simulate", "--deals", "20000", "--until-ci", "0.5", *common, "--out", str(tmp_path / "e"))
    assert early.returncode == 0, early.stderr
    deals = pd.read_parquet(tmp_path / "e" / "rounds")["deal_id"].nunique()
    line = next(x for x in early.stdout.splitlines() if x.startswith("stopped early"))
    assert "95% interval of A − B is" in line and "under --until-ci 0.5" in line and f"after {deals:,} deals" in line
    capped = run("simulate", "--deals", "1000", "--until-ci", "0.01", *common, "--out", str(tmp_path / "c"))
    assert capped.returncode == 0, capped.stderr
    assert "--until-ci 0.01 not reached" in capped.stdout and "after all 1,000 deals" in capped.stdout
    assert "stopped early" not in capped.stdout


def test_out_refuses_a_non_empty_folder_unless_forced(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    assert_one_line_error(run("simulate", "--deals", "10", "--out", str(out)), "not empty", "--force")
    assert run("simulate", "--deals", "10", "--force", "--no-charts", "--out", str(out)).returncode == 0
    assert (out / "notes.txt").read_text() == "mine"  # --force replaces a run, never deletes other files
    assert (
        run(
            "simulate",
            "--deals",
            "20",
            "--chunk-deals",
            "10",
            "--card-deals",
            "2",
            "--no-charts",
            "--out",
            str(tmp_path / "old"),
        ).returncode
        == 0
    )
    assert_one_line_error(
        run("simulate", "--deals", "10", "--out", str(tmp_path / "old")), "already holds a run", "--force"
    )
    forced = run(
        "simulate",
        "--deals",
        "10",
        "--chunk-deals",
        "10",
        "--card-deals",
        "0",
        "--force",
        "--no-charts",
        "--out",
        str(tmp_path / "old"),
    )
    assert forced.returncode == 0, forced.stderr
    replaced = RunDir(tmp_path / "old")
    assert replaced.finished_chunks() == {0} and len(replaced.read_rounds()) == 20  # the old chunk 1 is gone
    assert not (tmp_path / "old" / "cards").exists() and replaced.read_manifest()["config"]["deals"] == 10


def test_trail_against_trail_is_a_run_of_void_rounds_said_in_one_line(tmp_path):
    """Nobody ever captures when both seats always trail: the run keeps its records and says why it has no
    summary, instead of failing in the reports."""
    proc = run("simulate", "--policy", "trail", "--vs", "trail", "--deals", "40", "--out", str(tmp_path / "run"))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "every round was void (nobody captured)" in proc.stdout
    rounds = pd.read_parquet(tmp_path / "run" / "rounds")
    assert len(rounds) == 80 and (rounds["void"] == 1).all()


@pytest.mark.parametrize("rules", ["strict", "italian:players=3"])
def test_a_new_run_records_the_place_layout_and_says_so(tmp_path, rules):
    """Every player count writes format 2 (core/record.py): the frame's leading columns, then the record's by
    place; the manifest names the format, so that a folder without it reads as format 1."""
    import json

    from casino_sim.core.record import FORMAT_VERSION, record_columns

    frame = simulate_dir(tmp_path / "r", deals=2, chunk_deals=2, rules=rules, card_deals=0)
    n = get_rules(rules).players
    lead = ["chunk", "deal_id", "mirror", *(f"policy_{p}" for p in range(n)), "rules"]
    assert list(frame.columns) == lead + record_columns(n) and FORMAT_VERSION == 2
    assert json.loads((tmp_path / "r" / "manifest.json").read_text())["format_version"] == 2
    assert (frame["policy_0"].astype(str) == "greedy").tolist() == (frame["mirror"] == 0).tolist()  # A at `mirror`
