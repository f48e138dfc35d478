"""casino-sim: a Monte Carlo strategy analyser for two-player Casino (Cassino)."""

from casino_sim.core import numba_cache

__version__ = "0.1.0"

numba_cache.configure()
