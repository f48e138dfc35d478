"""What every command's front door shares: a request checked once into a door, then executed in one order.

simulate (experiments/simulate_door.py), tournament (experiments/tournament.py), tune (experiments/tune.py),
knockout and regret (experiments/skill_runs.py) each have a door: its policies resolved once into objects when it
is made, then execute() opens the backend asked for, makes (or finds) the folder, compiles, plays and reports. The
command (cli/) and the API (api/) are adapters onto it: what each shows on the way (the folder, a progress bar,
Ctrl-C's one line) comes in through Hooks.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext

from casino_sim.runner.backends import open_backend


class Hooks:
    """What a door tells its caller on the way; these say nothing (the API without a progress bar)."""

    def started(self, run) -> None:
        """The folder is made (or found, resuming); `run.path` is where."""

    def progress(self, label: str, unit: str) -> AbstractContextManager:
        """A context yielding update(done, total) while `label` plays (counted in `unit`), or None."""
        return nullcontext(None)

    def stage(self, text: str) -> None:
        """A step of the play begins, in words (tune's search, pick and validation)."""

    def played(self, played) -> None:
        """The play is over (simulate: its manifest, or None when every chunk was played before this command)."""

    def reported(self, result) -> None:
        """The report is written: `result` is what execute() returns."""

    def interrupted(self, step: str, run) -> None:
        """Ctrl-C in `step` ("play" or "reports"); KeyboardInterrupt goes on up after it unless this raises."""


QUIET = Hooks()


class Progress(Hooks):
    """Hooks that pass the play's progress to `update(done, total)` (a bar its caller has opened), or to nothing."""

    def __init__(self, update=None):
        self.update = update

    def progress(self, label: str, unit: str) -> AbstractContextManager:
        return nullcontext(self.update)


class Door:
    """A command's run, its request checked: execute() makes (or resumes), compiles for, plays and reports it.

    A door gives `config` (its request checked; `config.threads`: what the play runs on), `folder` (what hooks are
    shown: its `.path`) and the steps start, compile, play and report. `KEEPS_CUT`: Ctrl-C while playing still
    reports what was finished (knockout, regret), then tells the hooks; otherwise the hooks are told at once (the
    finished chunks are kept for --resume)."""

    KEEPS_CUT = False

    @property
    def threads(self) -> int:
        return self.config.threads

    @property
    def folder(self):
        raise NotImplementedError

    def start(self) -> None:
        """Make the folder (a resumed run has it)."""

    def compile(self, scheduler: str | None) -> None:
        """Compile ahead what the play runs on the numba engine."""

    def play(self, backend, hooks: Hooks):
        raise NotImplementedError

    def report(self, played, hooks: Hooks):
        """The report of the play, written; what execute() returns."""
        return played

    def execute(self, backend: str | None = None, scheduler: str | None = None, hooks: Hooks = QUIET):
        """The whole run on the backend asked for (opened before the folder is made: a bad address makes no run)."""
        with open_backend(backend, scheduler, self.threads) as chunk_backend:
            return self.execute_on(chunk_backend, scheduler, hooks)

    def execute_on(self, chunk_backend, scheduler: str | None = None, hooks: Hooks = QUIET):
        """The whole run on a backend already open (`experiment` plays every run of a plan on one)."""
        cut = False
        self.start()
        hooks.started(self.folder)
        self.compile(scheduler)
        try:
            played = self.play(chunk_backend, hooks)
        except KeyboardInterrupt:
            if not self.KEEPS_CUT:
                hooks.interrupted("play", self.folder)
                raise
            played, cut = None, True
        hooks.played(played)
        result = self.report(played, hooks)
        hooks.reported(result)
        if cut:
            hooks.interrupted("play", self.folder)
            raise KeyboardInterrupt
        return result
