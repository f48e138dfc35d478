"""A policy file's fields, checked from the parsed data: the fields every kind has (name, description, kind), a
heuristic's weights, a rollout's (or searcher's) parameters. Nothing here reads a file; the policy loader does
(casino_sim/loader), and hands each kind's data to its factory (FILE_KINDS' here, the OpenSpiel adapter's)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from casino_sim.core.limits import MOVE_LIMIT
from casino_sim.policies.features import FEATURE_INDEX, FEATURE_NAMES, N_FEATURES
from casino_sim.policies.kinds import EXACT_PLIES, HORIZON, LAST_BATCH, SEARCH_CLASSES, HeuristicPolicy
from casino_sim.policies.policy import Load, Policy, PolicyError

# race 0: every move plays every world (docs/policies.md, "Racing"); no built-in races
ROLLOUT_DEFAULTS = {"worlds": 64, "base": "expert", "crn": True, "race": 0, "race_z": 2.0, "top": 0}
FIELDS = ("name", "description", "kind", "weights", "params")


@dataclass(frozen=True)
class PolicyData:
    """A policy file's data with the fields every kind has checked: what a kind's factory builds its policy from."""

    data: dict
    where: str  # the file (or "built-in", "test"), as an error names it
    source: str  # where the policy came from, as `policies show` says
    name: str
    description: str
    kind: str

    def without(self, field: str, what: str) -> None:
        """PolicyError when the data has `field`, which another kind has (`what`: the field this kind has)."""
        if field in self.data:
            owner = "rollout policies" if field == "params" else "heuristic policies"
            raise PolicyError(f"{self.where}: field {field!r} belongs to {owner}; a {self.kind} has {what!r}")


Factory = Callable[[PolicyData, Load], Policy]  # a kind's policy from its data; Load gives a base policy by name


def policy_data(data: dict, where: str, source: str) -> PolicyData:
    """The fields every kind has, checked (the kind's name against the loader's kinds is the loader's to check)."""
    unknown = set(data) - set(FIELDS)
    if unknown:
        raise PolicyError(f"{where}: unknown field {sorted(unknown)[0]!r} (fields: {', '.join(sorted(FIELDS))})")
    name = require(data, "name", str, where)
    description = require(data, "description", str, where, default="")
    kind = require(data, "kind", str, where, default="heuristic")
    return PolicyData(data, where, source, name, description, kind)


def require(data: dict, key: str, typ, where: str, default=None):
    """data[key], of type `typ` (`default` when missing, if given); PolicyError names the field otherwise."""
    if key not in data:
        if default is not None:
            return default
        raise PolicyError(f"{where}: missing field {key!r}")
    val = data[key]
    if not isinstance(val, typ) or isinstance(val, bool) and typ is not bool:
        raise PolicyError(f"{where}: field {key!r} must be {typ.__name__}, got {val!r}")
    return val


def heuristic_policy(entry: PolicyData, load: Load) -> Policy:
    """A heuristic from its weights."""
    entry.without("params", "weights")
    return HeuristicPolicy(entry.name, entry.description, entry.source, weights=weights(entry.data, entry.where))


def search_policy(entry: PolicyData, load: Load) -> Policy:
    """A rollout or searcher from its parameters, its base policy loaded now, by `load` (a search policy plays out
    with an object, never a name)."""
    entry.without("weights", "params")
    params = rollout_params(entry.data.get("params", {}), entry.where, entry.kind)
    cls = SEARCH_CLASSES[entry.kind]
    return cls(entry.name, entry.description, entry.source, params=params, base=load(params["base"]))


# The kinds a policy file may name without an adapter, in the order an error lists them.
FILE_KINDS: dict[str, Factory] = {"heuristic": heuristic_policy, "rollout": search_policy, "searcher": search_policy}


def weights(data: dict, where: str) -> np.ndarray:
    """A heuristic's weight vector (one per FEATURE_NAMES entry, zero where not given), each checked."""
    raw = require(data, "weights", dict, where)
    w = np.zeros(N_FEATURES)
    for key, val in raw.items():
        if key not in FEATURE_INDEX:
            raise PolicyError(f"{where}: unknown feature 'weights.{key}' (features: {', '.join(FEATURE_NAMES)})")
        if isinstance(val, bool) or not isinstance(val, (int, float)) or not np.isfinite(val):
            raise PolicyError(f"{where}: field 'weights.{key}' must be a finite number, got {val!r}")
        w[FEATURE_INDEX[key]] = float(val)
    return w


def rollout_params(raw, where: str, kind: str = "rollout") -> dict:
    """Rollout (and searcher) parameters with defaults, each checked: worlds, base, crn, race, race_z, top, horizon,
    and a searcher's exact_plies. A searcher may have no worlds: its base then chooses among the exact best moves."""
    if not isinstance(raw, dict):
        raise PolicyError(f"{where}: field 'params' must be a table")
    names = [*ROLLOUT_DEFAULTS, HORIZON, *([EXACT_PLIES] if kind == "searcher" else [])]
    unknown = set(raw) - set(names)
    if unknown:
        raise PolicyError(f"{where}: unknown field 'params.{sorted(unknown)[0]}' (parameters: {', '.join(names)})")
    params = dict(ROLLOUT_DEFAULTS, **raw)
    worlds, fewest = params["worlds"], 0 if kind == "searcher" else 1
    if isinstance(worlds, bool) or not isinstance(worlds, int) or not fewest <= worlds <= 100_000:
        raise PolicyError(
            f"{where}: field 'params.worlds' must be a whole number from {fewest} to 100000, got {worlds!r}"
        )
    exact = params.get(EXACT_PLIES, LAST_BATCH)
    if isinstance(exact, bool) or not isinstance(exact, int) or not 1 <= exact <= LAST_BATCH:
        raise PolicyError(
            f"{where}: field 'params.{EXACT_PLIES}' must be a whole number from 1 to {LAST_BATCH}, got {exact!r}"
        )
    if not isinstance(params["base"], str):
        raise PolicyError(f"{where}: field 'params.base' must be a policy name, got {params['base']!r}")
    if not isinstance(params["crn"], bool):
        raise PolicyError(f"{where}: field 'params.crn' must be true or false, got {params['crn']!r}")
    race, z = params["race"], params["race_z"]
    if isinstance(race, bool) or not isinstance(race, int) or not 0 <= race <= 100_000:
        raise PolicyError(f"{where}: field 'params.race' must be a whole number from 0 to 100000, got {race!r}")
    if isinstance(z, bool) or not isinstance(z, (int, float)) or not 0 <= z <= 100:
        raise PolicyError(f"{where}: field 'params.race_z' must be a number from 0 to 100, got {z!r}")
    top = params["top"]
    if isinstance(top, bool) or not isinstance(top, int) or not 0 <= top <= MOVE_LIMIT:
        raise PolicyError(f"{where}: field 'params.top' must be a whole number from 0 to {MOVE_LIMIT}, got {top!r}")
    horizon = params.get(HORIZON, 0)
    if isinstance(horizon, bool) or not isinstance(horizon, int) or not 0 <= horizon <= 4:
        raise PolicyError(f"{where}: field 'params.{HORIZON}' must be a whole number from 0 to 4, got {horizon!r}")
    return params
