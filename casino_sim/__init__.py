"""casino-sim: a Monte Carlo strategy analyser for two-player Casino (Cassino)."""

__version__ = "0.1.0"
