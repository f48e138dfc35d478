"""Where chunks are played: in this process (local) or on a Dask cluster (dask).

A backend maps a pure chunk function over chunk indices and yields (chunk, tables)
as each finishes, in any order; a chunk's result depends on the config and its
index only, so every backend gives the same tables.
"""

from __future__ import annotations

import logging
import re
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager

from casino_sim.core.errors import USER_ERRORS, InputError
from casino_sim.core.fields import FieldError
from casino_sim.core.numba_cache import engine_source_hash
from casino_sim.core.version import VERSION
from casino_sim.runner.threads import available_cores, use_threads

BACKENDS = ("local", "dask")
CONNECT_TIMEOUT_S = 5
WORKERS_TIMEOUT_S = 60
POLL_S = 0.05
TASK_SECONDS = 2.0  # work per Dask task: coarse enough that scheduling costs next to nothing
DASK_MISSING = "the dask backend needs the dask extra: pip install 'casino-sim[dask]'"
ADDRESS = re.compile(r"^(\w+://)?(\[[0-9a-fA-F:.]+\]|[^:/\[\]\s]+):\d{1,5}$")  # [proto://]host:port

ChunkFn = Callable  # (config, chunk) -> dict[str, DataFrame]; a module-level function, so workers can import it


class LocalBackend:
    """Chunks in order, in this process, on `threads` numba threads (None: each config's own threads).

    The chunks play on one worker thread, one chunk ahead of the caller: the kernels release the GIL, so the
    next chunk plays while the caller writes the last one (Parquet, progress) instead of after it.
    """

    name = "local"

    def __init__(self, threads: int | None = None):
        self.threads = threads

    def map(self, fn: ChunkFn, config, chunks: Iterable[int]) -> Iterator[tuple[int, dict]]:
        threads = config.threads if self.threads is None else self.threads
        pool = ThreadPoolExecutor(1, thread_name_prefix="casino-chunks")
        waiting: deque[tuple[int, Future]] = deque()
        try:
            for chunk in chunks:
                waiting.append((chunk, pool.submit(_on_threads, threads, fn, config, chunk)))
                if len(waiting) > 1:
                    done, future = waiting.popleft()
                    yield done, future.result()
            while waiting:
                done, future = waiting.popleft()
                yield done, future.result()
        finally:  # stopped early (--until-ci, Ctrl-C, an error): drop the chunk not started, finish the one playing
            pool.shutdown(wait=True, cancel_futures=True)

    def describe(self) -> dict:
        return {"name": self.name}


def _on_threads(threads: int, fn: ChunkFn, config, chunk: int) -> dict:
    """fn(config, chunk) with `threads` numba threads (numba's thread count belongs to the calling thread)."""
    with use_threads(threads):
        return fn(config, chunk)


_WORKER_LOCK = threading.Lock()  # one task at a time per worker process, using all its threads


def _play_on_worker(fn: ChunkFn, config, chunks: list[int]) -> tuple[list[tuple[int, dict]], float, Exception | None]:
    """Run on a Dask worker: play a few chunks with numba on the worker's own thread count.

    Returns the (chunk, tables) pairs, the seconds per chunk, which sizes later tasks, and the user error (a bot
    that failed, say) that stopped the task early: returned, not raised, so the worker logs no traceback and the
    client keeps the chunks done before it.
    """
    from distributed import get_worker  # deferred (as every import of dask below): only a Dask run loads it

    with _WORKER_LOCK, use_threads(get_worker().state.nthreads):
        t0 = time.perf_counter()
        done = []
        try:
            for chunk in chunks:
                done.append((chunk, fn(config, chunk)))
        except USER_ERRORS as e:
            return done, 0.0, e
        return done, (time.perf_counter() - t0) / len(chunks), None


def _completed(running):
    """Yield futures of an as_completed set as they finish, polling so that Ctrl-C and SIGTERM are never lost.

    A KeyboardInterrupt raised by a signal handler while the main thread runs one
    of distributed's gc callbacks is swallowed; the flag set here survives it.
    """
    with _noticing_interrupts() as interrupted:
        while not running.is_empty():
            if interrupted.is_set():
                raise KeyboardInterrupt
            if running.has_ready():
                yield next(running)
            else:
                time.sleep(POLL_S)


@contextmanager
def _noticing_interrupts():
    """Yield an event set by SIGINT and SIGTERM, whose Python handlers (if any) still run as before."""
    seen = threading.Event()
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            if callable(handler := signal.getsignal(sig)):
                previous[sig] = handler

    def note(signum, frame):
        seen.set()
        previous[signum](signum, frame)

    for sig in previous:
        signal.signal(sig, note)
    try:
        yield seen
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _code_id() -> tuple[str, str]:
    """The casino-sim version and engine source hash, to check that workers run the same code."""
    return VERSION, engine_source_hash()


def _killed(chunks: list[int]) -> str:
    """The one line for a task whose workers died every time they played it (out of memory, say)."""
    which = f"chunk {chunks[0]}" if len(chunks) == 1 else f"chunks {chunks[0]}-{chunks[-1]}"
    return (
        f"the Dask workers playing {which} died each time they tried (out of memory? see the workers' logs); "
        "the chunks finished before are kept"
    )


