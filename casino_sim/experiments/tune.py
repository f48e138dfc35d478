"""`casino-sim tune`: search a heuristic policy's weights for the ones that score best against a field.

CMA-ES (the `cma` package) proposes a population of weight vectors per generation;
every candidate of a generation plays the same mirrored deals against every
opponent (common random numbers). Each finished generation is recorded in the run
folder with the optimiser's state, so a run cut short resumes where it stopped.
At the end a short list (the search's centre, the best candidate seen, the start)
is replayed on fresh deals to pick the policy written, and that policy is
validated against its start on deals the search never saw.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from pathlib import Path

import numpy as np

from casino_sim.core.errors import InputError
from casino_sim.core.fields import FieldError
from casino_sim.core.rules import get_rules
from casino_sim.engines.compiling import ensure_compiled, search_variants
from casino_sim.experiments.compare import compare
from casino_sim.experiments.door import Door, Hooks
from casino_sim.experiments.resume import refuse_changed
from casino_sim.experiments.simulate import SimConfig
from casino_sim.experiments.tune_fields import TUNE, parse_against
from casino_sim.experiments.tune_play import FieldJob, play_field
from casino_sim.experiments.tune_store import TuneDir
from casino_sim.loader import PolicyLoader
from casino_sim.policies.names import Label, check_distinct, folder_safe
from casino_sim.policies.policy import Policy
from casino_sim.reports.stats import mean_ci
from casino_sim.reports.tune import write_policy, write_report
from casino_sim.runner.seating import Lineup, Resolves, declared_options, manifest_options, resolved_field
from casino_sim.runner.seeding import CHUNK_SEEDING, stream_seed

SCALE_FLOOR = 0.2  # a weight's search scale: its start value's size, at least this (so zero weights move too)
SELECTION_FACTOR = 4  # the short list plays this many times --deals fresh deals
SHORT_LIST = 3  # the search's last centre, its best candidate, the start
# spawn keys of the run seed's independent streams
KEY_GENERATION, KEY_SELECTION, KEY_VALIDATION, KEY_OPTIMISER = 0, 1, 2, 3
Progress = Callable[[int, int], None]  # (rounds done, rounds planned)


@dataclass(frozen=True)
class TuneConfig(Resolves):
    """Everything that decides a tune run's result (threads do not change it)."""

    start: str = "expert"
    against: tuple[str, ...] = ("expert", "greedy")
    rules: str = "strict"
    deals: int = 1_000  # mirrored deals per candidate against each opponent
    generations: int = 30
    population: int = 12
    seed: int = 0
    sigma: float = 0.3  # CMA-ES's first step, in units of each weight's scale
    validate_deals: int = 20_000
    name: str = ""  # the policy written; "" names it after the start (default_name), as resolve() does
    threads: int = 0

    # the start and --against resolved once, by resolve() (the front door's), and the policy loader that resolved
    # them (it reads the policy file the run writes); never in the manifest
    resolved: Lineup | None = resolved_field()
    loader: PolicyLoader | None = resolved_field()

    @classmethod
    def of(cls, values: dict) -> TuneConfig:
        """The config of tune's options by field name (experiments/tune_fields.py TUNE: --against as the command
        line or the API writes it), unresolved."""
        return cls(**declared_options(TUNE, values) | {"against": parse_against(values["against"])})

    def specs(self) -> tuple[str, ...]:
        """The start, then --against."""
        return (self.start, *self.against)

    def options(self) -> dict:
        """The config as tune's options by field name (TUNE)."""
        return declared_options(TUNE, vars(self))

    def resolve(self, loader: PolicyLoader, given: frozenset = frozenset()) -> TuneConfig:
        """The run's specification: every option checked (FieldError names the first that is not sound), the start
        and the field resolved once by `loader`, the policy written named (default_name: after the start)."""
        TUNE.check(self.options(), given)
        get_rules(self.rules)
        spec = self.resolve_with(loader, loader=loader)
        spec = replace(spec, name=self.name or spec.default_name())
        lineup, (start, field) = spec.lineup(), spec.policies()
        if start.kind != "heuristic":
            raise FieldError("start", f"must be a heuristic policy (a weights file); {start.name!r} is {start.kind}")
        check_distinct(zip(lineup.specs, lineup.policies))
        for p in field:
            if p.plays_in_python:
                raise InputError(f"tune plays on the numba engine; {p.name!r} is a Python callable or an exec: bot")
        spec.check_name(start, field)
        return spec

    def policies(self) -> tuple[Policy, tuple[Policy, ...]]:
        """The start policy and the field, as the front door resolved them."""
        lineup = self.lineup()
        return lineup.policy(self.start), tuple(lineup.policy(a) for a in self.against)

    def check_name(self, start: Policy, field: tuple[Policy, ...]) -> None:
        """The policy written must not show under the name of a built-in or of a policy it is validated against:
        the validation's tables, and any later run that plays both, would pool the two (policies/names.py)."""
        taken, known = [p.name for p in (start, *field)], self.loader.known()
        if self.name in known or self.name in taken:
            whose = "a built-in policy" if self.name in known else "a policy of {start} or {against}"
            raise FieldError(
                ("name", "start", "against"),
                f"{{name}} {self.name!r} is the name of {whose}: choose another (default: {self.default_name()})",
            )

    def default_name(self) -> str:
        """The name of the policy written when --name is not given (default_name), the start named as the front
        door resolved it."""
        return default_name(self.start, self.lineup().label)

    def rounds_planned(self, field_size: int) -> tuple[int, int]:
        """Rounds of the search and of the short list's replay (validation aside), for the progress bar."""
        return (
            self.generations * self.population * self.rounds_per_deal * self.deals * field_size,
            SHORT_LIST * self.rounds_per_deal * SELECTION_FACTOR * self.deals * field_size,
        )

    @property
    def rounds_per_deal(self) -> int:
        """Rounds a deal is played in against one opponent: one per side (mirrored pair, seats or teams turned)."""
        return get_rules(self.rules).n_sides

    def manifest(self) -> dict:
        """What decides the result (threads do not), as the manifest keeps it."""
        config = dict(manifest_options(self), against=list(self.against))
        del config["threads"]
        return {"config": config, "policy_names": self.lineup().labels()}

    @classmethod
    def from_manifest(cls, manifest: dict, threads: int | None = None) -> TuneConfig:
        """The config a run folder's manifest keeps, on `threads` (None: its own), unresolved (resolve())."""
        known = {f.name for f in fields(cls) if not f.metadata.get("resolved")}
        cfg = {k: v for k, v in manifest.get("config", {}).items() if k in known}
        config = cls(**dict(cfg, against=tuple(cfg.get("against", ()))))
        return config if threads is None else replace(config, threads=threads)


