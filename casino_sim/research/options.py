"""The options every research adapter takes, read one way: the rule set of (rules, players, teams and the game
options) named by its canonical spec, and the most points one round can give a side (what bounds returns and
totals)."""

from __future__ import annotations

import operator

from casino_sim.core.deal import PLIES
from casino_sim.core.errors import UserError
from casino_sim.core.rules import RuleSet, get_rules
from casino_sim.research.encoding import ENCODINGS

GAME_OPTIONS = {"target": 21, "round_win_points": 0, "single_round": False}  # docs/rules.md section 8's defaults


def table_rules(rules: str, players: int, teams: bool, **options) -> RuleSet:
    """The rule set `rules` (a name, with game options after a colon as --rules takes them, or given as `options`:
    target, round_win_points, single_round) for `players`, in two teams or not. Its name is the canonical spec, so
    positions print as docs/notation.md parses them. UserError (one line) for a bad option, for players or teams
    inside `rules` (they are options of their own), or for game options given both ways."""
    name = str(rules)
    inline = name.partition(":")[2]
    if any(f"{key}=" in inline for key in ("players", "teams")):
        raise UserError(f"rules {name!r}: give players and teams as parameters of their own")
    changed = {k: v for k, v in options.items() if v != GAME_OPTIONS.get(k, v)}
    if inline and changed:
        raise UserError(f"rules {name!r}: give the game options after the name or as parameters, not both")
    try:
        count = operator.index(players)  # a whole number (numpy's too), not a float or a string
    except TypeError:
        raise UserError(f"players must be 2, 3 or 4, got {players!r}") from None
    spec = [f"players={count}", f"teams={str(bool(teams)).lower()}"]
    for key, value in options.items():
        if key not in GAME_OPTIONS:
            raise UserError(f"unknown game option {key!r} (options: {', '.join(GAME_OPTIONS)})")
        if isinstance(value, bool) != (key == "single_round") or not isinstance(value, int):
            kind = "true or false" if key == "single_round" else "a whole number"
            raise UserError(f"{key} must be {kind}, got {value!r}")
        spec.append(f"{key}={str(value).lower()}")
    return get_rules(f"{name}{',' if inline else ':'}{','.join(spec)}")


def check_modes(rules: RuleSet, whole_game: bool, zero_sum: bool, encoding: str) -> None:
    """UserError (one line) for an unknown encoding, or a zero-sum point difference where it does not apply: whole
    games (zero-sum already), or more than two sides."""
    if encoding not in ENCODINGS:
        raise UserError(f"encoding must be one of {', '.join(ENCODINGS)}, got {encoding!r}")
    if zero_sum and whole_game:
        raise UserError("zero_sum is for one round: a whole game's returns are zero-sum already")
    if zero_sum and rules.n_sides != 2:
        raise UserError(f"zero_sum needs two sides (two players, or four in teams), got {rules.n_sides}")


def game_options(rules: RuleSet) -> dict:
    """The rule set's name without options, and its game options by name: the parameters that give it again."""
    return {"rules": rules.name.partition(":")[0], **{key: getattr(rules, key) for key in GAME_OPTIONS}}


def most_round_points(rules: RuleSet) -> int:
    """The most points one round can give a side: every category (most cards, most spades, the four aces, 10♦ and
    2♠) and a sweep at each play."""
    return rules.most_cards_points + rules.most_spades_points + 4 + 2 + 1 + PLIES * rules.sweep_points
