"""simulate's steps as the terminal shows them, around the front door (experiments/simulation.py): resume as the
run was started, the run folder, the progress bar, the played line; each step cut short by Ctrl-C says in one
line how to finish (runner/run_state.py keeps the manifest honest)."""

from __future__ import annotations

from pathlib import Path

import typer

from casino_sim.cli.options import console
from casino_sim.runner.run_state import COMPLETE, PLAYED, partial_note, update_manifest

try:  # typer >= 0.2x carries its own copy of click
    from typer._click.globals import get_current_context
except ImportError:
    from click import get_current_context

READY_SHOWN_S = 1.0  # the kernels' compile or cache load is named on the played line from this long on


def given_options(params: dict) -> dict:
    """Of a command's parameters, those the user set (on the command line or from the environment)."""
    ctx = get_current_context()
    given = {}
    for name, value in params.items():
        source = ctx.get_parameter_source(name)
        if source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT", "PROMPT"):
            given[name] = value
    return given


def resume_as_started(params: dict, config) -> None:
    """`tournament --resume`, `tune --resume`: refuse the options given that contradict the run's `config` (a
    dataclass of option names), in one line (experiments/resume.py)."""
    # pandas: loaded by the commands that run, not --help
    from casino_sim.experiments.resume import refuse_changed
    from casino_sim.experiments.seating import manifest_options

    refuse_changed(given_options(params), manifest_options(config))


def resumed(path: Path, options: dict, command: list[str]):
    """The Simulation `--resume PATH` plays, simulate's `options` (by name) checked against the run
    (experiments/resume.py); a run already complete and not extended says so and ends the command."""
    # deferred, so that `casino-sim --help` never loads them: pandas and the engine
    from casino_sim.experiments.simulation import Simulation

    simulation = Simulation.resume(path, given_options(options), command)
    run, config = simulation.run, simulation.config
    manifest = run.read_manifest()
    if manifest.get("status") == COMPLETE:
        unit = "games" if config.games else "deals"
        played = (manifest.get("until_ci_stop") or {}).get("deals", config.deals)
        console.print(
            f"{run.path} is already complete: {played:,} {unit}; nothing to play "
            f"(casino-sim report all {run.path} rewrites its reports; a larger --deals extends it)",
            highlight=False,
            soft_wrap=True,
        )
        raise typer.Exit(0)
    return simulation


class Shown:
    """The front door's hooks (experiments/simulation.py Hooks) on the terminal: the run folder, a progress bar,
    the played line and its notes, and Ctrl-C's one line on how to finish."""

    def started(self, run) -> None:
        console.print(f"run folder: {run.path}", highlight=False)

    def progress(self, unit: str):
        from casino_sim.runner.progress import progress_bar  # rich's progress bar: start-up time --help never needs

        return progress_bar(console, "simulating", unit)

    def played(self, manifest: dict | None) -> None:
        # deferred, so that `casino-sim --help` never loads them: pandas
        from casino_sim.experiments import run_notes

        if manifest is None:
            console.print("every chunk is played; writing the reports", highlight=False)
            return
        console.print(played_line(manifest), highlight=False)
        for note in run_notes.notes(manifest):
            console.print(note, highlight=False, markup=False, soft_wrap=True)

    def interrupted(self, step: str, run) -> None:
        if step == "play":
            console.print(
                f"interrupted: finished chunks are kept; finish with  casino-sim simulate --resume {run.path}",
                highlight=False,
            )
        else:
            console.print(
                f"interrupted: every chunk is played, the reports are not all written; write them with  "
                f"casino-sim report all {run.path}  (or casino-sim simulate --resume {run.path})",
                highlight=False,
                soft_wrap=True,
            )
        raise typer.Exit(130) from None


def played_line(manifest: dict) -> str:
    """'N rounds played in T s (R rounds/s); writing reports', the kernels' time apart (not in the rate)."""
    replays = f" and {manifest['card_rounds_played']:,} card-value replays" if manifest["card_rounds_played"] else ""
    ready = manifest.get("kernels_ready_seconds") or 0.0
    before = f"; the engine compiled or loaded first in {ready:.1f} s" if ready >= READY_SHOWN_S else ""
    return (
        f"{manifest['rounds_played']:,} rounds{replays} played in {manifest['play_seconds']:.1f} s "
        f"({(manifest['rounds_per_s'] or 0):,.0f} rounds/s){before}; writing reports"
    )


def reported(run_dir: Path, target: Path, whole: bool) -> None:
    """After `report`: say when the run is only partly played; a played run whose reports were all written into
    its own report folder is complete from now on."""
    # deferred, so that `casino-sim --help` never loads them: pandas
    from casino_sim.runner.rundir import RunDir

    run = RunDir(run_dir)
    manifest = run.read_manifest()
    note = partial_note(manifest, run.finished_chunks())
    if note:
        console.print(
            f"{note}: the run is not finished (casino-sim simulate --resume {run_dir} plays the rest)",
            highlight=False,
            soft_wrap=True,
        )
    elif whole and manifest.get("status") == PLAYED and Path(target).resolve() == (run.path / "report").resolve():
        update_manifest(run, status=COMPLETE, reports="written")