@dataclass(frozen=True)
class TuneResult:
    """The policy written, where, and the tables behind it."""

    policy: Policy
    path: Path
    history: list[dict]
    selection: list[dict]
    validation: list[dict]


@contextmanager
def _quiet():
    """cma reports through warnings (flat fitness, ...); none reach the user."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def default_name(start: str, label: Label) -> str:
    """The name of the policy tune writes when --name is not given: the start's name (as `label` names its spec)
    with `-tuned` (expert-tuned), never a built-in's."""
    shown = folder_safe(label(start))
    return f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', shown).strip('_.-')[:50] or 'policy'}-tuned"


def new_optimiser(config: TuneConfig, n: int):
    """CMA-ES at the start (the origin of the scaled search space), drawing from its own seeded generator.

    Its normal draws come from a RandomState it owns (the `randn` option) rather than numpy's global
    one, so the pickled optimiser carries its generator and a resumed run draws what an uninterrupted one would.
    """
    import cma  # deferred: a heavy import, needed only when a search builds its optimiser

    rng = np.random.RandomState(stream_seed(config.seed, KEY_OPTIMISER) % 2**32)
    opts = {"popsize": config.population, "randn": rng.randn, "verbose": -9, "verb_log": 0, "verb_disp": 0}
    with _quiet():
        return cma.CMAEvolutionStrategy(np.zeros(n), config.sigma, opts)


