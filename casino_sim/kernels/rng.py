"""A tiny deterministic PRNG for the kernels: splitmix64 on a one-element uint64 array.

Each row of simulate brings its own seed (runner.deals draws them); inside a
kernel it is the only source of randomness, so a round depends only on its
seed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


@njit(cache=True, _nrt=False)
def _next(s):
    """Next 64 random bits (uint64); s is a uint64[1] state."""
    x = s[0] + _GOLDEN
    s[0] = x
    z = (x ^ (x >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit("int64(uint64[::1], int64)", cache=True, _nrt=False)  # one version, whatever constants callers pass (movegen.py)
def _below(s, n):
    """An int in [0, n) for 1 <= n < 2**32 (multiply-shift of the top 32 bits)."""
    r = _next(s) >> _S32
    return np.int64((r * np.uint64(n)) >> _S32)
