"""scripts/api_example.py draws its chart from the API and saves it as a PNG."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "api_example.py"


def test_the_example_script_saves_a_chart(tmp_path):
    png = tmp_path / "charts" / "score.png"
    proc = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--deals",
            "30",
            "--seed",
            "2",
            "--out",
            str(png),
            "--run-dir",
            str(tmp_path / "r"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    assert "expert vs greedy" in proc.stdout and f"chart: {png}" in proc.stdout
    assert "Warning" not in proc.stderr
    assert (tmp_path / "r" / "report" / "summary.csv").exists()  # the run folder kept where asked
