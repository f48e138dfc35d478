"""Bit tricks and card constants for the numba kernels.

Masks are int64, not uint64: 52 card bits fit below the sign bit, and numba
promotes a mix of uint64 and int64 to float64, which would silently break
masks. Only the PRNG (rng.py) works in uint64.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

N_CARDS = 52
NUMBER_MASK = (1 << 40) - 1  # A..10 of all suits are cards 0..39
FULL_MASK = (1 << 52) - 1
SPADE_MASK = sum(1 << c for c in range(0, 52, 4))
ACE_MASK = 0xF
BIG_CASINO = 9 * 4 + 2  # 10 of diamonds
LITTLE_CASINO = 1 * 4 + 0  # 2 of spades

# value of each card: 1..10 for number cards, 0 for J Q K
CARD_VALUE = np.array([(c >> 2) + 1 if (c >> 2) < 10 else 0 for c in range(N_CARDS)], dtype=np.int64)
# the four cards of each value v (index 0 unused): cards (v-1)*4 .. (v-1)*4+3
VALUE_MASK = np.array([0] + [0xF << (4 * (v - 1)) for v in range(1, 11)], dtype=np.int64)
# cards strictly below value v: bits 0 .. 4*(v-1)-1 (index 0..11)
BELOW_VALUE = np.array([0] + [(1 << (4 * (v - 1))) - 1 for v in range(1, 12)], dtype=np.int64)
# the four cards of each rank index 0..12 (for figures: 10 J, 11 Q, 12 K)
RANK_MASK = np.array([0xF << (4 * r) for r in range(13)], dtype=np.int64)
# base-5 place value of a card's value in a "count vector code": 5**(v-1); 0 for figures
POW5 = np.array([5**k for k in range(11)], dtype=np.int64)
CARD_CODE = np.array([5 ** (c >> 2) if (c >> 2) < 10 else 0 for c in range(N_CARDS)], dtype=np.int64)


@intrinsic
def ctz(typingctx, x):
    """Count trailing zeros (index of the lowest set bit); x must be non-zero."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return x(x), codegen


@intrinsic
def popcount(typingctx, x):
    """Number of set bits."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen
