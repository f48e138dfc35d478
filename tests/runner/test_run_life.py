"""The life of a run folder: a Python policy that fails stops the run in one line (kept resumable), --resume
refuses options that contradict the run and extends it with a larger --deals, a partial run's report says so,
Ctrl-C while the reports are written leaves the manifest saying what is missing, and the play's clock leaves the
kernels' compile out."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from casino_sim.runner.rundir import RunDir
from tests.support.cli import EXAMPLE, assert_one_line_error, run
from tests.support.policies import LOADER

# A policy that plays the first legal move, and after AFTER decisions fails as MODE says
FAILING = """
calls = 0
def boom(pos, moves, rng):
    global calls
    calls += 1
    if calls > {after}:
        {fail}
    return moves[0]
"""
RAISES = 'raise RuntimeError("oops")'
ILLEGAL = 'return "nonsense"'


def _policy(tmp_path: Path, fail: str, after: int = 60) -> str:
    path = tmp_path / "boom.py"
    path.write_text(FAILING.format(after=after, fail=fail))
    return f"{path}:boom"


def _simulate(out: Path, *extra: str):
    return run(
        "simulate", "--deals", "3", "--chunk-deals", "1", "--vs", "greedy", "--no-charts", "--out", str(out), *extra
    )


@pytest.mark.parametrize(("fail", "words"), [(RAISES, "raised RuntimeError: oops"), (ILLEGAL, "returned 'nonsense'")])
def test_a_failing_python_policy_stops_the_run_in_one_line_and_resume_finishes_it(tmp_path, fail, words):
    policy = _policy(tmp_path, fail)  # chunk 0 (two rounds) takes 48 decisions: it is finished first
    proc = _simulate(tmp_path / "run", "--policy", policy)
    assert_one_line_error(proc, "policy 'boom:boom'", words, 'at position {"rules":"strict"')
    position = json.loads(proc.stderr.split(" at position ", 1)[1])
    assert position["hands"].count(None) == 1  # as the policy's player sees it (notation.md)
    rundir = RunDir(tmp_path / "run")
    assert rundir.finished_chunks() == {0}
    manifest = rundir.read_manifest()
    assert manifest["status"] == "stopped" and words in manifest["stopped"]
    _policy(tmp_path, fail, after=10**9)  # the policy mended: --resume plays the rest
    again = run("simulate", "--resume", str(tmp_path / "run"), "--no-charts")
    assert again.returncode == 0, again.stderr
    assert rundir.finished_chunks() == {0, 1, 2} and rundir.read_manifest()["status"] == "complete"


@pytest.mark.parametrize("fail", [RAISES, ILLEGAL])
def test_other_commands_running_a_failing_python_policy_give_one_line(tmp_path, fail):
    policy = _policy(tmp_path, fail, after=0)
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(EXAMPLE))
    assert_one_line_error(run("choose", str(pos), "--policy", policy), "policy 'boom:boom'", "at position")
    tour = ("tournament", policy, "random", "--games", "1", "--out", str(tmp_path / "tour"))
    assert_one_line_error(run(*tour), "policy 'boom:boom'")
    cards = ("card-value", "--policy", policy, "--deals", "1", "--out", str(tmp_path / "cards"))
    assert_one_line_error(run(*cards), "policy 'boom:boom'")


def test_the_api_gives_the_policy_error_as_a_one_line_value_error(tmp_path):
    import casino_sim as cs

    policy = _policy(tmp_path, RAISES, after=0)
    with pytest.raises(ValueError, match=r"policy 'boom:boom' raised RuntimeError: oops at position") as err:
        cs.simulate(deals=2, policy=policy, vs="greedy", chunk_deals=1, out=tmp_path / "run", card_deals=0)
    assert "\n" not in str(err.value)
    assert RunDir(tmp_path / "run").read_manifest()["status"] == "stopped"


# --resume: the run's options, a larger --deals extends it ----------------------------------------------------------

# replays are slow on the reference engine; the charts are not what these tests check
REFERENCE = ("--engine", "reference", "--chunk-deals", "2", "--card-deals", "0", "--no-charts")


def test_resume_refuses_options_that_contradict_the_run(tmp_path):
    out = tmp_path / "run"
    assert run("simulate", "--deals", "2", *REFERENCE, "--out", str(out)).returncode == 0
    proc = run("simulate", "--resume", str(out), "--policy", "expert", "--seed", "7", "--deals", "1")
    assert_one_line_error(
        proc, "--deals 1, --policy expert and --seed 7 differ from the run's (2, greedy, 0)", "as it was started"
    )
    assert_one_line_error(run("simulate", "--resume", str(out), "--no-mirrored"), "--no-mirrored differs")


def test_resume_of_a_complete_run_says_so_and_plays_nothing(tmp_path):
    out = tmp_path / "run"
    assert run("simulate", "--deals", "2", *REFERENCE, "--out", str(out)).returncode == 0
    before = (out / "manifest.json").read_text()
    proc = run("simulate", "--resume", str(out), "--threads", "1", "--seed", "0")  # the run's own and a free one
    assert proc.returncode == 0, proc.stderr
    assert f"{out} is already complete: 2 deals; nothing to play" in " ".join(proc.stdout.split())
    assert "rounds played" not in proc.stdout
    assert (out / "manifest.json").read_text() == before


def test_a_larger_deals_extends_the_run_to_equal_a_fresh_run_of_that_size(tmp_path):
    small, fresh = tmp_path / "small", tmp_path / "fresh"
    assert run("simulate", "--deals", "5", *REFERENCE, "--out", str(small)).returncode == 0  # chunks 2, 2, 1
    proc = run("simulate", "--resume", str(small), "--deals", "8", "--no-charts")
    assert proc.returncode == 0, proc.stderr
    assert run("simulate", "--deals", "8", *REFERENCE, "--out", str(fresh)).returncode == 0
    grown, whole = RunDir(small), RunDir(fresh)
    assert grown.finished_chunks() == whole.finished_chunks() == {0, 1, 2, 3}
    for table in ("rounds",):
        pd.testing.assert_frame_equal(grown.read_table(table), whole.read_table(table))
    csvs = sorted(p.name for p in (fresh / "report").glob("*.csv"))
    assert csvs and all((small / "report" / n).read_bytes() == (fresh / "report" / n).read_bytes() for n in csvs)
    manifest = grown.read_manifest()
    assert manifest["config"]["deals"] == 8 and manifest["extended"][0]["deals"] == 5


# report all on an unfinished run ----------------------------------------------------------------------------------


def test_report_all_on_an_unfinished_run_says_partial_everywhere(tmp_path):
    out = tmp_path / "run"
    assert run("simulate", "--deals", "5", *REFERENCE, "--out", str(out)).returncode == 0
    rundir = RunDir(out)
    rundir.drop_chunk(2)
    rundir.write_manifest(dict(rundir.read_manifest(), status="stopped"))
    proc = run("report", "all", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "partial: 4 of 5 deals" in proc.stdout
    assert "partial: 4 of 5 deals" in (out / "report" / "report.md").read_text().split("##")[0]
    assert "partial: 4 of 5 deals" in (out / "report" / "index.html").read_text()


# Ctrl-C while the reports are written -----------------------------------------------------------------------------

# casino-sim with report writing that says it started (a file) and waits: the test interrupts it there
SLOW_REPORTS = """
import faulthandler, signal, sys, time
from pathlib import Path
# Ctrl-C as a terminal's program gets it: a suite started in the background by a shell without job control (a CI
# script's `cmd &`) ignores SIGINT, and a child inherits that; Python then never raises KeyboardInterrupt
signal.signal(signal.SIGINT, signal.default_int_handler)
faulthandler.register(signal.SIGUSR1, all_threads=True)  # the test asks for the stacks if Ctrl-C is not heard
import casino_sim.reports.index as index
MARK = Path(sys.argv[1])
def waiting(*args, **kwargs):
    MARK.write_text("writing")
    while True:
        time.sleep(0.05)
