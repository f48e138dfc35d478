"""Handing the C heap's free pages back to the system (glibc's malloc_trim), where the platform has it.

pandas and numpy temporaries of millions of rows (group keys, hash tables, masks) are freed into malloc's
heap, which keeps them mapped: the reports made afterwards count them in the process's peak memory.
"""

from __future__ import annotations

import ctypes
import sys
from functools import cache


@cache
def _malloc_trim():
    """glibc's malloc_trim, or None (another C library, another system)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None


def release_free_memory() -> bool:
    """Return the heap's wholly free pages to the system; whether the platform could (the data is unchanged)."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
