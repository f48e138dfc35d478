"""The processor numba compiles the kernels for: the host's instruction set, LLVM's generic scheduling model.

On an AMD Zen 3 host (LLVM's `znver3` model, numba 0.67-0.68 with LLVM 20-22) the cold compile of the
round loop ran for over 13 CPU-minutes and then overflowed the stack inside LLVM; with the generic model
and the same instruction set (AVX2, BMI, ...) it takes about a minute and a half. The model only orders
instructions: every result is the same. A NUMBA_CPU_NAME set by the user is respected.
"""

from __future__ import annotations

import os
import sys


def configure() -> None:
    """Set NUMBA_CPU_NAME=generic and NUMBA_CPU_FEATURES to the host's, before numba compiles anything."""
    if os.environ.get("NUMBA_CPU_NAME"):
        return
    import llvmlite.binding as llvm  # loads LLVM only: imported by the engine, never by `import casino_sim`

    features = os.environ.get("NUMBA_CPU_FEATURES") or llvm.get_host_cpu_features().flatten()
    os.environ["NUMBA_CPU_NAME"], os.environ["NUMBA_CPU_FEATURES"] = "generic", features
    if "numba" in sys.modules:  # numba read its config already: set it there too (no kernel is compiled yet)
        config = sys.modules["numba"].config
        config.CPU_NAME, config.CPU_FEATURES = "generic", features


configure()  # on import, which kernels/__init__.py does before any kernel is compiled or loaded
