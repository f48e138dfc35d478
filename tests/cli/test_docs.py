"""The examples of docs/*.md and the README run against the program: ```json/```jsonl blocks must parse,
```console blocks are `$ ` commands (`> ` continues one), each followed by the output it must print."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from casino_sim.core.rules import RULESETS
from casino_sim.engines import get_engine
from casino_sim.reference.moves import Move
from casino_sim.reference.position import Position
from casino_sim.reference.round import round_context
from tests.support.cli import run

ROOT = Path(__file__).resolve().parents[2]
DOCS = tuple(ROOT / "docs" / name for name in ("notation.md", "rules.md", "policies.md", "equity.md"))
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.M | re.S)
COMPILE_NOTICE = "compiling the numba engine"
COMPILE_BAR = re.compile(r"^\s*kernels \d+/\d+ \d+:\d\d:\d\d\s*$")  # the compile bar, as a pipe gets it
MOVE_FIELDS = {"kind", "card", "loose", "builds", "value"}


def fenced(text: str, lang: str) -> list[tuple[int, str]]:
    """(line number, body) of every fenced block of that language."""
    return [(text[: m.start()].count("\n") + 1, m.group(2)) for m in FENCE.finditer(text) if m.group(1) == lang]


def json_examples(path: Path) -> list[tuple[str, object]]:
    """Every JSON value of the ```json blocks and of each line of the ```jsonl blocks, with where it stands."""
    text = path.read_text(encoding="utf-8")
    out = [(f"{path.name}:{line}", json.loads(body)) for line, body in fenced(text, "json")]
    for line, body in fenced(text, "jsonl"):
        out += [(f"{path.name}:{line + i + 1}", json.loads(row)) for i, row in enumerate(body.splitlines())]
    return out


def console_examples(path: Path) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each ```console block as a list of (command, expected output)."""
    blocks = []
    for line, body in fenced(path.read_text(encoding="utf-8"), "console"):
        steps: list[list] = []
        for row in body.splitlines():
            if row.startswith("$ "):
                steps.append([row[2:], []])
            elif row.startswith("> ") and not steps[-1][1]:  # a continuation line of the command
                steps[-1][0] += "\n" + row[2:]
            else:
                steps[-1][1].append(row)
        blocks.append((f"{path.name}:{line}", [(cmd, "\n".join(out)) for cmd, out in steps]))
    return blocks


def run_shell(command: str, cwd: Path) -> subprocess.CompletedProcess:
    """A documented shell line, with `casino-sim` meaning this interpreter's `python -m casino_sim`."""
    script = f'casino-sim() {{ "$CASINO_PYTHON" -m casino_sim "$@"; }}\n{command}'
    return subprocess.run(
        ["bash", "-c", script],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "CASINO_PYTHON": sys.executable},
    )


def run_here(command: str) -> subprocess.CompletedProcess | None:
    """A documented line of `casino-sim` calls (fed by an `echo` or a `printf '%s\\n'`, piped one into the next, the
    output maybe sent `> FILE`) run in this process as a fresh one would (tests/support/cli.py run), with the output
    and exit code bash would give; None for any other line (a heredoc, a file written by echo), which bash runs.
    It spares each call the start of Python, numba and the kernels' cache."""
    if "\n" in command:
        return None
    lexer = shlex.shlex(command, posix=True, punctuation_chars="|><;&")
    lexer.whitespace_split = True
    tokens, target = list(lexer), None
    if len(tokens) > 2 and tokens[-2] == ">":
        tokens, target = tokens[:-2], tokens[-1]
    stages: list[list[str]] = [[]]
    for token in tokens:
        if token == "|":
            stages.append([])
        elif set(token) <= set("|><;&"):  # any other operator: bash's
            return None
        else:
            stages[-1].append(token)
    feed, calls = "", stages
    if stages[0][:1] == ["echo"]:
        feed, calls = " ".join(stages[0][1:]) + "\n", stages[1:]
    elif stages[0][:2] == ["printf", "%s\\n"]:
        feed, calls = "".join(f"{t}\n" for t in stages[0][2:]), stages[1:]
    if not calls or any(stage[:1] != ["casino-sim"] for stage in calls):
        return None
    errors = []
    for stage in calls:
        proc = run(*stage[1:], stdin=feed)
        feed = proc.stdout
        errors.append(proc.stderr)
    if target is not None and target != "/dev/null":
        Path(target).write_text(feed, encoding="utf-8")
    return subprocess.CompletedProcess(command, proc.returncode, "" if target else feed, "".join(errors))


def printed(proc: subprocess.CompletedProcess) -> str:
    """stdout, then stderr, without the one-off compile notice and its bar's last line ("kernels 12/12 0:00:21")."""
    lines = (proc.stdout + proc.stderr).splitlines()
    return "\n".join(line for line in lines if not line.startswith(COMPILE_NOTICE) and not COMPILE_BAR.match(line))


