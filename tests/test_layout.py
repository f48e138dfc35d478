"""The package's shape stays as docs/design.md draws it: small modules, short kernel signatures, imports downward."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "casino_sim"
MODULES = sorted(PACKAGE.rglob("*.py"))
DESIGN = PACKAGE.parent / "docs" / "design.md"
MAX_LINES = 400
MAX_KERNEL_PARAMETERS = 12


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _imported(path: Path, prefix: str = "casino_sim") -> set[str]:
    """Every module under `prefix` (casino_sim's, or "" for all) the file imports, at any depth of the file (lazy
    imports included)."""
    names = set()
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return {n for n in names if n.startswith(prefix)}


def _in(path: Path, package: str) -> bool:
    return path.relative_to(PACKAGE).parts[0] == package


def test_the_package_has_modules_to_check():
    assert len(MODULES) > 50 and any(_in(p, "kernels") for p in MODULES)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_is_over_400_lines(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= MAX_LINES


def test_no_numba_kernel_takes_more_than_12_parameters():
    long = []
    for path in MODULES:
        for node in ast.walk(_tree(path)):
            jitted = isinstance(node, ast.FunctionDef) and any("jit" in ast.unparse(d) for d in node.decorator_list)
            if jitted and len(node.args.args) > MAX_KERNEL_PARAMETERS:
                long.append(f"{path.name}::{node.name} ({len(node.args.args)})")
    assert not long


def test_the_reference_engine_never_imports_the_numba_engine():
    offenders = [
        p.name
        for p in MODULES
        if _in(p, "reference")
        and any(m.startswith("casino_sim.kernels.") or m == "casino_sim.kernels" for m in _imported(p))
    ]
    assert not offenders


def test_the_numba_engine_sees_reference_types_only_through_its_codec():
    offenders = [
        p.name
        for p in MODULES
        if _in(p, "kernels")
        and p.name != "codec.py"
        and any(m.startswith("casino_sim.reference") for m in _imported(p))
    ]
    assert not offenders


def test_core_imports_nothing_above_it():
    offenders = {
        p.name: m for p in MODULES if _in(p, "core") for m in _imported(p) if not m.startswith("casino_sim.core")
    }
    assert not offenders


FRAMEWORKS = ("pyspiel", "open_spiel", "pettingzoo", "gymnasium")
# the research extra's modules that import a framework, imported only by their users
ADAPTERS = ("openspiel.py", "openspiel_bots.py", "pettingzoo.py")
# the package's own face and entry point: above every layer, in no row of the table
FACES = ("__init__", "__main__")


def test_only_the_adapters_import_a_research_framework():
    offenders = {
        str(p.relative_to(PACKAGE)): m
        for p in MODULES
        if p.name not in ADAPTERS or len(p.relative_to(PACKAGE).parts) > 1
        for m in _imported(p, "")
        if m.split(".")[0] in FRAMEWORKS
    }
    assert not offenders


def test_the_research_core_imports_no_layer_that_runs_commands():
    """research/ stands on engines/, reference/ and core/ (docs/design.md), never on the commands' layers."""
    above = ("casino_sim.cli", "casino_sim.api", "casino_sim.experiments", "casino_sim.reports", "casino_sim.runner")
    offenders = {p.name: m for p in MODULES if _in(p, "research") for m in _imported(p) if m.startswith(above)}
    assert not offenders


# The arrows up the layers that docs/design.md names: type hints only, imported under `if TYPE_CHECKING:` (never
# when the program runs). None is left: the rows every engine plays live in core/ (core/rows.py DealRows).
UPWARD: set[tuple[str, str]] = set()


def _hinted(path: Path) -> set[str]:
    """The casino_sim modules a file imports under `if TYPE_CHECKING:` only (for type hints)."""
    blocks = [n for n in ast.walk(_tree(path)) if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"]
    names = set()
    for block in blocks:
        for node in ast.walk(ast.Module(body=block.body, type_ignores=[])):
            if isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
                names.update(f"{node.module}.{a.name}" for a in node.names)
    return {n for n in names if n.startswith("casino_sim")}


def _layer(path: Path) -> str:
    """The row of docs/design.md's Layers table a module belongs to: its package, or its name without .py."""
    return path.relative_to(PACKAGE).parts[0].removesuffix(".py")


def _layers() -> list[str]:
    """The packages of docs/design.md's Layers table, top first (a top-level module by its name without .py)."""
    table = DESIGN.read_text(encoding="utf-8").split("\n## Layers", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([a-z_]+)(?:/|\.py)`", table, re.M)


def test_every_module_has_a_row_in_the_layers_table():
    """The layer test below covers every module: each package and top-level module is a row of the table."""
    order = _layers()
    assert order[-1] == "core" and {"cli", "experiments", "loader", "policies", "kernels"} <= set(order)
    assert len(order) == len(set(order))
    assert not {_layer(p) for p in MODULES} - set(order) - set(FACES)


def _is_module(name: str) -> bool:
    """Whether casino_sim.`name` is a module or package of its own (not a name the package's face defines)."""
    return (PACKAGE / name).is_dir() or (PACKAGE / f"{name}.py").exists()


def test_every_package_imports_only_the_layers_below_it():
    order = _layers()
    up = set()
    for p in MODULES:
        a = _layer(p)
        for m in _imported(p):
            b = m.split(".")[1] if m.count(".") else ""
            if a not in FACES and m.count(".") == 1 and not _is_module(b):
                up.add(f"{p.relative_to(PACKAGE)} -> {m}")  # a name of the package's face (its __init__)
            if a in FACES or b not in order:
                continue  # the package's face, which no layer imports
            if order.index(b) < order.index(a) and not ((a, b) in UPWARD and m in _hinted(p)):
                up.add(f"{p.relative_to(PACKAGE)} -> {m}")
    assert not up


def test_no_layer_below_the_front_doors_looks_a_policy_up_by_name():
    """The policy loader stands right below experiments/: every layer under it is handed policy objects."""
    order = _layers()
    assert order.index("loader") == order.index("experiments") + 1
    below = order[order.index("loader") + 1 :]
    offenders = {
        str(p.relative_to(PACKAGE))
        for p in MODULES
        if _layer(p) in below and any(m.startswith("casino_sim.loader") for m in _imported(p))
    }
    assert not offenders
