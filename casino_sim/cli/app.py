"""The `casino-sim` command line: the app, its commands in help order, and main (one-line errors, exit codes).

The commands live one module per group (games, positions, runs, skills, bench, policies): parse, validate, call, print.
"""

from __future__ import annotations

import signal
import sys
from functools import cache
from typing import Annotated

import typer
from typer import Abort

from casino_sim.cli import bench, equity, findings, games, policies, positions, runs, skills, tune
from casino_sim.cli.helpstyle import HelpCommand, HelpGroup
from casino_sim.cli.options import HELP_OPTIONS
from casino_sim.core.errors import USER_ERRORS
from casino_sim.core.version import VERSION

try:  # typer >= 0.2x carries its own copy of click
    from typer._click.exceptions import ClickException
except ImportError:
    from click.exceptions import ClickException

app = typer.Typer(
    help="Monte Carlo strategy analyser for the card game Casino, two to four players.",
    no_args_is_help=True,
    context_settings=HELP_OPTIONS,
    pretty_exceptions_enable=False,
    cls=HelpGroup,
)


def _show_version(value: bool) -> None:
    if value:
        print(f"casino-sim {VERSION}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", "-V", callback=_show_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Monte Carlo strategy analyser for the card game Casino, two to four players."""


# Registered here, in the order `casino-sim --help` lists them (typer names card_value "card-value").
for command in (
    games.deal,
    games.replay,
    positions.moves,
    positions.apply,
    runs.simulate,
    runs.report,
    runs.experiment,
    runs.tournament,
    bench.bench,
    runs.card_value,
    equity.equity,
    findings.findings,
    tune.tune,
    skills.knockout,
    skills.regret,
    positions.choose,
    positions.analyse,
    games.play,
):
    app.command(cls=HelpCommand)(command)
app.add_typer(policies.policies_app, name="policies")


def _interrupt_on_sigterm(signum, frame):
    raise KeyboardInterrupt


def _usage_error(e) -> str:
    """A click usage error (bad option value, unknown option, missing argument) as one line."""
    where = e.ctx.command_path if getattr(e, "ctx", None) is not None else "casino-sim"
    return f"error: {' '.join(e.format_message().split())} (see {where} --help)"


@cache
def _command():
    """The app as a click command, built once a process: typer builds it from every command's signature on each
    call (70 ms here), which every further main() in one process (the test suite's hundreds) paid again."""
    return typer.main.get_command(app)


def main() -> None:
    """Entry point: user errors, bad options included, become one line on stderr and exit code 2."""
    signal.signal(signal.SIGTERM, _interrupt_on_sigterm)  # a terminated run ends like Ctrl-C, cleanly
    try:
        code = _command()(standalone_mode=False)  # what app(...) runs (its pretty tracebacks are off)
    except USER_ERRORS as e:
        prefix = "illegal move: " if e.__class__.__name__ == "IllegalMove" else ""
        print(f"error: {prefix}{e}", file=sys.stderr)
        sys.exit(2)
    except ClickException as e:
        if type(e).__name__ == "NoArgsIsHelpError":  # `casino-sim` or a group alone: typer has shown its help
            sys.exit(0)
        print(_usage_error(e), file=sys.stderr)
        sys.exit(2)
    except (KeyboardInterrupt, Abort):
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