index.write_all = waiting
from casino_sim.cli.app import main
sys.argv = ["casino-sim", *sys.argv[2:]]
main()
"""


def _signal_state(pid) -> str:
    """A process's blocked, ignored and caught signals (/proc), as the kernel holds them."""
    status = Path(f"/proc/{pid}/status")
    lines = status.read_text().splitlines() if status.exists() else []
    return " ".join(line.replace("\t", "") for line in lines if line.startswith(("SigBlk", "SigIgn", "SigCgt")))


def _communicate_or_show_why(proc, timeout: float) -> tuple[str, str]:
    """The child's output once it exits; if it is still running after `timeout`, fail with its signal state, this
    process's, and every thread's stack (faulthandler, on SIGUSR1), then kill it."""
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        child, here = _signal_state(proc.pid), _signal_state(os.getpid())
        proc.send_signal(signal.SIGUSR1)
        time.sleep(2)
        proc.kill()
        stdout, stderr = proc.communicate()
        pytest.fail(f"still running {timeout} s after the signal; child {child}; test {here}\n{stdout}\n{stderr}")


def test_ctrl_c_while_the_reports_are_written_says_how_to_finish_and_resume_writes_them(tmp_path):
    out, started = tmp_path / "run", tmp_path / "started"
    script = tmp_path / "slow.py"
    script.write_text(SLOW_REPORTS)
    args = [sys.executable, str(script), str(started), "simulate", "--deals", "2", *REFERENCE, "--out", str(out)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240
    while not started.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)  # waits for the report writer to start, not for a guessed moment
    assert started.exists(), proc.communicate()
    proc.send_signal(signal.SIGINT)
    stdout, stderr = _communicate_or_show_why(proc, timeout=60)
    assert proc.returncode == 130, stderr
    said = " ".join(stdout.split())
    assert "interrupted:" in said and f"casino-sim report all {out}" in said, said
    manifest = RunDir(out).read_manifest()
    assert manifest["status"] == "played" and manifest["reports"] == "missing"
    again = run("simulate", "--resume", str(out), "--no-charts")
    assert again.returncode == 0, again.stderr
    assert (out / "report" / "report.md").exists() and RunDir(out).read_manifest()["status"] == "complete"


