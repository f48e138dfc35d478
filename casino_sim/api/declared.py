"""An API function made from its command's declaration (experiments/declarations.py): its signature (the first
fields positional, the rest keyword-only), defaults and type checks from the declared fields."""

from __future__ import annotations

import inspect
from collections.abc import Callable

from casino_sim.core.fields import Declaration


def api_function(declaration: Declaration, body: Callable[[dict, frozenset], object], positional: int = 0) -> Callable:
    """The function `declaration.name` of the API, documented by `body`'s docstring: its arguments checked
    (TypeError for a wrong kind), then `body` gets every value by field name and the fields that differ from
    their defaults (what the user set). A field the API takes no None for, and whose default is None (the
    command line's "not given"), is required. doctest finds its examples on `body`, the module's own function."""
    offered = declaration.offered("api")
    parameters = [
        inspect.Parameter(
            f.name,
            inspect.Parameter.POSITIONAL_OR_KEYWORD if k < positional else inspect.Parameter.KEYWORD_ONLY,
            default=inspect.Parameter.empty
            if f.default is None and None not in (f.api_kinds or f.kinds)
            else f.default,
        )
        for k, f in enumerate(offered)
    ]
    signature = inspect.Signature(parameters)
    defaults = declaration.defaults("api")

    def function(*args, **kwargs):
        values = dict(signature.bind(*args, **kwargs).arguments)
        declaration.check_types(values)
        values = defaults | values
        return body(values, frozenset(k for k, v in values.items() if v != defaults[k]))

    function.__signature__ = signature
    function.__name__ = function.__qualname__ = declaration.name
    function.__doc__ = body.__doc__
    function.__module__ = body.__module__
    return function
