"""core.heap: freed C-heap memory goes back to the system where glibc can trim, and elsewhere nothing happens."""

from __future__ import annotations

import sys

import pytest

from casino_sim.core import heap


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20


@pytest.mark.skipif(heap._malloc_trim() is None, reason="needs glibc's malloc_trim")
def test_freed_blocks_leave_the_process():
    blocks = [b"x" * 65536 for _ in range(1500)]  # ~94 MB of heap blocks, below malloc's mmap threshold
    pin = b"y" * 65536  # above them: free() alone cannot shrink the heap from its top
    del blocks
    before = _rss_mb()
    assert heap.release_free_memory()
    assert before - _rss_mb() > 40
    del pin


def test_elsewhere_it_does_nothing(monkeypatch):
    heap._malloc_trim.cache_clear()
    monkeypatch.setattr(sys, "platform", "darwin")
    try:
        assert heap.release_free_memory() is False
    finally:
        heap._malloc_trim.cache_clear()
