"""The front doors' steps as the terminal shows them (experiments/door.py Hooks): resume as the run was started,
the folder, the progress bars, simulate's played line; each step cut short by Ctrl-C says in one line how to
finish (runner/run_state.py keeps a run's manifest honest)."""

from __future__ import annotations

from pathlib import Path

import typer

from casino_sim.cli.options import console, policy_loader
from casino_sim.experiments.door import Hooks
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


def resumed(path: Path, options: dict, command: list[str]):
    """The Simulation `--resume PATH` plays, simulate's `options` (by name) checked against the run
    (experiments/resume.py); a run already complete and not extended says so and ends the command."""
    # deferred, so that `casino-sim --help` never loads them: pandas and the engine
    from casino_sim.experiments.simulation import Simulation

    simulation = Simulation.resume(path, given_options(options), command, policy_loader())
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


class Said(Hooks):
    """A door's hooks on the terminal: its folder, under the name `folder` gives it (None: not shown), a progress
    bar per label, each stage's line, `reported(result)` once the report is written (None: nothing), and Ctrl-C's
    one line `cut` ({path}: the folder), then exit 130."""

    def __init__(self, cut: str, folder: str | None = "run folder", reported=None):
        self.cut, self.folder, self.show = cut, folder, reported

    def started(self, run) -> None:
        if self.folder:
            console.print(f"{self.folder}: {run.path}", highlight=False)

    def progress(self, label: str, unit: str):
        from casino_sim.runner.progress import progress_bar  # rich's progress bar: start-up time --help never needs

        return progress_bar(console, label, unit)

    def stage(self, text: str) -> None:
        console.print(text, highlight=False)

    def reported(self, result) -> None:
        if self.show is not None:
            self.show(result)

    def cut_line(self, step: str) -> str:
        """The line Ctrl-C in `step` prints."""
        return self.cut

    def interrupted(self, step: str, run) -> None:
        console.print(self.cut_line(step).format(path=run.path), highlight=False, soft_wrap=step != "play")
        raise typer.Exit(130) from None


class Shown(Said):
    """simulate's hooks on the terminal: the run folder, its progress bar, the played line and its notes, and
    Ctrl-C's one line on how to finish (the play, or the reports)."""

    def __init__(self):
        super().__init__("interrupted: finished chunks are kept; finish with  casino-sim simulate --resume {path}")

    def played(self, manifest: dict | None) -> None:
        # deferred, so that `casino-sim --help` never loads them: pandas
        from casino_sim.experiments import run_notes

        if manifest is None:
            console.print("every chunk is played; writing the reports", highlight=False)
            return
        console.print(played_line(manifest), highlight=False)
        for note in run_notes.notes(manifest):
            console.print(note, highlight=False, markup=False, soft_wrap=True)

    def cut_line(self, step: str) -> str:
        if step == "play":
            return self.cut
        return (
            "interrupted: every chunk is played, the reports are not all written; write them with  "
            "casino-sim report all {path}  (or casino-sim simulate --resume {path})"
        )


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
    elif whole and Path(target).resolve() == (run.path / "report").resolve():
        written = {"status": COMPLETE, "reports": "written"} if manifest.get("status") == PLAYED else {}
        drawn = {"charts": "drawn"} if manifest.get("charts") == "not drawn" else {}
        if written or drawn:
            update_manifest(run, **written, **drawn)
