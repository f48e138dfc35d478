"""Who sits where in a run of three or four players: --seats, the policies of a run, the seatings of a deal.

`--policy A --vs B` puts A in one seat and B in the others (with teams: A's team against B's); `--seats A,B,C[,D]`
names the policy of each player. Each deal is then played in every distinct turn of that seating round the
table (runner.deals.rotations), so that every policy plays every place.
"""

from __future__ import annotations

import numpy as np

from casino_sim.core.errors import InputError
from casino_sim.core.rules import get_rules
from casino_sim.policies.names import check_distinct_names, seat_names
from casino_sim.runner.deals import rotations

# what plays two players only so far: --record, --check
TWO_PLAYER_OPTIONS = ("--record", "--check")


def check_seating(rules: str, seats: str | None, two_player_only: tuple[bool, ...], policies=()) -> None:
    """One line for a --seats list that does not fit the rule set's players, for two different `policies` that
    show under one name (policies/names.py), or for a TWO_PLAYER_OPTIONS option (given: two_player_only, in that
    order) with three or four players."""
    players = get_rules(rules).players  # a bad rule set: RulesError, one line
    if seats is not None and len(seats.split(",")) != players:
        raise InputError(f"--seats names {len(seats.split(','))} policies, but {rules} seats {players} players")
    check_distinct_names(policies)
    if players == 2:
        return
    for option, given in zip(TWO_PLAYER_OPTIONS, two_player_only):
        if given:
            raise InputError(f"{option}: two players only so far, not {rules} (single rounds play 3 and 4)")


def policy_names(policy_a: str, policy_b: str, seats: str | None) -> tuple[str, ...]:
    """A run's distinct policies in order: A, B (A again when every seat plays A), then other --seats names."""
    if seats is None:
        return (policy_a, policy_b)
    names = tuple(dict.fromkeys(seat_names(seats)))
    return names if len(names) > 1 else names * 2


def seatings(rules: str, names: tuple[str, ...], seats: str | None, mirrored: bool) -> np.ndarray | None:
    """Three or four players: the seatings each deal is played with (policy indices into `names`, one row per
    seating); None for two."""
    ruleset = get_rules(rules)
    players = ruleset.players
    if players == 2:
        return None
    if seats is None:  # A in one seat, B in the others; with teams A's team against B's
        base = [p % 2 for p in range(players)] if ruleset.teams else [0] + [1] * (players - 1)
    else:
        base = [names.index(name) for name in seat_names(seats)]
    return rotations(base, mirrored)
