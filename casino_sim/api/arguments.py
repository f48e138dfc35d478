"""What the Python API's calls share: wrong types refused with TypeError; the layers' user errors (ValueError)
re-raised with the API's parameter names instead of the command's options, without the deep traceback; the
progress bar when asked; the call as a run's manifest records it."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from numbers import Real

from rich.console import Console

from casino_sim.core.errors import UserError
from casino_sim.core.lists import comma_list
from casino_sim.experiments.door import Hooks

OPTION = re.compile(r"--(no-)?([a-z][a-z-]*)")


def check_types(**spec: tuple) -> None:
    """Each keyword is name=(value, kind, ...): TypeError unless the value is one of the kinds.

    Kinds: int (never a bool), float (any real number but a bool), bool, str, "path" (str or os.PathLike),
    None; anything else is an isinstance class."""
    for name, (value, *kinds) in spec.items():
        if not any(_is(value, k) for k in kinds):
            want = " or ".join(_KIND_WORDS.get(k, getattr(k, "__name__", str(k))) for k in kinds)
            raise TypeError(f"{name} must be {want}, got {value!r}")


def names(name: str, value: str | list | tuple) -> tuple[str, ...]:
    """The names a list option takes (policies, tables): a list or tuple of strings (TypeError for any other), or
    one string of them comma-separated, as the command's option is written."""
    if isinstance(value, str):
        return comma_list(value, f"{name} must name one or more")
    for item in value:
        check_types(**{name: (item, str)})
    return tuple(value)


_KIND_WORDS = {int: "a whole number", float: "a number", bool: "True or False", str: "a string", "path": "a path"}


def _is(value, kind) -> bool:
    if kind is None:
        return value is None
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, Real) and not isinstance(value, bool)
    if kind == "path":
        return isinstance(value, str | os.PathLike)
    return isinstance(value, kind)


@contextmanager
def api_errors(parameters, aliases: dict[str, str] | None = None) -> Iterator[None]:
    """Re-raise a user error as the same class with `--option` written as the API's parameter (`option`, a flag
    as `option=True`), when `parameters` names it (a dict: the call's values, which tell the flags), or as
    `aliases` renames it; `from None`, so the traceback ends at the user's call."""
    names = {name: name for name in parameters} | (aliases or {})
    flags = {name for name in names if isinstance(parameters, dict) and isinstance(parameters.get(name), bool)}
    try:
        yield
    except UserError as e:

        def word(m: re.Match) -> str:  # --force is force=True, --no-mirrored mirrored=False
            name = m.group(2).replace("-", "_")
            if name in flags:
                return f"{names[name]}={not m.group(1)}"
            return names.get(name, m.group(0))

        raise type(e)(OPTION.sub(word, str(e))) from None


def progress_of(progress: bool, label: str, unit: str = "rounds"):
    """A context yielding update(done, total) for a progress bar on the terminal, or None (progress off)."""
    if not progress:
        return nullcontext(None)

    from casino_sim.runner.progress import progress_bar  # rich's bar: loaded only when one is asked for

    return progress_bar(Console(stderr=True), label, unit)


def call_text(name: str, given: dict, defaults: dict) -> str:
    """The API call as the manifest records it (`command`): cs.NAME(arguments that differ from the defaults)."""
    args = ", ".join(
        f"{k}={repr(str(v) if isinstance(v, os.PathLike) else v)}" for k, v in given.items() if v != defaults.get(k)
    )
    return f"cs.{name}({args})"


class Bar(Hooks):
    """A front door's hooks in the API (experiments/door.py): a progress bar on stderr when asked, nothing else."""

    def __init__(self, shown: bool):
        self.shown = shown

    def progress(self, label: str, unit: str):
        return progress_of(self.shown, label, unit)