def _field_scores(backend, config, weights, field, rows_seed, deals, progress) -> list[dict]:
    """Each candidate's mean per-deal difference against the field, with its 95% interval."""
    job = FieldJob(np.asarray(weights), field, config.rules, deals, rows_seed, config.threads)
    per_candidate = config.rounds_per_deal * deals * len(field)
    diffs = play_field(backend, job, lambda done: progress(done * per_candidate))
    return [mean_ci(d).as_dict() for d in diffs]


def search(config: TuneConfig, run: TuneDir, backend, progress: Progress | None = None) -> list[dict]:
    """Play the generations not yet recorded in `run`; every generation's record, in order."""
    start, field = config.policies()
    w0 = start.weights
    scale = np.maximum(np.abs(w0), SCALE_FLOOR)
    done = run.finished()
    es = run.read_optimiser(done[-1]) if done else new_optimiser(config, len(w0))
    per_gen = config.population * config.rounds_per_deal * config.deals * len(field)
    total = sum(config.rounds_planned(len(field)))
    for g in range(len(done), config.generations):
        with _quiet():
            xs = es.ask()
        weights = w0 + scale * np.asarray(xs)
        base = g * per_gen
        scores = _field_scores(
            backend,
            config,
            weights,
            field,
            stream_seed(config.seed, KEY_GENERATION, g),
            config.deals,
            lambda rounds, base=base: progress and progress(base + rounds, total),
        )
        with _quiet():
            es.tell(xs, [-s["mean"] for s in scores])  # cma minimises
        record = {
            "generation": g,
            "weights": weights.tolist(),
            "scores": scores,
            "centre": (w0 + scale * es.mean).tolist(),  # the search's centre after this generation
            "sigma": float(es.sigma),
        }
        run.write_generation(g, record, es)
    return run.history()


def short_list(start: Policy, history: list[dict]) -> list[tuple[str, np.ndarray]]:
    """The candidates for the policy written: the last centre, the best-scoring candidate seen, the start."""
    best_g, best_k = max(
        ((g["generation"], k) for g in history for k in range(len(g["scores"]))),
        key=lambda gk: history[gk[0]]["scores"][gk[1]]["mean"],
    )
    return [
        ("centre after the last generation", np.array(history[-1]["centre"])),
        (f"best candidate (generation {best_g}, #{best_k})", np.array(history[best_g]["weights"][best_k])),
        (f"start ({start.name})", start.weights),
    ]


def select(config: TuneConfig, history: list[dict], backend, progress: Progress | None = None) -> list[dict]:
    """The short list replayed on fresh deals against the field, best first (ties keep the list's order)."""
    start, field = config.policies()
    entries = short_list(start, history)
    deals = SELECTION_FACTOR * config.deals
    base, more = config.rounds_planned(len(field))
    scores = _field_scores(
        backend,
        config,
        [w for _, w in entries],
        field,
        stream_seed(config.seed, KEY_SELECTION),
        deals,
        lambda rounds: progress and progress(base + rounds, base + more),
    )
    rows = [{"candidate": label, "weights": w.tolist(), **s} for (label, w), s in zip(entries, scores)]
    order = sorted(range(len(rows)), key=lambda i: (-rows[i]["mean"], i))
    return [rows[i] for i in order]


def validate(config: TuneConfig, tuned_path: Path) -> list[dict]:
    """The written policy against its start (and the rest of the field) on fresh mirrored deals, with 95% intervals."""
    opponents = list(dict.fromkeys([config.start, *config.against]))
    seed = stream_seed(config.seed, KEY_VALIDATION) >> 1  # fresh deals: a stream the search never drew from
    tuned, lineup = config.loader.file(tuned_path), config.lineup()  # the field as the front door resolved it
    rows = []
    for opp in opponents:
        sim = SimConfig(
            deals=config.validate_deals,
            policy_a=str(tuned_path),
            policy_b=opp,
            rules=config.rules,
            seed=seed,
            threads=config.threads,
            seeding=CHUNK_SEEDING,  # tune plays as it always has (experiments/tune_play.py): its runs resume alike
            resolved=Lineup((str(tuned_path), opp), (tuned, lineup.policy(opp))),
        )
        rows.append({"opponent": opp, "deals": config.validate_deals, **compare(sim).as_dict()})
    return rows


