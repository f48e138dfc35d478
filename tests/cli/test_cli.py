"""The position tools and `deal` as a user runs them: output, exit codes, one-line errors."""

from __future__ import annotations

import json
import re

import pytest

from casino_sim.reference.moves import Move
from tests.support.cli import EXAMPLE, assert_one_line_error, run


def test_moves_json_is_canonical_and_complete(example_file):
    proc = run("moves", str(example_file), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    moves = [Move.from_json(m) for m in json.loads(proc.stdout)]
    assert moves == sorted(moves, key=Move.sort_key)
    # the owner of build 7 may not trail in strict, and can capture it with either 7
    assert all(m.kind != "trail" for m in moves)
    captures = {(m.card, m.builds) for m in moves if m.kind == "capture"}
    assert {json.loads(proc.stdout)[0]["kind"]} <= {"capture"}
    assert len([c for c in captures if c[1] == (7,)]) == 2


def test_moves_text_one_per_line_matches_json(example_file):
    text = run("moves", str(example_file)).stdout.strip().splitlines()
    as_json = json.loads(run("moves", str(example_file), "--format", "json").stdout)
    assert len(text) == len(as_json) > 0
    assert text[0].startswith("1  A ")


def test_moves_are_numbered_and_apply_takes_a_number():
    """`moves` numbers its lines (analyse's # and play's numbers); `apply POSITION N` plays the N-th move."""
    position = json.dumps(EXAMPLE)
    text = run("moves", "-", "--engine", "reference", stdin=position).stdout.splitlines()
    as_json = json.loads(run("moves", "-", "--format", "json", "--engine", "reference", stdin=position).stdout)
    assert [line.split("  ", 1)[0].strip() for line in text] == [str(i) for i in range(1, len(as_json) + 1)]
    for number, move in enumerate(as_json, 1):
        by_number = run("apply", "-", str(number), "--engine", "reference", stdin=position)
        assert by_number.returncode == 0, by_number.stderr
        assert by_number.stdout == run("apply", "-", json.dumps(move), "--engine", "reference", stdin=position).stdout
    for bad in ("0", str(len(as_json) + 1)):
        assert_one_line_error(run("apply", "-", bad, "--engine", "reference", stdin=position), f"no move number {bad}")


def test_moves_reads_stdin():
    proc = run("moves", "-", "--format", "json", stdin=json.dumps(EXAMPLE))
    assert proc.returncode == 0
    assert len(json.loads(proc.stdout)) > 0


def test_moves_jsonl_answers_every_line_and_flags_bad_ones(tmp_path):
    bad_card = dict(EXAMPLE, loose=["XX"])
    lines = [json.dumps(EXAMPLE), json.dumps(bad_card), "{not json", json.dumps(dict(EXAMPLE, to_move=1))]
    path = tmp_path / "batch.jsonl"
    path.write_text("\n".join(lines) + "\n")
    proc = run("moves", str(path))
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == 4
    assert isinstance(out[0], list) and isinstance(out[3], list)
    assert "XX" in out[1]["error"]
    assert "not valid JSON" in out[2]["error"]
    # player 1 owns nothing and may trail
    assert any(m["kind"] == "trail" for m in out[3])
    same = run("moves", "-", "--jsonl", stdin="\n".join(lines))
    assert same.stdout == proc.stdout


def test_apply_prints_the_position_after_the_move(example_file):
    move = {"kind": "capture", "card": "7S", "loose": [], "builds": [7], "value": 7}
    proc = run("apply", str(example_file), json.dumps(move))
    assert proc.returncode == 0, proc.stderr
    after = json.loads(proc.stdout)
    assert after["builds"] == [] and after["to_move"] == 1
    assert after["captured"][0] == ["2H", "4S", "4H", "5C", "7S"]
    assert after["hands"][0] == ["2D", "7D"]
    assert after["last_capturer"] == 0 and after["sweeps"] == [0, 0]


def test_apply_refuses_an_illegal_move_with_the_reason(example_file):
    trail = {"kind": "trail", "card": "2D", "loose": [], "builds": [], "value": None}
    assert_one_line_error(run("apply", str(example_file), json.dumps(trail)), "illegal move", "may not trail")
    not_held = {"kind": "trail", "card": "KH", "loose": [], "builds": [], "value": None}
    assert_one_line_error(run("apply", str(example_file), json.dumps(not_held)), "KH", "not in the hand")


@pytest.mark.parametrize(
    "position, fragments",
    [
        ({"hands": [["ZZ"], []]}, ("ZZ",)),
        ({"hands": [["7D"], ["7D"]]}, ("7D", "twice")),
        ({"rules": "poker", "hands": [[], []]}, ("poker", "unknown rule set")),
        ({"hands": [[], []], "builds": [{"value": 7, "cards": ["5C", "3H"], "owner": 0}]}, ("do not split",)),
        ({"hands": [[], []], "builds": [{"value": 7, "cards": ["KC", "7H"], "owner": 0}]}, ("figure",)),
        ({"hands": [[], []], "to_move": 2}, ("to_move",)),
    ],
)
def test_bad_positions_get_one_line_errors(position, fragments):
    assert_one_line_error(run("moves", "-", stdin=json.dumps(position)), *fragments)


def test_bad_files_and_json_get_one_line_errors(tmp_path, example_file):
    assert_one_line_error(run("moves", str(tmp_path / "missing.json")), "no such file")
    assert_one_line_error(run("moves", "-", stdin="{"), "not valid JSON")
    assert_one_line_error(run("apply", str(example_file), "{bad"), "move", "not valid JSON")
    assert_one_line_error(run("apply", str(example_file), '{"kind": "jump", "card": "7S"}'), "jump")
    assert run("moves", str(example_file), "--engine", "quantum").returncode == 2
    assert_one_line_error(run("deal", "--rules", "poker"), "poker")


def test_deal_same_seed_same_transcript():
    a, b, c = run("deal", "--seed", "11"), run("deal", "--seed", "11"), run("deal", "--seed", "12")
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    assert a.stdout != c.stdout
    assert a.stdout.count("Deal ") == 6 and "Deal 6 (last)" in a.stdout
    assert " 48. " in a.stdout and "total" in a.stdout


@pytest.mark.parametrize("rules", ["strict", "brazilian", "italian"])
def test_deal_plays_each_rule_set(rules):
    proc = run("deal", "--seed", "5", "--rules", rules)
    assert proc.returncode == 0, proc.stderr
    assert f"rules {rules}" in proc.stdout


def test_first_run_says_it_is_compiling_and_bad_input_still_gets_one_line(tmp_path):
    """With no kernels of these sources in numba's cache (no cache folder yet; then one holding only a stray
    index of other sources), bad input still gets one line, the first run compiles behind the notice and its bar
    (the notice follows what numba will do), the next is silent. One cold compile serves both folders: numba looks
    for these sources' kernels in a subfolder of their own (core/numba_locator.py), absent from either."""
    cache = tmp_path / "numba"
    cold = {"NUMBA_CACHE_DIR": str(cache)}
    assert_one_line_error(run("moves", "-", stdin='{"hands": [["ZZ"], []]}', env=cold), "ZZ")
    (cache / "elsewhere").mkdir(parents=True, exist_ok=True)
    (cache / "elsewhere" / "movegen._movegen-161.py311.nbi").write_bytes(b"another install")
    first = run("moves", "-", stdin=json.dumps(EXAMPLE), env=cold)
    assert first.returncode == 0 and first.stderr.count("compiling the numba engine for legal moves") == 1
    assert re.search(r"kernels (\d+)/\1 ", first.stderr)  # the bar of the kernels compiled, its last state
    again = run("moves", "-", stdin=json.dumps(EXAMPLE), env=cold)
    assert again.returncode == 0 and again.stderr == "" and again.stdout == first.stdout


@pytest.mark.parametrize("args", [[], ["policies"]])
def test_a_bare_command_prints_its_help_once(args):
    proc = run(*args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("Usage:") == 1 and proc.stderr == ""


def test_version_and_short_help():
    from casino_sim import __version__

    for flag in ("--version", "-V"):
        proc = run(flag)
        assert proc.returncode == 0 and proc.stdout.strip() == f"casino-sim {__version__}", proc.stderr
    for args in (["-h"], ["simulate", "-h"], ["policies", "-h"]):
        proc = run(*args)
        assert proc.returncode == 0 and "Usage:" in proc.stdout and proc.stdout == run(*args[:-1], "--help").stdout


def test_moves_says_why_there_is_no_move():
    pos = json.dumps({"hands": [[], ["KC", "3C", "9H"]], "loose": ["5C", "8D"]})
    text = run("moves", "-", stdin=pos)
    assert text.returncode == 0 and text.stdout == "" and "holds no card" in text.stderr
    as_json = run("moves", "-", "--format", "json", stdin=pos)
    assert json.loads(as_json.stdout) == [] and "holds no card" in as_json.stderr


def test_output_that_is_not_a_terminal_gets_full_lines():
    """A pipe (a CI log) is not wrapped at 80 columns: each policy's row of `policies list` is one line."""
    import os
    import subprocess
    import sys

    from tests.support.policies import builtin_policies

    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    proc = subprocess.run(
        [sys.executable, "-m", "casino_sim", "policies", "list"], capture_output=True, text=True, env=env, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    for policy in (p for p in builtin_policies().values() if not p.plays_in_python):  # not those tests register
        assert any(policy.name in line and policy.description in line for line in lines), policy.name
    narrow = run("policies", "list", env={"COLUMNS": "60"})  # a width asked for is still honoured
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 60
