"""Compile the numba kernels once per test run, not once per pytest-xdist worker.

Numba's cache is shared on disk but not between processes that compile at the same time: on an empty cache each
worker compiled the kernels its first tests needed, the same kernels on every core at once. Here each worker, before
its first test, takes the kinds of work of engines/compiling.py in groups, each behind a file lock: the kernels every
group calls (moves, apply, the search and analysis kernels) first, then the two-player and the n-player rounds in
opposite orders, so two workers compile different kernels side by side and load the rest from the cache.
"""

from __future__ import annotations

import fcntl
import io
import os
from pathlib import Path

SHARED = (("moves", "apply", "rollout", "analyse"), (False,))  # their callees serve every group below
ROUNDS = (
    (("simulate", "regret", "bench"), (False, True)),  # two players: without and with seats that search
    (("simulate-n", "sides-n"), (False, True)),  # three or four players
)


def warm_kernels(worker: int) -> None:
    """Compile (or find in numba's cache) every kernel the suite plays; `worker` (0, 1, ...) picks the order."""
    from rich.console import Console

    from casino_sim.engines.compiling import ensure_compiled

    folder = Path(os.environ["NUMBA_CACHE_DIR"])  # set by `import casino_sim` (core/numba_cache.py)
    folder.mkdir(parents=True, exist_ok=True)
    rounds = ROUNDS[worker % len(ROUNDS) :] + ROUNDS[: worker % len(ROUNDS)]
    quiet = Console(file=io.StringIO())  # the notice and bar are the commands' to show, not the suite's
    for i, (work, search) in enumerate((SHARED, *rounds)):
        name = "shared" if i == 0 else work[0]
        with open(folder / f"suite-warm-up-{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            ensure_compiled(*work, console=quiet, search=search)
