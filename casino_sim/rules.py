"""The three rule sets of RULES.md section 6 as one immutable value.

Both engines read these fields; the numba engine gets them as plain ints
through `RuleSet.as_array`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

FIGURE_CAPTURE_ONE = 0  # a figure takes exactly one loose figure of its rank
FIGURE_CAPTURE_THREE = 1  # italian: with exactly three loose, the fourth may take all three


class RulesError(ValueError):
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

    def as_array(self):
        """The engine-relevant fields as int64s, in declaration order (name excluded)."""
        import numpy as np

        return np.array([int(getattr(self, f.name)) for f in fields(self)[1:]], dtype=np.int64)

    def with_options(self, **options) -> "RuleSet":
        """A copy with game options changed (e.g. target=31, round_win_points=6)."""
        allowed = {"target", "round_win_points", "single_round"}
        bad = set(options) - allowed
        if bad:
            raise RulesError(f"unknown rule option {sorted(bad)[0]!r} (options: {', '.join(sorted(allowed))})")
        if "target" in options and not (1 <= int(options["target"]) <= 1000):
            raise RulesError(f"game target must be between 1 and 1000, got {options['target']}")
        return replace(self, **options)


STRICT = RuleSet(name="strict")
BRAZILIAN = RuleSet(name="brazilian", sweep_points=0, no_trail_while_owner=False)
ITALIAN = RuleSet(
    name="italian",
    figure_capture=FIGURE_CAPTURE_THREE,
    no_trail_while_owner=False,
    next_turn_obligation=True,
)

RULESETS = {r.name: r for r in (STRICT, BRAZILIAN, ITALIAN)}


def get_rules(name: str) -> RuleSet:
    """The rule set of that name; RulesError names the choices otherwise."""
    try:
        return RULESETS[name]
    except (KeyError, TypeError):
        raise RulesError(f"unknown rule set {name!r} (choose from: {', '.join(RULESETS)})") from None
