"""One Engine interface and the registry of engines by name: callers name an engine, never branch on one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from casino_sim.core.errors import InputError

if TYPE_CHECKING:
    import numpy as np

    from casino_sim.core.rules import RuleSet
    from casino_sim.policies.policy import Policy
    from casino_sim.reference import Move, Position
    from casino_sim.runner.deals import DealRows


@runtime_checkable
class Engine(Protocol):
    """A rules engine of docs/rules.md, answering in the reference engine's types (Position, Move, round records)."""

    name: str

    def check_rules(self, rules: RuleSet) -> None:
        """Refuse (RulesError, one line) rules this engine cannot play yet, before any compiling."""

    def legal_moves(self, pos: Position) -> list[Move]:
        """Every legal move of the player to move, distinct, in canonical order."""

    def apply_move(self, pos: Position, move: Move) -> Position:
        """The position after a legal move; IllegalMove (with the reason) otherwise. Deals nothing."""

    def play_scripted(
        self, rules: RuleSet, deck: Sequence[int], dealer: int, script: Sequence[int]
    ) -> tuple[list[Move], dict[str, int]]:
        """A whole round in which play i is legal_moves[script[i] % n]: its 48 moves and its record (as play)."""

    def plays(self, policy: Policy) -> bool:
        """Whether this engine can play the policy."""

    def play(
        self,
        rows: DealRows,
        rules: RuleSet,
        lineup: Sequence[Policy],
        check: bool = False,
        trace: np.ndarray | None = None,
    ) -> dict[str, np.ndarray]:
        """One round per row, player p of row i playing policy lineup[rows.seating[i, p]]: the record's columns
        (core/record.py record_columns; small counts: the numba engine gives them as int8).

        `check` runs the engine's own invariant check after every play (the numba engine's; the reference engine
        has none: it is the rules the others are held to); trace[i] receives row i's (48, 5) move records.
        """


_ENGINES: dict[str, Engine] = {}


def register(engine: Engine) -> Engine:
    """Add an engine under its name (the CLI's --engine choices and the conformance suite follow)."""
    if not isinstance(engine, Engine):
        raise TypeError(f"{engine!r} lacks part of the Engine interface")
    _ENGINES[engine.name] = engine
    return engine


def get_engine(name: str) -> Engine:
    """The engine of that name; InputError names the choices otherwise."""
    try:
        return _ENGINES[name]
    except (KeyError, TypeError):
        raise InputError(f"unknown engine {name!r} (choose from: {', '.join(_ENGINES)})") from None


def engine_names() -> tuple[str, ...]:
    """Every registered engine's name, in the order registered."""
    return tuple(_ENGINES)


def lazy(module: str, name: str) -> Callable:
    """A method that calls `module.name`, importing the module at the first call (the numba one compiles kernels)."""

    def method(self, *args, **kwargs):
        return getattr(import_module(module), name)(*args, **kwargs)

    method.__name__ = name
    return method
