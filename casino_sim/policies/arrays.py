"""Policies as the plain arrays the numba kernels read (no Python objects cross into a kernel)."""

from __future__ import annotations

import numpy as np

from casino_sim.core.featurespec import N_FEATURES, P_BASE_KIND, P_CRN, P_INTS, P_KIND, P_RACE, P_RACE_Z, P_WORLDS
from casino_sim.policies.policy import Policy, PolicyError
from casino_sim.policies.registry import get_policy


def policy_arrays(policies: tuple[Policy, ...]):
    """(ints[k, P_INTS], weights[2k, F], wants[2k, F]) of k policies (A and B, or one per seat of an n-player
    round); rows k + i of weights: policy i's rollout or searcher base."""
    k_all = len(policies)
    ints = np.zeros((k_all, P_INTS), dtype=np.int64)
    weights = np.zeros((2 * k_all, N_FEATURES), dtype=np.float64)
    for k, pol in enumerate(policies):
        ints[k, P_KIND] = pol.kind_id
        if pol.kind == "heuristic":
            weights[k] = pol.weights
        elif pol.searches:
            base = get_policy(pol.params["base"])
            if base.kind not in ("random", "heuristic"):
                raise PolicyError(f"the {pol.kind} base policy must be random or a heuristic, not {base.name!r}")
            ints[k, P_WORLDS] = pol.params["worlds"]
            ints[k, P_CRN] = int(pol.params["crn"])
            ints[k, P_BASE_KIND] = base.kind_id
            ints[k, P_RACE] = pol.params["race"]
            ints[k, P_RACE_Z] = round(pol.params["race_z"] * 1000)
            if base.kind == "heuristic":
                weights[k_all + k] = base.weights
        elif pol.kind not in ("random", "trail"):
            raise PolicyError(f"policy {pol.name!r} ({pol.kind}) cannot play in the numba engine")
    return ints, weights, (weights != 0).astype(np.int64)
