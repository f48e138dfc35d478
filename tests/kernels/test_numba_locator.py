"""Identical engine sources share numba's cache wherever they are installed; an edited source does not
(core/numba_locator.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

from casino_sim.engines.compiling import ensure_compiled
from casino_sim.kernels import will_compile
from casino_sim.kernels.movegen import _movegen

ASK = (
    "import json, casino_sim; from casino_sim.kernels import will_compile; "
    "print(json.dumps([casino_sim.__file__, will_compile('moves', 'apply')]))"
)


def _copy_asks(tmp_path, edit: str | None = None) -> tuple[str, bool]:
    """In a copy of the package (fresh modification times; `edit` a kernel file to append a comment to): where
    casino_sim is imported from, and whether the moves and apply kernels would compile there."""
    package = os.path.dirname(sys.modules["casino_sim"].__file__)
    copy = tmp_path / "elsewhere" / "casino_sim"
    shutil.copytree(package, copy, copy_function=shutil.copyfile, ignore=shutil.ignore_patterns("__pycache__"))
    if edit:
        with open(copy / "kernels" / edit, "a") as f:
            f.write("# an edit\n")
    env = {**os.environ, "PYTHONPATH": str(copy.parent)}  # the test's NUMBA_CACHE_DIR, set by `import casino_sim`
    out = subprocess.run([sys.executable, "-c", ASK], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    where, due = json.loads(out.stdout)
    assert where == str(copy / "__init__.py")
    return where, due


def test_a_copy_of_the_same_sources_finds_the_kernels_this_install_compiled(tmp_path):
    ensure_compiled("moves", "apply", ahead=False)
    assert not will_compile("moves", "apply")
    assert _copy_asks(tmp_path)[1] is False


def test_an_edited_source_anywhere_in_the_engine_compiles_again(tmp_path):
    """score.py is not the file movegen's kernel is written in: numba's own check would have missed the edit."""
    ensure_compiled("moves", "apply", ahead=False)
    assert _copy_asks(tmp_path, edit="score.py")[1] is True


def test_kernels_are_filed_under_their_package_folder_and_the_sources_hash():
    from casino_sim.core.numba_cache import engine_source_hash

    folder = os.path.basename(_movegen._cache._cache_path)
    assert folder == f"casino_sim_kernels_{engine_source_hash()}"
