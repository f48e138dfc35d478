"""JSON text a user wrote (a position, a move) in a file, on standard input or in a string: read and parsed, or one
InputError saying what is wrong and where."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from casino_sim.core.errors import InputError


def parse_json(text: str, what: str):
    """The value of JSON `text`; InputError naming `what` (e.g. "the position") and the line and column."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{what} is not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None


def read_text(source: str) -> str:
    """The text of a file, or of standard input for `-`."""
    if source == "-":
        return sys.stdin.read()
    path = Path(source)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"no such file: {source}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read {source}: {e.__class__.__name__}: {e}") from None
