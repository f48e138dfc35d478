"""The benchmark entry point answers with the documented keys (speed itself is not asserted)."""

from __future__ import annotations

import json

import pytest

from casino_sim.experiments.bench import run_bench
from tests.support.policies import LOADER

KEYS = {"rounds_per_s", "us_per_round", "us_per_ply", "threads", "engine", "policy"}


def test_numba_bench_reports_its_figures():
    out = run_bench("numba", deals=500, threads=1, measure_compile=False, loader=LOADER)
    assert KEYS <= out.keys()
    assert out["engine"] == "numba" and out["policy"] == "random" and out["threads"] == 1
    assert out["rounds_per_s"] > 0
    assert out["us_per_ply"] == pytest.approx(out["us_per_round"] / 48, rel=1e-3)


def test_reference_bench_reports_its_figures():
    out = run_bench("reference", deals=2, threads=2, loader=LOADER)
    assert KEYS <= out.keys() and out["engine"] == "reference" and out["threads"] == 1


def test_bench_rejects_unknown_engine_and_policy():
    with pytest.raises(ValueError):
        run_bench("rust", deals=1, loader=LOADER)
    with pytest.raises(ValueError):
        run_bench("numba", policy="oracle", deals=1, loader=LOADER)
    with pytest.raises(ValueError):
        run_bench("numba", deals=0, loader=LOADER)


@pytest.mark.parametrize("policy", ["greedy", "expert"])
def test_heuristic_bench_plays_on_the_numba_engine(policy):
    out = run_bench("numba", policy=policy, deals=200, threads=1, measure_compile=False, loader=LOADER)
    assert out["policy"] == policy and out["rounds_per_s"] > 0 and "kernel_us_per_round" not in out


@pytest.mark.parametrize("policy, deals", [("rollout", 2), ("endgame", 200)])
def test_a_searching_policys_bench_reports_time_per_decision(policy, deals):
    """To three significant digits: the rollout's milliseconds, and endgame's microsecond (no play-outs)."""
    out = run_bench("numba", policy=policy, deals=deals, threads=1, measure_compile=False, loader=LOADER)
    assert out["ms_per_decision"] == pytest.approx(out["seconds"] / (48 * deals) * 1e3, rel=1e-2)


def test_bench_refuses_a_python_policy_on_the_numba_engine(tmp_path):
    src = tmp_path / "mine.py"
    src.write_text("def capture_first(pos, moves, rng):\n    return max(moves, key=lambda m: m.kind == 'capture')\n")
    with pytest.raises(ValueError, match="only on the reference engine"):
        run_bench("numba", policy=f"{src}:capture_first", deals=1, measure_compile=False, loader=LOADER)
    assert run_bench("reference", policy=f"{src}:capture_first", deals=1, loader=LOADER)["engine"] == "reference"


def test_threads_zero_means_every_core_as_in_simulate():
    import numba

    from tests.support.cli import run

    proc = run("bench", "--threads", "0", "--deals", "50", "--no-compile", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["threads"] == numba.config.NUMBA_NUM_THREADS
    bad = run("bench", "--threads", "-1", "--deals", "50", "--no-compile")
    assert bad.returncode == 2 and bad.stdout == ""  # refused before it says it is timing anything


def test_its_child_processes_run_this_install_from_any_folder(tmp_path, monkeypatch):
    """bench times compiles in child processes (core/child.py): started in a folder holding another casino_sim (a
    checkout beside a `pip install .`), they still import this one, whose kernels numba caches."""
    import subprocess

    import casino_sim
    from casino_sim.core.child import python_code

    (tmp_path / "casino_sim").mkdir()
    (tmp_path / "casino_sim" / "__init__.py").write_text("raise SystemExit(3)\n")
    monkeypatch.chdir(tmp_path)
    proc = subprocess.run(python_code("import casino_sim; print(casino_sim.__file__)"), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == casino_sim.__file__
