"""The `openspiel-ismcts` policy kind in a policy loader (docs/research.md): the OpenSpiel adapter's side of it.

`register(loader)` adds the kind's factory, which checks a policy file's parameters and that OpenSpiel is installed
(a one-line error otherwise) without loading it; each policy it builds plays `ismcts_move`, which loads
openspiel_bots.py, and OpenSpiel with it, at the first decision. The CLI and the Python API register it into the
loader each holds, so a policy file of this kind loads from either without the user importing anything.
"""

from __future__ import annotations

import importlib.util

from casino_sim.policies.fields import PolicyData
from casino_sim.policies.ismcts import KIND, ISMCTSPolicy, ismcts_policy
from casino_sim.policies.policy import Load, PolicyError
from casino_sim.reference.moves import Move
from casino_sim.reference.position import Position

FRAMEWORK = "pyspiel"  # the module the kind needs: a one-line error at loading when it is missing


def register(loader):
    """Add the kind to a policy loader (casino_sim/loader PolicyLoader.add_kind); the loader."""
    loader.add_kind(KIND, ismcts_factory)
    return loader


def ismcts_factory(entry: PolicyData, load: Load) -> ISMCTSPolicy:
    """The policy of a policy file of this kind: its parameters checked, then OpenSpiel looked for (not loaded)."""
    policy = ismcts_policy(entry, ismcts_move)
    if importlib.util.find_spec(FRAMEWORK) is None:
        raise PolicyError(f"{entry.where}: kind {KIND!r} needs OpenSpiel: pip install 'casino-sim[research]'")
    return policy


def ismcts_move(pos: Position, params: dict, seed: int) -> Move:
    """openspiel_bots.ismcts_move, imported at the first decision (OpenSpiel loads then, and only then)."""
    from casino_sim import openspiel_bots  # deferred: it imports pyspiel

    return openspiel_bots.ismcts_move(pos, params, seed)
