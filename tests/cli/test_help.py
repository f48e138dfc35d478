"""Every command's --help in one style: flags without a value type, arguments in capitals, one spelling of
the defaults (typer's `[default: ...]`, never "(default ...)" in the prose), no gaps where backticks were lost."""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

from casino_sim.cli.app import app


def _commands(command=None, path=()):
    """(words after casino-sim, click command) of the app, its sub-apps and every command under them."""
    command = command or typer.main.get_command(app)
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():
        yield from _commands(sub, (*path, name))


COMMANDS = list(_commands())


def _help(path, columns: int) -> str:
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": str(columns), "TERMINAL_WIDTH": str(columns)})
    assert result.exit_code == 0, result.output
    return result.output


def test_the_walk_finds_every_command():
    names = {" ".join(path) for path, _ in COMMANDS}
    assert {"", "simulate", "tournament", "apply", "policies", "policies show"} <= names
    assert len(names) > 15


@pytest.mark.parametrize("path", [path for path, _ in COMMANDS], ids=lambda p: " ".join(p) or "casino-sim")
@pytest.mark.parametrize("columns", [80, 250])
def test_help_has_one_style(path, columns):
    text = _help(path, columns)
    assert "<bool>" not in text
    usage = next(line for line in text.splitlines() if "Usage:" in line)
    assert not re.search(r"[{}]", usage), usage  # typer's {position}; click's POSITION
    flat = " ".join(text.split())  # the prose, whatever the width wrapped
    assert "(default" not in flat, flat[flat.index("(default") - 80 :][:200]


@pytest.mark.parametrize("path,command", COMMANDS, ids=lambda p: " ".join(p) if isinstance(p, tuple) else "")
def test_help_texts_have_no_double_spaces(path, command):
    texts = [command.help or "", *(p.help or "" for p in command.params)]
    for text in texts:
        for paragraph in text.split("\n\n"):
            assert "  " not in " ".join(line.strip() for line in paragraph.splitlines()), paragraph


def test_arguments_and_defaults_read_as_typer_shows_them():
    apply = _help(("apply",), 250)
    assert "apply [OPTIONS] POSITION MOVE" in apply
    regret = _help(("regret",), 250)
    assert "[POLICIES]..." in regret and "[default: each policy plays itself]" in regret
    assert "[default: 10]" in _help(("simulate",), 250)  # --bot-timeout's "(default 10)" of the prose


def test_each_option_says_what_it_does_here():
    assert "feature" not in " ".join(_help(("regret",), 250).split())  # knockout's --seed text was regret's
    bench = " ".join(_help(("bench",), 250).replace("│", " ").split())  # at any width the help wraps to
    assert "a minute or two" not in bench and "under a minute" in bench  # a cold and a cached compile: ~20 s here
