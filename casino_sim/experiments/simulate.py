"""`casino-sim simulate`: play policy A against policy B over many deals, chunk by chunk, resumably."""

from __future__ import annotations

import importlib
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from casino_sim.core.errors import InputError
from casino_sim.core.fields import FieldError
from casino_sim.core.record import FORMAT_VERSION
from casino_sim.core.rules import get_rules
from casino_sim.experiments.card_value import card_pairs, pairs_per_deal
from casino_sim.experiments.declarations import SIMULATE, parse_card_deals
from casino_sim.experiments.headline import Headline
from casino_sim.policies.names import check_distinct, matchup_folder, seat_names
from casino_sim.policies.policy import Load
from casino_sim.runner.backends import LocalBackend
from casino_sim.runner.deals import seeding_of
from casino_sim.runner.games import parse_start_score, play_games
from casino_sim.runner.play import engine_for, play
from casino_sim.runner.provenance import git_revision, versions
from casino_sim.runner.recording import new_trace, recorded_tables
from casino_sim.runner.run_state import COMPLETE, PLAYED, finished, playing, update_manifest
from casino_sim.runner.rundir import RunDir, unused_folder
from casino_sim.runner.seating import (
    Lineup,
    Resolves,
    check_seat_count,
    manifest_options,
    policy_names,
    resolved_field,
    seatings,
)
from casino_sim.runner.seeding import SEEDING, seeding_in
from casino_sim.runner.sides import side_columns
from casino_sim.runner.warmup import warm_kernels

Progress = Callable[[int, int], None]  # (rounds done, rounds planned)
# --card-deals auto: the paired replays take at most 1/k of the run's own rounds (k by engine), and 500 deals at most
AUTO_CARD_DEALS_CAP = 500
AUTO_CARD_DIVISOR = {"numba": 2, "reference": 20}


