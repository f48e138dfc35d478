"""simulate's steps once its options are read: resume as the run was started, play, mark the manifest, write the
reports; each step cut short by Ctrl-C says in one line how to finish (runner/run_state.py keeps the manifest
honest)."""

from __future__ import annotations

from pathlib import Path

import typer

from casino_sim.cli.options import console

READY_SHOWN_S = 1.0  # the kernels' compile or cache load is named on the played line from this long on


def given_options(params: dict) -> dict:
    """Of a command's parameters, those the user set (on the command line or from the environment)."""
    try:  # typer >= 0.2x carries its own copy of click
        from typer._click.globals import get_current_context
    except ImportError:
        from click import get_current_context
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
    from dataclasses import asdict

    from casino_sim.experiments.resume import refuse_changed

    refuse_changed(given_options(params), asdict(config))


def resumed(path: Path, params: dict, command: list[str]):
    """The run folder and config `--resume PATH` plays (experiments/resume.py); a run already complete and not
    extended says so and ends the command."""
    from casino_sim.experiments.resume import resume_config
    from casino_sim.runner.run_state import COMPLETE
    from casino_sim.runner.rundir import RunDir

    run = RunDir(path)
    config = resume_config(run, given_options(params), command)
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
    return run, config


def play(config, run, backend, progress_bar) -> dict | None:
    """Play the chunks left and mark the run played (reports to write); None when every chunk was played
    before (a run cut short while its reports were written)."""
    from casino_sim.experiments import simulate as sim
    from casino_sim.runner.run_state import PLAYED

    if run.read_manifest().get("status") == PLAYED:
        console.print("every chunk is played; writing the reports", highlight=False)
        return None
    try:
        with progress_bar(console, "simulating", config.unit) as update:
            timings = sim.play_chunks(config, run, update, backend)
    except KeyboardInterrupt:
        console.print(
            f"interrupted: finished chunks are kept; finish with  casino-sim simulate --resume {run.path}",
            highlight=False,
        )
        raise typer.Exit(130) from None
    return sim.finish_run(run, timings, reports=True)


def played_line(manifest: dict) -> str:
    """'N rounds played in T s (R rounds/s); writing reports', the kernels' time apart (not in the rate)."""
    replays = f" and {manifest['card_rounds_played']:,} card-value replays" if manifest["card_rounds_played"] else ""
    ready = manifest.get("kernels_ready_seconds") or 0.0
    before = f"; the engine compiled or loaded first in {ready:.1f} s" if ready >= READY_SHOWN_S else ""
    return (
        f"{manifest['rounds_played']:,} rounds{replays} played in {manifest['play_seconds']:.1f} s "
        f"({(manifest['rounds_per_s'] or 0):,.0f} rounds/s){before}; writing reports"
    )


def write_reports(run) -> dict:
    """The run's reports (the manifest then says "complete"); Ctrl-C meanwhile says how to write them."""
    from casino_sim.experiments import simulate as sim

    try:
        return sim.write_reports(run)
    except KeyboardInterrupt:
        console.print(
            f"interrupted: every chunk is played, the reports are not all written; write them with  "
            f"casino-sim report all {run.path}  (or casino-sim simulate --resume {run.path})",
            highlight=False,
            soft_wrap=True,
        )
        raise typer.Exit(130) from None


def reported(run_dir: Path, target: Path, whole: bool) -> None:
    """After `report`: say when the run is only partly played; a played run whose reports were all written into
    its own report folder is complete from now on."""
    from casino_sim.runner.run_state import COMPLETE, PLAYED, partial_note, update_manifest
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
