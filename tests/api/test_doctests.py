"""The examples in the Python API's docstrings run as written (in a fresh folder: simulate writes results/runs/)."""

from __future__ import annotations

import doctest
import importlib

import pytest

import casino_sim

MODULES = ["casino_sim.api.runs", "casino_sim.api.positions", "casino_sim.api.tournaments"]


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_run(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    module = importlib.import_module(name)
    result = doctest.testmod(module, extraglobs={"cs": casino_sim}, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed (output above)"
