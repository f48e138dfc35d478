"""The local backend plays one chunk ahead of its caller, yields chunks in order and stops cleanly."""

from __future__ import annotations

import threading
from types import SimpleNamespace

from casino_sim.runner.backends import LocalBackend

CONFIG = SimpleNamespace(threads=1)
started: dict[int, threading.Event] = {}


def _chunk(config, chunk: int) -> dict:
    started.setdefault(chunk, threading.Event()).set()
    return {"chunk": chunk, "thread": threading.get_ident()}


def test_the_next_chunk_plays_while_the_caller_holds_the_last():
    started.clear()
    seen = []
    for chunk, tables in LocalBackend().map(_chunk, CONFIG, range(4)):
        if chunk < 3:  # the chunk after this one starts without the caller asking for it
            assert started.setdefault(chunk + 1, threading.Event()).wait(10)
        seen.append((chunk, tables["chunk"], tables["thread"] != threading.get_ident()))
    assert seen == [(k, k, True) for k in range(4)]


def test_stopping_early_plays_at_most_one_chunk_more():
    started.clear()
    results = LocalBackend().map(_chunk, CONFIG, range(10))
    for chunk, _ in results:
        if chunk == 2:
            break
    results.close()
    assert sorted(started) in ([0, 1, 2, 3], [0, 1, 2])


def test_an_error_in_a_chunk_reaches_the_caller():
    def bad(config, chunk):
        raise ValueError(f"chunk {chunk}")

    results = LocalBackend().map(bad, CONFIG, [5])
    try:
        next(results)
    except ValueError as e:
        assert str(e) == "chunk 5"
    else:
        raise AssertionError("no error")