# the play's clock -------------------------------------------------------------------------------------------------


def test_the_play_is_timed_without_the_kernels_compile(tmp_path, monkeypatch):
    from casino_sim.experiments import simulate as sim

    clock = {"now": 0.0, "compiled": False}

    def fake_chunk(config, chunk):  # the first call compiles (60 s on the fake clock), each chunk plays in 1 s
        clock["now"] += 1.0 if clock["compiled"] else 60.0
        clock["compiled"] = True
        return {"rounds": pd.DataFrame({"chunk": [chunk], "deal_id": [chunk]})}

    class FakeTime:
        perf_counter = staticmethod(lambda: clock["now"])
        strftime = staticmethod(time.strftime)

    monkeypatch.setattr(sim, "play_chunk", fake_chunk)
    monkeypatch.setattr(sim, "time", FakeTime)
    monkeypatch.setattr("casino_sim.runner.warmup.time", FakeTime)
    config = sim.SimConfig(deals=3, chunk_deals=1, card_deals=0, loader=LOADER)
    rundir = RunDir(tmp_path / "run")
    sim.start_run(config, rundir, ["test"])
    timings = sim.play_chunks(config, rundir)
    assert timings["play_seconds"] == 3.0 and timings["kernels_ready_seconds"] == 60.0
    assert timings["rounds_per_s"] == 1.0
    manifest = sim.finish_run(rundir, timings, reports=True)
    assert manifest["play_seconds"] == 3.0 and manifest["kernels_ready_seconds"] == 60.0
    assert manifest["status"] == "played"


def test_a_killed_run_is_not_left_running(tmp_path):
    """SIGTERM (a killed job) ends the play like Ctrl-C: the manifest says stopped, --resume finishes it."""
    out = tmp_path / "run"
    policy = tmp_path / "slow.py"
    policy.write_text(
        f"import time\nfrom pathlib import Path\ndef slow(pos, moves, rng):\n"
        f"    Path({str(tmp_path / 'started')!r}).write_text('1')\n    time.sleep(0.05)\n    return moves[0]\n"
    )
    # one deal a chunk: SIGTERM ends the play once the chunk in flight is done
    args = [sys.executable, "-m", "casino_sim", "simulate", "--policy", f"{policy}:slow", "--deals", "50"]
    args += ["--chunk-deals", "1"]
    proc = subprocess.Popen([*args, "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not (tmp_path / "started").exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGTERM)
    proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert RunDir(out).read_manifest()["status"] == "stopped"
