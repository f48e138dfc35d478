"""The scripts in scripts/ load against today's package: a name they import that a refactor moved or removed is
found here, not when results/ is next regenerated (standard_results.py once imported a table list that had gone)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"

LOAD_ALL = """
import runpy, sys
sys.path.insert(0, sys.argv[1])  # the scripts import each other as the folder's modules
for path in sys.argv[2:]:
    runpy.run_path(path, run_name="loaded_by_test")  # not "__main__": nothing runs
"""


def test_every_script_imports_what_it_names():
    paths = sorted(str(p) for p in SCRIPTS.glob("*.py"))
    assert len(paths) >= 8
    proc = subprocess.run([sys.executable, "-c", LOAD_ALL, str(SCRIPTS), *paths], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_the_frontier_rates_every_built_in_policy():
    sys.path.insert(0, str(SCRIPTS))
    try:
        from frontier_results import POLICIES
    finally:
        sys.path.remove(str(SCRIPTS))
    from casino_sim.policies.registry import builtin_policies

    built_in = [name for name, policy in builtin_policies().items() if policy.source == "built-in"]  # not registered
    assert sorted(POLICIES) == sorted(built_in)
