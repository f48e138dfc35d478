"""`casino-sim findings` as a user runs it: a sentence per finding, the files, and the same command again resumes."""

from __future__ import annotations

import pandas as pd

from tests.support.cli import run

TINY = ["--policies", "random,greedy", "--players", "2", "--deals", "40", "--chunk-deals", "20", "--card-deals", "8"]


def test_findings_say_a_sentence_per_finding_and_run_again_plays_nothing(tmp_path):
    args = ["findings", *TINY, "--resamples", "100", "--threads", "1", "--out", str(tmp_path)]
    proc = run(*args)
    assert proc.returncode == 0, proc.stderr
    table = pd.read_csv(tmp_path / "findings.csv")
    said = [line for line in proc.stdout.splitlines() if line.startswith("- ")]
    assert len(said) == table["finding"].nunique() == 9  # two players: no teams
    assert all(("settled" in line) != ("still moves with strength" in line) for line in said)
    assert "random · 2-players" in proc.stdout and "greedy · 2-players" in proc.stdout
    assert (tmp_path / "runs" / "greedy" / "2-players" / "manifest.json").exists()
    again = run(*args)
    assert again.returncode == 0, again.stderr
    assert "2-players" not in again.stdout  # no progress bar: every run was played
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "findings.csv"), table)
