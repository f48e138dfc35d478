"""The policy loader (loader.py): from a spec to a policy object, above the layers that play policies."""

from casino_sim.loader.loader import PolicyLoader

__all__ = ["PolicyLoader"]
