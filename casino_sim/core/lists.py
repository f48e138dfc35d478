"""Lists a user writes in one option or argument, comma-separated: `--against expert,greedy`, `--players 2,3,teams`."""

from __future__ import annotations

from casino_sim.core.errors import InputError


def comma_list(text: str, must: str) -> tuple[str, ...]:
    """The names in `text`, stripped ("a, b" -> ("a", "b")); an empty one ("a,,b", "a,", "") is an InputError that
    starts with `must` (what the option must name, e.g. "--seats must name a policy for every player")."""
    names = tuple(part.strip() for part in text.split(","))
    if not all(names):
        raise InputError(f"{must}, separated by commas, got {text!r}")
    return names
