"""Read a TOML file for a user: every way it can fail becomes one error that names the file."""

from __future__ import annotations

import tomllib
from pathlib import Path


def read_toml(path: Path | str, what: str, error: type[Exception]) -> dict:
    """The parsed file; `error` says "no such <what>", invalid TOML or unreadable, naming the file."""
    where = str(path)
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"no such {what}: {where}") from None
    except tomllib.TOMLDecodeError as e:
        raise error(f"{where}: not valid TOML: {e}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise error(f"{where}: cannot read: {e}") from None
