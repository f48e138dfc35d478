"""How many threads the numba kernels use, set for the span of a run."""

from __future__ import annotations

import os
from contextlib import contextmanager


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


@contextmanager
def use_threads(threads: int):
    """Run the block with `threads` numba threads (0: every core numba may use)."""
    import numba  # deferred: a command that plays no numba kernel never loads numba

    before = numba.get_num_threads()
    numba.set_num_threads(min(threads or numba.config.NUMBA_NUM_THREADS, numba.config.NUMBA_NUM_THREADS))
    try:
        yield numba.get_num_threads()
    finally:
        numba.set_num_threads(before)
