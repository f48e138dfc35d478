"""The error types a user can cause; the CLI turns each into one line and exit code 2.

Every such error derives from UserError, so catching them needs no import of the
layers that raise them (cards, rules, positions, moves, policies).
"""

from __future__ import annotations


class UserError(ValueError):
    """Bad input from the user: the message is the one line the CLI prints after 'error: '."""


class InputError(UserError):
    """Bad user input that is not about cards, rules, positions or moves (files, options)."""


USER_ERRORS = (UserError,)
