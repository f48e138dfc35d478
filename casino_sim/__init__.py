"""casino-sim: a Monte Carlo strategy analyser for the card game Casino (Cassino), for two, three or four players."""

from casino_sim.core import numba_cache

__version__ = "0.1.0"

numba_cache.configure()