@dataclass(frozen=True)
class SimConfig(Resolves):
    """Everything that decides a run's results (threads and engine do not change them)."""

    deals: int = 100_000
    policy_a: str = "greedy"
    policy_b: str = "random"
    rules: str = "strict"
    seed: int = 0
    mirrored: bool = True
    chunk_deals: int = 5_000
    until_ci: float | None = None  # stop when the headline interval's full width is below this
    threads: int = 0  # 0: all cores
    engine: str = "numba"
    games: bool = False  # whole games to the target: `deals` counts games (mirrored pairs play each twice)
    checked: bool = False  # --check: verify the engine's invariants after every play (kernels/check.py)
    record: int = 0  # keep the full move lists of the run's first `record` rounds (for `casino-sim replay`)
    card_deals: int | None = None  # pair every card of the first `card_deals` deals (0: off, None: auto)
    seats: str | None = None  # --seats A,B,C[,D]: the policy of each player (three or four players)
    start_score: str | None = None  # --start-score X-Y: whole games start from A's side's X and B's Y
    seeding: int = SEEDING  # how deals are seeded (runner/seeding.py); a manifest without it: 1, by chunk

    # the run's policies as objects, resolved once at the door (resolve()); never compared, never in the manifest
    resolved: Lineup | None = resolved_field()

    @classmethod
    def of(cls, values: dict) -> SimConfig:
        """The config of simulate's options by field name (experiments/declarations.py SIMULATE: each kept under
        its `stored_as` name), unresolved; with --seats, policies A and B are the first two it names (as the
        seatings number them)."""
        options = {f.stored_as: values[f.name] for f in SIMULATE.fields if f.run and f.name in values}
        options["card_deals"] = parse_card_deals(str(values.get("card_deals", "auto")))
        if values.get("seats"):
            names = seat_names(values["seats"])
            options["policy_a"], options["policy_b"] = names[0], names[min(1, len(names) - 1)]
        return cls(**options, threads=values.get("threads", 0))

    def resolve(self, loader: Load, given: frozenset = frozenset()) -> SimConfig:
        """The run's specification: this config checked (`given`: the options the user set), its policies resolved
        once by `loader` (a spec given twice, self-play, is one policy); nothing below changes it."""
        self.check_options(given)
        resolved = self.resolve_with(loader)
        resolved.check()
        return resolved

    def manifest_config(self) -> dict:
        """The config as its manifest keeps it: the options by field name, the resolved policies left out."""
        return manifest_options(self)

    def options(self) -> dict:
        """The config as simulate's options by field name (SIMULATE), card_deals as its count (None: auto)."""
        return {f.name: getattr(self, f.stored_as) for f in SIMULATE.fields if f.run} | {"threads": self.threads}

    def check_options(self, given: frozenset = frozenset()) -> None:
        """The declared bounds and rules between fields (SIMULATE), and the seat count: no policy is loaded yet."""
        SIMULATE.check(self.options(), given)
        if self.until_ci is not None and not (0 < self.until_ci < 1000):
            raise FieldError("until_ci", f"must be a positive interval width, got {self.until_ci}")
        check_seat_count(self.rules, self.seats)

    def check(self) -> None:
        """One clear error for an impossible option, its policies resolved."""
        self.check_options()
        if self.games:
            self.check_games()
        check_distinct(zip(self.lineup().specs, self.lineup().policies))
        engine = self.engine_used()  # an unknown --engine is refused here, before any folder is made
        if self.checked and engine != "numba":
            raise FieldError(
                "check", "{check:on} verifies the numba engine (the reference engine is the rules it is held to)"
            )
        if self.record and self.games:
            raise FieldError(("record", "games"), "{record} keeps rounds of single-round runs, not of {games:on}")

    def check_games(self) -> None:
        """Whole games seat A against B (runner/games.py): refuse a --seats that seats them otherwise."""
        rules = get_rules(self.rules)
        if self.start_score is not None:
            parse_start_score(self.start_score, rules)
        if self.seats is not None and not np.array_equal(self.seatings(), seatings(rules, self.mirrored)):
            raise FieldError(
                ("seats", "policy", "vs"), "{seats} seats single rounds; whole games seat A against B ({policy}, {vs})"
            )

    @property
    def players(self) -> int:
        return get_rules(self.rules).players

    @property
    def pairs_per_deal(self) -> int:
        """The paired replays of one deal's cards (card_value.pairs_per_deal), per seating."""
        return pairs_per_deal(self.players)

    def specs(self) -> tuple[str, ...]:
        """The run's distinct policies in order (runner/seating.py policy_names), as its lineup keeps them."""
        return policy_names(self.policy_a, self.policy_b, self.seats)

    def seatings(self) -> np.ndarray:
        """The seatings each deal is played with (runner/seating.py)."""
        return seatings(get_rules(self.rules), self.mirrored, self.specs(), self.seats)

    def engine_used(self) -> str:
        """The engine that plays: Python policies play only on the reference engine."""
        return engine_for(self.engine, self.lineup().policies)

    def card_deals_used(self) -> int:
        """Deals whose cards are paired: --card-deals, or by default a share of the run that never dominates it.

        With --until-ci the run may stop after its first chunk, so the share is of that chunk.
        """
        if self.games:
            return 0
        if self.card_deals is not None:
            return min(self.card_deals, self.deals)
        planned = min(self.deals, self.chunk_deals) if self.until_ci is not None else self.deals
        return min(AUTO_CARD_DEALS_CAP, planned // (AUTO_CARD_DIVISOR[self.engine_used()] * self.pairs_per_deal))

    def as_recorded(self) -> SimConfig:
        """This config with the automatic card-deal count fixed, as the manifest records it (resume plays it)."""
        return replace(self, card_deals=self.card_deals_used())

    @property
    def n_chunks(self) -> int:
        return math.ceil(self.deals / self.chunk_deals)

    def chunk_size(self, chunk: int) -> int:
        return min(self.chunk_deals, self.deals - chunk * self.chunk_deals)

    def paired_deals(self, chunk: int) -> int:
        """Deals of `chunk` whose cards are paired: those among the run's first card_deals_used()."""
        first = chunk * self.chunk_deals
        if first >= (AUTO_CARD_DEALS_CAP if self.card_deals is None else self.card_deals):
            return 0  # past any paired deal: no need to look the policies up (resume sums this over every chunk)
        return min(max(self.card_deals_used() - first, 0), self.chunk_size(chunk))

    def chunk_units(self, chunk: int) -> int:
        """What the progress bar counts for one chunk: its rounds (or games) and its paired replays."""
        return (self.chunk_size(chunk) + self.paired_deals(chunk) * self.pairs_per_deal) * self.rounds_per_deal

    @property
    def rounds_per_deal(self) -> int:
        """Rows of the main table (rounds, or games with --games) per deal: each of its seatings once (whole games:
        one per side when mirrored, A's seat or team on each side)."""
        return len(self.seatings())

    @property
    def unit(self) -> str:
        """The main table of a run and the unit its progress counts: rounds, or games with --games."""
        return "games" if self.games else "rounds"


def start_run(config: SimConfig, run: RunDir, command: list[str], force: bool = False) -> dict:
    """Create the run folder of a resolved config with its manifest (`force` replaces a run already there)."""
    return create_run(config, run, command, force)


def create_run(config: SimConfig, run: RunDir, command: list[str], force: bool = False) -> dict:
    """Create the run folder with its manifest, the config checked before (the front door's).

    The manifest records the card-deal count the run uses, so resume and `report` agree with it, and the names
    its policies show as, so that a report never loads a policy again (a file may have moved, a bot would start).
    """
    manifest = {
        "kind": "simulate",
        "format_version": FORMAT_VERSION,
        "command": command,
        "config": config.as_recorded().manifest_config(),
        "policy_names": config.lineup().labels(),
        "card_deals_auto": config.card_deals is None,
        "seed": config.seed,
        "versions": versions(),
        "git_revision": git_revision(),
        "status": "running",
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    run.create(manifest, force)
    return run.read_manifest()


def config_of(run: RunDir, loader: Callable | None = None) -> SimConfig:
    """The configuration a run folder was started with (its policies to be resolved by `loader`, when given)."""
    manifest = run.read_manifest()
    if manifest.get("kind") != "simulate":
        raise InputError(f"{run.path} is not a simulate run")
    try:
        config = SimConfig(**{**manifest["config"], "seeding": seeding_in(manifest["config"])})
    except (KeyError, TypeError) as e:
        raise InputError(f"{run.manifest_path} has a damaged config: {e}") from None
    return config.resolve(loader) if loader is not None else config


def play_chunk(config: SimConfig, chunk: int) -> dict[str, pd.DataFrame]:
    """One chunk's tables: "rounds" (records), "games" (--games), "cards" (paired deals), "moves" (--record).

    A pure function of the config and the chunk index: any backend may call it, in any order, in any process, and
    each deal's draws come from the run seed and the deal's index alone (runner/seeding.py).
    """
    rules, lineup, engine = get_rules(config.rules), config.lineup().policies, config.engine_used()
    pa, pb = lineup[:2]
    dealing = seeding_of(config.seed, config.seeding, config.chunk_deals, config.deals)
    first = chunk * config.chunk_deals
    if config.games:
        start = parse_start_score(config.start_score, rules) if config.start_score else None
        played = play_games(
            engine, dealing, first, config.chunk_size(chunk), config.mirrored, rules, pa, pb, config.checked, start
        )
        tables = dict(zip(("rounds", "games"), played))
    else:
        rows = dealing.rows(first, config.chunk_size(chunk), config.seatings())
        trace = new_trace(min(max(config.record - first * config.rounds_per_deal, 0), len(rows)))
        tables = {"rounds": play(engine, rows, rules, lineup, check=config.checked, trace=trace)}
        if len(trace):
            tables.update(recorded_tables(rows, trace))
        paired = config.paired_deals(chunk) * config.rounds_per_deal
        if paired:  # rows are in deal order, so the first deals are the first rows
            base = rows.take(np.arange(paired))
            rngs = dealing.pair_rngs(base.deal_id, base.mirror)
            tables["cards"] = card_pairs(base, tables["rounds"].iloc[:paired], engine, rules, lineup, rngs)
    for frame in tables.values():
        frame.insert(0, "chunk", np.int32(chunk))
    return tables


def in_index_order(results, order: list[int]):
    """Yield (chunk, tables) in the order of `order`, holding back chunks that finish early."""
    waiting, k = {}, 0
    for chunk, tables in results:
        waiting[chunk] = tables
        while k < len(order) and order[k] in waiting:
            yield order[k], waiting.pop(order[k])
            k += 1


def play_chunks(config: SimConfig, run: RunDir, progress: Progress | None = None, backend=None) -> dict:
    """Play every chunk not yet written on `backend` (default: this process), writing each as it finishes; an
    error or Ctrl-C marks the run "stopped" (runner/run_state.py) before it goes on up. Returns the timings."""
    with playing(run):
        return _play_chunks(config, run, progress, backend)


def _play_chunks(config: SimConfig, run: RunDir, progress: Progress | None, backend) -> dict:
    """play_chunks: the run's timings, the play's alone (the kernels are made ready before the clock starts).

    With --until-ci, chunks are taken in index order and the run stops at the first chunk boundary where the
    headline interval is narrower than asked, whichever order the backend finishes them in (so every
    backend keeps the same chunks); it never plays more than `deals`. Progress
    counts the paired replays of the card values with the run's rounds.
    """
    engine = config.engine_used()
    backend = backend or LocalBackend()
    done = run.finished_chunks()
    rules = get_rules(config.rules)
    head = Headline(rules)
    if done and config.until_ci is not None:
        head.add(run.read_rounds(["deal_id", "mirror", *side_columns(rules)]))
    rounds_total = (config.deals + config.card_deals_used() * config.pairs_per_deal) * config.rounds_per_deal
    rounds_done = sum(config.chunk_units(c) for c in done)
    if progress:
        progress(rounds_done, rounds_total)

    def narrow_enough() -> bool:
        return config.until_ci is not None and head.interval()[1] < config.until_ci

    todo = [] if narrow_enough() else [c for c in range(config.n_chunks) if c not in done]
    if todo:
        preload_reports()
    ready_s = warm_kernels(play_chunk, config, backend) if todo else 0.0
    played, card_rounds, games, t0 = 0, 0, 0, time.perf_counter()
    results = backend.map(play_chunk, config, todo)
    try:
        for chunk, tables in results if config.until_ci is None else in_index_order(results, todo):
            run.write_chunk(chunk, tables)
            frame = tables["rounds"]
            played += len(frame)
            card_rounds += len(tables.get("cards", ()))
            games += len(tables.get("games", ()))
            rounds_done += config.chunk_units(chunk)  # with --games, progress counts games
            if progress:
                progress(rounds_done, rounds_total)
            if config.until_ci is not None:
                head.add(frame)
                if narrow_enough():
                    break
    finally:  # stops a backend's chunks still in flight
        results.close()
    wall = time.perf_counter() - t0
    timings = {
        "rounds_played": played,
        **({"games_played": games} if config.games else {}),
        "card_rounds_played": card_rounds,
        "play_seconds": wall,
        "rounds_per_s": (played + card_rounds) / wall if wall > 0 else None,
        "kernels_ready_seconds": ready_s,
        "engine": engine,
        "backend": backend.describe(),
    }
    if config.until_ci is not None:
        timings["until_ci_stop"] = {"reached": narrow_enough(), "width": head.interval()[1], "deals": head.n}
    return timings


def play_run(config: SimConfig, run: RunDir, command: list[str] | None = None, backend=None) -> dict:
    """A run played without its reports (scripts, tests, a caller that reports later): started into `run` when
    `command` is given, else resumed from the chunks it has; every missing chunk played on `backend`; marked
    complete. Returns its manifest."""
    if command is not None:
        start_run(config, run, command)
    return finish_run(run, play_chunks(config, run, backend=backend))


def preload_reports() -> None:
    """Import the report modules (matplotlib among them: a second or so) on a thread while the chunks play, so
    that write_reports starts at once; the import lock makes a later import wait for this one, never repeat it."""
    threading.Thread(target=importlib.import_module, args=("casino_sim.reports.index",), name="preload").start()


def finish_run(run: RunDir, timings: dict, reports: bool = False) -> dict:
    """Mark the run played in its manifest: "complete", or "played" with its `reports` still to write."""
    fields = {"status": PLAYED, "reports": "missing"} if reports else {"status": COMPLETE}
    return finished(run, timings, **fields)


def write_reports(run: RunDir, charts: bool = True) -> dict[str, pd.DataFrame]:
    """Every report of the run into RUN_DIR/report (`charts` off: without its charts, and the manifest says so);
    returns their tables by kind ("summary", "games", ...)."""
    from casino_sim.reports.index import write_all  # deferred: matplotlib loads only when reports are written

    tables = write_all(run.path, charts=charts)
    drawn = {} if charts and "charts" not in run.read_manifest() else {"charts": "drawn" if charts else "not drawn"}
    update_manifest(run, status=COMPLETE, reports="written", **drawn)
    return tables


def default_out(config: SimConfig, root: Path = Path("results/runs")) -> Path:
    """results/runs/<timestamp>-<A>-vs-<B>/, the timestamp to the second (a suffix avoids clashes)."""
    stems = matchup_folder(config.policy_a, config.policy_b, config.seats, config.rules, config.lineup().label)
    return unused_folder(root, f"{time.strftime('%Y%m%d-%H%M%S')}-{stems}")
