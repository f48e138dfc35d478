"""The kinds of policy, one class each: random, trail, heuristic (weights), rollout and searcher (play-outs with a
base policy), a Python callable. A bot (exec:COMMAND) is policies/bots.py's BotPolicy."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from casino_sim.core.errors import UserError
from casino_sim.core.featurespec import (
    KIND_ID,
    N_FEATURES,
    P_BASE_KIND,
    P_CRN,
    P_EXACT_SKIP,
    P_HORIZON,
    P_KIND,
    P_RACE,
    P_RACE_Z,
    P_TOP,
    P_WORLDS,
)
from casino_sim.policies.features import FEATURE_NAMES, knowledge_of, move_features, weighted_sum
from casino_sim.policies.policy import KernelRow, Policy, PolicyError, PythonPolicy, best_index, param_lines, where
from casino_sim.reference.moves import Move
from casino_sim.reference.position import Position
from casino_sim.reference.round import round_context
from casino_sim.reference.seats import HAND_SIZE

LAST_BATCH = 2 * HAND_SIZE  # plays in a two-player round's last batch, which a searcher searches exactly
EXACT_PLIES = "exact_plies"  # a searcher's own parameter: how many of them (in its params only when given)
HORIZON = "horizon"  # batch ends a play-out plays to before a value estimate (in the params only when given; 0: none)


@dataclass(frozen=True, eq=False)
class RandomPolicy(Policy):
    """Plays a legal move chosen uniformly at random."""

    kind: ClassVar[str] = "random"

    def pick(self, pos: Position, moves: list[Move], rng: np.random.Generator) -> Move:
        return moves[int(rng.integers(len(moves)))]

    def kernel_row(self) -> KernelRow:
        return self.kind_row(), None, None


@dataclass(frozen=True, eq=False)
class TrailPolicy(Policy):
    """Trails whenever it can: the first legal move in canonical order, where trails sort first."""

    kind: ClassVar[str] = "trail"

    def pick(self, pos: Position, moves: list[Move], rng: np.random.Generator) -> Move:
        return moves[0]

    def kernel_row(self) -> KernelRow:
        return self.kind_row(), None, None


@dataclass(frozen=True, eq=False)
class HeuristicPolicy(Policy):
    """The move of the highest weighted feature sum (ties broken by the seeded generator)."""

    weights: np.ndarray = field(default_factory=lambda: np.zeros(N_FEATURES))  # one per FEATURE_NAMES entry
    kind: ClassVar[str] = "heuristic"

    def pick(self, pos: Position, moves: list[Move], rng: np.random.Generator) -> Move:
        return moves[best_index(self.scores(pos, moves), rng)]

    def scores(self, pos: Position, moves: list[Move]) -> np.ndarray:
        """Weighted feature sum of each move."""
        know = knowledge_of(pos)
        return np.array([weighted_sum(move_features(pos, m, know), self.weights) for m in moves])

    def kernel_row(self) -> KernelRow:
        return self.kind_row(), self.weights, None

    def plays_like(self, other: Policy) -> bool:
        return super().plays_like(other) and np.array_equal(self.weights, other.weights)

    def details(self) -> list[str]:
        return ["weights:", *(f"  {n} = {w:g}" for n, w in zip(FEATURE_NAMES, self.weights) if w != 0)]


@dataclass(frozen=True, eq=False)
class SearchPolicy(Policy):
    """Chooses by play-outs of sampled worlds with a base policy (random or a heuristic), in the numba kernels."""

    params: dict = field(default_factory=dict)  # worlds, base (its name), crn
    base: Policy | None = None  # params["base"] resolved when the policy is loaded
    searches: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if not isinstance(self.base, (RandomPolicy, HeuristicPolicy)):
            shown = self.base.name if self.base is not None else self.params.get("base")
            raise PolicyError(f"the {self.kind} base policy must be random or a heuristic, not {shown!r}")

    def step(self, pos: Position, seed: int = 0) -> Move:
        """The engine's search from `pos` (with three or four players, the searcher without its exact last batch,
        whose hidden split is unknown: a rollout). A position no deal reaches is refused before any compiling."""
        from casino_sim.kernels import search_choose  # deferred: loads numba only when a searching policy chooses

        round_context(pos)
        ints, _, base_weights = self.kernel_row()
        if pos.players > 2:  # the rule: the last batch's hidden split is unknown (docs/rules.md 11)
            ints[P_KIND] = KIND_ID["rollout"]
        base_weights = np.zeros(N_FEATURES) if base_weights is None else np.array(base_weights, dtype=np.float64)
        return search_choose(pos, ints, base_weights, (base_weights != 0).astype(np.int64), seed)

    def kernel_row(self) -> KernelRow:
        ints = self.kind_row()
        ints[P_WORLDS], ints[P_CRN] = self.params["worlds"], int(self.params["crn"])
        ints[P_RACE], ints[P_RACE_Z] = self.params["race"], round(self.params["race_z"] * 1000)
        ints[P_TOP] = self.params["top"]
        ints[P_HORIZON] = self.params.get(HORIZON, 0)
        ints[P_EXACT_SKIP] = LAST_BATCH - self.params.get(EXACT_PLIES, LAST_BATCH)  # searcher: from this play on
        base_ints, base_weights, _ = self.base.kernel_row()
        ints[P_BASE_KIND] = base_ints[P_KIND]
        return ints, None, base_weights

    def plays_like(self, other: Policy) -> bool:
        return super().plays_like(other) and self.params == other.params

    def details(self) -> list[str]:
        return param_lines(self.params)


@dataclass(frozen=True, eq=False)
class RolloutPolicy(SearchPolicy):
    """Determinised Monte Carlo: each legal move played out in sampled worlds, the best mean point difference."""

    kind: ClassVar[str] = "rollout"


@dataclass(frozen=True, eq=False)
class SearcherPolicy(SearchPolicy):
    """A rollout that plays the last batch exactly (two players): its last `exact_plies` plays (8 unless set); with
    no worlds its base chooses, among the exact best moves in those plays (the built-in endgame)."""

    kind: ClassVar[str] = "searcher"


SEARCH_CLASSES = {"rollout": RolloutPolicy, "searcher": SearcherPolicy}


@dataclass(frozen=True, eq=False)
class CallablePolicy(Policy):
    """A Python function (position, legal moves, rng) -> move, asked for every move on the reference engine."""

    fn: PythonPolicy | None = None
    kind: ClassVar[str] = "python"
    plays_in_python: ClassVar[bool] = True

    def pick(self, pos: Position, moves: list[Move], rng: np.random.Generator) -> Move:
        """The function's move; a PolicyError naming the policy and the position when the function raises or
        answers something that is not one of `moves` (a bot's failures read the same: policies/bots.py)."""
        try:
            move = self.fn(pos, moves, rng)
        except UserError:  # a one-line error of the user's own already says what went wrong
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

    def plays_like(self, other: Policy) -> bool:
        return super().plays_like(other) and self.fn is other.fn
