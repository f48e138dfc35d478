"""docs/commands.md against the program: every command has its section, and each section's Options line lists
exactly the options its --help lists, so that a change to either fails here; the README stays a front door."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer.main

from casino_sim.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")


def commands(group=None, path=()):
    """(name, click command) of every command of the app, sub-commands as `policies list`."""
    group = group or typer.main.get_command(app)
    for name, sub in group.commands.items():
        if hasattr(sub, "commands"):
            yield from commands(sub, (*path, name))
        else:
            yield " ".join((*path, name)), sub


def help_options(command) -> list[str]:
    """The long options `--help` lists for a command (from its help page), --help itself aside."""
    from typer.testing import CliRunner

    text = CliRunner().invoke(app, [*command.split(), "--help"], terminal_width=200).output
    return sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", text.split("Options", 1)[-1])) - {"--help"})


def documented_options(command: str) -> list[str]:
    section = DOC.split(f"## `casino-sim {command}`\n", 1)
    assert len(section) == 2, f"docs/commands.md has no section for casino-sim {command}"
    line = re.search(r"^\*\*Options:\*\* (.*)$", section[1].split("\n## ", 1)[0], re.M)
    assert line, f"docs/commands.md: casino-sim {command} has no Options line"
    return sorted(re.findall(r"`(--[a-z][a-z0-9-]*)`", line.group(1)))


@pytest.mark.parametrize("command", [name for name, _ in commands()])
def test_each_command_s_options_are_documented_as_its_help_lists_them(command):
    listed = {o for _, c in commands() if _ == command for p in c.params for o in (*p.opts, *p.secondary_opts)}
    real = sorted({o for o in help_options(command) if o in listed})  # names the help text mentions in passing aside
    assert documented_options(command) == real


def test_the_readme_is_a_front_door():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 200
    quick = readme.split("## Quick start\n", 1)[1]
    assert quick.startswith(
        "```bash\npip install . && casino-sim simulate --deals 20000 --policy expert --vs greedy\n"
        "pip install '.[test]' && pytest\n```"
    )
    picture = re.search(r"!\[[^\]]+\]\((docs/[\w-]+\.png)\)", readme)
    assert picture and (ROOT / picture.group(1)).stat().st_size < 100_000
    for name, _ in commands():
        if not name.startswith("policies ") or name == "policies list":
            assert f"(docs/commands.md#casino-sim-{name.replace(' ', '-')})" in readme, name
    assert "## Speed" not in readme and "docs/performance.md" in readme
