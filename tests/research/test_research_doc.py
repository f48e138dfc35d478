"""The example of docs/research.md runs as written (OpenSpiel: the research extra, in the test extra)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"


@pytest.mark.filterwarnings("error")
def test_the_example_of_docs_research_md_runs():
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 10
    assert result.failed == 0, (
        f"{result.failed} of {result.attempted} examples of docs/research.md failed (output above)"
    )
