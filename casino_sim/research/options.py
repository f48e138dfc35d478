"""The options every research adapter takes, read one way: the rule set of (rules, players, teams) named by its
canonical spec, and the most points one round can give a side (what bounds returns and totals)."""

from __future__ import annotations

import operator

from casino_sim.core.deal import PLIES
from casino_sim.core.errors import UserError
from casino_sim.core.rules import RuleSet, get_rules


def table_rules(rules: str, players: int, teams: bool) -> RuleSet:
    """The rule set `rules` (a name with game options, as --rules takes it) for `players`, in two teams or not.
    Its name is the canonical spec, so positions print as docs/notation.md parses them. UserError (one line) for
    a bad option, or for players or teams inside `rules` (they are options of their own)."""
    name = str(rules)
    if any(f"{key}=" in name.partition(":")[2] for key in ("players", "teams")):
        raise UserError(f"rules {name!r}: give players and teams as parameters of their own")
    try:
        count = operator.index(players)  # a whole number (numpy's too), not a float or a string
    except TypeError:
        raise UserError(f"players must be 2, 3 or 4, got {players!r}") from None
    table = f"players={count},teams={str(bool(teams)).lower()}"
    return get_rules(f"{name}{',' if ':' in name else ':'}{table}")


def most_round_points(rules: RuleSet) -> int:
    """The most points one round can give a side: every category (most cards, most spades, the four aces, 10♦ and
    2♠) and a sweep at each play."""
    return rules.most_cards_points + rules.most_spades_points + 4 + 2 + 1 + PLIES * rules.sweep_points
