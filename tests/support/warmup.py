"""Compile the numba kernels once per test run, not once per pytest-xdist worker.

Numba's cache is shared on disk but not between processes that compile at the same time: on an empty cache each
worker compiled the kernels its first tests needed, the same kernels on every core at once. Here each worker, before
its first test, takes the kinds of work of engines/compiling.py in groups, each behind a file lock: the kernels every
group calls (moves, apply, the search and analysis kernels) first, then the two-player and the n-player rounds in
opposite orders, then the checked round kernels (`--check`'s, which the conformance tests play). A group another
worker is compiling is passed over at first (waiting on it left this worker idle: the shared group alone is most
of a minute from an empty cache) and taken once the others are done, by then mostly a load from the cache.
"""

from __future__ import annotations

import fcntl
import io
import os
from functools import partial
from pathlib import Path

SHARED = (("moves", "apply", "rollout", "analyse"), (False,))  # their callees serve every group below
ROUNDS = ((("rounds", "regret"), (False, True)),)  # every player count: without and with seats that search


def warm_kernels(worker: int) -> None:
    """Compile (or find in numba's cache) every kernel the suite plays; `worker` (0, 1, ...) picks the order."""
    from rich.console import Console

    from casino_sim.engines.compiling import ensure_compiled

    folder = Path(os.environ["NUMBA_CACHE_DIR"])  # set by `import casino_sim` (core/numba_cache.py)
    folder.mkdir(parents=True, exist_ok=True)
    rounds = ROUNDS[worker % len(ROUNDS) :] + ROUNDS[: worker % len(ROUNDS)]
    quiet = Console(file=io.StringIO())  # the notice and bar are the commands' to show, not the suite's
    # no head start: the other workers keep the other cores busy
    groups = {"shared": partial(ensure_compiled, *SHARED[0], console=quiet, search=SHARED[1], ahead=False)}
    groups |= {
        work[0]: partial(ensure_compiled, *work, console=quiet, search=search, ahead=False) for work, search in rounds
    }
    groups["checked"] = _checked_rounds
    groups["research"] = _research_tables
    passed_over = [name for name, compile_ in groups.items() if not _under_lock(folder, name, compile_, wait=False)]
    for name in passed_over:
        _under_lock(folder, name, groups[name], wait=True)


def _under_lock(folder: Path, name: str, compile_, wait: bool) -> bool:
    """compile_() while holding the group's lock file; False, without compiling, when another worker holds it and
    `wait` is off."""
    with open(folder / f"suite-warm-up-{name}.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))  # released when the file closes
        except BlockingIOError:
            return False
        compile_()
    return True


def _checked_rounds() -> None:
    """--check's round kernels, without and with seats that search: a round of each on the numba engine."""
    from casino_sim.core.rules import STRICT
    from casino_sim.engines import get_engine
    from casino_sim.runner.deals import deal_rows, rotations
    from tests.support.policies import get_policy

    rows = deal_rows(11, 0, 1, rotations([0, 1], False))
    for a, b in (("random", "random"), ("rollout", "defensive")):
        get_engine("numba").play(rows, STRICT, (get_policy(a), get_policy(b)), check=True)


def _research_tables() -> None:
    """The research adapters' table kernels (kernels/factored.py, tables_api.py): a random round on the numba engine
    with both views filled at each decision, and a step of the batched environment."""
    import numpy as np

    from casino_sim.research import View
    from casino_sim.research.batch import BatchEnv
    from casino_sim.research.fast_state import FastState, fill_view
    from casino_sim.research.options import table_rules

    state, rng = FastState(table_rules("strict", 2, False)), np.random.default_rng(0)
    views = [View(2, 2, recall) for recall in (False, True)]
    while True:
        state.deal_random(rng)
        if state.over:
            break
        for view in views:
            fill_view(view, state, state.player)
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    batch = BatchEnv(2)
    batch.reset(0)
    batch.step(batch.random_actions())
