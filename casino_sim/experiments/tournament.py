"""`casino-sim tournament`: a round-robin of policies over mirrored whole games, resumable pair by pair.

Each pairing is an ordinary `simulate --games` run in `OUT/pairs/<A>-vs-<B>/`,
so it is written chunk by chunk and resumes like any run. Every pairing plays
the same shuffles (the same seed): differences between pairings are not luck
of the deal (common random numbers). With three or four players a table holds
two policies only: a pairing plays A's team against B's (teams swapped), or,
without teams, A alone against B in every other seat with A in each seat, and
then the same shuffles with the roles of A and B exchanged. Tables of three or
more different policies are not played.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path

from casino_sim.core.errors import InputError
from casino_sim.core.record import FORMAT_VERSION
from casino_sim.core.rules import get_rules
from casino_sim.engines.compiling import ensure_compiled, search_variants
from casino_sim.experiments.declarations import TOURNAMENT
from casino_sim.experiments.door import Door, Hooks
from casino_sim.experiments.resume import refuse_changed
from casino_sim.experiments.simulate import SimConfig, finish_run, play_chunks, start_run
from casino_sim.policies.names import Label, check_distinct, folder_safe, recorded_labels, spec_label
from casino_sim.policies.policy import Load
from casino_sim.runner.provenance import versions
from casino_sim.runner.rundir import RunDir, refuse_used_folder, unused_folder
from casino_sim.runner.seating import Lineup, Resolves, declared_options, manifest_options, resolved_field
from casino_sim.runner.seeding import SEEDING, seeding_in

MAX_POLICIES = 16


@dataclass(frozen=True)
class TournamentConfig(Resolves):
    """The policies and the options every pairing shares (`games` mirrored pairs of games each)."""

    policies: tuple[str, ...] = ("random", "greedy", "expert")
    games: int = 1000
    rules: str = "strict"
    seed: int = 0
    chunk_deals: int = 500
    threads: int = 0
    engine: str = "numba"
    seeding: int = SEEDING  # its pairings' (runner/seeding.py); a manifest without it: 1, by chunk

    # the policies as objects (in the order given), resolved once by resolve() (the front door's); never in the
    # manifest, which keeps their names
    resolved: Lineup | None = resolved_field()

    @classmethod
    def of(cls, values: dict) -> TournamentConfig:
        """The config of tournament's options by field name (experiments/declarations.py TOURNAMENT), unresolved."""
        return cls(**declared_options(TOURNAMENT, values) | {"policies": tuple(values["policies"] or ())})

    def specs(self) -> tuple[str, ...]:
        return tuple(self.policies)

    def resolve(self, load: Load) -> TournamentConfig:
        """The tournament's specification: its policies named (check_names), resolved once by `load`, every option
        checked."""
        self.check_names()
        spec = self.resolve_with(load)
        spec.check()
        return spec

    def manifest_config(self) -> dict:
        """The config as its manifest keeps it: the options by field name, the resolved policies left out."""
        return manifest_options(self)

    def pair_config(self, a: str, b: str) -> SimConfig:
        """The simulate run of the pairing A against B, with the policies this tournament resolved."""
        lineup = self.lineup()
        return SimConfig(
            deals=self.games,
            policy_a=a,
            policy_b=b,
            rules=self.rules,
            seed=self.seed,
            mirrored=True,
            chunk_deals=self.chunk_deals,
            threads=self.threads,
            engine=self.engine,
            games=True,
            seeding=self.seeding,
            resolved=Lineup((a, b), (lineup.policy(a), lineup.policy(b))),
        )

    def pairs(self) -> list[tuple[str, str]]:
        """Every unordered pairing once, in the order the policies were given; with three or four players
        without teams, both ways (A alone against B in every other seat, then B alone against A)."""
        p = self.policies
        once = [(p[i], p[j]) for i in range(len(p)) for j in range(i + 1, len(p))]
        return [x for a, b in once for x in ((a, b), (b, a))] if one_against_the_field(self.rules) else once

    def check_names(self) -> None:
        """One clear error for a list of policies no tournament plays, before any is loaded."""
        if not 2 <= len(self.policies) <= MAX_POLICIES:
            raise InputError(f"a tournament needs 2 to {MAX_POLICIES} policies, got {len(self.policies)}")
        if len(set(self.policies)) != len(self.policies):
            raise InputError(f"a policy is named twice: {', '.join(self.policies)}")

    def check(self) -> None:
        """One clear error for an impossible tournament, its policies resolved (each pairing's options are checked
        too)."""
        lineup = self.lineup()
        check_distinct(zip(lineup.specs, lineup.policies), self_play=False)
        for b in self.policies[1:]:  # the first policy's pairings name every policy once
            self.pair_config(self.policies[0], b).check()


