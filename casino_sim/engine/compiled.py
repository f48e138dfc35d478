"""Whether a command's kernels will be compiled now or loaded from numba's cache (for the first-run notice).

Numba keys a cached kernel on its source file's path, modification time and
size, so a cache folder that holds kernels of another install of the same
sources (another venv, a reinstall) still compiles here. Asking each entry
kernel's own cache index is the only check that agrees with what numba does.
"""

from __future__ import annotations

import sys
from importlib import import_module

# The kernels each kind of work enters from Python; their callees are compiled (and cached) with them.
ENTRY_KERNELS = {
    "simulate": (("rows", "_play_rows"),),
    "simulate-n": (("nround", "_record_rows"),),  # three or four players
    "moves": (("buffers", "_new_scratch"), ("movegen", "_movegen"), ("movegen", "_sort_moves")),
    "apply": (("buffers", "_new_scratch"), ("movegen", "_movegen"), ("apply", "_apply")),
    "rollout": (
        ("buffers", "_new_scratch"),
        ("movegen", "_movegen"),
        ("movegen", "_sort_moves"),
        ("search", "_search_index"),
    ),
    "analyse": (("buffers", "_new_scratch"), ("rollout", "_rollout_diffs"), ("exact", "_exact_values")),
    "bench": (("rows", "_play_rows"),),
    "regret": (("rows", "_play_rows"), ("lastbatch", "_judge_rows")),
}


def _has_cached_code(kernel) -> bool:
    """Whether numba's cache index for `kernel` is fresh for this install (its own check, numba >= 0.59)."""
    cache_file = getattr(getattr(kernel, "_cache", None), "_cache_file", None)
    if cache_file is None:  # numba changed its internals: assume a compile rather than stay silent
        return False
    try:
        return bool(cache_file._load_index())
    except Exception:  # an unreadable index is recompiled by numba too
        return False


def will_compile(*work: str) -> bool:
    """Whether any kernel of these kinds of work (keys of ENTRY_KERNELS) must be compiled before it runs."""
    for kind in work:
        for module, name in ENTRY_KERNELS[kind]:
            if not _has_cached_code(getattr(import_module(f"casino_sim.engine.{module}"), name)):
                return True
    return False


def compile_notice(*work: str) -> None:
    """Say so on stderr when numba must compile the kernels of this work first, so nobody takes it for a hang
    (the commands and the Python API both call it)."""
    if will_compile(*work):
        print(
            "compiling the numba engine (first run after install or upgrade only; up to a minute)...",
            file=sys.stderr,
            flush=True,
        )
