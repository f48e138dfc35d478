"""JSON text a user wrote (a position, a move): parsed, or one InputError saying what is wrong and where."""

from __future__ import annotations

import json

from casino_sim.core.errors import InputError


def parse_json(text: str, what: str):
    """The value of JSON `text`; InputError naming `what` (e.g. "the position") and the line and column."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{what} is not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None
