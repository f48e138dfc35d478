"""Bots in any language (`--policy exec:COMMAND`, README): whole rounds played by a program over stdin/stdout,
and the one-line error of a bot that dies, answers out of range or garbage, or stays silent."""

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from casino_sim.reference.position import Position
from casino_sim.runner.rundir import RunDir
from tests.support.cli import EXAMPLE, assert_one_line_error, run

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "scripts" / "bots" / "most_cards.py"
EXEC_BOT = f"exec:{sys.executable} {BOT}"

# The README bot's rule as a Python policy: a bot whose moves are applied as it answers plays the same rounds.
SAME_RULE = """
def most_cards(pos, moves, rng):
    taken = [len(m.loose) + len(m.builds) if m.kind == "capture" else -1 for m in moves]
    return moves[taken.index(max(taken))]
"""

# A bot that plays move 0 for its first AFTER requests, then fails as MODE says (and writes its pid to PIDFILE).
FAILING = """
import os, sys, time
mode, after, pidfile = sys.argv[1], int(sys.argv[2]), sys.argv[3]
open(pidfile, "w").write(str(os.getpid()))
for n, line in enumerate(sys.stdin):
    if n < after:
        print(0, flush=True)
    elif mode == "die":
        sys.exit(3)
    elif mode == "range":
        print(len(__import__("json").loads(line)["moves"]), flush=True)
    elif mode == "garbage":
        print("move zero please", flush=True)
    else:
        time.sleep(60)
"""


def test_readme_shows_the_example_bot_file():
    readme = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")  # the README's detail lives there
    section = readme[readme.index("## Bots in any language") :]
    block = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert block == BOT.read_text(encoding="utf-8")
    assert len(block.strip().splitlines()) <= 10


def _simulate(policy: str, out: Path, *extra: str):
    args = ("simulate", "--policy", policy, "--vs", "greedy", "--deals", "3", "--chunk-deals", "1", "--seed", "7")
    return run(*args, "--no-charts", "--out", str(out), *extra)


def test_a_bot_plays_whole_rounds_as_its_answers_say(tmp_path):
    rule = tmp_path / "rule.py"
    rule.write_text(SAME_RULE)
    bot = _simulate(EXEC_BOT, tmp_path / "bot")
    again = _simulate(EXEC_BOT, tmp_path / "again")
    python = _simulate(f"{rule}:most_cards", tmp_path / "python")
    for proc in (bot, again, python):
        assert proc.returncode == 0, proc.stderr
        assert "Warning" not in proc.stderr, proc.stderr
    rounds = RunDir(tmp_path / "bot").read_rounds()
    assert len(rounds) == 6 and set(rounds["policy_0"]) == {"most_cards", "greedy"}
    pd.testing.assert_frame_equal(rounds, RunDir(tmp_path / "again").read_rounds())  # same seed, same rounds
    mine = rounds.drop(columns=["policy_0", "policy_1"])
    theirs = RunDir(tmp_path / "python").read_rounds().drop(columns=["policy_0", "policy_1"])
    pd.testing.assert_frame_equal(mine, theirs)
    summary = pd.read_csv(tmp_path / "bot" / "report" / "summary.csv")
    assert list(summary["matchup"]) == ["most_cards vs greedy"]


def test_choose_asks_the_bot_with_the_other_hands_hidden(tmp_path):
    seen = tmp_path / "seen.json"
    spy = tmp_path / "spy.py"
    spy.write_text(f"import sys\nline = sys.stdin.readline()\nopen({str(seen)!r}, 'w').write(line)\nprint(1)\n")
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(EXAMPLE))
    proc = run("choose", str(pos), "--policy", f"exec:{sys.executable} {spy}", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    request = json.loads(seen.read_text())
    assert request["position"] == Position.from_json(EXAMPLE).seen_by(0).to_json()
    assert request["position"]["hands"][1] is None
    moves = run("moves", str(pos), "--format", "json", "--engine", "reference")
    assert request["moves"] == json.loads(moves.stdout)
    assert json.loads(proc.stdout) == request["moves"][1]


@pytest.mark.parametrize(
    ("mode", "words"),
    [("die", "died (exit code 3)"), ("range", "not a move index"), ("garbage", "'move zero please'")],
)
def test_a_failing_bot_stops_the_run_in_one_line_keeping_finished_chunks(tmp_path, mode, words):
    _failing_run(tmp_path, mode, words)


def test_a_silent_bot_stops_the_run_after_the_bot_timeout(tmp_path):
    t0 = time.monotonic()
    _failing_run(tmp_path, "silent", "said nothing for 1 s (--bot-timeout)", "--bot-timeout", "1")
    assert time.monotonic() - t0 < 50


def test_a_failing_bot_on_a_dask_worker_is_one_line_too(tmp_path):
    pytest.importorskip("distributed")
    _failing_run(tmp_path, "range", "not a move index", "--backend", "dask", "--threads", "1")


def _failing_run(tmp_path: Path, mode: str, words: str, *extra: str) -> None:
    script, pidfile = tmp_path / "bot.py", tmp_path / "bot.pid"
    script.write_text(FAILING)
    command = f"{sys.executable} {script} {mode} 60 {pidfile}"  # chunk 0 is 2 rounds, 48 of its plays
    proc = _simulate(f"exec:{command}", tmp_path / "run", *extra)
    assert_one_line_error(proc, f"bot `{command}`", words, 'at position {"rules":"strict"')
    position = json.loads(proc.stderr.split(" at position ", 1)[1])
    assert position["hands"].count(None) == 1  # as the bot's player sees it
    run_dir = RunDir(tmp_path / "run")
    assert run_dir.finished_chunks() == {0}
    assert run_dir.read_manifest()["status"] == "stopped"  # not "running": --resume finishes it
    with pytest.raises(ProcessLookupError):  # ended and reaped, not left behind
        os.kill(int(pidfile.read_text()), 0)


@pytest.mark.parametrize(
    ("policy", "words"),
    [("exec:", "exec: needs a command"), ("exec:no-such-bot-program --fast", "no such program 'no-such-bot-program'")],
)
def test_a_bot_that_cannot_start_is_refused_before_the_run(tmp_path, policy, words):
    proc = _simulate(policy, tmp_path / "run")
    assert_one_line_error(proc, words)
    assert not (tmp_path / "run").exists()


def test_bot_timeout_must_be_positive(example_file):
    proc = run("choose", str(example_file), "--policy", EXEC_BOT, "--bot-timeout", "0")
    assert_one_line_error(proc, "--bot-timeout must be a positive number of seconds")
