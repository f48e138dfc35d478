"""What the Python API's calls share: wrong types refused with TypeError; the layers' user errors (ValueError)
re-raised with the API's parameter names instead of the command's options, without the deep traceback; the
progress bar when asked; the call as a run's manifest records it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext

from rich.console import Console

from casino_sim.core.errors import UserError
from casino_sim.core.fields import FieldError, api_word, check_kind
from casino_sim.core.lists import comma_list
from casino_sim.experiments.door import Hooks


def check_types(**spec: tuple) -> None:
    """Each keyword is name=(value, kind, ...): TypeError unless the value is one of the kinds (core/fields.py
    check_kind)."""
    for name, (value, *kinds) in spec.items():
        check_kind(name, value, tuple(kinds))


def names(name: str, value: str | list | tuple) -> tuple[str, ...]:
    """The names a list option takes (policies, tables): a list or tuple of strings (TypeError for any other), or
    one string of them comma-separated, as the command's option is written."""
    if isinstance(value, str):
        return comma_list(value, "must name one or more", name)
    for item in value:
        check_types(**{name: (item, str)})
    return tuple(value)


def each_a_string(name: str, value) -> None:
    """TypeError unless a list argument (a string aside, which is one, and None) holds strings only."""
    for item in () if isinstance(value, str) or value is None else value:
        check_types(**{name: (item, str)})


@contextmanager
def api_errors(aliases: dict[str, str] | None = None) -> Iterator[None]:
    """Re-raise a user error `from None`, so the traceback ends at the user's call: a FieldError in the API's words
    (`deals`, a flag as `check=True`: core/fields.py api_word; `aliases` renames a field, as the API calls it)."""
    names = aliases or {}
    try:
        yield
    except FieldError as e:
        raise e.reworded(lambda name, state: api_word(names.get(name, name), state)) from None
    except UserError as e:
        raise type(e)(str(e)) from None


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
