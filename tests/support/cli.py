"""Running `casino-sim` as a user does (a subprocess), and the one-line error every bad input must give."""

from __future__ import annotations

import os
import subprocess
import sys

# A position of every field (docs/notation.md's positions table names them; no card twice).
EXAMPLE = {
    "rules": "strict",
    "to_move": 0,
    "hands": [["7D", "7S", "2D"], ["KC", "3C", "9H"]],
    "loose": ["8D"],
    "builds": [{"value": 7, "cards": ["5C", "2H"], "owner": 0}],
    "captured": [["4S", "4H"], []],
    "sweeps": [0, 0],
    "last_capturer": 0,
    "must_act": [False, False],
}


def run(*args: str, stdin: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    """`casino-sim ARGS` in a fresh process, with its text output."""
    return subprocess.run(
        [sys.executable, "-m", "casino_sim", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        env=None if env is None else {**os.environ, **env},
    )


def assert_one_line_error(proc: subprocess.CompletedProcess, *fragments: str) -> None:
    """Exit code 2, one stderr line holding every fragment, no traceback."""
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    for f in fragments:
        assert f in lines[0], lines[0]
