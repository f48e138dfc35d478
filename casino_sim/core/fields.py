"""Options declared once: a Field (name, kind, default, help, how the command line spells it), a command's
Declaration of them, and FieldError, a user error that names its fields and lets each adapter word them.

The Typer command (cli/declared.py), the API function (api/declared.py) and the plan loader
(experiments/plan.py) are made from one Declaration, so an option is written in one place; a layer that refuses a
value raises FieldError with the field's name, and the command line shows it as `--deals`, the API as `deals`,
a plan as its key (docs/design.md, "Options declared once").
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from numbers import Real
from typing import Any

from casino_sim.core.errors import InputError

Word = Callable[[str, str], str]  # (field name, "" | "on" | "off") -> how an adapter writes it


def cli_word(name: str, state: str = "") -> str:
    """A field as the command line spells it: --deals; a flag given (on) --check, or not given (off) --no-check."""
    flag = name.replace("_", "-")
    return f"--no-{flag}" if state == "off" else f"--{flag}"


def api_word(name: str, state: str = "") -> str:
    """A field as the Python API spells it: deals; a flag given (on) check=True, or not given (off) check=False."""
    return {"on": f"{name}=True", "off": f"{name}=False"}.get(state, name)


class FieldError(InputError):
    """A refused value of the fields `names`: `text` says why, `{name}` (`{name:on}`, `{name:off}` for a flag set
    or cleared) where a field is named, or, without any, after the first field's name. str() is the command
    line's wording unless `word` says another adapter's (reworded())."""

    def __init__(self, names: str | tuple[str, ...], text: str, word: Word = cli_word):
        self.names = (names,) if isinstance(names, str) else tuple(names)
        self.text = text if "{" + self.names[0] in text else "{" + self.names[0] + "} " + text
        super().__init__(self.worded(word))

    def reworded(self, word: Word) -> FieldError:
        """The same error in another adapter's words (its str())."""
        return FieldError(self.names, self.text, word)

    def worded(self, word: Word) -> str:
        """The message with each field written by `word` (cli_word, api_word, a plan's key)."""
        text = self.text
        for name in self.names:
            for state in ("", "on", "off"):
                text = text.replace("{" + name + (f":{state}" if state else "") + "}", word(name, state))
        return text


@dataclass(frozen=True)
class Field:
    """One option of a command. `kinds`: what a value may be (int never a bool, float any real number, bool, str,
    "path", None, or a class); `flag`: the command line's spelling when it is not --name (`--mirrored/--no-mirrored`,
    `--policy`), or "" for an argument; `run`: it decides the results (recorded in the manifest and compared on
    --resume) rather than where or how fast a run plays; `bounds` (low, high, text) refuses a number outside,
    `text` written for FieldError with {value} the value given; `cli`/`api`: whether that adapter offers it (with
    `typer` (more typer.Option keywords) for the command line's parsing alone); `api_kinds` what the API takes
    when it is more than the command line's text (a list of seats); `key` the name a run's config and manifest
    keep it under when it is not `name`; `plan`: a plan's [[run]] may set it."""

    name: str
    kinds: tuple
    default: Any
    help: str = ""
    flag: str | None = None
    run: bool = True
    bounds: tuple | None = None
    cli: bool = True
    api: bool = True
    plan: bool = False
    typer: dict = field(default_factory=dict)
    api_kinds: tuple | None = None
    key: str | None = None

    @property
    def stored_as(self) -> str:
        """The name a run's config and manifest keep the field under."""
        return self.key or self.name

    def check_type(self, value) -> None:
        """TypeError unless `value` is one the API takes (the command line parses its text)."""
        check_kind(self.name, value, self.api_kinds or self.kinds)

    def check_bounds(self, value) -> None:
        """FieldError for a number outside the field's bounds."""
        if self.bounds is None or value is None or isinstance(value, str):
            return
        low, high, text = self.bounds
        if (low is not None and value < low) or (high is not None and value > high):
            raise FieldError(self.name, text.format(value=value))


@dataclass(frozen=True)
class Declaration:
    """A command's fields in the order its help lists them, and the rules between fields (each a function of the
    values by name and the names given that raises FieldError); `api_order`: the API's argument order, when it is
    not the help's (the API's calls, as manifests record them, keep it)."""

    name: str
    fields: tuple[Field, ...]
    rules: tuple[Callable[[dict, frozenset], None], ...] = ()
    api_order: tuple[str, ...] = ()

    def __getitem__(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)

    def names(self, adapter: str = "api") -> tuple[str, ...]:
        """The fields an adapter ("cli", "api", "plan") offers, in its order."""
        names = tuple(f.name for f in self.fields if getattr(f, adapter))
        return self.api_order or names if adapter == "api" else names

    def offered(self, adapter: str = "api") -> tuple[Field, ...]:
        """The fields an adapter offers, in its order."""
        return tuple(self[name] for name in self.names(adapter))

    def run_fields(self) -> tuple[str, ...]:
        """The fields that decide the results (recorded, compared on --resume)."""
        return tuple(f.name for f in self.fields if f.run)

    def defaults(self, adapter: str = "api") -> dict:
        return {f.name: f.default for f in self.offered(adapter)}

    def check(self, values: dict, given: frozenset = frozenset()) -> None:
        """Every value (by field name) within its bounds, then every rule between fields (`given`: the fields the
        user set, not left at their defaults): FieldError for the first that fails."""
        for f in self.fields:
            if f.name in values:
                f.check_bounds(values[f.name])
        for rule in self.rules:
            rule(values, given)

    def check_types(self, values: dict) -> None:
        """TypeError for a value of the wrong kind (the API's arguments)."""
        for name, value in values.items():
            self[name].check_type(value)


def with_fields(*groups: Iterable[Field]) -> tuple[Field, ...]:
    """Fields from several groups (a command's own, then shared ones) in order."""
    return tuple(f for group in groups for f in group)


def check_kind(name: str, value, kinds: tuple) -> None:
    """TypeError unless `value` is one of `kinds`: int (never a bool), float (any real number but a bool), bool,
    str, "path" (str or os.PathLike), None; anything else is an isinstance class."""
    if not any(_is(value, k) for k in kinds):
        want = " or ".join(_KIND_WORDS.get(k, getattr(k, "__name__", str(k))) for k in kinds)
        raise TypeError(f"{name} must be {want}, got {value!r}")


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
