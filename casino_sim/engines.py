"""Engine selection for the position tools: each engine offers legal_moves and apply_move."""

from __future__ import annotations

from types import SimpleNamespace

from casino_sim.core.errors import InputError

ENGINE_NAMES = ("reference", "numba")


def get_engine(name: str) -> SimpleNamespace:
    """An object with legal_moves(pos) and apply_move(pos, move) for the named engine."""
    if name == "reference":
        from casino_sim import reference

        return SimpleNamespace(name=name, legal_moves=reference.legal_moves, apply_move=reference.apply_move)
    if name == "numba":
        from casino_sim.engine import api

        return SimpleNamespace(name=name, legal_moves=api.legal_moves, apply_move=api.apply_move)
    raise InputError(f"unknown engine {name!r} (choose from: {', '.join(ENGINE_NAMES)})")
