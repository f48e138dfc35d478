"""No warning of a library reaches the user: CLI runs whose policies have long paths (the long tick labels and
captions that made matplotlib give up its layout, "constrained_layout not applied") print none, and show the
policies by name."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd

from tests.support.cli import run

GREEDY_FILE = Path(__file__).resolve().parents[2] / "casino_sim" / "policies" / "builtin" / "greedy.toml"
DEEP = "a_rather_long_folder_name/with_more_levels/of_nesting_for_the_policies_of_this_test"


def assert_no_warning(proc) -> None:
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stderr.lower(), proc.stderr


def test_simulate_with_a_python_policy_file_deep_in_folders_warns_nothing(tmp_path):
    folder = tmp_path / DEEP
    folder.mkdir(parents=True)
    (folder / "my_first_move_policy.py").write_text("def first(pos, moves, rng):\n    return moves[0]\n")
    policy = f"{folder / 'my_first_move_policy.py'}:first"
    proc = run("simulate", "--policy", policy, "--vs", "random", "--deals", "2", "--out", str(tmp_path / "run"))
    assert_no_warning(proc)
    summary = pd.read_csv(tmp_path / "run" / "report" / "summary.csv")
    assert list(summary["matchup"]) == ["my_first_move_policy:first vs random"]
    assert DEEP not in proc.stdout


def test_tournament_with_a_policy_file_warns_nothing_and_shows_its_name(tmp_path):
    folder = tmp_path / DEEP
    folder.mkdir(parents=True)
    path = folder / "weights_file.toml"
    path.write_text(re.sub(r'(?m)^name = ".*"$', f"name = {json.dumps('mine')}", GREEDY_FILE.read_text()))
    out = tmp_path / "tour"
    proc = run("tournament", "random", str(path), "--games", "2", "--chunk-deals", "2", "--out", str(out))
    assert_no_warning(proc)
    ratings = pd.read_csv(out / "report" / "ratings.csv")
    assert set(ratings["policy"]) == {"random", "mine"}
    assert ratings["elo"].notna().all()
    assert (out / "pairs" / "random-vs-mine").is_dir()


def test_simulate_with_a_policy_of_a_very_long_name_warns_nothing(tmp_path):
    name = "greedy_with_a_name_so_long_that_no_tick_label_or_caption_line_could_hold_it_whole"
    path = tmp_path / "long.toml"
    path.write_text(re.sub(r'(?m)^name = ".*"$', f"name = {json.dumps(name)}", GREEDY_FILE.read_text()))
    proc = run("simulate", "--policy", str(path), "--vs", "random", "--deals", "2", "--out", str(tmp_path / "run"))
    assert_no_warning(proc)
    assert pd.read_csv(tmp_path / "run" / "report" / "summary.csv")["matchup"].tolist() == [f"{name} vs random"]
