"""ruff (configured in pyproject.toml) finds nothing: no lint finding and nothing to reformat."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("args", [["check", "--no-cache"], ["format", "--check", "--no-cache"]])
def test_ruff_finds_nothing(args):
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", *args, "casino_sim", "tests", "scripts"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
