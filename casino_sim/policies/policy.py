"""A playing policy: one object per kind, with one interface for both sides of the engine.

Python side: `step(position) -> move` (and `choose` among given moves, as the reference engine asks each seat).
Numba side: `kernel_row()`, the row of the policy arrays the kernels read (policies/arrays.py). Each kind is its own
class (policies/kinds.py, policies/bots.py, policies/ismcts.py); a policy is loaded from its spec once, by the
policy loader a front door is handed (casino_sim/loader), and passed down as an object.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from casino_sim.core.errors import UserError
from casino_sim.core.featurespec import KIND_ID, P_INTS, P_KIND, POLICY_KINDS
from casino_sim.reference.movegen import legal_moves
from casino_sim.reference.moves import Move
from casino_sim.reference.position import Position

# the kinds asked for every move from Python, on the reference engine: a Python callable, a bot (exec:COMMAND)
CALLABLE_KINDS = ("python", "exec", "openspiel-ismcts")  # openspiel-ismcts: OpenSpiel's IS-MCTS (policies/ismcts.py)
KINDS = (*POLICY_KINDS, "exec", "openspiel-ismcts")

PythonPolicy = Callable[[Position, list[Move], np.random.Generator], Move]
KernelRow = tuple[np.ndarray, np.ndarray | None, np.ndarray | None]  # ints[P_INTS], weights, its base's weights


class PolicyError(UserError):
    """An unknown policy, or a policy file or parameter that is wrong; the message names the field."""


@dataclass(frozen=True, eq=False)
class Policy:
    """A named policy; its kind is its class (`kind` names it in files, tables and the kernels' KIND_ID)."""

    name: str
    description: str
    source: str = "built-in"

    kind: ClassVar[str] = ""
    searches: ClassVar[bool] = False  # chooses by play-outs with a base policy (rollout, searcher): numba's work
    plays_in_python: ClassVar[bool] = False  # a callable of its own picks its moves: the reference engine only
    weights: ClassVar[np.ndarray | None] = None  # heuristics carry one weight per FEATURE_NAMES entry
    params: ClassVar[dict] = {}  # rollout, searcher: worlds, base, crn

    @property
    def kind_id(self) -> int:
        return KIND_ID[self.kind]

    def step(self, pos: Position, seed: int = 0) -> Move:
        """The move it plays in `pos` (its random choices seeded by `seed`): choose, over every legal move."""
        return self.choose(pos, legal_moves(pos), np.random.default_rng(seed))

    def choose(self, pos: Position, moves: list[Move], rng: np.random.Generator) -> Move:
        """Pick one of the legal moves `moves` (the slow, readable path used with the reference engine)."""
        if not moves:
            raise ValueError("no legal move to choose from")
        return self.pick(pos, moves, rng)

    def pick(self, pos: Position, moves: list[Move], rng: np.random.Generator) -> Move:
        """choose's answer among moves that are not empty; each kind that plays in Python says how."""
        raise PolicyError(f"policy {self.name!r} ({self.kind}) plays only in the numba engine")

    def kernel_row(self) -> KernelRow:
        """Its row of the policy arrays the numba kernels read: ints (P_INTS), weights, its base's weights (None:
        zeros). A policy that plays only in Python cannot enter a kernel."""
        raise PolicyError(f"policy {self.name!r} ({self.kind}) cannot play in the numba engine")

    def kind_row(self) -> np.ndarray:
        """An ints row (P_INTS) naming its kind, the other fields zero."""
        ints = np.zeros(P_INTS, dtype=np.int64)
        ints[P_KIND] = self.kind_id
        return ints

    def plays_like(self, other: Policy) -> bool:
        """Whether `other` plays the same way: the same kind and the same parameters (policies/names.py)."""
        return type(self) is type(other)

    def details(self) -> list[str]:
        """describe()'s lines after the description: its parameters."""
        return []

    def describe(self) -> str:
        """What it does and its parameters, for `casino-sim policies show`."""
        return "\n".join([f"{self.name} ({self.kind}, {self.source})", self.description, *self.details()])


Load = Callable[[str], Policy]  # a policy by its spec: the policy loader (casino_sim/loader) as the layers below see it


def param_lines(params: dict) -> list[str]:
    """describe()'s lines of a policy's parameters, one `key = value` each."""
    return ["parameters:", *(f"  {k} = {v}" for k, v in params.items())]


def where(pos: Position) -> str:
    """`at position {...}`: the position as its mover sees it, in the JSON of docs/notation.md, for an error line."""
    return f"at position {json.dumps(pos.seen_by(pos.to_move).to_json(), separators=(',', ':'))}"


def best_index(scores: np.ndarray, rng: np.random.Generator) -> int:
    """The index of the highest score; ties broken by the seeded generator."""
    best = np.flatnonzero(scores >= scores.max() - 1e-9)
    return int(best[0]) if len(best) == 1 else int(best[rng.integers(len(best))])
