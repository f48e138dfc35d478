"""Lists a user writes in one option or argument, comma-separated (`--against expert,greedy`, `--players 2,3,teams`),
and lists told back in words ("B, C and D")."""

from __future__ import annotations

from casino_sim.core.errors import InputError
from casino_sim.core.fields import FieldError


def comma_list(text: str, must: str, field: str | None = None) -> tuple[str, ...]:
    """The names in `text`, stripped ("a, b" -> ("a", "b")); an empty one ("a,,b", "a,", "") is refused with `must`
    (what the option must name): a FieldError of `field` ("seats", must "must name a policy for every player"), or
    without one an InputError whose `must` names the option itself ("--against must name one or more policies")."""
    names = tuple(part.strip() for part in text.split(","))
    if not all(names):
        if field is not None:
            raise FieldError(field, f"{must}, separated by commas, got {text!r}")
        raise InputError(f"{must}, separated by commas, got {text!r}")
    return names


def listed(names) -> str:
    """Names in words: 'B', 'B and C', 'B, C and D'."""
    names = list(names)
    return " and ".join(filter(None, (", ".join(names[:-1]), names[-1])))
