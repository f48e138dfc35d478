"""Policy files (TOML): a heuristic's weights, a rollout's (or searcher's) or OpenSpiel IS-MCTS's parameters, checked
field by field."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from casino_sim.core.featurespec import SEARCH_KINDS
from casino_sim.core.limits import MOVE_LIMIT
from casino_sim.core.tomlfile import read_toml
from casino_sim.policies import ismcts
from casino_sim.policies.features import FEATURE_INDEX, FEATURE_NAMES, N_FEATURES
from casino_sim.policies.kinds import EXACT_PLIES, HORIZON, LAST_BATCH, SEARCH_CLASSES, HeuristicPolicy
from casino_sim.policies.policy import Policy, PolicyError

# race 0: every move plays every world (docs/policies.md, "Racing"); no built-in races
ROLLOUT_DEFAULTS = {"worlds": 64, "base": "expert", "crn": True, "race": 0, "race_z": 2.0, "top": 0}

BaseOf = Callable[[str], Policy]  # a rollout's or searcher's base policy by name


def load_policy_file(path: Path, source: str | None = None, base_of: BaseOf | None = None) -> Policy:
    """Read and check a policy file; PolicyError names the file and the bad field."""
    data = read_toml(path, "policy file", PolicyError)
    return policy_from_dict(data, str(path), source or str(path), base_of)


def _require(data: dict, key: str, typ, where: str, default=None):
    if key not in data:
        if default is not None:
            return default
        raise PolicyError(f"{where}: missing field {key!r}")
    val = data[key]
    if not isinstance(val, typ) or isinstance(val, bool) and typ is not bool:
        raise PolicyError(f"{where}: field {key!r} must be {typ.__name__}, got {val!r}")
    return val


def policy_from_dict(data: dict, where: str, source: str, base_of: BaseOf | None = None) -> Policy:
    """Build a heuristic, rollout, searcher or openspiel-ismcts policy from a parsed policy file; a rollout's or
    searcher's base is resolved here, once, by `base_of` (default: policies/registry.py get_policy)."""
    known = {"name", "description", "kind", "weights", "params"}
    unknown = set(data) - known
    if unknown:
        raise PolicyError(f"{where}: unknown field {sorted(unknown)[0]!r} (fields: {', '.join(sorted(known))})")
    name = _require(data, "name", str, where)
    description = _require(data, "description", str, where, default="")
    kind = _require(data, "kind", str, where, default="heuristic")
    if kind == "heuristic":
        if "params" in data:
            raise PolicyError(f"{where}: field 'params' belongs to rollout policies; a heuristic has 'weights'")
        return HeuristicPolicy(name, description, source, weights=_weights(data, where))
    if kind in SEARCH_KINDS:
        if "weights" in data:
            raise PolicyError(f"{where}: field 'weights' belongs to heuristic policies; a {kind} has 'params'")
        params = rollout_params(data.get("params", {}), where, kind)
        return SEARCH_CLASSES[kind](name, description, source, params=params, base=_base(params, base_of))
    if kind == ismcts.KIND:
        if "weights" in data:
            raise PolicyError(f"{where}: field 'weights' belongs to heuristic policies; a {kind} has 'params'")
        return ismcts.ismcts_policy(name, description, source, data.get("params", {}), where)
    raise PolicyError(
        f"{where}: field 'kind' must be 'heuristic', 'rollout', 'searcher' or {ismcts.KIND!r}, got {kind!r}"
    )


def _base(params: dict, base_of: BaseOf | None) -> Policy:
    """The base policy `params` names, loaded now (a search policy plays out with an object, never a name)."""
    if base_of is None:
        from casino_sim.policies.registry import get_policy as base_of  # deferred: the registry reads policy files

    return base_of(params["base"])


def _weights(data: dict, where: str) -> np.ndarray:
    raw = _require(data, "weights", dict, where)
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
