"""A command made from its declaration (experiments/declarations.py): the Typer signature of its fields, in their
order, with their help; the body gets the values by field name and the names the user set."""

from __future__ import annotations

import inspect
from collections.abc import Callable

from casino_sim.cli.options import option
from casino_sim.core.fields import Declaration, Field


def command(declaration: Declaration, body: Callable[[dict, frozenset], None], doc: str) -> Callable[..., None]:
    """The Typer command `declaration.name`: its parameters made from the declared fields the command line offers;
    called, it hands `body` the values by field name and the fields given on the command line (given_options)."""
    # deferred: run_flow reads click's context, which exists only while a command runs
    parameters = [
        inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=_default(f), annotation=option(f))
        for f in declaration.fields
        if f.cli
    ]

    def run(**values) -> None:
        from casino_sim.cli.run_flow import given_options

        body(values, frozenset(given_options(values)))

    run.__signature__ = inspect.Signature(parameters)
    run.__annotations__ = {p.name: p.annotation for p in parameters}
    run.__name__ = run.__qualname__ = declaration.name
    run.__doc__ = doc
    return run


def _default(f: Field):
    """A field's default on the command line: none (a required argument) for one that takes no None but has no
    value of its own (None)."""
    return inspect.Parameter.empty if f.default is None and None not in f.kinds else f.default
