"""What the `casino-sim` commands share: the console, option types, and the compile and backend helpers."""

from __future__ import annotations

from enum import Enum
from functools import cache
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, ConsoleDimensions

from casino_sim import openspiel_kind
from casino_sim.core.fields import Field, FieldError
from casino_sim.engines import engine_names
from casino_sim.engines.compiling import ensure_compiled as compile_ahead
from casino_sim.engines.compiling import search_variants
from casino_sim.experiments import declarations as declared
from casino_sim.loader import PolicyLoader
from casino_sim.policies.bots import set_bot_timeout

HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}
UNWRAPPED = 1000  # the width a log is written at: wider than any table or line the commands print


class _Console(Console):
    """rich's console, except that output that is not a terminal (a pipe, a file, a CI log) gets full lines:
    rich would wrap tables and sentences at 80 columns. COLUMNS, when set, still decides."""

    @property
    def size(self) -> ConsoleDimensions:
        size = Console.size.fget(self)
        if self._width is None and "COLUMNS" not in self._environ and not self.is_terminal:
            return ConsoleDimensions(UNWRAPPED, size.height)
        return size

    @size.setter
    def size(self, new_size) -> None:
        Console.size.fset(self, new_size)


console = _Console()
WRAPPED_TABLE = 120  # a table of long sentences (policies list) piped: wrapped here, not 560 columns wide


def table_width() -> int | None:
    """The width to print a table of long sentences at: the terminal's (or COLUMNS), else WRAPPED_TABLE."""
    return None if console.is_terminal or "COLUMNS" in console._environ else WRAPPED_TABLE


@cache
def policy_loader() -> PolicyLoader:
    """The command's policy loader, one for the process, with the OpenSpiel kind (casino_sim/openspiel_kind.py):
    every command resolves the policies it names with it and hands the objects down."""
    return openspiel_kind.register(PolicyLoader())


class Format(str, Enum):
    text = "text"
    json = "json"


EngineName = Enum("EngineName", {name: name for name in engine_names()}, type=str)  # the registered engines


EngineOpt = Annotated[
    EngineName,
    typer.Option("--engine", help="Rules engine to answer with: numba (fast), or reference (the executable spec)."),
]


class BackendName(str, Enum):
    local = "local"
    dask = "dask"


def option(f: Field, kind: type | None = None) -> Any:
    """A declared field (core/fields.py) as the command line's parameter type: typer.Option (typer.Argument for a
    field spelled ""), its help, its kind (a path as Path, a list as its names, a backend as its choices, or `kind`:
    a command's own choices) and CLI-only keywords."""
    if kind is None:
        kind = list[str] if list in f.kinds else _CLI_KINDS.get(f.name) or next(_KINDS[k] for k in f.kinds if k)
    if None in f.kinds:
        kind = kind | None
    extra = {**f.typer, **_CLI_EXTRAS.get(f.name, {})}
    if f.flag == "":
        return Annotated[kind, typer.Argument(help=f.help, **extra)]
    return Annotated[kind, typer.Option(f.flag or "--" + f.name.replace("_", "-"), help=f.help, **extra)]


_KINDS = {int: int, float: float, bool: bool, str: str, "path": Path}


def refuse_resume_with_force(resume, force: bool) -> None:
    """--resume finishes a run and --force starts a new one: never both."""
    if resume is not None and force:
        raise FieldError(("force", "resume"), "{force} starts a new run and {resume} finishes one: give one of them")


def open_backend(backend: BackendName | None, scheduler: str | None, threads: int | None = None):
    """The chunk backend that --backend/--scheduler ask for, as a context manager around a whole command."""
    # deferred, so that `casino-sim --help` never loads them: threads, Dask
    from casino_sim.runner import backends

    return backends.open_backend(backend.value if backend else None, scheduler, threads)


def ensure_compiled(*work: str, scheduler: str | None = None, tables=()) -> float:
    """engines.compiling.ensure_compiled (compile ahead behind one notice; the seconds it took) for rounds at these
    tables (each: the policies playing together, as objects: engines.compiling.search_variants). Nothing with a
    scheduler: its workers compile their own."""
    if scheduler:
        return 0.0
    return compile_ahead(*work, search=search_variants(tables))


def ensure_runs_compiled(configs, scheduler: str | None = None) -> float:
    """ensure_compiled for simulate runs (their SimConfigs): the rounds they play, with the policies they seat."""
    return ensure_compiled("rounds", scheduler=scheduler, tables=[c.lineup().policies for c in configs])


def _set_bot_timeout(seconds: float | None) -> float | None:
    """Give every exec: bot of the command (and of its worker processes) this long to answer a move."""
    if seconds is not None:
        set_bot_timeout(seconds)
    return seconds


_CLI_KINDS = {"backend": BackendName, "format": Format}  # fields the command line parses into choices
_CLI_EXTRAS = {"bot_timeout": {"callback": _set_bot_timeout}}  # what the command line does on parsing them
RulesOpt = option(declared.RULES)
BackendOpt = option(declared.BACKEND)
SchedulerOpt = option(declared.SCHEDULER)
ChartsOpt = option(declared.CHARTS)
BotTimeoutOpt = option(declared.BOT_TIMEOUT)