def one_against_the_field(rules: str) -> bool:
    """Whether a pairing seats one A against several B (three or four players without teams)."""
    ruleset = get_rules(rules)
    return ruleset.n_sides > 2


Progress = Callable[[str], AbstractContextManager]  # label -> a context yielding update(done, total)


def default_out(root: Path = Path("results/runs")) -> Path:
    """results/runs/<timestamp>-tournament/, the timestamp to the second (a suffix avoids clashes)."""
    return unused_folder(root, f"{time.strftime('%Y%m%d-%H%M%S')}-tournament")


def pair_dir(root: Path, a: str, b: str, label: Label) -> RunDir:
    """The folder of the pairing A against B, named by what `label` shows them as (folder_safe)."""
    return RunDir(Path(root) / "pairs" / f"{folder_safe(label(a))}-vs-{folder_safe(label(b))}")


def start_tournament(
    config: TournamentConfig, root: Path, command: list[str], force: bool = False, resume_with: str = "--resume"
) -> None:
    """Write OUT/manifest.json of a resolved config (create_tournament)."""
    create_tournament(config, root, command, force, resume_with)


def create_tournament(
    config: TournamentConfig, root: Path, command: list[str], force: bool = False, resume_with: str = "--resume"
) -> None:
    """Write OUT/manifest.json, the config checked before (the front door's). A folder in use is refused (saying
    how `resume_with` finishes a tournament there), unless `force` replaces it: its manifest, report and pairings
    go."""
    refuse_used_folder(root, force, resumable=True, resume_with=resume_with)
    run = RunDir(root)
    if force and run.manifest_path.exists():
        _remove_pairings(Path(root))
    run.create(
        {
            "kind": "tournament",
            "format_version": FORMAT_VERSION,  # its pairings' round records (core/record.py)
            "command": command,
            "config": config.manifest_config(),
            "policy_names": config.lineup().labels(),
            "seed": config.seed,
            "versions": versions(),
            "status": "running",
            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        },
        force=force,
        records=False,
    )


def _remove_pairings(root: Path) -> None:
    """Delete the pairing runs of the tournament in `root`: left behind, they would pass for the new one's."""
    try:
        if (root / "pairs").is_dir():
            shutil.rmtree(root / "pairs")
    except OSError as e:
        raise InputError(f"cannot replace the tournament in {root}: {e.strerror or e}") from None


def config_of(root: Path) -> TournamentConfig:
    """The configuration a tournament folder was started with, unresolved (TournamentConfig.resolve)."""
    run = RunDir(root)
    manifest = run.read_manifest()
    if manifest.get("kind") != "tournament":
        raise InputError(f"{root} is not a tournament folder")
    try:
        cfg = dict(manifest["config"])
        cfg = {**cfg, "seeding": seeding_in(cfg), "policies": tuple(cfg["policies"])}
        return TournamentConfig(**cfg)
    except (KeyError, TypeError) as e:
        raise InputError(f"{run.manifest_path} has a damaged config: {e}") from None


def run_tournament(
    config: TournamentConfig, root: Path, command: list[str], progress: Progress | None = None, backend=None
) -> list[Path]:
    """Play every pairing not yet complete (resuming cut ones); returns the pairing folders in order."""
    folders, label = [], config.lineup().label
    for a, b in config.pairs():
        sim = config.pair_config(a, b)
        run = pair_dir(root, a, b, label)
        if not run.manifest_path.exists():
            start_run(sim, run, command)
        if run.read_manifest().get("status") != "complete":
            with (progress or (lambda _: nullcontext()))(f"{label(a)} vs {label(b)}") as update:
                finish_run(run, play_chunks(sim, run, update, backend))
        folders.append(run.path)
    manifest = RunDir(root).read_manifest()
    RunDir(root).write_manifest(dict(manifest, status="complete", finished=time.strftime("%Y-%m-%dT%H:%M:%S%z")))
    return folders


