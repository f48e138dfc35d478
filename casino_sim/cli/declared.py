"""A command made from its declaration (experiments/declarations.py): the Typer signature of its fields, in their
order, with their help; the body gets the values by field name and the names the user set."""

from __future__ import annotations

import inspect
from collections.abc import Callable

from casino_sim.cli.options import option
from casino_sim.core.fields import Declaration


def command(
    declaration: Declaration, body: Callable[[dict, frozenset], None], doc: str, kinds: dict | None = None
) -> Callable[..., None]:
    """The Typer command `declaration.name`: its parameters made from the declared fields the command line offers
    (`kinds`: a field's own choices, e.g. {"engine": EngineName}; a field of no default required); called, it hands
    `body` the values by field name and the fields given on the command line (given_options)."""
    # deferred: run_flow reads click's context, which exists only while a command runs
    parameters = [
        inspect.Parameter(
            f.name,
            inspect.Parameter.KEYWORD_ONLY,
            default=inspect.Parameter.empty if f.default is None and None not in f.kinds else f.default,
            annotation=option(f, (kinds or {}).get(f.name)),
        )
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
