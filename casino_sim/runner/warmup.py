"""Make a run's numba kernels ready (compiled, or loaded from numba's cache) before its play is timed.

The first chunk would otherwise carry the compile (a minute after an install), and the rounds per second a run
reports and stores would be the compile's, not the play's.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from casino_sim.runner.backends import LocalBackend


def warm_kernels(play_chunk: Callable, config, backend) -> float:
    """Play one throwaway deal of `config` (its policies, rules and tables, card values and record included) in
    this process, so that every kernel the run calls is ready; the seconds it took. Nothing to do (0.0) on the
    reference engine, or on a Dask cluster, whose workers make their own kernels ready."""
    if not isinstance(backend, LocalBackend) or config.engine_used() != "numba":
        return 0.0
    t0 = time.perf_counter()
    tiny = replace(
        config,
        deals=1,
        chunk_deals=1,
        until_ci=None,
        card_deals=min(1, config.card_deals_used()),
        record=min(1, config.record),
    )
    play_chunk(tiny, 0)
    return time.perf_counter() - t0
