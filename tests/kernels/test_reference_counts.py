"""Kernels compiled without reference counts (`_nrt=False`) reach no callee that allocates and inherits the flag.

Numba compiles a callee with its caller's `_nrt` unless the callee sets its own (or is compiled eagerly from a
signature), so an allocating callee of a round loop compiled without counts would fail to compile, but only when
that loop happened to compile it first: an order that a test run may never take (docs/design.md).
"""

from __future__ import annotations

import ast
from pathlib import Path

import casino_sim.kernels

KERNELS = Path(casino_sim.kernels.__file__).parent
ALLOCATING = {"zeros", "empty", "ones", "full", "empty_like", "zeros_like", "ones_like", "arange", "array", "copy"}


def _decorator(fn: ast.FunctionDef) -> ast.Call | None:
    """The njit(...) call decorating fn, or None for a function numba does not compile."""
    for d in fn.decorator_list:
        if isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "njit":
            return d
    return None


def _kernels() -> dict[tuple[str, str], dict]:
    """(module, name) -> the kernel's own _nrt (True, False or None: inherited), whether it allocates, its callees."""
    found = {}
    for path in sorted(KERNELS.glob("*.py")):
        tree = ast.parse(path.read_text())
        module = path.stem
        names = {}  # a name called in this module -> the (module, name) it is
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("casino_sim.kernels."):
                for alias in node.names:
                    names[alias.asname or alias.name] = (node.module.rsplit(".", 1)[1], alias.name)
            elif isinstance(node, ast.FunctionDef):
                names[node.name] = (module, node.name)
        for node in tree.body:
            deco = _decorator(node) if isinstance(node, ast.FunctionDef) else None
            if deco is None:
                continue
            keywords = {k.arg: k.value for k in deco.keywords}
            own = ast.literal_eval(keywords["_nrt"]) if "_nrt" in keywords else None
            if deco.args:  # a signature: compiled when defined, with its own flags
                own = True if own is None else own
            calls = [n for n in ast.walk(node) if isinstance(n, ast.Call)]
            found[(module, node.name)] = {
                "own": own,
                "allocates": any(isinstance(c.func, ast.Attribute) and c.func.attr in ALLOCATING for c in calls),
                "callees": {names[c.func.id] for c in calls if isinstance(c.func, ast.Name) and c.func.id in names},
            }
    return found


def _inheriting_allocators(kernels: dict, root: tuple[str, str]) -> list[tuple[str, str]]:
    """The kernels compiled under `root`'s flag (callees that set none, transitively) that allocate."""
    bad, seen, todo = [], {root}, [root]
    while todo:
        for callee in kernels[todo.pop()]["callees"]:
            if callee in seen or callee not in kernels or kernels[callee]["own"] is not None:
                continue
            seen.add(callee)
            todo.append(callee)
            if kernels[callee]["allocates"]:
                bad.append(callee)
    return bad


def test_the_round_loops_compile_without_reference_counts():
    kernels = _kernels()
    assert kernels[("rows", "_play_block")]["own"] is False


def test_no_kernel_without_reference_counts_reaches_an_allocating_callee_that_inherits_it():
    kernels = _kernels()
    roots = [k for k, v in kernels.items() if v["own"] is False]
    assert len(roots) > 10
    bad = {root: _inheriting_allocators(kernels, root) for root in roots}
    assert not {r: b for r, b in bad.items() if b}, "give these callees _nrt=True (docs/design.md)"


def test_the_scan_sees_an_allocating_callee_that_inherits():
    kernels = _kernels()
    assert kernels[("check", "_check_end")]["allocates"]
    kernels[("check", "_check_end")]["own"] = None  # as it was before it said _nrt=True
    assert ("check", "_check_end") in _inheriting_allocators(kernels, ("rows", "_play_block"))
