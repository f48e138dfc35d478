"""OpenSpiel's IS-MCTS as a casino-sim policy (`kind = "openspiel-ismcts"` in a policy file, docs/research.md):
each decision asks open_spiel's ISMCTSBot, searching python_casino from the position as the mover sees it. It
plays in Python, on the reference engine, and needs the `research` extra.

The class and its parameters are here; its move and its factory are the OpenSpiel adapter's
(casino_sim/openspiel_kind.py), which registers the kind into a policy loader and hands each policy the move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from casino_sim.policies.fields import PolicyData
from casino_sim.policies.policy import Policy, PolicyError, param_lines
from casino_sim.reference.moves import Move
from casino_sim.reference.position import Position

KIND = "openspiel-ismcts"
# OpenSpiel's ISMCTSBot arguments: its simulations a decision, the UCT constant, random play-outs a leaf, the worlds
# kept (0: a new world every simulation) and how the move is picked from the root's children
DEFAULTS = {"simulations": 100, "uct_c": 2.0, "rollouts": 1, "world_samples": 0, "final_policy": "max_visit_count"}
FINAL_POLICIES = ("max_visit_count", "max_value")
SEED_BOUND = 2**63

SearchMove = Callable[[Position, dict, int], Move]  # (position, parameters, seed) -> the bot's move


@dataclass(frozen=True, eq=False)
class ISMCTSPolicy(Policy):
    """IS-MCTS from OpenSpiel with a seeded random play-out evaluator: its worlds drawn from what the mover saw."""

    params: dict = field(default_factory=dict)  # DEFAULTS' keys, checked by ismcts_params
    move: SearchMove | None = None  # the adapter's: it loads OpenSpiel at the first decision
    kind: ClassVar[str] = KIND
    plays_in_python: ClassVar[bool] = True

    def pick(self, pos: Position, moves: list[Move], rng: np.random.Generator) -> Move:
        """The bot's move (a forced move without asking); its random choices seeded from `rng`."""
        if len(moves) == 1:
            return moves[0]
        return self.move(pos, self.params, int(rng.integers(SEED_BOUND)))

    def plays_like(self, other: Policy) -> bool:
        return super().plays_like(other) and self.params == other.params

    def details(self) -> list[str]:
        return param_lines(self.params)


def ismcts_policy(entry: PolicyData, move: SearchMove) -> ISMCTSPolicy:
    """The policy of a policy file of this kind, its parameters checked, playing `move`."""
    entry.without("weights", "params")
    params = ismcts_params(entry.data.get("params", {}), entry.where)
    description = entry.description or "IS-MCTS (OpenSpiel) over python_casino."
    return ISMCTSPolicy(entry.name, description, entry.source, params=params, move=move)


def ismcts_params(raw, where: str) -> dict:
    """The parameters with DEFAULTS filled in, each checked; PolicyError names the field."""
    if not isinstance(raw, dict):
        raise PolicyError(f"{where}: field 'params' must be a table")
    unknown = set(raw) - set(DEFAULTS)
    if unknown:
        raise PolicyError(f"{where}: unknown field 'params.{sorted(unknown)[0]}' (parameters: {', '.join(DEFAULTS)})")
    params = dict(DEFAULTS, **raw)
    for key, low, high in (("simulations", 1, 1_000_000), ("rollouts", 1, 10_000), ("world_samples", 0, 1_000_000)):
        v = params[key]
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            raise PolicyError(f"{where}: field 'params.{key}' must be a whole number from {low} to {high}, got {v!r}")
    c = params["uct_c"]
    if isinstance(c, bool) or not isinstance(c, (int, float)) or not 0 <= c <= 1000:
        raise PolicyError(f"{where}: field 'params.uct_c' must be a number from 0 to 1000, got {c!r}")
    params["uct_c"] = float(c)
    if params["final_policy"] not in FINAL_POLICIES:
        raise PolicyError(
            f"{where}: field 'params.final_policy' must be {' or '.join(map(repr, FINAL_POLICIES))}, "
            f"got {params['final_policy']!r}"
        )
    return params