@dataclass
class TournamentRun(Door):
    """tournament's one front door: a tournament, its config checked once, started (or resumed), compiled for,
    played and reported (the steps of experiments/door.py Door). The command (cli/runs.py) and the API
    (api/tournaments.py) both go through it; what each shows on the way comes in through its Hooks, with a
    progress bar per pairing."""

    config: TournamentConfig
    root: Path
    command: list[str]
    force: bool = False
    resumed: bool = False
    resume_with: str = "--resume"

    @classmethod
    def new(cls, values: dict, load: Load, command: list[str], resume_with: str = "--resume") -> TournamentRun:
        """A new tournament of tournament's options `values` (by field name: experiments/declarations.py
        TOURNAMENT), checked and its policies resolved once by `load`, into values["out"] (default
        results/runs/<time>-tournament/; values["force"] replaces one there); `resume_with`: how the error for a
        folder in use names the way to finish it, {path} the folder."""
        config = TournamentConfig.of(values).resolve(load)
        root = Path(values["out"]) if values["out"] is not None else default_out()
        return cls(config, root, command, values["force"], resume_with=resume_with.format(path=root))

    @classmethod
    def resume(cls, root: Path, given: dict, command: list[str], loader: Load) -> TournamentRun:
        """The tournament in `root` as it was started, its policies resolved by `loader`; InputError for an option
        `given` that contradicts it (experiments/resume.py)."""
        config = config_of(root).resolve(loader)
        refuse_changed(given, config.manifest_config())
        return cls(config, Path(root), command, resumed=True)

    @property
    def folder(self) -> RunDir:
        return RunDir(self.root)

    @property
    def complete(self) -> bool:
        """Every pairing played and the report written: nothing left for --resume."""
        played = self.folder.read_manifest().get("status") == "complete"
        return played and (self.root / "report" / "index.html").is_file()  # the page is written last

    def start(self) -> None:
        if not self.resumed:
            create_tournament(self.config, self.root, self.command, self.force, self.resume_with)

    def compile(self, scheduler: str | None) -> None:
        """The rounds of the rule set's players, for every pairing's policies (a scheduler's workers compile their
        own)."""
        if scheduler is None:
            lineup = self.config.lineup()
            tables = [(lineup.policy(a), lineup.policy(b)) for a, b in self.config.pairs()]
            ensure_compiled("rounds", search=search_variants(tables))

    def play(self, backend, hooks: Hooks) -> list[Path]:
        """Every pairing not yet complete (resuming cut ones), a progress bar each."""
        bar = lambda label: hooks.progress(label, "games")  # noqa: E731
        return run_tournament(self.config, self.root, self.command, bar, backend)

    def report(self, played, hooks: Hooks) -> dict:
        """The report: its tables by name."""
        return write_report(self.root)


def write_report(root: Path, out: Path | None = None, label: Label = spec_label) -> dict:
    """The tournament's matrices, ratings and heatmap from its pairing folders, into OUT (default ROOT/report).

    `casino-sim tournament` and `casino-sim report all ROOT` both write it; a pairing not yet played is an error.
    `label` names the policies of a folder written before its manifest kept their names (recorded_labels).
    """
    from casino_sim.reports.tournament import write_tournament  # deferred, as below: matplotlib for the report only

    return write_tournament(*_report_args(root, Path(out) if out is not None else Path(root) / "report", label))


def make_report(root: Path, label: Label = spec_label) -> tuple[dict, Callable, int]:
    """write_report's tables, its chart drawn when called and the seats at a table of one policy against the field
    (0: two sides), without writing."""
    from casino_sim.reports.tournament import make_tournament

    folders, policies, _, seed, manifest = _report_args(root, None, label)
    return make_tournament(folders, policies, seed, manifest)


def _report_args(root: Path, out: Path | None, fallback: Label) -> tuple:
    """The pairing folders, policy names, `out`, seed and manifest the report of a finished tournament takes."""
    config, manifest = config_of(root), RunDir(root).read_manifest()
    label = recorded_labels(manifest, fallback)  # a report never loads a policy again (a folder before them may)
    runs = [pair_dir(root, a, b, label) for a, b in config.pairs()]
    unfinished = [
        r.path.name for r in runs if not r.manifest_path.exists() or r.read_manifest().get("status") != "complete"
    ]
    if unfinished:
        raise InputError(
            f"{root}: pairing(s) {', '.join(unfinished)} not finished; finish them with  "
            f"casino-sim tournament --resume {root}"
        )
    return (
        [r.path for r in runs],
        [label(p) for p in config.policies],
        out,
        config.seed,
        manifest,
    )
