"""The command line of a Python child process that runs this install's casino_sim, wherever it is started.

`python -c` puts the current folder first on sys.path, so a child started in a
checkout next to a `pip install .` would import the checkout's sources, with
kernels cached under another path. `-P` (Python 3.11) leaves the folder out, and
the folder that holds this casino_sim goes first.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parent.parent.parent)  # the folder holding the casino_sim package


def python_code(code: str) -> list[str]:
    """argv of `python -c code` on this interpreter and this install's casino_sim."""
    return [sys.executable, "-P", "-c", f"import sys; sys.path.insert(0, {ROOT!r})\n{code}"]