def as_json(text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return None


def assert_prints(command: str, expected: str, proc: subprocess.CompletedProcess) -> None:
    """The documented output: exact lines, or equal JSON when the documented output is one JSON value."""
    actual = printed(proc)
    wants_error = expected.startswith("error:")
    assert proc.returncode == (2 if wants_error else 0), f"$ {command}\n{actual}"
    if isinstance(as_json(expected), (dict, list)):
        assert as_json(actual) == as_json(expected), f"$ {command}\n{actual}"
    else:
        assert actual.rstrip() == expected.rstrip(), f"$ {command}"


def is_move(obj) -> bool:
    return isinstance(obj, dict) and "kind" in obj


ALL_JSON = [example for path in DOCS for example in json_examples(path)]
ALL_CONSOLE = [block for path in DOCS for block in console_examples(path)]


def test_the_docs_have_examples_of_every_kind():
    assert any(is_move(obj) for _, obj in ALL_JSON) and any(not is_move(obj) for _, obj in ALL_JSON)
    commands = " ".join(cmd for _, steps in ALL_CONSOLE for cmd, _ in steps)
    for tool in ("casino-sim moves", "casino-sim apply", "casino-sim choose", ".jsonl", "--jsonl"):
        assert tool in commands


@pytest.mark.parametrize("where,obj", ALL_JSON, ids=[w for w, _ in ALL_JSON])
def test_json_example_parses(where, obj):
    """Moves parse; positions parse and fit a real deal, so every tool (choose, analyse too) takes them."""
    if is_move(obj):
        move = Move.from_json(obj)
        if set(obj) == MOVE_FIELDS:
            assert move.to_json() == obj  # written in canonical form
        return
    pos = Position.from_json(obj)
    if pos.hands[pos.to_move] is not None:
        round_context(pos)
    if set(obj) == set(pos.to_json()):
        assert pos.to_json() == obj  # a position with every field is written as the program writes it


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_console_examples_print_what_they_show(path, tmp_path, monkeypatch):
    """Each document's commands run in order in one folder, so a block may use a file an earlier one wrote."""
    monkeypatch.chdir(tmp_path)  # the folder of the calls run here (run_here) as of bash's
    for where, steps in console_examples(path):
        for command, expected in steps:
            proc = run_here(command) or run_shell(command, tmp_path)
            assert_prints(f"{command}  (at {where})", expected, proc)


def worked_example() -> tuple[dict, list[dict], dict]:
    """The start position, the moves and the end position of section 9 of docs/rules.md."""
    text = DOCS[1].read_text(encoding="utf-8")
    section = text[text.index("## 9. A worked example") :]
    section = section[: section.index("\n## ", 1)]
    (_, start), (_, end) = fenced(section, "json")
    [(_, moves)] = fenced(section, "jsonl")
    return json.loads(start), [json.loads(m) for m in moves.splitlines()], json.loads(end)


@pytest.mark.parametrize("engine", ["reference", "numba"])
@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_worked_example_of_the_rules_plays_as_written(engine, rules):
    start, moves, end = worked_example()
    eng = get_engine(engine)
    pos = Position.from_json(dict(start, rules=rules))
    for m in moves:
        move = Move.from_json(m)
        assert move in eng.legal_moves(pos), m
        pos = eng.apply_move(pos, move)
    assert pos.to_json() == dict(end, rules=rules)


def readme_example_commands() -> list[str]:
    """The position-tool lines of docs/commands.md's example block (the one that starts with `echo '{"hands"`)."""
    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    [block] = [body for _, body in fenced(text, "bash") if body.startswith('echo \'{"hands"')]
    commands = re.sub(r"\\\n", " ", re.sub(r"\|\n", "| ", block)).splitlines()  # lines ending in | or \ go on
    return [line for line in commands if re.search(r"casino-sim (moves|choose|apply)\b", line)]


def test_readme_shows_every_position_tool():
    commands = " ".join(readme_example_commands())
    for tool in ("moves", "choose", "apply"):
        assert f"casino-sim {tool}" in commands


@pytest.mark.parametrize("command", readme_example_commands())
def test_readme_example_runs(command, tmp_path):
    proc = run_here(command) or run_shell(command, tmp_path)  # in this process: its cache holds the kernels
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()


def test_help_texts_point_to_the_docs():
    from typer.testing import CliRunner

    from casino_sim.cli.app import app

    for command, doc in (
        ("moves", "docs/notation.md"),
        ("apply", "docs/notation.md"),
        ("choose", "docs/notation.md"),
        ("simulate", "docs/rules.md"),
    ):
        result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "200"})
        assert result.exit_code == 0
        assert doc in result.output, command
        assert (ROOT / doc).is_file()


def test_one_vocabulary_for_deals_batches_and_the_knockout_s_precision():
    """docs/notation.md's words, used everywhere: a deal is a shuffle (deal_id from 0), a batch the cards handed out
    together (from 1; sweeps.csv's batch 0 is the whole round); knockout stops on the interval's half-width."""
    docs = ROOT / "docs"
    words = (docs / "notation.md").read_text()
    assert "## Words" in words and "half-width" in words
    policies = (docs / "policies.md").read_text()
    assert "batch 0 gives" not in policies and "the first batch (batch 1) gives" in policies
    for path in (ROOT / "README.md", *docs.glob("*.md")):
        text = " ".join(path.read_text().split())
        assert "narrower than `--precision`" not in text, path.name  # it is the half-width


def test_a_replay_names_which_seat_the_run_s_policy_sat_in(tmp_path):
    out = tmp_path / "run"
    proc = run(
        "simulate",
        "--deals",
        "2",
        "--policy",
        "expert",
        "--vs",
        "greedy",
        "--record",
        "4",
        "--card-deals",
        "0",
        "--seed",
        "2",  # a deal whose first batch B plays first in the mirror
        "--no-charts",
        "--out",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    second = run("replay", str(out), "--round", "2")  # the mirror: the run's A (--policy) sits in seat B
    assert second.returncode == 0, second.stderr
    assert "A plays greedy (--vs), B plays expert (--policy)" in second.stdout.splitlines()[0]
    assert "Batch 1: B holds" in second.stdout
