"""casino-sim: a Monte Carlo strategy analyser for the card game Casino (Cassino), for two, three or four players.

`import casino_sim as cs` and call `cs.simulate`, `cs.open_run`, `cs.moves`, `cs.analyse`, `cs.tournament`,
`cs.knockout`, `cs.regret`, `cs.findings`, `cs.tune`, `cs.policy`, `cs.register_policy` (the Python API,
casino_sim/api): they are imported on first use, so importing the package stays fast.
"""

from casino_sim.core import numba_cache
from casino_sim.core.api_names import API
from casino_sim.core.version import VERSION

__version__ = VERSION

numba_cache.configure()


def __getattr__(name: str):
    """The Python API's names, imported when first asked for (PEP 562)."""
    if name in API:
        from casino_sim import api

        return getattr(api, name)
    raise AttributeError(f"module 'casino_sim' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *API])
