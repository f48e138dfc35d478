"""What the policy loader reads for a spec: policy files, the built-in policy files, a user's Python module, a
bot's program on the PATH. Every way one fails is a one-line error naming it."""

from __future__ import annotations

import importlib
import importlib.util
import shlex
import shutil
from importlib import resources
from pathlib import Path

from casino_sim.core.tomlfile import read_toml
from casino_sim.policies.bots import PREFIX, BotError
from casino_sim.policies.policy import PolicyError, PythonPolicy

BUILTIN = ("casino_sim.policies", "builtin")  # the package and folder of the built-in policy files


def read_policy_file(path: Path | str) -> dict:
    """A policy file's data, parsed (PolicyError: missing, not TOML or unreadable, naming the file)."""
    return read_toml(path, "policy file", PolicyError)


def builtin_files() -> dict[str, dict]:
    """Each built-in policy file's data, by its path, in the order of their file names."""
    package, folder = BUILTIN
    files = {}
    for entry in sorted((resources.files(package) / folder).iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            with resources.as_file(entry) as path:
                files[str(path)] = read_policy_file(path)
    return files


def load_callable(spec: str) -> PythonPolicy:
    """The function of `module:function` or `path/to/file.py:function` (the module imported, the file run)."""
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


def bot_argv(spec: str) -> list[str]:
    """The program and arguments of `exec:COMMAND` (shell-like quoting, no shell); BotError if it cannot run."""
    command = spec[len(PREFIX) :]
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise BotError(f"bot `{command}`: {e}") from None
    if not argv:
        raise BotError("exec: needs a command, e.g. exec:'python3 my_bot.py'")
    if shutil.which(argv[0]) is None:
        raise BotError(f"bot `{command}`: no such program {argv[0]!r}")
    return argv
