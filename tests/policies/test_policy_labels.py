"""A policy given as a path shows as its name (a policy file's `name`, a Python file's stem with the function, a
bot's program), never as the path: in tables, chart captions and labels, and folder names."""

from __future__ import annotations

import json
import re
from pathlib import Path

from casino_sim.experiments.simulate import SimConfig, default_out
from casino_sim.policies.names import folder_safe
from casino_sim.reports.captions import fit_label, run_caption
from tests.support.policies import LOADER, get_policy

GREEDY_FILE = Path(__file__).resolve().parents[2] / "casino_sim" / "policies" / "builtin" / "greedy.toml"


def _policy_file(tmp_path: Path, name: str) -> Path:
    deep = tmp_path / "a" / "rather" / "deep" / "folder"
    deep.mkdir(parents=True)
    path = deep / "my_weights.toml"
    path.write_text(re.sub(r'(?m)^name = ".*"$', f"name = {json.dumps(name)}", GREEDY_FILE.read_text()))
    return path


def test_a_policy_file_shows_as_its_name_field(tmp_path):
    path = _policy_file(tmp_path, "careful greedy")
    assert LOADER.label(str(path)) == get_policy(str(path)).name == "careful greedy"
    assert folder_safe(LOADER.label(str(path))) == "careful_greedy"


def test_a_python_file_shows_as_its_stem_and_function(tmp_path):
    deep = tmp_path / "x" / "y"
    deep.mkdir(parents=True)
    (deep / "first_bot.py").write_text("def first(pos, moves, rng):\n    return moves[0]\n")
    spec = f"{deep / 'first_bot.py'}:first"
    assert LOADER.label(spec) == get_policy(spec).name == "first_bot:first"
    assert folder_safe(LOADER.label(spec)) == "first_bot_first"


def test_a_bot_shows_as_its_program_and_a_vanished_file_as_its_stem():
    assert LOADER.label("exec:python3 -u scripts/bots/most_cards.py --fast") == "most_cards"
    assert LOADER.label("/no/such/folder/gone_policy.toml") == "gone_policy"
    assert LOADER.label("expert") == folder_safe(LOADER.label("expert")) == "expert"


def test_run_folders_and_captions_use_the_names(tmp_path):
    path = str(_policy_file(tmp_path, "careful"))
    out = default_out(SimConfig(policy_a=path, policy_b="random", loader=LOADER), tmp_path)
    assert out.name.endswith("-careful-vs-random") and out.parent == tmp_path
    config = {"policy_a": path, "policy_b": "random", "rules": "strict", "deals": 10, "seed": 1}
    manifest = {"config": config, "policy_names": {path: "careful", "random": "random"}}  # as a run keeps them
    caption = run_caption(manifest)
    assert caption.startswith("careful vs random · rules strict") and str(tmp_path) not in caption


def test_a_long_chart_label_is_cut_in_the_middle():
    name = "a_policy_with_a_name_far_longer_than_any_axis_can_hold_v2"
    cut = fit_label(name)
    assert len(cut) == 40 and cut.startswith("a_policy_with") and cut.endswith("hold_v2") and "…" in cut
    assert fit_label("expert") == "expert"
