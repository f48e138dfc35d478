"""Fixtures shared by the test packages (helpers they import live in tests/support/)."""

from __future__ import annotations

import json

import pytest

from tests.support.cli import EXAMPLE


@pytest.fixture
def example_file(tmp_path):
    """A position with every field of docs/notation.md as a JSON file."""
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(EXAMPLE))
    return path
