"""Report tasks split between this process and a forked child: same results, same order, errors raised here."""

from __future__ import annotations

import os

import pytest

from casino_sim.core.errors import InputError
from casino_sim.reports import forked
from casino_sim.reports.forked import run_tasks


@pytest.fixture
def two_cores(monkeypatch):
    monkeypatch.setattr(forked, "available_cores", lambda: 2)


def test_the_child_runs_its_share_and_results_keep_the_tasks_order(two_cores):
    tasks = {k: (lambda k=k: (k, os.getpid())) for k in ("a", "b", "c", "d")}
    out = run_tasks(tasks, in_child=("b", "d"))
    assert list(out) == ["a", "b", "c", "d"]
    assert [v[0] for v in out.values()] == ["a", "b", "c", "d"]
    here = os.getpid()
    assert out["a"][1] == out["c"][1] == here
    assert out["b"][1] == out["d"][1] != here


def test_one_core_runs_everything_here(monkeypatch):
    monkeypatch.setattr(forked, "available_cores", lambda: 1)
    out = run_tasks({"a": os.getpid, "b": os.getpid}, in_child=("b",))
    assert out == {"a": os.getpid(), "b": os.getpid()}


def test_an_error_in_the_child_is_raised_here(two_cores):
    def bad():
        raise InputError("no anatomy columns")

    with pytest.raises(InputError, match="no anatomy columns"):
        run_tasks({"a": lambda: 1, "b": bad}, in_child=("b",))


def test_an_error_that_cannot_travel_is_named(two_cores):
    class Local(Exception):  # a class defined in a function cannot be pickled
        pass

    def bad():
        raise Local("lost")

    with pytest.raises(RuntimeError, match="Local: lost"):
        run_tasks({"a": lambda: 1, "b": bad}, in_child=("b",))


def test_an_error_here_still_collects_the_child(two_cores, monkeypatch):
    def bad():
        raise ValueError("here")

    pids, real_fork = [], os.fork

    def fork():
        pid = real_fork()
        pids.append(pid)
        return pid

    monkeypatch.setattr(forked.os, "fork", fork)
    with pytest.raises(ValueError, match="here"):
        run_tasks({"a": bad, "b": lambda: 2}, in_child=("b",))
    assert len(pids) == 1
    with pytest.raises(ChildProcessError):  # this child was waited for (other tests' children do not matter)
        os.waitpid(pids[0], os.WNOHANG)
