"""The benchmark entry point answers with the documented keys (speed itself is not asserted)."""

from __future__ import annotations

import pytest

from casino_sim.bench import run_bench

KEYS = {"rounds_per_s", "us_per_round", "us_per_ply", "threads", "engine", "policy"}


def test_numba_bench_reports_its_figures():
    out = run_bench("numba", deals=500, threads=1, measure_compile=False)
    assert KEYS <= out.keys()
    assert out["engine"] == "numba" and out["policy"] == "random" and out["threads"] == 1
    assert out["rounds_per_s"] > 0
    assert out["us_per_ply"] == pytest.approx(out["us_per_round"] / 48, rel=1e-3)


def test_reference_bench_reports_its_figures():
    out = run_bench("reference", deals=2, threads=2)
    assert KEYS <= out.keys() and out["engine"] == "reference" and out["threads"] == 1


def test_bench_rejects_unknown_engine_and_policy():
    with pytest.raises(ValueError):
        run_bench("rust", deals=1)
    with pytest.raises(ValueError):
        run_bench("numba", policy="greedy", deals=1)
    with pytest.raises(ValueError):
        run_bench("numba", deals=0)