def open_run(config: TuneConfig, folder: Path, resume: bool = False, force: bool = False) -> TuneDir:
    """Make the run folder of a resolved config (or check the one to resume): nothing is played yet."""
    run = TuneDir(folder)
    if resume:
        if TuneConfig.from_manifest(run.read_manifest(), config.threads) != config:
            raise InputError(f"{folder} holds a tune run with other options")
    else:
        run.create(config.manifest(), force=force)
    return run


def tune(
    config: TuneConfig,
    run: TuneDir,
    backend,
    progress: Progress | None = None,
    stage: Callable[[str], None] | None = None,
) -> TuneResult:
    """Search (from the last finished generation of `run`), pick and validate; write the policy file, tables and
    charts into the run folder."""
    say = stage or (lambda _: None)
    finished = len(run.finished())
    resumed = f" ({finished} finished before: resuming)" if finished else ""
    say(f"searching: {config.generations} generations of {config.population} candidates{resumed}")
    history = search(config, run, backend, progress)
    say(f"picking the policy to write on {SELECTION_FACTOR * config.deals:,} fresh deals")
    selection = select(config, history, backend, progress)
    path = write_policy(config, selection[0], run.path)
    say(f"validating on {config.validate_deals:,} fresh deals")
    validation = validate(config, path)
    write_policy(config, selection[0], run.path, validation)  # the same weights, its description now with its figure
    result = TuneResult(config.loader.file(path), path, history, selection, validation)
    write_report(config, result, run.report)
    return result


@dataclass
class TuneRun(Door):
    """tune's one front door: a run, its config checked once (the start and the field resolved), made (or
    resumed), compiled for, searched, picked, validated and reported (the steps of experiments/door.py Door).
    The command (cli/tune.py) is an adapter onto it."""

    config: TuneConfig
    path: Path
    force: bool = False
    resumed: bool = False

    @classmethod
    def new(
        cls, values: dict, given: frozenset, loader: PolicyLoader, out: Path | None = None, force: bool = False
    ) -> TuneRun:
        """A new run of tune's options `values` (by field name: experiments/tune_fields.py TUNE; `given`: those the
        user set), checked once (FieldError) and resolved by `loader` into its specification, into `out` (default
        results/tune/<start>-<rules>-seedN)."""
        config = TuneConfig.of(values).resolve(loader, given)
        label = folder_safe(config.lineup().label(config.start))
        default = Path("results/tune") / f"{label}-{config.rules}-seed{config.seed}"
        return cls(config, Path(out) if out is not None else default, force)

    @classmethod
    def resume(cls, path: Path, given: dict, threads: int, loader: PolicyLoader) -> TuneRun:
        """The run in `path` as it was started, on `threads`, its policies resolved by `loader`; InputError for an
        option `given` that contradicts it (experiments/resume.py)."""
        config = TuneConfig.from_manifest(TuneDir(path).read_manifest(), threads)
        refuse_changed(given, manifest_options(config))
        return cls(config.resolve(loader), Path(path), resumed=True)

    @property
    def folder(self) -> TuneDir:
        return TuneDir(self.path)

    def start(self) -> None:
        open_run(self.config, self.path, resume=self.resumed, force=self.force)

    def compile(self, scheduler: str | None) -> None:
        """The seated rounds of the start against each opponent; with a scheduler too (the validation plays
        here)."""
        start, field = self.config.policies()
        ensure_compiled("rounds", search=search_variants([(start, opponent) for opponent in field]))

    def play(self, backend, hooks: Hooks) -> TuneResult:
        """Search, pick and validate (tune), the policy file, tables and charts written into the run folder."""
        with hooks.progress("tuning", "rounds") as update:
            return tune(self.config, self.folder, backend, progress=update, stage=hooks.stage)
