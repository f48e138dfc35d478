"""The CLI tests run `casino-sim` in the test process (tests/support/cli.py): what they see there is what the
installed command prints in a process of its own, byte for byte, exit code included."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import EXAMPLE, run
from tests.support.policies import register_policy

ENTRY_POINT = Path(sys.executable).with_name("casino-sim")  # the script pip installs ([project.scripts])


def installed(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """`casino-sim ARGS` as a user types it: the installed script, in its own process."""
    if not ENTRY_POINT.exists():
        pytest.skip(f"no installed casino-sim beside {sys.executable}")
    env = dict(os.environ)  # what a run here reads (under pytest the process's own also holds COLUMNS=80)
    return subprocess.run([str(ENTRY_POINT), *args], input=stdin, capture_output=True, text=True, timeout=300, env=env)


@pytest.mark.parametrize(
    "args, stdin",
    [
        (["--version"], None),
        ([], None),  # no command: the help
        (["nosuch"], None),  # a usage error: one line naming the command
        (["simulate", "--deals", "0"], None),  # bad input: one line, exit 2
        (["deal", "--seed", "3", "--rules", "italian"], None),
        (["moves", "-", "--format", "json"], json.dumps(EXAMPLE)),
        (["apply", "-", "1"], json.dumps(EXAMPLE)),
        (["policies", "list"], None),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else "",
)
def test_a_run_in_this_process_prints_what_the_installed_command_prints(args, stdin):
    run(*args, stdin=stdin)  # a cold cache compiles (with its notice on stderr) only once, before the comparison
    here, own = run(*args, stdin=stdin), installed(*args, stdin=stdin)
    assert (here.returncode, here.stdout, here.stderr) == (own.returncode, own.stdout, own.stderr)


def test_a_help_here_is_as_wide_as_a_new_process_makes_it(monkeypatch):
    """typer fixes its help width when it is first imported; an earlier test's narrow width does not carry over."""
    from typer import rich_utils

    monkeypatch.setattr(rich_utils, "MAX_WIDTH", 40)  # what a CliRunner with TERMINAL_WIDTH=40 would have left
    shown = run("simulate", "--help", env={"COLUMNS": "200"}).stdout
    assert max(len(line) for line in shown.splitlines()) > 120
    assert rich_utils.MAX_WIDTH == 40  # put back after the run


def test_policies_registered_in_this_process_are_not_in_a_run_of_the_command():
    register_policy("registered_by_a_test", lambda pos, moves, rng: moves[0])
    assert "registered_by_a_test" not in run("policies", "list").stdout


def test_a_run_puts_back_what_it_changes(tmp_path):
    """The environment, the SIGTERM handler, argv and the streams are this process's again after a run."""
    import signal

    before = (dict(os.environ), signal.getsignal(signal.SIGTERM), list(sys.argv), sys.stdin, sys.stdout, sys.stderr)
    bot_timeout = ["--bot-timeout", "7"]  # sets CASINO_SIM_BOT_TIMEOUT for the run's worker processes
    proc = run("simulate", "--deals", "2", "--card-deals", "0", *bot_timeout, "--out", str(tmp_path / "run"))
    assert proc.returncode == 0, proc.stderr
    after = (dict(os.environ), signal.getsignal(signal.SIGTERM), list(sys.argv), sys.stdin, sys.stdout, sys.stderr)
    assert after == before
