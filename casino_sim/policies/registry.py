"""Policies by name: the built-ins, policy files by path, and Python callables for prototyping."""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache
from importlib import resources
from pathlib import Path

from casino_sim.policies.files import load_policy_file
from casino_sim.policies.policy import Policy, PolicyError, PythonPolicy

RANDOM = Policy("random", "random", "Plays a legal move chosen uniformly at random.")
TRAIL = Policy(
    "trail",
    "trail",
    "Trails its lowest card whenever the rules allow, else plays the first legal move in canonical order: "
    "piles the table high (studies of crowded tables, a floor for other policies).",
)
_registered: dict[str, Policy] = {}


@cache
def _builtin_files() -> dict[str, Policy]:
    folder = resources.files("casino_sim.policies") / "builtin"
    out = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            with resources.as_file(entry) as path:
                policy = load_policy_file(path, source="built-in")
            out[policy.name] = policy
    return out


def builtin_policies() -> dict[str, Policy]:
    """Every policy known by name, built-ins first, then those registered in this process."""
    return {"random": RANDOM, "trail": TRAIL, **_builtin_files(), **_registered}


def register_policy(name: str, fn: PythonPolicy, description: str = "") -> Policy:
    """Register a plain Python callable (position, legal_moves, rng) -> move as a policy.

    Slow (it runs in Python, one call per move): meant for trying an idea before
    writing it as weights. It plays with the reference engine.
    """
    if not callable(fn):
        raise PolicyError(f"policy {name!r}: {fn!r} is not callable")
    if name in {"random", "trail", *_builtin_files()}:
        raise PolicyError(f"policy name {name!r} is taken by a built-in policy")
    policy = Policy(
        name,
        "python",
        description or (fn.__doc__ or "").strip() or "A Python callable.",
        source=f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', '?')}",
        fn=fn,
    )
    _registered[name] = policy
    return policy


def _load_callable(spec: str) -> PythonPolicy:
    """`module:function` or `path/to/file.py:function`."""
    target, _, attr = spec.rpartition(":")
    try:
        if target.endswith(".py"):
            path = Path(target)
            if not path.is_file():
                raise PolicyError(f"no such policy file: {target}")
            mod_spec = importlib.util.spec_from_file_location(path.stem, path)
            module = importlib.util.module_from_spec(mod_spec)
            mod_spec.loader.exec_module(module)
        else:
            module = importlib.import_module(target)
    except PolicyError:
        raise
    except Exception as e:  # a user's module may fail in any way; say so in one line
        raise PolicyError(f"cannot load policy module {target!r}: {e.__class__.__name__}: {e}") from None
    fn = getattr(module, attr, None)
    if fn is None:
        raise PolicyError(f"{target!r} has no function {attr!r}")
    return fn


def get_policy(spec: str) -> Policy:
    """A policy by name, by path to a .toml policy file, or `module:function` / `file.py:function`."""
    known = builtin_policies()
    if spec in known:
        return known[spec]
    if spec.endswith(".toml") or Path(spec).is_file():
        return load_policy_file(Path(spec))
    if ":" in spec and spec.rpartition(":")[2].isidentifier():
        fn = _load_callable(spec)
        return register_policy(spec, fn) if spec not in _registered else _registered[spec]
    raise PolicyError(
        f"unknown policy {spec!r} (choose from: {', '.join(known)}; or a .toml policy file, or module:function)"
    )
