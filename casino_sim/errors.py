"""The error types a user can cause; the CLI turns each into one line and exit code 2."""

from __future__ import annotations

from casino_sim.cards import CardError
from casino_sim.policies.policy import PolicyError
from casino_sim.reference.apply import IllegalMove
from casino_sim.reference.moves import MoveError
from casino_sim.reference.position import PositionError
from casino_sim.rules import RulesError


class InputError(ValueError):
    """Bad user input that is not about cards, rules, positions or moves (files, options)."""


USER_ERRORS = (CardError, RulesError, PositionError, MoveError, IllegalMove, PolicyError, InputError)
