"""The policy loader: from the spec a user gives (a name, a policy file, a Python function, a bot) to the policy
object every layer below plays.

A loader holds what a process has loaded: the built-in policies (read at its first use), the Python functions
registered by name or loaded as `module:function`, one bot per `exec:COMMAND` spec, and a table of the policy file
kinds it reads, kind -> factory (policies/fields.py's heuristic, rollout and searcher; an adapter adds its own:
casino_sim/openspiel_kind.py). It is no module's global: the CLI and the Python API each make theirs, and a front
door is handed one and calls it once per spec (docs/design.md, "One front door, policies resolved once").
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from casino_sim.core.featurespec import SEARCH_KINDS
from casino_sim.loader.sources import bot_argv, builtin_files, load_callable, read_policy_file
from casino_sim.policies.bots import PREFIX as EXEC_PREFIX
from casino_sim.policies.bots import BotPolicy, ExecBot, bot_name
from casino_sim.policies.fields import FILE_KINDS, Factory, policy_data
from casino_sim.policies.kinds import CallablePolicy, RandomPolicy, TrailPolicy
from casino_sim.policies.policy import Load, Policy, PolicyError, PythonPolicy

RANDOM = RandomPolicy("random", "Plays a legal move chosen uniformly at random.")
TRAIL = TrailPolicy(
    "trail",
    "Trails its lowest card whenever the rules allow, else plays the first legal move in canonical order: "
    "piles the table high (studies of crowded tables, a floor for other policies).",
)


class PolicyLoader:
    """Policies by spec: `loader(spec)` (a name, a .toml policy file, `module:function` / `file.py:function`, or
    `exec:COMMAND`), `known()` (every policy known by name), `register(name, fn)`, `add_kind(kind, factory)`.

    A name, a Python function and a bot are loaded once (the same spec, the same object); a policy file is read
    anew each time it is named (policies/names.py tells two reads of one file apart from two policies).
    """

    def __init__(self, kinds: dict[str, Factory] = FILE_KINDS) -> None:
        self._kinds = dict(kinds)
        self._builtins: dict[str, Policy] | None = None  # the built-in policy files, read at the first use
        self._registered: dict[str, Policy] = {}  # register()'s, by name, and `module:function`'s, by spec
        self._bots: dict[str, Policy] = {}  # exec:COMMAND by spec: one bot, so one process per thread (bots.py)

    def __reduce__(self):
        """Pickled (a front door's config, to a Dask worker) as its table of kinds alone: what it loaded stays in
        this process (the worker plays the policies resolved here, and starts its own bots)."""
        return (PolicyLoader, (self._kinds,))

    def add_kind(self, kind: str, factory: Factory) -> None:
        """Let policy files name `kind`: `factory` builds its policy from the file's checked fields."""
        self._kinds[kind] = factory

    def __call__(self, spec: str) -> Policy:
        """A policy by name, by path to a .toml policy file, `module:function` / `file.py:function`, or
        `exec:COMMAND`; PolicyError (or BotError) in one line otherwise."""
        known = self.known()
        if spec in known:
            return known[spec]
        if spec.startswith(EXEC_PREFIX):
            return self._bot(spec)
        if spec.endswith(".toml") or Path(spec).is_file():
            return self.file(Path(spec))
        if ":" in spec and spec.rpartition(":")[2].isidentifier():
            target, _, attr = spec.rpartition(":")
            name = f"{Path(target).stem}:{attr}" if target.endswith(".py") else spec  # the file, not its folders
            self._registered[spec] = replace(self.register(spec, load_callable(spec)), name=name)
            return self._registered[spec]
        raise PolicyError(
            f"unknown policy {spec!r} (choose from: {', '.join(known)}; "
            "or a .toml policy file, module:function or exec:COMMAND)"
        )

    def known(self) -> dict[str, Policy]:
        """Every policy known by name, built-ins first, then those registered with this loader."""
        return {"random": RANDOM, "trail": TRAIL, **self._builtin(), **self._registered}

    def register(self, name: str, fn: PythonPolicy, description: str = "") -> Policy:
        """Register a plain Python callable (position, legal_moves, rng) -> move as a policy named `name`.

        Slow (it runs in Python, one call per move): meant for trying an idea before
        writing it as weights. It plays with the reference engine.
        """
        if not callable(fn):
            raise PolicyError(f"policy {name!r}: {fn!r} is not callable")
        if name in {"random", "trail", *self._builtin()}:
            raise PolicyError(f"policy name {name!r} is taken by a built-in policy")
        policy = CallablePolicy(
            name,
            description or (fn.__doc__ or "").strip() or "A Python callable.",
            source=f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', '?')}",
            fn=fn,
        )
        self._registered[name] = policy
        return policy

    def file(self, path: Path, source: str | None = None, base_of: Load | None = None) -> Policy:
        """Read and check a policy file; PolicyError names the file and the bad field."""
        return self.from_data(read_policy_file(path), str(path), source or str(path), base_of)

    def from_data(self, data: dict, where: str, source: str, base_of: Load | None = None) -> Policy:
        """The policy of a parsed policy file, by its kind's factory; a rollout's or searcher's base is loaded
        here, once, by `base_of` (default: this loader)."""
        entry = policy_data(data, where, source)
        factory = self._kinds.get(entry.kind)
        if factory is None:
            *most, last = map(repr, self._kinds)
            raise PolicyError(f"{where}: field 'kind' must be {', '.join(most)} or {last}, got {entry.kind!r}")
        return factory(entry, base_of or self)

    def label(self, spec: str) -> str:
        """What a policy given as `spec` shows as in tables, charts and folder names: its name (a policy file's
        `name` field, `file:function` for a Python file, a bot's program), or the file's stem when it cannot be
        read (a run whose policy file has moved since)."""
        try:
            return self(spec).name
        except PolicyError:
            return Path(spec).stem or spec

    def _builtin(self) -> dict[str, Policy]:
        """The built-in policy files' policies by name, a search policy's base among them (read once)."""
        if self._builtins is None:
            files = builtin_files()
            loaded: dict[str, Policy] = {}  # by name, as a rollout's or searcher's base is named
            by_path = {}
            base_of = lambda name: {"random": RANDOM, "trail": TRAIL, **loaded}[name]  # noqa: E731
            for path in sorted(files, key=lambda path: files[path].get("kind") in SEARCH_KINDS):  # bases first
                policy = by_path[path] = self.from_data(files[path], path, "built-in", base_of)
                loaded[policy.name] = policy
            self._builtins = {by_path[path].name: by_path[path] for path in files}
        return self._builtins

    def _bot(self, spec: str) -> Policy:
        """`exec:COMMAND`: an outside program asked for every move (policies/bots.py), one per spec."""
        if spec not in self._bots:
            argv = bot_argv(spec)
            bot = ExecBot(spec, argv)
            self._bots[spec] = BotPolicy(
                bot_name(argv),
                f"The program `{bot.command}`, asked for each move over stdin/stdout (README, Bots in any language).",
                source=spec,
                bot=bot,
            )
        return self._bots[spec]
