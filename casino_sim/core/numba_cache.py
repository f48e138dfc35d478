"""Point numba's cache at a folder named after a hash of the engine's sources.

Numba checks only the defining file of a cached kernel, so a change in a file a
kernel calls into can leave stale machine code in use. Keying the folder on
every engine source (and the numba version) makes any change start a fresh
cache. A NUMBA_CACHE_DIR set by the user is respected.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
from pathlib import Path

_PACKAGE = Path(__file__).parent.parent
_SOURCES = (
    "kernels",
    "policies",
    "reference",
    "core/rules.py",
    "core/cards.py",
    "core/featurespec.py",
    "core/deal.py",
    "core/invariants.py",
    "core/record.py",
)


@functools.cache  # read once a process: numba asks for it as each kernel loads (core/numba_locator.py)
def engine_source_hash() -> str:
    """A short hash of every source file the kernels may be compiled from."""
    h = hashlib.sha256()
    for entry in _SOURCES:
        path = _PACKAGE / entry
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for f in files:
            h.update(f.relative_to(_PACKAGE).as_posix().encode())
            h.update(f.read_bytes())
    try:
        from importlib.metadata import version  # deferred, like shutil below: unused when NUMBA_CACHE_DIR is set

        h.update(version("numba").encode())
    except Exception:  # numba's metadata missing: the hash of the sources alone still guards
        pass
    return h.hexdigest()[:16]


def _prune(base: Path, keep: Path, newest: int = 3, grace_s: float = 86_400) -> None:
    """Remove caches of older engine sources, keeping the few most recently used.

    A folder used within `grace_s` is kept even beyond `newest`: another process
    (another checkout or version) may be running from it right now.
    """
    import shutil  # deferred: `import casino_sim` runs this module, and a user's NUMBA_CACHE_DIR skips it
    import time

    try:
        old = sorted((p for p in base.glob("numba-*") if p != keep), key=lambda p: p.stat().st_mtime, reverse=True)
        for p in old[newest:]:
            if time.time() - p.stat().st_mtime > grace_s:
                shutil.rmtree(p, ignore_errors=True)
    except OSError:  # a cache we cannot tidy is no reason to fail
        pass


def configure() -> None:
    """Set NUMBA_CACHE_DIR (before numba is imported, or in its config if it already is)."""
    if "NUMBA_CACHE_DIR" in os.environ:
        return
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "casino-sim"
    folder = base / f"numba-{engine_source_hash()}"
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    _prune(base, keep=folder)
    if "numba" in sys.modules:
        sys.modules["numba"].config.CACHE_DIR = str(folder)
