"""The rules engines by name: one Engine interface, the reference and numba engines registered.

A new engine joins the CLI's --engine choices and the conformance suite (tests/conformance/) by `register`.
"""

from casino_sim.engines.numba import NumbaEngine
from casino_sim.engines.reference import ReferenceEngine
from casino_sim.engines.registry import Engine, engine_names, get_engine, register

register(ReferenceEngine())
register(NumbaEngine())

__all__ = ["Engine", "NumbaEngine", "ReferenceEngine", "engine_names", "get_engine", "register"]
