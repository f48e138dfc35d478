"""The examples of the Python API's docstrings and of docs/api.md run as written (in a fresh folder: simulate writes
results/runs/)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import casino_sim

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
MODULES = [
    "casino_sim.api.runs",
    "casino_sim.api.positions",
    "casino_sim.api.tournaments",
    "casino_sim.api.skills",
    "casino_sim.api.policies",
]


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_run(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    module = importlib.import_module(name)
    result = doctest.testmod(module, extraglobs={"cs": casino_sim}, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed (output above)"


def test_the_examples_of_docs_api_md_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 5
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of docs/api.md failed (output above)"
