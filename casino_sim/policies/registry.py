"""Policies by name: the built-ins, policy files by path, and Python callables for prototyping."""

from __future__ import annotations

import importlib
import importlib.util
import re
from dataclasses import replace
from functools import cache
from importlib import resources
from pathlib import Path

from casino_sim.core.featurespec import SEARCH_KINDS
from casino_sim.core.tomlfile import read_toml
from casino_sim.policies.bots import PREFIX as EXEC_PREFIX
from casino_sim.policies.bots import BotPolicy, ExecBot, bot_argv, bot_name
from casino_sim.policies.files import load_policy_file, policy_from_dict
from casino_sim.policies.kinds import CallablePolicy, RandomPolicy, TrailPolicy
from casino_sim.policies.policy import Policy, PolicyError, PythonPolicy

RANDOM = RandomPolicy("random", "Plays a legal move chosen uniformly at random.")
TRAIL = TrailPolicy(
    "trail",
    "Trails its lowest card whenever the rules allow, else plays the first legal move in canonical order: "
    "piles the table high (studies of crowded tables, a floor for other policies).",
)
_registered: dict[str, Policy] = {}
_bots: dict[str, Policy] = {}  # exec:COMMAND policies by their spec, so that a run keeps one process per worker


@cache
def _builtin_files() -> dict[str, Policy]:
    folder = resources.files("casino_sim.policies") / "builtin"
    files = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            with resources.as_file(entry) as path:
                files[str(path)] = read_toml(path, "policy file", PolicyError)
    loaded: dict[str, Policy] = {}  # by name, as a rollout's or searcher's base is named
    by_path = {}
    base_of = lambda name: {"random": RANDOM, "trail": TRAIL, **loaded}[name]  # noqa: E731
    for path in sorted(files, key=lambda path: files[path].get("kind") in SEARCH_KINDS):  # their bases first
        policy = by_path[path] = policy_from_dict(files[path], path, "built-in", base_of)
        loaded[policy.name] = policy
    return {by_path[path].name: by_path[path] for path in files}


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
    policy = CallablePolicy(
        name,
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


def exec_policy(spec: str) -> Policy:
    """`exec:COMMAND`: an outside program asked for every move (policies/bots.py), one per spec in a process."""
    if spec not in _bots:
        bot = ExecBot(spec, bot_argv(spec))
        _bots[spec] = BotPolicy(
            bot_name(bot.argv),
            f"The program `{bot.command}`, asked for each move over stdin/stdout (README, Bots in any language).",
            source=spec,
            bot=bot,
        )
    return _bots[spec]


def get_policy(spec: str) -> Policy:
    """A policy by name, by path to a .toml policy file, `module:function` / `file.py:function`, or `exec:COMMAND`."""
    known = builtin_policies()
    if spec in known:
        return known[spec]
    if spec.startswith(EXEC_PREFIX):
        return exec_policy(spec)
    if spec.endswith(".toml") or Path(spec).is_file():
        return load_policy_file(Path(spec))
    if ":" in spec and spec.rpartition(":")[2].isidentifier():
        if spec not in _registered:
            target, _, attr = spec.rpartition(":")
            name = f"{Path(target).stem}:{attr}" if target.endswith(".py") else spec  # the file, not its folders
            _registered[spec] = replace(register_policy(spec, _load_callable(spec)), name=name)
        return _registered[spec]
    raise PolicyError(
        f"unknown policy {spec!r} (choose from: {', '.join(known)}; "
        "or a .toml policy file, module:function or exec:COMMAND)"
    )


def policy_label(spec: str) -> str:
    """What a policy given as `spec` shows as in tables, charts and folder names: its name (a policy file's `name`
    field, `file:function` for a Python file, a bot's program), or the file's stem when it cannot be read."""
    try:
        return get_policy(spec).name
    except PolicyError:  # a report of a run whose policy file has moved since
        return Path(spec).stem or spec


def folder_label(spec: str) -> str:
    """policy_label(spec) made safe in a file or folder name (folder_safe)."""
    return folder_safe(policy_label(spec))


def folder_safe(name: str) -> str:
    """A policy's name made safe in a file or folder name: anything but letters, digits, '.', '+' and '-' is '_'."""
    return re.sub(r"[^\w.+-]+", "_", name).strip("_") or "policy"
