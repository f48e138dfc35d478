"""`casino-sim findings` as a user runs it: the progress of every run, a sentence per finding, the files (the
resume of the same command: tests/experiments/test_findings.py)."""

from __future__ import annotations

import pandas as pd

from tests.support.cli import run

TINY = ["--policies", "random,greedy", "--players", "2", "--deals", "40", "--chunk-deals", "20"]


def test_findings_say_a_sentence_per_finding(tmp_path):
    proc = run("findings", *TINY, "--resamples", "100", "--threads", "1", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    table = pd.read_csv(tmp_path / "findings.csv")
    said = [line for line in proc.stdout.splitlines() if line.startswith("- ")]
    assert len(said) == table["finding"].nunique() == 9  # two players: no teams
    verdicts = ("settled", "moves with strength", "undetermined", "nothing to compare", "play alike")
    assert all(any(v in line for v in verdicts) for line in said)
    assert (tmp_path / "verdicts.csv").exists()
    assert "random · 2-players" in proc.stdout and "greedy · 2-players" in proc.stdout
    assert set(table["policy"]) == {"random", "greedy"} and set(table["table"]) == {"brazilian"}
    assert (tmp_path / "runs" / "greedy" / "2-players" / "manifest.json").exists()
    assert (tmp_path / "findings.md").read_text().startswith("# Findings along the strength ladder")
