"""Where numba caches casino-sim's kernels: keyed on the engine's sources, not on where they are installed.

Numba's own locators key a kernel's cache on the absolute path of its source file and that file's modification
time, so the same sources in two places (a checkout and the copy pip installed from it, two venvs, a reinstall)
each compiled every kernel again: a minute of compile apiece. The locator here files each kernel under its module's
path inside the package (`casino_sim/kernels`) and stamps it with the hash of every engine source and the numba
version (core/numba_cache.py), so identical sources share one cache and any edited source starts afresh. Functions
outside the package keep numba's own locators.
"""

from __future__ import annotations

import os
from pathlib import Path

from numba.core import caching, config

from casino_sim.core.numba_cache import engine_source_hash

_PACKAGE = Path(__file__).resolve().parent.parent


class EngineSourceLocator(caching.UserProvidedCacheLocator):
    """numba's locator for a NUMBA_CACHE_DIR (which `import casino_sim` sets), with the package-relative folder
    and the engine sources' hash in place of the file's path and modification time."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        inside = Path(py_file).resolve().parent.relative_to(_PACKAGE.parent)
        self._cache_path = os.path.join(config.CACHE_DIR, f"{'_'.join(inside.parts)}_{engine_source_hash()}")

    def get_source_stamp(self):
        return engine_source_hash()

    @classmethod
    def from_function(cls, py_func, py_file):
        if not Path(py_file).resolve().is_relative_to(_PACKAGE):
            return None  # not a casino-sim kernel: numba's own locators
        return super().from_function(py_func, py_file)


def install() -> None:
    """Put the locator before numba's own, for the kernels compiled or loaded in this process from now on."""
    locators = getattr(caching.CacheImpl, "_locator_classes", None)
    if isinstance(locators, list) and EngineSourceLocator not in locators:
        locators.insert(0, EngineSourceLocator)  # numba without this list (a future version) keeps its own keys


install()  # on import, which kernels/__init__.py does before any kernel module
