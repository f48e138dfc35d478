"""Whether a command's kernels will be compiled now or loaded from numba's cache, and which (for the first-run
notice and its progress bar).

A cache folder may hold kernels of other sources, or of another numba or
processor (core/numba_locator.py keys them on the engine's sources, so another
install of the same sources shares them). Asking each entry kernel's own cache
index is the only check that agrees with what numba does.
"""

from __future__ import annotations

import types
from contextlib import contextmanager
from importlib import import_module

from numba.core import event
from numba.core.registry import CPUDispatcher

# The kernels each kind of work enters from Python; their callees are compiled (and cached) with them.
ENTRY_KERNELS = {
    "rounds": (("rows", "_play_rows"),),  # every player count, whole games and seated comparisons: the row kernel
    "moves": (("buffers", "_new_scratch"), ("movegen", "_movegen"), ("movegen", "_sort_moves")),
    "apply": (("buffers", "_new_scratch"), ("movegen", "_movegen"), ("apply", "_apply")),
    "rollout": (
        ("buffers", "_new_scratch"),
        ("movegen", "_movegen"),
        ("movegen", "_sort_moves"),
        ("search", "_search_index"),
    ),
    "analyse": (("buffers", "_new_scratch"), ("rollout", "_rollout_diffs"), ("exact", "_exact_values")),
    "regret": (("rows", "_play_rows"), ("lastbatch", "_judge_rows")),
}
# The root of the search kernels (rollout, searcher, the exact last batch): the round kernels take `search` as their
# last parameter, and compile them only in the variant whose seats search (kernels/search.py _play_to_end).
SEARCH_ROOT = "search._search_index"
# The roots of --check's kernels: the round kernels take `check`, and compile them only in the variant that checks
# (True; the common one, None, is the one compiled ahead: a --check run compiles its own when it plays).
CHECK_ROOTS = ("check._check_play", "check._check_end")


def _variant(kernel, search: bool) -> dict[int, str]:
    """The type each variant parameter of a round kernel has in the variant compiled ahead, by its position:
    `search` a bool (with the search kernels) or none, `check` none (--check's variant compiles when it plays)."""
    code = kernel.py_func.__code__
    want = {"search": "bool" if search else "none", "check": "none"}
    return {i: want[name] for i, name in enumerate(code.co_varnames[: code.co_argcount]) if name in want}


def _has_cached_code(kernel, search: bool = False) -> bool:
    """Whether numba's cache index for `kernel` is fresh for this install (its own check, numba >= 0.59): for a
    round kernel, holds the variant _variant names."""
    cache_file = getattr(getattr(kernel, "_cache", None), "_cache_file", None)
    if cache_file is None:  # numba changed its internals: assume a compile rather than stay silent
        return False
    try:
        variant = _variant(kernel, search)  # key[0] below: a compiled version's argument types
        return any(all(str(key[0][i]) == t for i, t in variant.items()) for key in cache_file._load_index())
    except Exception:  # an unreadable index is recompiled by numba too
        return False


def will_compile(*work: str, search: bool = False) -> bool:
    """Whether any kernel of these kinds of work (keys of ENTRY_KERNELS) must be compiled before it runs; `search`:
    in the round kernels' variant for seats that search."""
    for kind in work:
        for module, name in ENTRY_KERNELS[kind]:
            if not _has_cached_code(_entry(module, name), search):
                return True
    return False


def _entry(module: str, name: str):
    return getattr(import_module(f"casino_sim.kernels.{module}"), name)


def _callees(kernel, search: bool) -> list:
    """The kernels `kernel`'s source names (directly, or as an attribute of a module it names), and with `search`
    those an overload it names compiles in the searching variant (its Python face's `search_kernels`)."""
    code, names = [kernel.py_func.__code__], set()
    while code:
        c = code.pop()
        names.update(c.co_names)
        code.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    found = []
    for value in (kernel.py_func.__globals__.get(n) for n in names):
        if isinstance(value, types.ModuleType):
            found.extend(v for n in names if isinstance(v := getattr(value, n, None), CPUDispatcher))
        elif isinstance(value, CPUDispatcher):
            found.append(value)
        elif search and isinstance(value, types.FunctionType):  # exact.py _search_space_for
            found.extend(getattr(value, "search_kernels", ()))
    return found


def kernels_due(*work: str, search: bool = False) -> list[str]:
    """The kernels this work compiles (a count for the progress bar): those its entry kernels reach that numba
    compiles on their own (not inlined) and whose cache holds nothing for this install; the search kernels only
    with `search` (the round kernels' variant for seats that search)."""
    todo = [_entry(m, n) for kind in work for m, n in ENTRY_KERNELS[kind]]
    seen = {}
    while todo:
        kernel = todo.pop()
        name = kernel_name(kernel)
        if name not in seen:
            seen[name] = kernel
            skip = CHECK_ROOTS if search else (SEARCH_ROOT, *CHECK_ROOTS)
            todo.extend(k for k in _callees(kernel, search) if kernel_name(k) not in skip)
    return sorted(
        n for n, k in seen.items() if k.targetoptions.get("inline") != "always" and not _has_cached_code(k, search)
    )


def kernel_name(kernel) -> str:
    """module.function of a kernel, as the progress bar names it."""
    return f"{kernel.py_func.__module__.rsplit('.', 1)[-1]}.{kernel.py_func.__name__}"


@contextmanager
def compile_events(started, finished):
    """Call started(name) and finished(name) as numba begins and ends compiling each kernel, inside the block."""

    class Listener(event.Listener):
        def on_start(self, e):
            started(kernel_name(e.data["dispatcher"]))

        def on_end(self, e):
            finished(kernel_name(e.data["dispatcher"]))

    listener = Listener()
    event.register("numba:compile", listener)
    try:
        yield
    finally:
        event.unregister("numba:compile", listener)
