"""Who sits where in a run: --seats, the policies of a run, the seatings of a deal.

`--policy A --vs B` puts A in one seat and B in the others (with teams: A's team against B's); `--seats A,B,C[,D]`
names the policy of each player (three or four players). Each deal is then played in every distinct turn of that
seating round the table (runner.deals.rotations), so that every policy plays every place: with two players, A at
player 0 and then, mirrored, at player 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

import numpy as np

from casino_sim.core.fields import FieldError
from casino_sim.core.rules import RuleSet, get_rules
from casino_sim.policies import Policy
from casino_sim.policies.names import seat_names
from casino_sim.policies.policy import Load
from casino_sim.runner.deals import rotations


@dataclass(frozen=True, eq=False)
class Lineup:
    """A run's distinct policies (policy_names' order: A, B, the other --seats), resolved once from the specs the
    user gave; below the front door a run plays and names these objects, never looks a spec up again. It pickles
    (to a Dask worker) as its objects: a bot as its command, its process the worker's own (policies/bots.py)."""

    specs: tuple[str, ...]
    policies: tuple[Policy, ...]

    @classmethod
    def of(cls, specs: tuple[str, ...], load: Load) -> Lineup:
        """Each spec resolved once by the policy loader `load` (a spec given twice, self-play, is one policy)."""
        resolved = {spec: load(spec) for spec in dict.fromkeys(specs)}
        return cls(tuple(specs), tuple(resolved[spec] for spec in specs))

    def policy(self, spec: str) -> Policy:
        """The policy given as `spec`."""
        return self.policies[self.specs.index(spec)]

    def label(self, spec: str) -> str:
        """The name the policy given as `spec` shows as."""
        return self.policy(spec).name

    def labels(self) -> dict[str, str]:
        """Each spec's name, as a run's manifest keeps them for its reports."""
        return dict(zip(self.specs, (p.name for p in self.policies)))


def resolved_field():
    """A config's field for its policies resolved once at the front door (a Lineup), or for the policy loader that
    resolves them (`loader`, the front door's): not compared, not shown, and never in its manifest
    (manifest_options), which keeps their names."""
    return field(default=None, compare=False, repr=False, metadata={"resolved": True})


class Resolves:
    """A frozen config whose policies its front door resolves once (`resolve_with`) into its resolved_field
    `resolved`, a Lineup of its `specs()`: below the door a run plays these objects and never resolves a spec
    again; a config replace()d with other policies is refused (it would play the old ones)."""

    def specs(self) -> tuple[str, ...]:
        """The policies the config names, in the order its lineup keeps them."""
        raise NotImplementedError

    def __post_init__(self) -> None:
        if self.resolved is not None and self.resolved.specs != self.specs():
            raise TypeError(f"a {type(self).__name__} replaced with other policies resolves them again: .resolve()")

    def lineup(self) -> Lineup:
        """The config's policies as objects, as its front door resolved them."""
        if self.resolved is None:
            raise TypeError(f"a {type(self).__name__} plays the policies its door resolved: .resolve(loader)")
        return self.resolved

    def resolve_with(self, load: Load, **fields):
        """This config with its policies resolved once by the policy loader `load` (and `fields` replaced)."""
        return replace(self, resolved=Lineup.of(self.specs(), load), **fields)


def manifest_options(config) -> dict:
    """A config (a dataclass) as its manifest keeps it: the options by field name, its resolved policies left out."""
    return {f.name: getattr(config, f.name) for f in fields(config) if not f.metadata.get("resolved")}


def declared_options(declaration, values: dict) -> dict:
    """Of `values` by field name, those a run's config keeps: the fields of its command's `declaration`
    (core/fields.py) that decide the results, and the threads they play on."""
    return {name: values[name] for name in (*declaration.run_fields(), "threads") if name in values}


def check_seat_count(rules: str, seats: str | None) -> None:
    """One line for a --seats list that does not fit the rule set's players (a bad rule set: RulesError)."""
    players = get_rules(rules).players
    if seats is not None and len(seats.split(",")) != players:
        raise FieldError("seats", f"names {len(seats.split(','))} policies, but {rules} seats {players} players")


def policy_names(policy_a: str, policy_b: str, seats: str | None) -> tuple[str, ...]:
    """A run's distinct policies in order: A, B (A again when every seat plays A), then other --seats names."""
    if seats is None:
        return (policy_a, policy_b)
    names = tuple(dict.fromkeys(seat_names(seats)))
    return names if len(names) > 1 else names * 2


def seatings(
    rules: RuleSet, mirrored: bool = True, names: tuple[str, ...] = (), seats: str | None = None
) -> np.ndarray:
    """The seatings each deal is played with (policy indices, one row per seating: runner.deals.rotations).

    `seats` (--seats, three or four players) names the policy of each player, an index into `names`; without
    it A (0) sits in one seat and B (1) in the others, with teams A's team (players 0 and 2) against B's: seating
    m puts A at player m, on side m. Unmirrored: the first seating alone.
    """
    n = rules.players
    if seats is not None:
        base = [names.index(name) for name in seat_names(seats)]
    else:  # A in one seat, B in the others; with teams A's team against B's
        base = [p % 2 for p in range(n)] if rules.teams else [0] + [1] * (n - 1)
    return rotations(base, mirrored)
