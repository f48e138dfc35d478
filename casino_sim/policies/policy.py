"""A playing policy: what it is, its parameters, and how it picks a move on the Python side."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from casino_sim.core.errors import UserError
from casino_sim.core.featurespec import KIND_ID, POLICY_KINDS, SEARCH_KINDS
from casino_sim.policies.features import FEATURE_NAMES, knowledge_of, move_features, weighted_sum
from casino_sim.reference.moves import Move
from casino_sim.reference.position import Position

# the kinds asked for every move from Python, on the reference engine: a Python callable, a bot (exec:COMMAND)
CALLABLE_KINDS = ("python", "exec")
KINDS = (*POLICY_KINDS, "exec")

PythonPolicy = Callable[[Position, list[Move], np.random.Generator], Move]


class PolicyError(UserError):
    """An unknown policy, or a policy file or parameter that is wrong; the message names the field."""


@dataclass(frozen=True, eq=False)
class Policy:
    """A named policy. Heuristics carry a weight per feature; rollout and searcher carry their parameters."""

    name: str
    kind: str
    description: str
    source: str = "built-in"
    weights: np.ndarray | None = None  # heuristic: one weight per FEATURE_NAMES entry
    params: dict = field(default_factory=dict)  # rollout, searcher: worlds, base, crn
    fn: PythonPolicy | None = None  # python, exec: the callable (a bot's is policies.bots.ExecBot)

    @property
    def kind_id(self) -> int:
        return KIND_ID[self.kind]

    @property
    def searches(self) -> bool:
        """Whether it chooses by play-outs with a base policy (rollout, searcher): the numba engine's work."""
        return self.kind in SEARCH_KINDS

    @property
    def plays_in_python(self) -> bool:
        """Whether a callable of its own picks its moves (a Python function, a bot): it plays on the reference
        engine only, and cannot enter a numba kernel."""
        return self.kind in CALLABLE_KINDS

    def choose(self, pos: Position, moves: list[Move], rng: np.random.Generator) -> Move:
        """Pick one of the legal moves (the slow, readable path used with the reference engine)."""
        if not moves:
            raise ValueError("no legal move to choose from")
        if self.kind == "random":
            return moves[int(rng.integers(len(moves)))]
        if self.kind == "trail":  # the moves are in canonical order, and trails sort first
            return moves[0]
        if self.kind == "heuristic":
            return moves[best_index(self.scores(pos, moves), rng)]
        if self.plays_in_python:
            return self._call_python(pos, moves, rng)
        raise PolicyError(f"policy {self.name!r} ({self.kind}) plays only in the numba engine")

    def _call_python(self, pos: Position, moves: list[Move], rng: np.random.Generator) -> Move:
        """The Python function's move; a PolicyError naming the policy and the position when the function raises
        or answers something that is not one of `moves` (a bot's failures read the same: policies/bots.py)."""
        try:
            move = self.fn(pos, moves, rng)
        except UserError:  # a bot's own one-line error already names the bot and the position
            raise
        except Exception as e:  # a user's function may fail in any way: the run stops on one line
            raise PolicyError(f"policy {self.name!r} raised {e.__class__.__name__}: {e} {where(pos)}") from None
        try:
            legal = move in moves
        except Exception:  # an answer that cannot even be compared with a move
            legal = False
        if not legal:
            shown = repr(move) if len(repr(move)) <= 60 else repr(move)[:60] + "..."
            raise PolicyError(f"policy {self.name!r} returned {shown}, not one of the legal moves, {where(pos)}")
        return move

    def scores(self, pos: Position, moves: list[Move]) -> np.ndarray:
        """Weighted feature sum of each move."""
        know = knowledge_of(pos)
        return np.array([weighted_sum(move_features(pos, m, know), self.weights) for m in moves])

    def describe(self) -> str:
        """What it does and its parameters, for `casino-sim policies show`."""
        lines = [f"{self.name} ({self.kind}, {self.source})", self.description]
        if self.weights is not None:
            lines.append("weights:")
            lines += [f"  {n} = {w:g}" for n, w in zip(FEATURE_NAMES, self.weights) if w != 0]
        if self.params:
            lines.append("parameters:")
            lines += [f"  {k} = {v}" for k, v in self.params.items()]
        return "\n".join(lines)


def where(pos: Position) -> str:
    """`at position {...}`: the position as its mover sees it, in the JSON of docs/notation.md, for an error line."""
    return f"at position {json.dumps(pos.seen_by(pos.to_move).to_json(), separators=(',', ':'))}"


def best_index(scores: np.ndarray, rng: np.random.Generator) -> int:
    """The index of the highest score; ties broken by the seeded generator."""
    best = np.flatnonzero(scores >= scores.max() - 1e-9)
    return int(best[0]) if len(best) == 1 else int(best[rng.integers(len(best))])
