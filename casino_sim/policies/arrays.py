"""Policies as the plain arrays the numba kernels read (no Python objects cross into a kernel)."""

from __future__ import annotations

import numpy as np

from casino_sim.core.featurespec import N_FEATURES, P_INTS
from casino_sim.policies.policy import Policy


def policy_arrays(policies: tuple[Policy, ...]):
    """(ints[k, P_INTS], weights[2k, F], wants[2k, F]) of k policies (A and B, or one per seat of an n-player
    round): each policy's kernel_row; rows k + i of weights: policy i's rollout or searcher base."""
    k_all = len(policies)
    ints = np.zeros((k_all, P_INTS), dtype=np.int64)
    weights = np.zeros((2 * k_all, N_FEATURES), dtype=np.float64)
    for k, pol in enumerate(policies):
        ints[k], own, base = pol.kernel_row()
        if own is not None:
            weights[k] = own
        if base is not None:
            weights[k_all + k] = base
    return ints, weights, (weights != 0).astype(np.int64)
