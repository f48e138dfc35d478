"""Where a simulate run stands, as its manifest says, and how much of it is played.

`status` is "running" while chunks play, "stopped" when the play ended on an error or Ctrl-C (`stopped` says
which; the finished chunks are kept and `--resume` goes on), "played" once every chunk is played but the reports
are not written yet (`reports: "missing"`), and "complete" once they are (docs/reports.md).
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from pathlib import Path

from casino_sim.runner.rundir import RunDir

RUNNING, STOPPED, PLAYED, COMPLETE = "running", "stopped", "played", "complete"


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def is_played(manifest: dict) -> bool:
    """Whether every chunk of the run is played (its reports may still be missing)."""
    return manifest.get("status") in (PLAYED, COMPLETE)


def update_manifest(run, **fields) -> dict:
    """Write `fields` into the run's manifest (a RunDir's); the manifest written."""
    manifest = dict(run.read_manifest(), **fields)
    run.write_manifest(manifest)
    return manifest


@contextmanager
def playing(run):
    """Mark the run "stopped" when its play ends on an error or an interrupt (then re-raised), so that its
    manifest never claims a play that is not going on; `--resume` finishes it."""
    update_manifest(run, status=RUNNING)
    try:
        yield
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt | SystemExit):
            why = "interrupted"
        else:
            text = str(e).strip().splitlines()
            why = f"{e.__class__.__name__}: {text[0] if text else ''}".rstrip(": ")
        try:
            update_manifest(run, status=STOPPED, stopped=why, stopped_at=now())
        except Exception:  # the folder may be what failed: the first error is the one to report
            pass
        raise


# The counts of a play's timings, each the rows of a table of the run folder
PLAYED_COUNTS = {"rounds_played": "rounds", "card_rounds_played": "cards", "games_played": "games"}


def finished(run, timings: dict, **fields) -> dict:
    """Mark the run played (`fields`: its status) with the timings of its last play, written so that every field
    describes the run as it now is: no `stopped` left from an earlier session, the counts of the whole run (a
    resumed run's last session, which `play_seconds` and `rounds_per_s` time, in `last_session`)."""
    manifest = {k: v for k, v in run.read_manifest().items() if k not in ("stopped", "stopped_at", "last_session")}
    counts = {k: run.count_rows(table) for k, table in PLAYED_COUNTS.items() if k in timings}
    if any(counts[k] != timings[k] for k in counts):
        fields["last_session"] = {k: timings[k] for k in counts}
    manifest.update(fields, finished=now(), **dict(timings, **counts), chunks=sorted(run.finished_chunks()))
    run.write_manifest(manifest)
    return manifest


def chunk_deals_of(config: dict, chunk: int) -> int:
    """The deals (or games) of one chunk of a run of `config` (a manifest's config)."""
    size = int(config["chunk_deals"])
    return max(0, min(size, int(config["deals"]) - chunk * size))


def partial_note(manifest: dict, chunks: set[int]) -> str | None:
    """ "partial: N of M deals" for a simulate run not yet fully played (its `chunks` finished), else None."""
    config = manifest.get("config") or {}
    if manifest.get("kind") != "simulate" or is_played(manifest) or "deals" not in config:
        return None
    try:
        done = sum(chunk_deals_of(config, c) for c in chunks)
    except (KeyError, TypeError, ValueError):
        return None
    unit = "games" if config.get("games") else "deals"
    return f"partial: {done:,} of {int(config['deals']):,} {unit}"


def as_reported(manifest: dict, run_dir: str | Path) -> dict:
    """The manifest as a report shows it: a played run as complete (writing its report completes it), a run not
    fully played with its "partial" note (partial_note), which report.md, the page and the charts' captions show."""
    if manifest.get("status") == PLAYED:
        return dict(manifest, status=COMPLETE, reports="written")
    note = partial_note(manifest, RunDir(run_dir).finished_chunks())
    return dict(manifest, partial=note) if note else manifest
