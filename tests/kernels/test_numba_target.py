"""The engine compiles for the host's instruction set with LLVM's generic model (core/numba_target.py): the
host's own model (znver3) made the cold compile of the round loop overflow LLVM's stack."""

from __future__ import annotations

import json
import os
import subprocess
import sys

SHOW = (
    "import json, casino_sim.kernels, numba, llvmlite.binding as ll; "
    "print(json.dumps([numba.config.CPU_NAME, numba.config.CPU_FEATURES, ll.get_host_cpu_features().flatten()]))"
)


def _target(**env: str) -> list:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CPU_")}
    out = subprocess.run([sys.executable, "-c", SHOW], env={**clean, **env}, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_the_engine_compiles_for_the_host_features_with_the_generic_model():
    name, features, host = _target()
    assert name == "generic"
    assert features == host and "+sse2" in features  # the host's instruction set, not numba's bare generic one


def test_a_cpu_name_the_user_sets_is_kept():
    name, features, _ = _target(NUMBA_CPU_NAME="haswell")
    assert name == "haswell" and features is None
