"""The README's Python API example runs as printed, with its sizes made small."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

README = Path(__file__).resolve().parents[2] / "docs" / "commands.md"  # the API example moved from the README
POSITION = {"hands": [["7D", "7S", "2H", "4S"], ["KC", "3C", "9H", "JD"]], "loose": ["5C", "8D", "4H", "JS"]}
SMALLER = {"deals=20_000": "deals=200", "games=500": "games=4", "worlds=1000": "worlds=50"}


def test_the_readme_example_runs(tmp_path, monkeypatch):
    section = README.read_text(encoding="utf-8").split("## Python API", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    for big, small in SMALLER.items():
        assert big in code
        code = code.replace(big, small)
    monkeypatch.chdir(tmp_path)
    names = {"position": POSITION}
    exec(compile(code, str(README), "exec"), names)
    run = names["run"]
    assert isinstance(run.rounds, pd.DataFrame) and len(run.rounds) == 400
    assert run.path.parent == Path("results/runs") and (tmp_path / run.path / "manifest.json").exists()