class DaskBackend:
    """Chunks sent to a Dask cluster in coarse tasks, a bounded window in flight, yielded as they complete.

    A task holds several consecutive chunks, about TASK_SECONDS of work once the
    first tasks have timed a chunk, fewer near the end so that workers finish together.
    """

    name = "dask"

    def __init__(self, client, scheduler: str | None):
        self.client = client
        self.scheduler = scheduler
        self.nthreads = dict(client.nthreads())

    def map(self, fn: ChunkFn, config, chunks: Iterable[int]) -> Iterator[tuple[int, dict]]:
        from distributed import KilledWorker, as_completed

        self.nthreads = dict(self.client.nthreads())  # workers may have come or gone since the last run
        workers = max(1, len(self.nthreads))
        todo, pos = list(chunks), 0
        per_chunk = None  # seconds, measured by the workers
        running = as_completed(loop=self.client.loop)
        holds = {}  # each task's chunks, to name them if the workers playing them keep dying

        def submit_next() -> None:
            nonlocal pos
            if pos >= len(todo):
                return
            size = 1 if per_chunk is None else int(TASK_SECONDS / max(per_chunk, 1e-3))
            size = max(1, min(size, (len(todo) - pos) // (2 * workers)))
            future = self.client.submit(_play_on_worker, fn, config, todo[pos : pos + size], pure=False)
            holds[future.key] = todo[pos : pos + size]
            running.add(future)
            pos += size

        for _ in range(max(4, 2 * sum(self.nthreads.values()))):
            submit_next()
        finished = _completed(running)
        try:
            for future in finished:
                try:  # a worker lost mid-task is replaced and its task played again: only repeated deaths end here
                    done, seconds, error = future.result()
                except KilledWorker:
                    raise InputError(_killed(holds[future.key])) from None
                future.release()
                if error is None:
                    per_chunk = seconds if per_chunk is None else 0.5 * (per_chunk + seconds)
                    submit_next()
                yield from done
                if error is not None:
                    raise error
        finally:  # stopped early (--until-ci, Ctrl-C, an error): drop the tasks still in flight
            finished.close()
            left = list(running.futures)
            running.clear()
            if left:
                self.client.cancel(left)

    def describe(self) -> dict:
        return {
            "name": self.name,
            "scheduler": self.scheduler or "LocalCluster",
            "workers": len(self.nthreads),
            "threads": sum(self.nthreads.values()),
        }


def _check_workers(client, where: str) -> None:
    """One clear error when the cluster has no workers or its workers run other casino-sim code."""
    try:
        client.wait_for_workers(1, timeout=WORKERS_TIMEOUT_S)
    except TimeoutError:
        raise InputError(f"the Dask scheduler at {where} has no workers (waited {WORKERS_TIMEOUT_S} s)") from None
    try:
        ids = client.run(_code_id)
    except Exception as e:  # a worker that cannot import casino_sim fails here, with the worker's error
        raise InputError(f"the Dask workers at {where} cannot run casino-sim: {_first_line(e)}") from None
    mine = _code_id()
    other = {w: i for w, i in ids.items() if tuple(i) != mine}
    if other:
        w, (version, sources) = next(iter(other.items()))
        raise InputError(
            f"Dask worker {w} runs casino-sim {version} (engine {sources}), this is {mine[0]} "
            f"(engine {mine[1]}): install the same version on every worker"
        )


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return f"{e.__class__.__name__}: {text[0]}" if text else e.__class__.__name__


def backend_name(backend: str | None, scheduler: str | None) -> str:
    """The backend a command's options ask for: --scheduler implies dask."""
    if backend is None:
        return "dask" if scheduler else "local"
    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r} (choose from: {', '.join(BACKENDS)})")
    if backend == "local" and scheduler:
        raise FieldError(("scheduler", "backend"), "{scheduler} needs the dask backend (drop {backend} local)")
    return backend


@contextmanager
def open_backend(backend: str | None = None, scheduler: str | None = None, threads: int | None = None):
    """Yield a backend for a whole command (one LocalCluster for all its runs), and close it after.

    local: this process, on `threads` numba threads (None: each run's own).
    dask with `scheduler` (tcp://HOST:PORT): that cluster; without: a LocalCluster of
    one single-threaded worker process per core (or per `threads`).
    """
    name = backend_name(backend, scheduler)
    if name == "local":
        yield LocalBackend(threads)
        return
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise InputError(DASK_MISSING) from None
    if scheduler:
        if not ADDRESS.match(scheduler):
            raise InputError(f"cannot reach the Dask scheduler at {scheduler}: not an address like tcp://HOST:PORT")
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
        except (OSError, ValueError, TypeError) as e:
            raise InputError(f"cannot reach the Dask scheduler at {scheduler}: {_first_line(e)}") from None
        cluster = None
    else:
        cluster = LocalCluster(
            n_workers=threads or available_cores(),
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            # no dashboard; the scheduler's HTTP server (health checks) on a free loopback port, not on 8787, where
            # another cluster (a notebook's, a second run's) would make distributed warn that the port is taken
            scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
            silence_logs=logging.ERROR,
        )
        client = Client(cluster, set_as_default=False)
    try:
        _check_workers(client, scheduler or "the LocalCluster")
        yield DaskBackend(client, scheduler)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
