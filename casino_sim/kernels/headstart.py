"""A first run's head start: kernels compiled on their own, from arguments of the types their callers pass.

Numba compiles in one thread, so a cold compile uses one core. The heuristic's
choice is the largest kernel of a round (about a third of a first run's compile)
and calls nothing the round's other big kernels call, so a second process
compiles it into numba's cache (AHEAD) while the first compiles move generation,
the score and the Scratch, and the searcher's exact last batch when a seat
searches (BESIDE); the warm-up then loads them and compiles
only the kernels that call them (engines/compiling.py). The code is the same as
compiled in one process: numba caches a kernel with the bitcode its callers link.

Each kernel's example arguments have the types its callers pass (buffers.py's
Scratch, rows.py's seats and records): a test holds the two equal, so the
warm-up never compiles a second version.
"""

from __future__ import annotations

import numpy as np
from numba import typeof

from casino_sim.core.featurespec import N_FEATURES
from casino_sim.core.rules import STRICT
from casino_sim.kernels import layout as L
from casino_sim.kernels.tables import split_table

CAP = 4  # moves in the example buffers: any number has the same types


def _ints(*shape):
    return np.zeros(shape, dtype=np.int64)


def _floats(*shape):
    return np.zeros(shape, dtype=np.float64)


def _choice():
    from casino_sim.kernels.choose import _heuristic_index

    st, f = _ints(L.STATE_SIZE), _floats(N_FEATURES)  # (st, after), (weights, f): the same types
    rng = np.zeros(1, dtype=np.uint64)
    args = (st, STRICT.as_array(), split_table(), _ints(CAP, L.MOVE_FIELDS), 1, f, _ints(N_FEATURES), rng, st, f)
    return _heuristic_index, (*args, _floats(CAP))


def _movegen():
    from casino_sim.kernels.movegen import _movegen

    st, subsets = _ints(L.STATE_SIZE), _ints(1)  # subsets: sc_code, sc_mask
    return _movegen, (st, STRICT.as_array(), split_table(), _ints(CAP, L.MOVE_FIELDS), subsets, subsets)


def _end_round():
    from casino_sim.kernels.play import _end_round

    score, tab = _ints(L.SCORE_ROWS, L.SCORE_FIELDS), _ints(L.GROUPS, L.MAX_PLAYERS, L.MAX_PLAYERS)
    return _end_round, (_ints(L.STATE_SIZE), STRICT.as_array(), score, _ints(1), tab, None)  # check: None


def _new_scratch():
    from casino_sim.kernels.buffers import _new_scratch

    return _new_scratch, (CAP, 1)


def _exact_best():
    from casino_sim.kernels.buffers import _new_scratch
    from casino_sim.kernels.exact import _search_space
    from casino_sim.kernels.search import _exact_best

    buf = _new_scratch(CAP, 1)
    return _exact_best, (
        _ints(L.STATE_SIZE),
        STRICT.as_array(),
        split_table(),
        1,
        buf.mv,
        buf.sc_code,
        buf.sc_mask,
        _search_space(CAP),
    )


AHEAD = (_choice,)  # compiled by the second process
AHEAD_KERNEL = "choose._heuristic_index"  # its kernel, as kernels/compiled.py kernel_name names it
# compiled by this one meanwhile, those a command will compile (the searcher's exact last batch: with a searching seat)
BESIDE = (_movegen, _end_round, _new_scratch, _exact_best)


def compile_examples(examples=AHEAD, only: set[str] | None = None) -> list:
    """Compile (or load from numba's cache) each example's kernel for its arguments' types, or only the kernels
    named in `only` (kernels/compiled.py kernel_name): the kernels."""
    from casino_sim.kernels.compiled import kernel_name

    kernels = []
    for example in examples:
        kernel, args = example()
        if only is None or kernel_name(kernel) in only:
            kernel.compile(tuple(typeof(a) for a in args))
            kernels.append(kernel)
    return kernels
