"""Fixtures shared by the test packages (helpers they import live in tests/support/)."""

from __future__ import annotations

import json

import pytest

from tests.support.cli import EXAMPLE
from tests.support.warmup import warm_kernels

WARM_UP_FROM = 20  # test files: a run of this many plays every kind of kernel; a few files compile what they need


def pytest_collection_finish(session):
    """Under pytest-xdist, on a run of much of the suite, each worker compiles its share of the kernels before its
    first test (tests/support/warmup.py); a run in one process compiles each kernel where a test first needs it."""
    worker = getattr(session.config, "workerinput", None)
    if worker is not None and len({item.path for item in session.items}) >= WARM_UP_FROM:
        warm_kernels(int(worker["workerid"].removeprefix("gw")))


@pytest.fixture
def example_file(tmp_path):
    """A position with every field of docs/notation.md as a JSON file."""
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(EXAMPLE))
    return path
