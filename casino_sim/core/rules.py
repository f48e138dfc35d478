"""The three rule sets of docs/rules.md section 5 as one immutable value.

Both engines read these fields; the numba engine gets them as plain ints
through `RuleSet.as_array`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from casino_sim.core.errors import UserError

FIGURE_CAPTURE_ONE = 0  # a figure takes exactly one loose figure of its rank
FIGURE_CAPTURE_THREE = 1  # italian: with exactly three loose, the fourth may take all three


class RulesError(UserError):
    """An unknown rule set or a bad rule option."""


@dataclass(frozen=True)
class RuleSet:
    """Everything that differs between strict, brazilian and italian."""

    name: str
    sweep_points: int = 1  # points per sweep
    most_cards_points: int = 3
    most_cards_at_least: int = 27  # 27 of 52 == a strict majority of two players
    most_spades_points: int = 1
    most_spades_at_least: int = 7  # 7 of 13 == a strict majority of two players
    figure_capture: int = FIGURE_CAPTURE_ONE
    no_trail_while_owner: bool = True  # strict: an owner of a build may not trail
    next_turn_obligation: bool = False  # italian must_act rule
    target: int = 21  # game target
    round_win_points: int = 0  # >0: this many points in one round win the game at once
    single_round: bool = False  # the game is one round; the higher score wins
    players: int = 2  # docs/rules.md section 11: 3 or 4 with brazilian and italian
    teams: bool = False  # four players as two partnerships, players 0 and 2 against 1 and 3
    # italian: most cards / most spades to any side reaching *_at_least (27+ cards, 7+ spades: perhaps nobody
    # with 3 or 4 sides); otherwise to the side with strictly the most. Two sides: both readings agree.
    most_by_count: bool = False

    def as_array(self):
        """The engine-relevant fields as int64s, in ENGINE_FIELDS order (kernels/layout.py's R_* index it)."""
        import numpy as np  # deferred: parsing --rules at the command line needs no numpy

        return np.array([int(getattr(self, name)) for name in ENGINE_FIELDS], dtype=np.int64)

    @property
    def n_sides(self) -> int:
        """How many scores a round has: one per player, or one per team."""
        return 2 if self.teams else self.players

    def with_options(self, **options) -> RuleSet:
        """A copy with game options changed (e.g. target=31, round_win_points=6, players=4)."""
        allowed = {"target", "round_win_points", "single_round", "players", "teams"}
        bad = set(options) - allowed
        if bad:
            raise RulesError(f"unknown rule option {sorted(bad)[0]!r} (options: {', '.join(sorted(allowed))})")
        if "target" in options and not (1 <= int(options["target"]) <= 1000):
            raise RulesError(f"game target must be between 1 and 1000, got {options['target']}")
        if "round_win_points" in options and not (0 <= int(options["round_win_points"]) <= 1000):
            raise RulesError(f"round_win_points must be between 0 (off) and 1000, got {options['round_win_points']}")
        players = int(options.get("players", self.players))
        if players not in (2, 3, 4):
            raise RulesError(f"players must be 2, 3 or 4, got {players}")
        if players != 2 and self.name.partition(":")[0] == "strict":
            raise RulesError(f"players={players}: strict is a two-player rule set (brazilian and italian take 3 or 4)")
        if "teams" not in options and "players" in options:
            options["teams"] = _default_teams(self.name, players)
        if options.get("teams", self.teams) and players != 4:
            raise RulesError(f"teams=true needs players=4 (partners sit opposite), got players={players}")
        return replace(self, **options)


ENGINE_FIELDS = tuple(f.name for f in fields(RuleSet)[1:])  # every field but the name, in declaration order

STRICT = RuleSet(name="strict")
BRAZILIAN = RuleSet(name="brazilian", sweep_points=0, no_trail_while_owner=False)
ITALIAN = RuleSet(
    name="italian",
    figure_capture=FIGURE_CAPTURE_THREE,
    no_trail_while_owner=False,
    next_turn_obligation=True,
    most_by_count=True,
)

RULESETS = {r.name: r for r in (STRICT, BRAZILIAN, ITALIAN)}


def get_rules(name: str) -> RuleSet:
    """The rule set of that name, with game options after a colon (`brazilian:target=31,round_win_points=6`,
    `italian:single_round=true`); RulesError names the choices otherwise. Its name is the canonical spec."""
    base, _, spec = name.partition(":") if isinstance(name, str) else (name, "", "")
    try:
        rules = RULESETS[base]
    except (KeyError, TypeError):
        raise RulesError(f"unknown rule set {base!r} (choose from: {', '.join(RULESETS)})") from None
    if not spec:
        return rules
    options = {}
    for item in spec.split(","):
        key, eq, value = (part.strip() for part in item.partition("="))
        if not eq or not value:
            raise RulesError(f"rule option {item!r} is not key=value (e.g. {base}:target=31)")
        options[key] = _option_value(key, value)
    changed = rules.with_options(**options)
    default = replace(rules, teams=_default_teams(base, changed.players))  # so one rule set has one name
    canon = ",".join(f"{k}={str(v).lower()}" for k, v in sorted(options.items()) if v != getattr(default, k))
    return replace(changed, name=f"{base}:{canon}" if canon else base)


def _default_teams(name: str, players: int) -> bool:
    """brazilian's four play as two partnerships (seed 002: "em duplas"); italian's play alone (004 names none)."""
    return players == 4 and name.partition(":")[0] == "brazilian"


def _option_value(key: str, value: str):
    if key in ("single_round", "teams"):
        if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
            raise RulesError(f"{key} must be true or false, got {value!r}")
        return value.lower() in ("true", "1", "yes")
    try:
        return int(value)
    except ValueError:
        raise RulesError(f"rule option {key} must be a whole number, got {value!r}") from None
