"""Run report tasks on two cores: some in a forked child process, the rest here, results in the tasks' order.

Reports are pandas and matplotlib work under one GIL; a fork shares the round records with the child at no
copy (copy-on-write), so the child draws its share of the reports while this process draws the rest. Each
task computes exactly what it would alone: the outputs do not depend on where it ran.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable

from casino_sim.runner.threads import available_cores


def run_tasks(tasks: dict[str, Callable[[], object]], in_child: tuple[str, ...]) -> dict[str, object]:
    """{key: task()} for every task; the tasks named in `in_child` run in a forked child when there are two cores.

    An exception in a task is raised here as it was raised there (after the other share has finished).
    """
    forked = [k for k in tasks if k in in_child]
    if not forked or len(forked) == len(tasks) or not hasattr(os, "fork") or available_cores() < 2:
        return {k: task() for k, task in tasks.items()}
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run its share, send the results (or the error) back, and leave at once
        code = 1
        try:
            os.close(read)
            try:
                answer, code = ("ok", {k: tasks[k]() for k in forked}), 0
            except BaseException as e:  # noqa: BLE001 -- every failure goes back to the parent, which raises it
                answer = ("error", _picklable(e))
            with os.fdopen(write, "wb") as f:
                pickle.dump(answer, f, protocol=pickle.HIGHEST_PROTOCOL)
        finally:  # never return into the parent's code (no atexit handlers, no flushing of inherited buffers)
            os._exit(code)
    os.close(write)
    try:
        here = {k: task() for k, task in tasks.items() if k not in forked}
        with os.fdopen(read, "rb") as f:
            read = None
            try:
                status, value = pickle.load(f)
            except EOFError:
                raise RuntimeError("the report process ended without its reports") from None
    finally:
        if read is not None:
            os.close(read)
        os.waitpid(pid, 0)
    if status == "error":
        raise value
    return {k: here[k] if k in here else value[k] for k in tasks}


def _picklable(e: BaseException) -> BaseException:
    """The exception itself when it can travel through a pipe, else a RuntimeError naming it."""
    try:
        pickle.loads(pickle.dumps(e))
        return e
    except Exception:  # noqa: BLE001 -- any pickling failure: send its text instead
        return RuntimeError(f"{type(e).__name__}: {e}")
