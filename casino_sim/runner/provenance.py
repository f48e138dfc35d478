"""What a run's manifest records about the software that made it: versions and the git revision."""

from __future__ import annotations

import platform
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd

from casino_sim import __version__


def git_revision() -> str | None:
    """The git revision of the source tree the package runs from, if it is a checkout."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent, capture_output=True, text=True, timeout=5
        )
        return out.stdout.strip() or None if out.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        return None


def versions() -> dict[str, str]:
    """The versions of Python and the libraries whose changes could move a number."""
    import numba
    import pyarrow

    return {
        "casino_sim": __version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "pandas": pd.__version__,
        "pyarrow": pyarrow.__version__,
    }
