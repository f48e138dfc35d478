"""What a run's manifest records about the software that made it: versions and the git revision."""

from __future__ import annotations

import json
import platform
import subprocess
from importlib import metadata
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import numpy as np
import pandas as pd

from casino_sim.core.version import VERSION

PACKAGE = Path(__file__).resolve().parents[1]  # the casino_sim folder


def git_revision() -> str | None:
    """The git revision the package comes from: of the source checkout it runs from (an editable install), else
    as pip recorded the install (PEP 610's direct_url.json: the commit of a git URL, or the clone that
    `pip install .` was run in; the package in site-packages cannot ask git itself)."""
    if (PACKAGE.parent / "pyproject.toml").is_file():  # a checkout, not a copy inside some other repository
        return git_head(PACKAGE)
    return installed_revision(_direct_url())


def git_head(folder: Path) -> str | None:
    """The commit checked out in the git work tree holding `folder`, if it is one."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=folder, capture_output=True, text=True, timeout=5)
        return out.stdout.strip() or None if out.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        return None


def installed_revision(direct_url: dict | None) -> str | None:
    """The revision a PEP 610 direct_url record names: a VCS install's commit, or the HEAD of the local clone
    it was installed from."""
    if not isinstance(direct_url, dict):
        return None
    commit = (direct_url.get("vcs_info") or {}).get("commit_id")
    if commit:
        return str(commit)
    url = urlparse(str(direct_url.get("url", "")))
    if url.scheme == "file" and "dir_info" in direct_url:
        folder = Path(url2pathname(url.path))
        return git_head(folder) if folder.is_dir() else None
    return None


def _direct_url() -> dict | None:
    """The installed distribution's direct_url.json (pip writes it for an install from a URL or a folder)."""
    try:
        text = metadata.distribution("casino-sim").read_text("direct_url.json")
        return json.loads(text) if text else None
    except (metadata.PackageNotFoundError, ValueError):
        return None


def versions() -> dict[str, str]:
    """The versions of Python and the libraries whose changes could move a number."""
    import numba  # deferred, with pyarrow: only a manifest being written asks their versions
    import pyarrow

    return {
        "casino_sim": VERSION,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "pandas": pd.__version__,
        "pyarrow": pyarrow.__version__,
    }
